# SPDX-License-Identifier: MIT OR GPL-2.0-only
# shellcheck shell=bash disable=SC2034,SC2054  # the caller reads the variables; commas inside -Wl,... are intended
#
# tests/adapters/baremetal-common/build_common.sh - sourced by the ARM and
# RISC-V build_image.sh: what both do to build an image.
#
#   need CMD PACKAGE       dies (through the caller's die) unless CMD is found
#   image_flags BOARD OUT  sets IMAGE_CFLAGS (C11, warnings as errors,
#                          freestanding, no libc) and IMAGE_LDFLAGS (BOARD's
#                          board.ld, unused sections dropped, OUT's .map)
#   image_cc KIND GCC PACKAGE  picks the compiler driver: KIND gcc the cross
#                          gcc GCC (PACKAGE installs it), KIND clang clang
#                          with ld.lld; sets the caller's cc, adds the
#                          driver's link flags to its ldflags, and sets its
#                          libs to libgcc for gcc, to none for clang
#   image_build OUT CC ARGS...  compiles and links in one driver call
#                          (CC ARGS -o OUT); with VERBOSE=1 prints the
#                          command; dies on failure
#   $baremetal_common      this folder: board_common.c, the boards' shared
#                          output and memory functions, goes in ARGS
#
# The caller defines die() and me (its name in messages).

baremetal_common=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

need() {
	command -v "$1" >/dev/null 2>&1 ||
		die "compiler '$1' not found (install: $2)"
}

image_flags() {
	local board=$1 out=$2

	IMAGE_CFLAGS=(-std=c11 -Wall -Wextra -Werror -O2 -g -ffreestanding
		-nostdlib -static -fno-pie -fno-stack-protector
		-fno-common -fno-unwind-tables -fno-asynchronous-unwind-tables
		-ffunction-sections -fdata-sections -I"$baremetal_common")
	IMAGE_LDFLAGS=(-T "$board/board.ld" -Wl,--gc-sections
		-Wl,--build-id=none -Wl,-Map="${out%.elf}.map")
}

image_cc() {
	local kind=$1 gcc=$2 pkg=$3

	libs=()
	if [ "$kind" = gcc ]; then
		cc=$gcc
		need "$cc" "apt-get install $pkg"
		ldflags+=(-nostartfiles -no-pie -Wl,--no-warn-rwx-segments)
		libs=(-lgcc)
	else
		cc=clang
		need clang "apt-get install clang lld"
		need ld.lld "apt-get install lld"
		ldflags+=(-fuse-ld=lld)
	fi
}

image_build() {
	local out=$1 cc=$2
	shift 2
	local cmd=("$cc" "$@" -o "$out")

	mkdir -p "$(dirname "$out")"
	if [ "${VERBOSE:-0}" != 0 ]; then printf '%q ' "${cmd[@]}"; echo; fi
	"${cmd[@]}" || die "build of $out failed"
}

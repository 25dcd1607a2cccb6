#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/adapters/baremetal-arm/build_image.sh - build a bare-metal QEMU "virt" image: the board
# support package in tests/adapters/baremetal-arm/board plus the given application sources.
#
#   build_image.sh --arch armv7|aarch64 [--lse] [--mmu] [--cc gcc|clang]
#                  --out DIR/NAME.elf [-DFOO=1 -UBAR -Idir -f... -m... -W... -O... -g...]
#                  app.c [more.c|.S ...]
#
# --lse   AArch64 only: -march=armv8.2-a (LSE atomics; UNDEF on cortex-a53,
#         run on cortex-a76 or max)
# --mmu   identity map with the MMU and caches on (-DBOARD_MMU=1)
# --cc    gcc (default: arm-none-eabi-gcc / aarch64-linux-gnu-gcc) or clang
#         (--target=armv7a-none-eabi / aarch64-none-elf, -fuse-ld=lld)
# Arguments starting with -D -U -I -f -m -W -O -g go to the compiler after
# the defaults (so they may override them).  Include paths: tests/adapters/baremetal-arm/board,
# include/, adapters/baremetal-arm/include/ and the compiler's own headers only
# (-nostdinc: no C library is reachable; see freestanding.sh).  Writes
# NAME.elf and NAME.map; nothing else is written (compile and link are one
# driver call).  Environment: CC_ARMV7 / CC_AARCH64 override the gcc
# driver names.
# shellcheck disable=SC2054  # commas inside -Wl,... and -semihosting-config are intended
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/adapters/baremetal-common/build_common.sh
. "$here/../baremetal-common/build_common.sh"
# shellcheck source=tests/adapters/baremetal-arm/freestanding.sh
. "$here/freestanding.sh"
root=$(cd "$here/../../.." && pwd)
board="$here/board"
me="build_image.sh"

die() { echo "$me: $*" >&2; exit 2; }
usage() { sed -n '4,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

arch="" lse=0 mmu=0 cc_kind=gcc out=""
extra=() srcs=()
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arch=${2:-}; shift 2 ;;
	--arch=*) arch=${1#*=}; shift ;;
	--lse) lse=1; shift ;;
	--mmu) mmu=1; shift ;;
	--cc) cc_kind=${2:-}; shift 2 ;;
	--cc=*) cc_kind=${1#*=}; shift ;;
	--out|-o) out=${2:-}; shift 2 ;;
	--out=*) out=${1#*=}; shift ;;
	-h|--help) usage ;;
	-D*|-U*|-I*|-f*|-m*|-W*|-O*|-g*) extra+=("$1"); shift ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) srcs+=("$1"); shift ;;
	esac
done

case "$arch" in armv7|aarch64) ;; "") die "--arch armv7|aarch64 is required" ;;
	*) die "unknown --arch '$arch' (armv7 or aarch64)" ;; esac
case "$cc_kind" in gcc|clang) ;; *) die "unknown --cc '$cc_kind' (gcc or clang)" ;; esac
[ -n "$out" ] || die "--out DIR/NAME.elf is required"
[ ${#srcs[@]} -gt 0 ] || die "no application sources given (one must define app_main)"
[ "$lse" = 0 ] || [ "$arch" = aarch64 ] || die "--lse is for --arch aarch64 only"
for s in "${srcs[@]}"; do [ -f "$s" ] || die "source '$s' not found"; done

image_flags "$board" "$out"
incs=(-I"$board" -I"$root/include" -I"$root/adapters/baremetal-arm/include")
ldflags=("${IMAGE_LDFLAGS[@]}")

# Per architecture: flags, start-up code, the gcc cross driver and its
# package, and clang's target.
if [ "$arch" = armv7 ]; then
	archflags=(-march=armv7-a -marm -mfloat-abi=soft -mno-unaligned-access)
	bsp_asm="$board/start_armv7.S"
	gcc_cc=${CC_ARMV7:-arm-none-eabi-gcc} gcc_pkg=gcc-arm-none-eabi
	clang_target=armv7a-none-eabi
else
	march=armv8-a
	[ "$lse" = 1 ] && march=armv8.2-a
	archflags=("-march=$march" -mstrict-align -mno-outline-atomics)
	bsp_asm="$board/start_aarch64.S"
	gcc_cc=${CC_AARCH64:-aarch64-linux-gnu-gcc} gcc_pkg=gcc-aarch64-linux-gnu
	clang_target=aarch64-none-elf
fi

image_cc "$cc_kind" "$gcc_cc" "$gcc_pkg"
if [ "$cc_kind" = clang ]; then
	# compiler-rt builtins are not packaged for bare metal: borrow libgcc
	# (64-bit division on ARMv7) from the gcc cross compiler when it is there.
	if command -v "$gcc_cc" >/dev/null 2>&1; then
		libs=("$("$gcc_cc" "${archflags[@]}" -print-libgcc-file-name)")
	fi
	archflags=(--target="$clang_target" "${archflags[@]}")
fi

defs=()
[ "$mmu" = 1 ] && defs+=(-DBOARD_MMU=1)
freestanding_incs "$cc" || die "cannot find the headers of $cc"
incs=("${FREESTANDING_INCS[@]}" "${incs[@]}")

image_build "$out" "$cc" "${archflags[@]}" "${IMAGE_CFLAGS[@]}" "${defs[@]}" "${incs[@]}" "${extra[@]}" \
	"$bsp_asm" "$board/board.c" "$baremetal_common/board_common.c" "${srcs[@]}" "${ldflags[@]}" "${libs[@]}"
echo "$me: built $out ($arch$([ "$lse" = 1 ] && echo ' lse')$([ "$mmu" = 1 ] && echo ' mmu') $cc_kind)"

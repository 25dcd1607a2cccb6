#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/adapters/baremetal-riscv/build_image.sh - build a bare-metal QEMU
# "virt" RISC-V image: the board support in board/ plus the given sources.
#
#   build_image.sh [--cc gcc|clang] --out DIR/NAME.elf
#                  [-DFOO=1 -UBAR -Idir -f... -m... -W... -O... -g...] app.c ...
#
# --cc    gcc (default: riscv64-unknown-elf-gcc) or clang
#         (--target=riscv64-unknown-elf, -fuse-ld=lld)
# RV64GC, the LP64 ABI (no FP registers in calls: the trap vector saves
# the integer ones only), -mcmodel=medany (RAM at 0x80000000).  Arguments
# starting with -D -U -I -f -m -W -O -g go to the compiler after the
# defaults.  Include paths: board/, include/,
# adapters/baremetal-riscv/include/ and the compiler's own headers only
# (-nostdinc, as the ARM images: tests/adapters/baremetal-arm/freestanding.sh).
# Writes NAME.elf and NAME.map.  Environment: CC_RISCV overrides the gcc
# driver's name.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=tests/adapters/baremetal-common/build_common.sh
. "$here/../baremetal-common/build_common.sh"
# shellcheck source=tests/adapters/baremetal-arm/freestanding.sh
. "$root/tests/adapters/baremetal-arm/freestanding.sh"
board="$here/board"
me="build_image.sh (riscv)"

die() { echo "$me: $*" >&2; exit 2; }

cc_kind=gcc out=""
extra=() srcs=()
while [ $# -gt 0 ]; do
	case "$1" in
	--cc) cc_kind=${2:-}; shift 2 ;;
	--out|-o) out=${2:-}; shift 2 ;;
	-h|--help) sed -n '4,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	-D*|-U*|-I*|-f*|-m*|-W*|-O*|-g*) extra+=("$1"); shift ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) srcs+=("$1"); shift ;;
	esac
done
case "$cc_kind" in gcc|clang) ;; *) die "unknown --cc '$cc_kind' (gcc or clang)" ;; esac
[ -n "$out" ] || die "--out DIR/NAME.elf is required"
[ ${#srcs[@]} -gt 0 ] || die "no application sources given (one must define app_main)"
for s in "${srcs[@]}"; do [ -f "$s" ] || die "source '$s' not found"; done

gcc_cc=${CC_RISCV:-riscv64-unknown-elf-gcc}
archflags=(-march=rv64gc -mabi=lp64 -mcmodel=medany)
image_flags "$board" "$out"
incs=(-I"$board" -I"$root/include" -I"$root/adapters/baremetal-riscv/include")
ldflags=("${IMAGE_LDFLAGS[@]}")

image_cc "$cc_kind" "$gcc_cc" gcc-riscv64-unknown-elf
if [ "$cc_kind" = clang ]; then
	need "$gcc_cc" "apt-get install gcc-riscv64-unknown-elf (its libgcc)"
	# lld does not do RISC-V linker relaxation: -mno-relax.
	# compiler-rt builtins are not packaged for bare metal: libgcc from
	# the gcc cross compiler.
	libs=("$("$gcc_cc" "${archflags[@]}" -print-libgcc-file-name)")
	archflags=(--target=riscv64-unknown-elf "${archflags[@]}" -mno-relax)
fi

freestanding_incs "$cc" || die "cannot find the headers of $cc"
incs=("${FREESTANDING_INCS[@]}" "${incs[@]}")

image_build "$out" "$cc" "${archflags[@]}" "${IMAGE_CFLAGS[@]}" "${incs[@]}" "${extra[@]}" \
	"$board/start.S" "$board/board.c" "$baremetal_common/board_common.c" "${srcs[@]}" "${ldflags[@]}" "${libs[@]}"
echo "$me: built $out ($cc_kind)"

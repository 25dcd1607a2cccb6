#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/adapters/baremetal-riscv/image_test.sh - one ctest case: build a
# QEMU virt RISC-V image, run it.
#
#   image_test.sh --out DIR/NAME.elf [--cc gcc|clang] [--smp N]
#                 [--accel single|multi] --expect REGEX [--timeout SECS]
#                 [--expect-status N] -- BUILD_ARGS...
#
# BUILD_ARGS (defines and sources) go to build_image.sh; the run goes
# through run_qemu.sh; the console is kept as NAME.log.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out="" cc=gcc smp=4 accel=single expect="" timeout=120 status=0
while (($#)); do
	case $1 in
	--out) out=$2; shift 2 ;;
	--cc) cc=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--expect) expect=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--expect-status) status=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "image_test.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[[ -n $out && -n $expect ]] || {
	echo "image_test.sh: --out and --expect are required" >&2
	exit 2
}
bash "$here/build_image.sh" --cc "$cc" --out "$out" "$@"
bash "$here/run_qemu.sh" --smp "$smp" --accel "$accel" --timeout "$timeout" \
	--expect "$expect" --expect-status "$status" --log "${out%.elf}.log" "$out"

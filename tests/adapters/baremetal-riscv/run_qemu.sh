#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/adapters/baremetal-riscv/run_qemu.sh - run a bare-metal image on
# qemu-system-riscv64 -M virt -bios none (M-mode, no firmware) and judge it.
#
#   run_qemu.sh [--smp N] [--accel single|multi] [--timeout SECS]
#               [--expect REGEX] [--expect-status N] [--log FILE] IMAGE.elf
#
# Passes when QEMU exits with status N (default 0; the board's exit device
# makes it the image's verdict) and a console line matches REGEX.  Prints
# the QEMU seconds of the run ("qemu_s=").  Environment: QEMU_RISCV64.
set -euo pipefail

me="run_qemu.sh (riscv)"
# shellcheck source=tests/adapters/baremetal-common/qemu_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../baremetal-common/qemu_common.sh"
die() { echo "$me: $*" >&2; exit 2; }

smp=4 accel=single tmo=120 expect="" want_status=0 log="" image=""
while [ $# -gt 0 ]; do
	case "$1" in
	--smp) smp=${2:-}; shift 2 ;;
	--accel) accel=${2:-}; shift 2 ;;
	--timeout) tmo=${2:-}; shift 2 ;;
	--expect) expect=${2:-}; shift 2 ;;
	--expect-status) want_status=${2:-}; shift 2 ;;
	--log) log=${2:-}; shift 2 ;;
	-*) die "unknown option '$1'" ;;
	*) [ -z "$image" ] || die "more than one image given"; image=$1; shift ;;
	esac
done
case "$accel" in single|multi) ;; *) die "--accel must be single or multi" ;; esac
case "$smp" in [1-9]|[1-9][0-9]) ;; *) die "--smp must be a number" ;; esac
[ -n "$image" ] && [ -f "$image" ] || die "no image given, or not found"
qemu=${QEMU_RISCV64:-qemu-system-riscv64}
command -v "$qemu" >/dev/null 2>&1 ||
	die "FAIL: $qemu not found (install: apt-get install qemu-system-misc)"
[ -n "$log" ] || log="${image%.elf}-smp$smp-$accel.log"
mkdir -p "$(dirname "$log")"

cmd=("$qemu" -M virt -bios none -smp "$smp" -m 128M -nographic
	-accel "tcg,thread=$accel" -kernel "$image")
echo "$me: $(printf '%q ' "${cmd[@]}")(timeout ${tmo}s, log $log)"
set +e
qemu_judge "$tmo" "$log" "$want_status" "$expect" "${cmd[@]}"
set -e
if [ -n "$reason" ]; then
	echo "$me: FAIL: $reason [smp=$smp $accel, qemu_s=$secs, $image]" >&2
	exit 1
fi
echo "$me: PASS: status $status, matched '$expect' [smp=$smp $accel, qemu_s=$secs]"

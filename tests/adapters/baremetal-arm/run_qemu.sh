#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/adapters/baremetal-arm/run_qemu.sh - run a bare-metal image on QEMU "virt" and judge it.
#
#   run_qemu.sh --arch armv7|aarch64 [--cpu NAME] [--smp N]
#               [--smp-topology SPEC] [--accel single|multi]
#               [--timeout SECS] [--expect REGEX] [--expect-status N]
#               [--log FILE] [--qemu-arg ARG ...] IMAGE.elf
#
# Defaults: --cpu cortex-a15 (armv7) / cortex-a53 (aarch64), --smp 4,
# --accel single, --timeout 120, --expect PASS, --expect-status 0.
# Runs qemu-system-arm / qemu-system-aarch64 -M virt -nographic with
# semihosting (the image's exit status becomes QEMU's) under `timeout`, and
# writes the console (CRs stripped) and QEMU's messages to --log, by default
# IMAGE-<cpu>-smp<N>-<accel>.log next to the image.
# Succeeds only if QEMU exits with --expect-status AND a console line
# matches --expect (an extended regex, grep -E).  Otherwise prints the
# reason (timeout / exit status / no matching line) and the tail of the log
# and exits 1; usage errors and a missing QEMU exit 2.
# --smp-topology appends SPEC to -smp N (e.g. clusters=2,cores=2: QEMU's
# device tree then has a cpu-map of two clusters).
# --expect-status lets a negative test require a failure, e.g. 2 for the
# BSP's fatal-exception exit.  Environment: QEMU_ARM, QEMU_AARCH64 override
# the QEMU binaries.
# shellcheck disable=SC2054  # commas inside QEMU option values are intended
set -uo pipefail

me="run_qemu.sh"
# shellcheck source=tests/adapters/baremetal-common/qemu_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../baremetal-common/qemu_common.sh"
die() { echo "$me: $*" >&2; exit 2; }

arch="" cpu="" smp=4 topo="" accel=single tmo=120 expect="PASS" want_status=0 log=""
qargs=() image=""
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arch=${2:-}; shift 2 ;;
	--cpu) cpu=${2:-}; shift 2 ;;
	--smp) smp=${2:-}; shift 2 ;;
	--smp-topology) topo=${2:-}; shift 2 ;;
	--accel) accel=${2:-}; shift 2 ;;
	--timeout) tmo=${2:-}; shift 2 ;;
	--expect) expect=${2:-}; shift 2 ;;
	--expect-status) want_status=${2:-}; shift 2 ;;
	--log) log=${2:-}; shift 2 ;;
	--qemu-arg) qargs+=("${2:-}"); shift 2 ;;
	-h|--help) sed -n '4,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) [ -z "$image" ] || die "more than one image given"; image=$1; shift ;;
	esac
done

case "$arch" in
armv7) qemu=${QEMU_ARM:-qemu-system-arm}; cpu=${cpu:-cortex-a15} ;;
aarch64) qemu=${QEMU_AARCH64:-qemu-system-aarch64}; cpu=${cpu:-cortex-a53} ;;
"") die "--arch armv7|aarch64 is required" ;;
*) die "unknown --arch '$arch'" ;;
esac
case "$accel" in single|multi) ;; *) die "--accel must be single or multi" ;; esac
case "$smp" in [1-9]|[1-9][0-9]) ;; *) die "--smp must be a number" ;; esac
case "$topo" in *[!a-z0-9=,]*) die "--smp-topology: only a=n,b=m" ;; esac
case "$tmo" in ''|*[!0-9.]*) die "--timeout must be a number of seconds" ;; esac
case "$want_status" in ''|*[!0-9]*) die "--expect-status must be a number" ;; esac
[ -n "$image" ] || die "no image given"
[ -f "$image" ] || die "image '$image' not found"
command -v "$qemu" >/dev/null 2>&1 ||
	die "FAIL: $qemu not found (install: apt-get install qemu-system-arm)"
command -v timeout >/dev/null 2>&1 || die "FAIL: 'timeout' (coreutils) not found"

[ -n "$log" ] || log="${image%.elf}-$cpu-smp$smp-$accel.log"
mkdir -p "$(dirname "$log")"

cmd=("$qemu" -M virt -cpu "$cpu" -smp "$smp${topo:+,$topo}" -m 128M -nographic
	-semihosting-config enable=on,target=native
	-accel "tcg,thread=$accel" -kernel "$image" "${qargs[@]}")
echo "$me: $(printf '%q ' "${cmd[@]}")(timeout ${tmo}s, log $log)"

qemu_judge "$tmo" "$log" "$want_status" "$expect" "${cmd[@]}"

if [ -n "$reason" ]; then
	echo "$me: FAIL: $reason [$arch $cpu smp=$smp $accel, ${secs}s, $image]" >&2
	echo "$me: ---- last 20 lines of $log ----" >&2
	tail -n 20 "$log" >&2
	exit 1
fi
echo "$me: PASS: status $status, matched '$expect' [$arch $cpu smp=$smp $accel, ${secs}s]"
exit 0

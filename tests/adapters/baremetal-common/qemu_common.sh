# SPDX-License-Identifier: MIT OR GPL-2.0-only
# shellcheck shell=bash disable=SC2034  # the caller reads the variables
#
# tests/adapters/baremetal-common/qemu_common.sh - sourced by the ARM and
# RISC-V run_qemu.sh: how both run an image and judge the run.
#
#   qemu_judge TMO LOG WANT_STATUS EXPECT CMD...
#       runs CMD (QEMU) under timeout TMO seconds with stdin from /dev/null
#       (no terminal to put in raw mode, no monitor input), its console
#       (carriage returns dropped) shown and written to LOG; then sets
#       status (CMD's exit status), secs (the run's wall seconds) and
#       reason: empty if the run passed (exit status WANT_STATUS and, unless
#       EXPECT is empty, a console line matching the extended regular
#       expression EXPECT), else why it failed.

qemu_judge() {
	local tmo=$1 log=$2 want=$3 expect=$4 start
	shift 4

	start=$(date +%s.%N)
	timeout -k 5 "$tmo" "$@" </dev/null 2>&1 | tr -d '\r' | tee "$log"
	status=${PIPESTATUS[0]}
	secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
	reason=""
	if [ "$status" = 124 ] || [ "$status" = 137 ]; then
		reason="timed out after ${tmo}s (status $status)"
	elif [ "$status" != "$want" ]; then
		reason="QEMU exit status $status, expected $want"
	elif [ -n "$expect" ] && ! grep -Eq -- "$expect" "$log"; then
		reason="no console line matches '$expect'"
	fi
}

#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# check_goals.sh BUILD WORKDIR - smoke test of the fast-path goals: runs
# "QUICK=1 run_bench.sh" on the bench binaries in BUILD with tiny repetitions
# twice (RUNS=2: the goals are judged on the median over the runs) and checks
# that it succeeds, prints the instruction figure and each of goals 2 to 6
# with a measured figure and a verdict, "met" or "missed" (which one does
# not matter here: the figures of such a short run mean little), and that
# goal 3 was judged per placement, in hand-offs of each repetition's own
# floor.  $PYTHON names the python3
# to use.
set -eu
build=$1 dir=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
QUICK=1 RUNS=2 BENCH_BUILD=$build OUT=$dir REPS=1 MIN_TIME=0.01 RMW_ROUNDS=200 \
	WITHDRAW_ROUNDS=20 INSN_ROUNDS="100 600" \
	bash "$here/../run_bench.sh" >"$dir/log" 2>&1 || {
	cat "$dir/log"
	echo "check_goals.sh: run_bench.sh failed" >&2
	exit 1
}
sed -n '/^== fast-path goals/,$p' "$dir/log"
fail=0
if ! grep -Eq "^figure: uncontended .*[0-9]+ instructions" "$dir/log"; then
	echo "check_goals.sh: no instruction figure" >&2
	fail=1
fi
if ! grep -Eq "^goal 3: .*own floor, by placement: floor [0-9]" "$dir/log"; then
	echo "check_goals.sh: goal 3 not judged per placement" >&2
	fail=1
fi
for n in 2 3 4 5 6; do
	if ! grep -Eq "^goal $n: .*[0-9].*: (met|missed)\$" "$dir/log"; then
		echo "check_goals.sh: no verdict with a figure for goal $n" >&2
		fail=1
	fi
done
exit $fail

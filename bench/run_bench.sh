#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# run_bench.sh - build and run the whole benchmark suite, then regenerate
# docs/benchmarks.md and docs/benchmarks.png.
#
# Usage: bash bench/run_bench.sh
#
# Configures the project with its benchmarks in build/bench (Release), runs the
# Google Benchmark suite (repetitions, random interleaving), the RMW counts,
# the callgrind instruction counts, the 1,000-thread run and the C harness,
# writes everything under build/bench-results/, and regenerates the report.
# The spin cases and the instruction counts also run without the pthread
# adapter's USDT probes (coupled_bench_nousdt, bench_insn_count_nousdt:
# gbench_nousdt.json per run, insn_nousdt.jsonl), for the probes' cost.
# The coupled cases, the RMW counts and the instruction counts also run on
# the settled protocol (the twins built with COUPLED_PROTOCOL_SETTLED=1:
# gbench_settled.json, rmw_settled.json, insn_settled.jsonl), so that the
# report shows the protocol before and after; the callgrind runs of the
# coupled round are broken down by source file (insn_breakdown*.json,
# tools/insn_breakdown.py).  The report's table "coupled domains: 2-level
# round vs flat group" compares coupled_domain_round (coupled/domain.h, root
# + 2 leaves) with coupled_round on the same threads (full run only).
# The Google Benchmark suite (and its settled twin) runs RUNS times: run 1
# into the results directory, run i into its subdirectory run<i>; each run
# carries its own floor (the ping-pong case: the one-way hand-off of a cache
# line between the two CPUs the threads are pinned to, which moves from run
# to run on a virtual machine) and its own machine.txt.  The report's tables
# are run 1's; the goals are judged on the median over the runs.
# Last, it prints the fast-path goals (tools/goals.py), each "met" or
# "missed" with its figures from these runs.  The exit status does not depend
# on whether a goal is met; it is non-zero if a goal's figure could not be
# measured (or anything else failed).
#
# Environment (all optional):
#   QUICK=1           only what the goals need (their Google Benchmark cases
#                     with the ping-pong floor and the ck barriers at 2
#                     threads,
#                     the RMW counts, callgrind of the coupled round and its
#                     breakdown; no settled Google Benchmark or RMW runs), with
#                     REPS=3 MIN_TIME=0.05 unless set, into
#                     build/bench-results-quick; docs are left alone
#   BENCH_BUILD=DIR   use the bench binaries already built in DIR (no
#                     configure, no build)
#   OUT=DIR           where the results go
#   RUNS=2            runs of the Google Benchmark suite (QUICK: 1)
#   REPS=9            repetitions of each Google Benchmark case
#   MIN_TIME=0.1      --benchmark_min_time per repetition, seconds
#   OVERSUB_ITERS=5   fixed iterations of oversubscribed spinning cases
#   RMW_ROUNDS=20000  rounds per thread of the RMW counts
#   WITHDRAW_ROUNDS=200  rounds of each case of the withdrawal scenario
#   INSN_ROUNDS="1000 11000"  the two round counts of the callgrind runs
#   MANY_THREADS=1000 MANY_ROUNDS=20   the many-threads run
#   PYTHON=/usr/bin/python3            a python3 with numpy, scipy, matplotlib
#   COMPARE=/usr/share/benchmark/compare.py
#   NOTE="..."        a sentence for the report (e.g. what else was running)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
QUICK=${QUICK:-0}
build=$root/build/bench
bin=${BENCH_BUILD:-$build/bench}
if [[ $QUICK == 1 ]]; then
	out=${OUT:-$root/build/bench-results-quick}
	REPS=${REPS:-3}
	MIN_TIME=${MIN_TIME:-0.05}
	RUNS=${RUNS:-1}
	# The goals' cases only (tools/goals.py), with the ping-pong floor and
	# every ck barrier at 2 threads (goal 3 compares with the best).
	FILTER='^((coupled_round/spin|ck_[a-z]+|pingpong)/real_time/threads:2|(coupled_round/futex|std_barrier)/real_time/threads:(4|8|16)|coupled_capacity/.*)$'
	INSN_IMPLS="coupled"
else
	out=${OUT:-$root/build/bench-results}
	RUNS=${RUNS:-2}
	REPS=${REPS:-9}
	MIN_TIME=${MIN_TIME:-0.1}
	FILTER=.
	INSN_IMPLS="coupled seed ck_centralized pthread_barrier"
fi
WITHDRAW_ROUNDS=${WITHDRAW_ROUNDS:-200}
INSN_ROUNDS=${INSN_ROUNDS:-1000 11000}
OVERSUB_ITERS=${OVERSUB_ITERS:-5}
RMW_ROUNDS=${RMW_ROUNDS:-20000}
MANY_THREADS=${MANY_THREADS:-1000}
MANY_ROUNDS=${MANY_ROUNDS:-20}
PYTHON=${PYTHON:-/usr/bin/python3}
COMPARE=${COMPARE:-/usr/share/benchmark/compare.py}
[[ -x $PYTHON ]] || PYTHON=$(command -v python3)

if [[ -z ${BENCH_BUILD:-} ]]; then
	# The project with its benchmarks only (no tests, no examples).  A
	# build directory configured from bench/ alone (as it once was) is
	# configured afresh.
	if grep -qs "^CMAKE_HOME_DIRECTORY:INTERNAL=$root/bench\$" \
		"$build/CMakeCache.txt"; then
		rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
	fi
	cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
		-DCOUPLED_BUILD_BENCH=ON -DCOUPLED_BUILD_TESTS=OFF \
		-DCOUPLED_BUILD_EXAMPLES=OFF >/dev/null
	cmake --build "$build" -j "$(nproc)"
fi
mkdir -p "$out"

# Percentage of all CPUs busy over one second (from /proc/stat): what other
# jobs use while nothing of ours runs.
cpu_busy() {
	local a b
	a=($(head -n1 /proc/stat))
	sleep 1
	b=($(head -n1 /proc/stat))
	awk -v u1="${a[1]}" -v n1="${a[2]}" -v s1="${a[3]}" -v i1="${a[4]}" \
		-v w1="${a[5]:-0}" -v q1="${a[6]:-0}" -v sq1="${a[7]:-0}" \
		-v u2="${b[1]}" -v n2="${b[2]}" -v s2="${b[3]}" -v i2="${b[4]}" \
		-v w2="${b[5]:-0}" -v q2="${b[6]:-0}" -v sq2="${b[7]:-0}" 'BEGIN {
		busy = (u2 - u1) + (n2 - n1) + (s2 - s1) + (q2 - q1) + (sq2 - sq1)
		idle = (i2 - i1) + (w2 - w1)
		printf "%.0f%%\n", (busy + idle) ? 100 * busy / (busy + idle) : 0
	}'
}

# machine_info: the machine, its load before anything runs, and how the
# guest sees its CPUs (core, package, SMT siblings, the CPUs its L2 is
# shared with, where sysfs reports them; cpuN_* lines).
machine_info() {
	local c n
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "nproc=$(nproc)"
	echo "model=$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -n1)"
	echo "kernel=$(uname -sr)"
	echo "loadavg_before=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "busy_before=$(cpu_busy)"
	echo "compiler=$(c++ --version | head -n1)"
	echo "note=${NOTE:-}"
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		n=${c##*/cpu}
		[[ -r $c/topology/core_id ]] || continue
		echo "cpu${n}_core=$(cat "$c/topology/core_id")"
		echo "cpu${n}_package=$(cat "$c/topology/physical_package_id" 2>/dev/null)"
		echo "cpu${n}_siblings=$(cat "$c/topology/thread_siblings_list" 2>/dev/null)"
		for i in "$c"/cache/index*; do
			[[ -r $i/level && $(cat "$i/level") == 2 ]] || continue
			echo "cpu${n}_l2=$(cat "$i/shared_cpu_list")"
		done
	done
}

# gbench EXE JSON CONSOLE [ARGS...]: one run of the Google Benchmark binary
# EXE with the run's repetitions and ARGS, its results into JSON, its console
# output into CONSOLE (and shown).
gbench() {
	local exe=$1 json=$2 console=$3
	shift 3
	COUPLED_BENCH_OVERSUB_ITERS=$OVERSUB_ITERS "$bin/$exe" \
		--benchmark_repetitions="$REPS" \
		--benchmark_min_time="$MIN_TIME" \
		--benchmark_enable_random_interleaving=true \
		"$@" --benchmark_out="$json" --benchmark_out_format=json |
		tee "$console"
}

# gbench_suite DIR: one run of the Google Benchmark suite and of its settled
# twin into DIR; a build that lacks the twin (an older bench build given as
# BENCH_BUILD) leaves its part out of the report.
gbench_suite() {
	local dir=$1
	mkdir -p "$dir"
	machine_info >"$dir/machine.txt"
	echo "== Google Benchmark suite ($dir/gbench.json)"
	gbench coupled_bench "$dir/gbench.json" "$dir/console.txt" \
		--benchmark_filter="$FILTER"
	rm -f "$dir/gbench_settled.json"
	if [[ $QUICK != 1 && -x $bin/coupled_bench_settled ]]; then
		echo "== Google Benchmark, coupled cases on the settled protocol ($dir/gbench_settled.json)"
		gbench coupled_bench_settled "$dir/gbench_settled.json" \
			"$dir/console_settled.txt"
	fi
	rm -f "$dir/gbench_nousdt.json"
	if [[ $QUICK != 1 && -x $bin/coupled_bench_nousdt ]]; then
		echo "== Google Benchmark, spin cases without the USDT probes ($dir/gbench_nousdt.json)"
		gbench coupled_bench_nousdt "$dir/gbench_nousdt.json" \
			"$dir/console_nousdt.txt" \
			--benchmark_filter='^coupled_nousdt_(uncontended/spin/|round/spin/.*threads:2$)'
	fi
}

rm -rf "$out"/run[0-9]*
rm -f "$out/rmw_settled.json" "$out/insn_settled.jsonl" "$out/insn_nousdt.jsonl" \
	"$out/insn_breakdown.json" "$out/insn_breakdown_settled.json"
gbench_suite "$out"
dirs=("$out")
for ((run = 2; run <= RUNS; run++)); do
	echo "== run $run of $RUNS"
	gbench_suite "$out/run$run"
	dirs+=("$out/run$run")
done

echo "== RMW counts"
"$bin/bench_rmw_count" --rounds "$RMW_ROUNDS" \
	--withdraw-rounds "$WITHDRAW_ROUNDS" | tee "$out/rmw.json"
if [[ $QUICK != 1 && -x $bin/bench_rmw_count_settled ]]; then
	echo "== RMW counts, settled protocol"
	"$bin/bench_rmw_count_settled" --rounds "$RMW_ROUNDS" \
		--withdraw-rounds "$WITHDRAW_ROUNDS" --coupled-only |
		tee "$out/rmw_settled.json"
fi

# insn_counts EXE OUTFILE BREAKDOWN IMPL...: callgrind_rounds.sh, then the
# coupled round's instructions by source file.
insn_counts() {
	local exe=$1 file=$2 breakdown=$3 keep r1 r2
	shift 3
	keep=$(mktemp -d)
	# shellcheck disable=SC2086 # word lists
	CALLGRIND_KEEP=$keep sh "$root/bench/tools/callgrind_rounds.sh" \
		"$exe" $INSN_ROUNDS "$@" | tee "$file"
	read -r r1 r2 <<<"$INSN_ROUNDS"
	"$PYTHON" "$root/bench/tools/insn_breakdown.py" --root "$root" \
		--label "$(basename "$exe")" \
		"$keep/callgrind.coupled.$r1" "$r1" \
		"$keep/callgrind.coupled.$r2" "$r2" >"$breakdown"
	rm -rf "$keep"
}

echo "== instructions per uncontended round (callgrind)"
if command -v valgrind >/dev/null 2>&1; then
	# shellcheck disable=SC2086 # word lists
	insn_counts "$bin/bench_insn_count" "$out/insn.jsonl" \
		"$out/insn_breakdown.json" $INSN_IMPLS
	if [[ -x $bin/bench_insn_count_settled ]]; then
		echo "== the same, settled protocol"
		insn_counts "$bin/bench_insn_count_settled" \
			"$out/insn_settled.jsonl" \
			"$out/insn_breakdown_settled.json" coupled
	fi
	if [[ $QUICK != 1 && -x $bin/bench_insn_count_nousdt ]]; then
		echo "== the same, without the USDT probes"
		# shellcheck disable=SC2086 # word lists
		CALLGRIND_KEEP= sh "$root/bench/tools/callgrind_rounds.sh" \
			"$bin/bench_insn_count_nousdt" $INSN_ROUNDS coupled |
			tee "$out/insn_nousdt.jsonl"
	fi
else
	echo "valgrind not found: no instruction counts" >&2
	: >"$out/insn.jsonl"
fi

goals() {
	echo "== fast-path goals (build/bench-results*/goals.txt)"
	"$PYTHON" "$root/bench/tools/goals.py" --results "${dirs[@]}"
}
if [[ $QUICK == 1 ]]; then
	goals
	exit
fi

echo "== $MANY_THREADS threads, futex strategy"
"$bin/bench_many_threads" --threads "$MANY_THREADS" --rounds "$MANY_ROUNDS" \
	--strategy futex | tee "$out/many.json" || true

echo "== C harness (build/bench-results/harness.json)"
"$bin/bench_harness" --out "$out/harness.json" --min-time-ms 100 \
	--repetitions 3 --oversub-iters "$OVERSUB_ITERS"

echo "== compare.py: harness against Google Benchmark"
if [[ -f $COMPARE ]]; then
	"$PYTHON" "$COMPARE" --no-color benchmarks "$out/harness.json" "$out/gbench.json" \
		>"$out/compare_harness_gbench.txt" 2>&1 || true
	tail -n 20 "$out/compare_harness_gbench.txt"
fi

{
	echo "loadavg_after=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "busy_after=$(cpu_busy)"
} >>"$out/machine.txt"

echo "== report"
"$PYTHON" "$root/bench/tools/report.py" --results "${dirs[@]}" \
	--md "$root/docs/benchmarks.md" --png "$root/docs/benchmarks.png"
echo "wrote docs/benchmarks.md and docs/benchmarks.png"
goals

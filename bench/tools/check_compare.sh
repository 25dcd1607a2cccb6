#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# check_compare.sh HARNESS WORKDIR - the harness's JSON is read by
# Google Benchmark's compare.py: two short harness runs, then
# "compare.py benchmarks a.json b.json" must exit 0 and print a row per
# benchmark.  $PYTHON (a python3 with numpy and scipy) and $COMPARE (the path
# of compare.py) must be set; exit 77 (skipped) if they are not usable.
set -eu
harness=$1 dir=$2
: "${PYTHON:?}" "${COMPARE:?}"
if ! "$PYTHON" -c 'import numpy, scipy' 2>/dev/null; then
	echo "skipped: $PYTHON lacks numpy or scipy"
	exit 77
fi
mkdir -p "$dir"
for run in a b; do
	"$harness" --out "$dir/$run.json" --threads 1,2 --min-time-ms 2 \
		--oversub-iters 3
done
"$PYTHON" "$COMPARE" --no-color benchmarks "$dir/a.json" "$dir/b.json" \
	>"$dir/compare.txt"
cat "$dir/compare.txt"
rows=$(grep -c '^coupled_' "$dir/compare.txt" || true)
expected=$("$PYTHON" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["benchmarks"]))' "$dir/a.json")
if [ "$rows" -ne "$expected" ] || [ "$rows" -eq 0 ]; then
	echo "check_compare.sh: compare.py printed $rows rows, expected $expected" >&2
	exit 1
fi
echo "compare.py read the harness JSON: $rows rows"

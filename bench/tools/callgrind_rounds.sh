#!/bin/sh
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# callgrind_rounds.sh EXE R1 R2 IMPL... - instructions per uncontended round.
#
# Runs "EXE IMPL R1" and "EXE IMPL R2" under valgrind --tool=callgrind and
# prints, per IMPL, one JSON line {"impl", "insn_per_round"} with
# (Ir(R2) - Ir(R1)) / (R2 - R1): start-up and exit cancel out.  Callgrind
# counts are deterministic, so one run of each is enough.  $VALGRIND names
# valgrind (default: valgrind on PATH).  With $CALLGRIND_KEEP naming a
# directory, each run's callgrind output is kept there as
# callgrind.IMPL.ROUNDS (tools/insn_breakdown.py reads them).
set -eu
if [ $# -lt 4 ]; then
	echo "usage: $0 EXE R1 R2 IMPL..." >&2
	exit 2
fi
exe=$1 r1=$2 r2=$3
shift 3
vg=${VALGRIND:-valgrind}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total() { # IMPL ROUNDS -> Ir total
	"$vg" --tool=callgrind --callgrind-out-file="$tmp/out" \
		"$exe" "$1" "$2" >/dev/null 2>"$tmp/log" || {
		cat "$tmp/log" >&2
		exit 1
	}
	if [ -n "${CALLGRIND_KEEP:-}" ]; then
		mkdir -p "$CALLGRIND_KEEP"
		cp "$tmp/out" "$CALLGRIND_KEEP/callgrind.$1.$2"
	fi
	awk '/^(summary|totals):/ { print $2; exit }' "$tmp/out"
}

for impl in "$@"; do
	a=$(total "$impl" "$r1")
	b=$(total "$impl" "$r2")
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "callgrind_rounds.sh: no totals for $impl" >&2
		exit 1
	fi
	awk -v i="$impl" -v a="$a" -v b="$b" -v r1="$r1" -v r2="$r2" \
		'BEGIN { printf "{\"impl\": \"%s\", \"insn_per_round\": %.2f}\n", i, (b - a) / (r2 - r1) }'
done

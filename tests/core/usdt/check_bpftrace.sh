#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# check_bpftrace.sh BINARY - a tracer attached to the pthread adapter's
# USDT probes counts what the library counts.  bpftrace starts BINARY
# --stress 4 2000 (test_usdt: 4 threads, 2000 rounds, a tenth of the calls
# aborted by their caller), attached to coupled:commit and coupled:abort
# from the start; the program waits until a tracer raised the commit
# semaphore, runs, and prints coupled_stats_read()'s counts.  The commits
# and the aborts by reason that bpftrace counted must equal them.
#
# Skips (77), saying why, where bpftrace cannot attach: not root, no
# bpftrace (it is not in tests/packages.sh: the test needs root and a
# kernel with BPF and uprobes, which CI machines may not give), or the
# attach failed (the first error is printed).  A probe that bpftrace does
# not find in BINARY fails the test.
set -euo pipefail

bin=${1:?usage: check_bpftrace.sh BINARY}
me=check_bpftrace
skip() { echo "$me: SKIPPED: $*"; exit 77; }
((EUID == 0)) || skip "bpftrace needs root"
command -v bpftrace >/dev/null ||
	skip "no bpftrace (apt-get install bpftrace; not in tests/packages.sh, see above)"

# The probes must be there (a missing one is a failure, not a skip).
list=$(bpftrace -l "usdt:$bin:coupled:*" 2>&1 || true)
for p in commit abort; do
	grep -q "coupled:$p\$" <<<"$list" ||
		{ echo "$list"; echo "$me: FAIL: bpftrace finds no coupled:$p in $bin"; exit 1; }
done
prog="usdt:$bin:coupled:commit { @commits = count(); }
usdt:$bin:coupled:abort { @aborts[arg2] = count(); }"
set +e
out=$(timeout 180 bpftrace -c "$bin --stress 4 2000" -e "$prog" 2>&1)
rc=$?
set -e
if ! grep -q "^Attaching [0-9]* probes" <<<"$out"; then
	skip "bpftrace could not attach: $(grep -m1 -i "error" <<<"$out" || echo "exit $rc")"
fi
[ "$rc" -eq 0 ] || { echo "$out"; echo "$me: FAIL: bpftrace or the program exited $rc"; exit 1; }
stats=$(grep "usdt_main: stats" <<<"$out") || { echo "$out"; echo "$me: FAIL: no stats line"; exit 1; }
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$stats"; }
traced() { sed -n "s/^@$1: \([0-9]*\)$/\1/p" <<<"$out" | head -n1; }
bad=0
check() {
	local what=$1 lib=$2 got=${3:-0}
	if [ "$got" -ne "$lib" ]; then
		echo "$me: $what: bpftrace counted $got, the library $lib"
		bad=1
	else
		echo "$me: $what: $got, as the library counted"
	fi
}
check commits "$(field commits)" "$(traced commits)"
check "aborts (work)" "$(field aborts_work)" "$(traced 'aborts\[1\]')"
check "aborts (membership)" "$(field aborts_membership)" "$(traced 'aborts\[2\]')"
check "aborts (caller)" "$(field aborts_caller)" "$(traced 'aborts\[3\]')"
check "aborts (timeout)" "$(field aborts_timeout)" "$(traced 'aborts\[4\]')"
[ "$(field aborts_caller)" -gt 0 ] || { echo "$me: FAIL: no caller abort: the run did not test aborts"; exit 1; }
[ "$bad" -eq 0 ] || { echo "$me: FAIL"; exit 1; }
echo "$me: PASS"

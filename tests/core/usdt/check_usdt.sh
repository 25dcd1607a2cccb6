#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# check_usdt.sh BINARY - the pthread adapter's USDT probes, read back from
# a binary built from two files that use the library (usdt_main.c and two
# copies of usdt_calls.c), as a tracer reads them (readelf -n):
#   - provider "coupled" with enter, commit, abort, join, leave and domain,
#     each at two sites (one per file);
#   - each with its argument count (enter 3, commit 6, abort 4, join and
#     leave 2, domain 3), all 64-bit ("8@");
#   - commit and abort with a semaphore (the same one): every site names the
#     same address, which is the one symbol of that name, in .probes (one
#     semaphore per binary, though the header defines it in every file);
#     the other probes with none;
#   - and the program runs its calls correctly, untraced and with the
#     semaphore raised.
# Exit status 1 on the first difference; 77 (a skip, with the reason) on
# a target without the probes (not x86-64 or AArch64 ELF) or without
# readelf.
set -euo pipefail

bin=${1:?usage: check_usdt.sh BINARY}
me=check_usdt
command -v readelf >/dev/null || { echo "$me: SKIPPED: no readelf (binutils)"; exit 77; }
case $(uname -m) in
x86_64 | aarch64) ;;
*) echo "$me: SKIPPED: USDT probes are built on x86-64 and AArch64 only"; exit 77 ;;
esac

"$bin" || { echo "$me: FAIL: $bin did not run its calls correctly"; exit 1; }

notes=$(readelf -n --wide "$bin")
fail() { echo "$me: FAIL: $*"; exit 1; }
sem_addr() { readelf -s --wide "$bin" | awk -v n="$1" '$8 == n { print $2 }'; }
sem_count() { readelf -s --wide "$bin" | awk -v n="$1" '$8 == n' | wc -l; }
probes_sec=$(readelf -S --wide "$bin" | sed -n 's/.*\] \.probes *PROGBITS *\([0-9a-f]*\) [0-9a-f]* \([0-9a-f]*\).*/\1 \2/p')
[ -n "$probes_sec" ] || fail "no .probes section (the semaphore)"
read -r pstart psize <<<"$probes_sec"

# One line per probe site: name, semaphore address, argument list.
sites=$(awk '
	/Provider: coupled/ { p = 1; next }
	/Provider:/ { p = 0 }
	p && /Name:/ { name = $2 }
	p && /Semaphore:/ { sem = $NF }
	p && /Arguments:/ { sub(/.*Arguments: /, ""); print name, sem, $0; p = 0 }
' <<<"$notes")
[ -n "$sites" ] || fail "no probe of provider coupled in $bin"

for spec in enter:3: commit:6:coupled_pthread_usdt_semaphore \
	abort:4:coupled_pthread_usdt_semaphore join:2: leave:2: domain:3:; do
	IFS=: read -r name nargs sem <<<"$spec"
	lines=$(awk -v n="$name" '$1 == n' <<<"$sites")
	count=$(grep -c . <<<"$lines" || true)
	[ "$count" -ge 2 ] || fail "probe coupled:$name at $count site(s), expected 2 (one per file)"
	while read -r _ s args; do
		read -r -a argv <<<"$args"
		set -- "${argv[@]}"
		[ $# -eq "$nargs" ] || fail "coupled:$name has $# arguments ($args), expected $nargs"
		for a in "$@"; do
			case $a in 8@*) ;; *) fail "coupled:$name argument $a is not 64-bit" ;; esac
		done
		if [ -z "$sem" ]; then
			[ $((16#${s#0x})) -eq 0 ] || fail "coupled:$name has a semaphore ($s)"
			continue
		fi
		[ "$(sem_count "$sem")" -eq 1 ] || fail "$sem is defined $(sem_count "$sem") times, expected once"
		want=$(sem_addr "$sem")
		[ $((16#${s#0x})) -eq $((16#$want)) ] ||
			fail "coupled:$name names semaphore $s, not $sem ($want)"
		if [ $((16#$want)) -lt $((16#$pstart)) ] ||
			[ $((16#$want)) -ge $((16#$pstart + 16#$psize)) ]; then
			fail "$sem ($want) is not in .probes"
		fi
	done <<<"$lines"
	echo "$me: coupled:$name: $count sites, $nargs arguments${sem:+, semaphore $sem}"
done
echo "$me: PASS"

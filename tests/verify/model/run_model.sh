#!/bin/bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/verify/model/run_model.sh - run the SPIN checks of the models in
# tests/verify/model: coupled.pml (the settled protocol), direct.pml (the
# direct protocol; checks named direct_*) and domain.pml (coupled domains;
# checks named domain_*).
#
# Usage: run_model.sh --list
#        run_model.sh [-DMACRO[=value]]... <check>...|all
#        run_model.sh --trail [-D...] <check>   (also print the shortened trail)
#
# Each check generates the verifier with spin -a in a temporary directory,
# compiles pan with gcc, runs it and prints one line.  A "pass" check must
# find no error; an anchor/mutant/sanity/old check must find the expected
# error (then it passes), so it keeps proving that the checks can find bugs.
# A check whose macros hold -DBITSTATE=W is a bitstate search (pan built
# with -DBITSTATE, run with -wW: 2^W bits): partial, it can miss states.
# Extra -D flags are appended to the check's flags (a mutation suite may
# pass e.g. -DMUTANT_NO_GUARD and expect safety_3 to fail).
# Exit status: 0 if every check gave its expected result, 1 otherwise,
# 77 if spin or gcc is missing.

set -u
here=$(cd "$(dirname "$0")" && pwd)

# name | macros | mode (safety/liveness) | expectation (pass, assert:TEXT, end, cycle)
# (CMakeLists.txt here declares one ctest per line of this table.)  A check
# named direct_* runs direct.pml, domain_* domain.pml, every other one
# coupled.pml.
checks='
safety_3|-DN=3 -DROUNDS=2 -DABORTS=2|safety|pass
safety_4|-DN=4 -DROUNDS=2 -DABORTS=1 -DRANDOM_REQS=2|safety|pass
progress_3|-DN=3 -DROUNDS=2 -DABORTS=2 -DREQMAX=1|liveness|pass
progress_4|-DN=4 -DROUNDS=2 -DABORTS=1 -DREQMAX=1|liveness|pass
sanity_abort_livelock|-DN=3 -DROUNDS=2 -DABORTS_UNBOUNDED -DREQMAX=1|liveness|cycle
anchor_seed|-DVARIANT_SEED -DN=3 -DROUNDS=2 -DABORTS=1|safety|assert:acts==ghost_n
anchor_linux6|-DVARIANT_LINUX6 -DN=3 -DROUNDS=2 -DABORTS=0|safety|assert:acts==ghost_n
anchor_linux6_param|-DVARIANT_LINUX6 -DKERNEL_ESCAPE -DKERNEL_NO_ROUND_CHECK -DN=3 -DROUNDS=2 -DABORTS=1|safety|assert:param==ghost_min
anchor_linux6_barrier|-DVARIANT_LINUX6 -DKERNEL_ESCAPE -DKERNEL_NO_ROUND_CHECK -DKERNEL_NO_PARAM_CHECK -DN=3 -DROUNDS=2 -DABORTS=1|safety|end
mutant_seed_or|-DMUTANT_SEED_OR -DN=3 -DROUNDS=2 -DABORTS=1|safety|end
mutant_no_guard|-DMUTANT_NO_GUARD -DN=3 -DROUNDS=2 -DABORTS=1|safety|assert:in_round==0
mutant_no_poke_wait|-DMUTANT_NO_POKE_WAIT -DN=3 -DROUNDS=2 -DABORTS=1 -DREQMAX=1|liveness|cycle
mutant_no_restart|-DMUTANT_NO_RESTART -DN=3 -DROUNDS=2 -DABORTS=1|safety|assert:apoke
mutant_split_done|-DMUTANT_SPLIT_DONE -DN=3 -DROUNDS=2 -DABORTS=1|safety|assert
mutant_split_done_ready_first|-DMUTANT_SPLIT_DONE_READY_FIRST -DN=3 -DROUNDS=2 -DABORTS=1 -DREQMAX=1|liveness|cycle
mutant_no_gate|-DMUTANT_NO_GATE -DN=3 -DROUNDS=2 -DABORTS=1|safety|assert:acts==n
mutant_no_exit_wait|-DMUTANT_NO_EXIT_WAIT -DN=3 -DROUNDS=2 -DABORTS=1|safety|assert:in_round==0
wrap_rejoin_2|-DMEMBERSHIP -DGENMOD=2 -DN=2 -DROUNDS=2 -DABORTS=1|safety|pass
wrap_first_join_2|-DMEMBERSHIP -DINITIAL_OUT -DGENMOD=2 -DN=2 -DROUNDS=2 -DABORTS=1|safety|pass
mutant_join_stale_ack_rejoin|-DMUTANT_JOIN_STALE_ACK -DMEMBERSHIP -DGENMOD=2 -DN=2 -DROUNDS=2 -DABORTS=1|safety|assert:acts==n
mutant_join_stale_ack_first_join|-DMUTANT_JOIN_STALE_ACK -DMEMBERSHIP -DINITIAL_OUT -DGENMOD=2 -DN=2 -DROUNDS=2 -DABORTS=1|safety|assert:acts==n
membership_progress_2|-DMEMBERSHIP -DGENMOD=2 -DN=2 -DROUNDS=2 -DABORTS=0 -DREQMAX=1|liveness|pass
direct_safety_3|-DN=3 -DROUNDS=2 -DABORTS=2|safety|pass
direct_safety_4|-DN=4 -DROUNDS=2 -DABORTS=1 -DRANDOM_REQS=1|safety|pass
direct_progress_3|-DN=3 -DROUNDS=2 -DABORTS=2 -DREQMAX=1|liveness|pass
direct_progress_4|-DN=4 -DROUNDS=2 -DABORTS=1 -DREQMAX=1|liveness|pass
direct_sanity_abort_livelock|-DN=3 -DROUNDS=2 -DABORTS_UNBOUNDED -DREQMAX=1|liveness|cycle
direct_membership_2|-DMEMBERSHIP -DN=2 -DROUNDS=2 -DABORTS=1|safety|pass
direct_membership_progress_2|-DMEMBERSHIP -DN=2 -DROUNDS=2 -DABORTS=0 -DREQMAX=1|liveness|pass
direct_mutant_end_before_drain|-DMUTANT_D_END_BEFORE_DRAIN -DMEMBERSHIP -DN=2 -DROUNDS=2 -DABORTS=1|safety|assert:violated ok
direct_mutant_no_recheck_gen|-DMUTANT_D_NO_RECHECK_GEN -DMEMBERSHIP -DN=2 -DROUNDS=2 -DABORTS=1|safety|assert:!(changing)
direct_mutant_withdraw_no_guard|-DMUTANT_D_WITHDRAW_NO_GUARD -DN=3 -DROUNDS=2 -DABORTS=1|safety|assert:acts==ghost_n
direct_mutant_no_gen|-DMUTANT_D_NO_GEN -DN=3 -DROUNDS=2 -DABORTS=1|safety|end
direct_mutant_stop_when_complete|-DMUTANT_D_STOP_WHEN_COMPLETE -DMEMBERSHIP -DN=2 -DROUNDS=2 -DABORTS=1|safety|assert:counted[0]==member[0]
direct_mutant_arrive_ignores_stop|-DMUTANT_D_ARRIVE_IGNORES_STOP -DMEMBERSHIP -DN=2 -DROUNDS=2 -DABORTS=1|safety|assert:!(changing)
direct_mutant_leave_no_drain|-DMUTANT_D_LEAVE_NO_DRAIN -DMEMBERSHIP -DN=2 -DROUNDS=2 -DABORTS=1|safety|assert:counted[0]==member[0]
direct_safety_3_line1|-DN=3 -DROUNDS=2 -DABORTS=2 -DLINE=1|safety|pass
direct_safety_3_line3|-DN=3 -DROUNDS=2 -DABORTS=2 -DLINE=3|safety|pass
direct_membership_2_line1|-DMEMBERSHIP -DN=2 -DROUNDS=2 -DABORTS=1 -DLINE=1|safety|pass
direct_mutant_line_slot_only|-DMUTANT_D_LINE_SLOT_ONLY -DN=3 -DROUNDS=2 -DABORTS=1|safety|assert:param==ghost_min
direct_mutant_line_no_slot|-DMUTANT_D_LINE_NO_SLOT -DN=3 -DROUNDS=2 -DABORTS=1|safety|assert:param==ghost_min
direct_mutant_line_keep_on_leave|-DMUTANT_D_LINE_KEEP_ON_LEAVE -DMEMBERSHIP -DCHANGES=1 -DN=2 -DROUNDS=2 -DABORTS=1|safety|assert:param==ghost_min
domain_safety_2x2|-DCALLS=1 -DABORTS=1 -DRANDOM_REQS=1 -DREFUSERS=1|safety|pass
domain_safety_calls2_2x2|-DCALLS=2 -DABORTS=1 -DRANDOM_REQS=0|safety|pass
domain_membership_2x2|-DCHANGER -DABORTS=1 -DRANDOM_REQS=0|safety|pass
domain_first_join_2x2|-DCHANGER -DINITIAL_OUT -DABORTS=1 -DRANDOM_REQS=0|safety|pass
domain_progress_2x2|-DDEADLINES=2 -DGOAL_ROOT -DCALLS=2 -DABORTS=0 -DRANDOM_REQS=0|liveness|pass
domain_progress_opportunistic_2x2|-DCALLS=2 -DABORTS=0 -DRANDOM_REQS=0|liveness|pass
domain_membership_progress_2x2|-DCHANGER -DCHANGES=1 -DABORTS=0 -DRANDOM_REQS=0|liveness|pass
domain_safety_3lvl|-DSHAPE=2 -DCALLS=2 -DABORTS=1 -DRANDOM_REQS=0|safety|pass
domain_safety_reqs_3lvl|-DSHAPE=2 -DCALLS=1 -DABORTS=1 -DRANDOM_REQS=1 -DREFUSERS=1|safety|pass
domain_membership_3lvl|-DSHAPE=2 -DCHANGER -DABORTS=1 -DRANDOM_REQS=0|safety|pass
domain_membership_3lvl_4|-DSHAPE=3 -DCHANGER -DABORTS=0 -DRANDOM_REQS=0|safety|pass
domain_old_change_split|-DCHANGER -DCHANGES=1 -DOLD_CHANGE -DABORTS=0 -DRANDOM_REQS=0|safety|assert:split
domain_old_join_split|-DCHANGER -DINITIAL_OUT -DOLD_CHANGE -DABORTS=0 -DRANDOM_REQS=0|safety|assert:split
domain_old_change_split_3lvl|-DSHAPE=2 -DCHANGER -DCHANGES=1 -DOLD_CHANGE -DABORTS=0 -DRANDOM_REQS=0|safety|assert:split
domain_mutant_no_gate|-DMUTANT_NO_GATE -DCHANGER -DABORTS=0 -DRANDOM_REQS=0|safety|assert:split
domain_mutant_no_drain|-DMUTANT_NO_DRAIN -DCHANGER -DCHANGES=1 -DABORTS=0 -DRANDOM_REQS=0|safety|assert:split
domain_mutant_no_drain_rejoin|-DMUTANT_NO_DRAIN -DCHANGER -DABORTS=0 -DRANDOM_REQS=0|safety|end
domain_mutant_no_gate_poll|-DMUTANT_NO_GATE_POLL -DCHANGER -DABORTS=0 -DRANDOM_REQS=0|safety|end
domain_mutant_no_abandon|-DMUTANT_NO_ABANDON -DCALLS=2 -DABORTS=1 -DRANDOM_REQS=0|safety|end
domain_mutant_no_abandon_progress|-DMUTANT_NO_ABANDON -DCALLS=2 -DABORTS=0 -DRANDOM_REQS=0|liveness|cycle
domain_psci_unplug_2changers|-DSHAPE=5 -DCHANGERS=2 -DCH_ANY -DCHANGES=1 -DABORTS=0 -DRANDOM_REQS=0|safety|pass
domain_psci_hotplug_2changers|-DSHAPE=5 -DCHANGERS=2 -DCH_ANY -DINITIAL_OUT -DABORTS=0 -DRANDOM_REQS=0|safety|pass
domain_psci_2changers|-DSHAPE=5 -DCHANGERS=2 -DCH_ANY -DABORTS=0 -DRANDOM_REQS=0|safety|pass
domain_psci_progress|-DSHAPE=5 -DCHANGER -DCH_ANY -DABORTS=0 -DRANDOM_REQS=0|liveness|pass
domain_psci_2x2_2changers_bitstate|-DSHAPE=4 -DCHANGERS=2 -DCH_ANY -DABORTS=0 -DRANDOM_REQS=0 -DBITSTATE=24|safety|pass
domain_inside_crosswise_2x2|-DINSIDE -DABORTS=0 -DRANDOM_REQS=0|safety|pass
domain_old_leaf_gate_unplug_split|-DSHAPE=5 -DCHANGERS=2 -DCH_ANY -DCHANGES=1 -DOLD_LEAF_GATE -DABORTS=0 -DRANDOM_REQS=0|safety|assert:split
domain_old_leaf_gate_hotplug_deadlock|-DSHAPE=5 -DCHANGERS=2 -DCH_ANY -DINITIAL_OUT -DOLD_LEAF_GATE -DABORTS=0 -DRANDOM_REQS=0|safety|end
domain_old_leaf_gate_crosswise_deadlock|-DINSIDE -DOLD_LEAF_GATE -DABORTS=0 -DRANDOM_REQS=0|safety|end
'

list() { printf '%s\n' "$checks" | sed '/^$/d' | cut -d'|' -f1; }

extra=()
trail=0
names=()
for a in "$@"; do
	case $a in
	--list) list; exit 0 ;;
	--trail) trail=1 ;;
	-D*) extra+=("$a") ;;
	all) mapfile -t names < <(list) ;;
	-h|--help) sed -n '4,22p' "$0"; exit 0 ;;
	*) names+=("$a") ;;
	esac
done
if [ ${#names[@]} -eq 0 ]; then
	echo "usage: $0 [--trail] [-D...] <check>...|all   ($0 --list)" >&2
	exit 2
fi
for tool in spin gcc; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "SKIP: $tool not found (apt-get install spin gcc)"
		exit 77
	fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/coupled-model.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cp "$here/coupled.pml" "$here/direct.pml" "$here/domain.pml" "$work/"

# Shorten a spin -t -p trail to the participants' steps that matter.
shorten() {
	grep -E "proc +[0-9]+ \((participant|cpu|core|changer)|assert|START OF CYCLE" |
	grep -vE "\[\(1\)\]|\[else\]|\[i = |\[\(\(i<=|\[\(\(i<|gi|\[param = |\[w = |\[req = |\[acted = 0|\[v = 0|\[ok = 0|\[acc = |\[closer = 0|\[poked = 0|\[reason = 0|\[n = 0|\[gen = 0|\[outcome = 0|\[got = 0|\[pending = 0|\[break\]|goto|\[\(\(commits<" |
	sed -E 's/(coupled|direct|domain).pml://; s/\(state [0-9]+\)//; s/\((participant|cpu|core|changer):1\)/\1/'
}

status=0
for name in "${names[@]}"; do
	line=$(printf '%s\n' "$checks" | grep "^$name|") || {
		echo "$name: unknown check (see --list)"; status=1; continue; }
	IFS='|' read -r _ macros mode expect <<<"$line"
	# shellcheck disable=SC2206
	flags=($macros "${extra[@]}")
	case $name in
	direct_*) pml=direct.pml ;;
	domain_*) pml=domain.pml ;;
	*) pml=coupled.pml ;;
	esac
	dir=$work/$name
	mkdir -p "$dir" && cp "$work/$pml" "$dir/"
	if ! (cd "$dir" && spin -a "${flags[@]}" "$pml" >spin.log 2>&1); then
		echo "$name: FAIL (spin -a failed)"; sed 's/^/  /' "$dir/spin.log"; status=1; continue
	fi
	if [ "$mode" = safety ]; then
		cflags=(-DSAFETY -DNOCLAIM); pflags=()
	else
		cflags=(-DNFAIR=3); pflags=(-a -f)
	fi
	store=-DCOLLAPSE
	for f in "${flags[@]}"; do
		case $f in
		-DBITSTATE=*) store=-DBITSTATE; pflags+=("-w${f#-DBITSTATE=}") ;;
		esac
	done
	if ! (cd "$dir" && gcc -O2 -w "$store" -DMEMLIM=6000 "${cflags[@]}" -o pan pan.c 2>gcc.log); then
		echo "$name: FAIL (gcc failed)"; sed 's/^/  /' "$dir/gcc.log"; status=1; continue
	fi
	start=$(date +%s.%N)
	(cd "$dir" && ./pan -m400000 "${pflags[@]}" >pan.log 2>&1)
	end=$(date +%s.%N)
	log=$dir/pan.log
	errors=$(grep -oE 'errors: [0-9]+' "$log" | grep -oE '[0-9]+$')
	states=$(grep -oE '^ *[0-9.e+]+ states, stored' "$log" | grep -oE '[0-9.e+]+' | head -1)
	depth=$(grep -oE 'depth reached [0-9]+' "$log" | grep -oE '[0-9]+$')
	mem=$(grep -oE '[0-9.]+\s+total actual memory usage' "$log" | grep -oE '^[0-9.]+')
	secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
	what=$(grep -m1 -E '^pan:1: ' "$log" | sed 's/^pan:1: //; s/ (at depth.*//')
	incomplete=$(grep -cE 'Search not completed|max search depth too small|out of memory' "$log")
	case $expect in
	pass) if [ "${errors:-x}" = 0 ] && [ "$incomplete" = 0 ]; then ok=1; else ok=0; fi ;;
	assert) [[ $what == *"assertion violated"* ]] && ok=1 || ok=0 ;;
	assert:*) [[ $what == *"assertion violated"* && $what == *"${expect#assert:}"* ]] && ok=1 || ok=0 ;;
	end) [[ $what == *"invalid end state"* ]] && ok=1 || ok=0 ;;
	cycle) [[ $what == *"acceptance cycle"* || $what == *"non-progress cycle"* ]] && ok=1 || ok=0 ;;
	esac
	[ $ok = 1 ] && verdict=OK || verdict=FAIL
	printf '%-30s %-4s %-8s expect=%-26s errors=%s states=%s depth=%s mem=%sMB time=%ss%s\n' \
		"$name" "$verdict" "$mode" "$expect" "${errors:-?}" "${states:-?}" "${depth:-?}" \
		"${mem:-?}" "$secs" "${what:+  [$what]}"
	if [ $ok = 0 ]; then
		status=1
		[ "$incomplete" != 0 ] && [ "${errors:-x}" = 0 ] &&
			echo "  (search incomplete: see pan output)"
	fi
	if [ $trail = 1 ] && [ -f "$dir/$pml.trail" ]; then
		(cd "$dir" && spin -t -p "${flags[@]}" "$pml" 2>&1) | shorten
	fi
done
exit $status

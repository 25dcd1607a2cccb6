#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Mutation suite: break the headers one fault at a time, expect a check to fail.

Every mutant is a copy of include/ and adapters/ with exactly one change.
For each mutant the checks below are built against the copy and run; the
first that fails kills the mutant.  A mutant that no check kills means a
test is missing.

Mutants:
  - named faults (LOGIC_MUTANTS below): of the direct protocol (a
    withdrawal after the commit, stop ignored, no generation move, no
    wake-up, ...), of the roster (the removal, short walks), of the settled
    one (the seed's "||", no "wait to be poked at least once", no lost-poke
    restart, the done step split into two operations in the wrong order,
    ...) and of the adapters (no Dekker pair in the futex wait, no SEV, a
    wake that ignores the kernel adapter's busy flag, ...);
  - every memory order of the core (every header under include/coupled/,
    found by walking the directory, so that a new header is covered too;
    the atomics back-ends there are definitions and add none) and of the
    C11 adapters (pthread, bare-metal ARM and RISC-V) weakened, one occurrence at a
    time, found by scanning the headers (so a new atomic operation is
    covered without editing this file): release -> relaxed, acquire ->
    relaxed, acq_rel -> acquire and -> release, seq_cst -> acq_rel (store:
    release, load: acquire);
  - every ordering primitive of the kernel code (the kernel atomics
    back-end include/coupled/atomic/linux.h and the Linux adapter's hooks)
    weakened the same way: smp_mb() removed, atomic_read_acquire() ->
    atomic_read(), atomic_set_release() -> atomic_set(), a fully ordered
    RMW -> its _acquire and _release forms, those -> _relaxed.
  Not scanned: adapters/linux/cpuidle/ (the cpuidle helper, a client of
  the library), which no relaxed-memory check runs (docs/verification.md).

Checks (each compiled against the mutated copy).  The core's checks are
built once per protocol variant (coupled/protocol.h), the variant forced
with -DCOUPLED_PROTOCOL_DIRECT=1 or -DCOUPLED_PROTOCOL_SETTLED=1, and named
check/variant (unit/direct, relacy/settled, ...).  The direct builds give
the word's line 2 request entries (COUPLED_DIRECT_LINE_REQUESTS=2, 9 by
default), so that groups of 3 and more members use the line and the slots:
  unit       tests/core/unit/test_unit.c with the pthread adapter
  stress     tests/core/stress/test_stress.c, 4 threads, aborts, work,
             a changer thread, then self churn (futex strategy)
  scenarios  tests/core/scenario/test_scenario.c, every scenario, futex strategy
  focused    tests/verify/mutation/focused_scenarios.c: interleavings, on the
             scenario harness, for faults that no other check reaches
  relacy     tests/verify/relacy/relacy_coupled.cpp, every scenario, quick mode
             (relaxed-memory model checking; skipped with a reason if Relacy
             is not installed, and then no mutant can be reported killed by it)
  domain     tests/verify/relacy/relacy_domain.cpp, every scenario on both
             trees, quick mode (the domains under Relacy; skipped as relacy)
  domain_c   the domain C tests with the pthread adapter: the stress
             (tests/core/domain/test_domain_stress.c) on a 2-level tree, a
             3-level one, a 3-level one with churn and a 2-level one with a
             changer thread, and every scenario of test_domain_scenario.c
             (domain_scenarios.def) with futex and condvar
  deadline   tests/core/deadline/test_deadline.c (pthread adapter mutants only)
  wait       tests/core/deadline/test_adapter_spin.c: the pthread adapter's
             futex spin phase follows the measured wake-up cost (scripted
             clock and futex), then test_adapter_wait.c: its futex and
             condvar sleeps end at their deadline (pthread adapter mutants
             only; no protocol involved, built once)
  arm_model  tests/adapters/baremetal-arm/deadline/deadline.c on the host
             event model (WFE and WFI settled, WFE-only direct): calls that
             can only time out (bare-metal ARM adapter mutants only)
  adapter    the mutated adapter's own Relacy program (relacy_pthread.cpp,
             relacy_arm.cpp, relacy_riscv.cpp or relacy_linux.cpp, every
             check), with the
             variant its adapter selects
A test program's exit status 77 is a skip (as for ctest), never a pass.

A mutant runs the checks of the variants that compile the mutated code:
direct.h only the direct builds, settled.h and word.h only the settled
ones, the common files (protocol.h, membership.h, group.h, action.h, ...)
and the pthread adapter both, direct first.  Mutants of the domain
headers (domain.h, domain_call.h, domain_membership.h) run domain then
domain_c of each variant (no other check compiles them); those of group.h
(coupled_group_kick()) also run domain after the others.
Core logic mutants run, per
variant, unit, stress, scenarios, focused, relacy; core memory-order
mutants relacy of each variant first, then unit, stress, scenarios, focused
(x86 runs hide most weakened orders); adapter mutants adapter, then (pthread adapter only)
wait, then unit, stress, scenarios, deadline; bare-metal ARM adapter
mutants adapter, then arm_model.  By default a mutant stops at its first
failing check; --all-checks runs every check on every mutant.

The killer map (killers.txt beside this script) records, per mutant, the
check that killed it last and, for a Relacy check, the run that failed
(scenario:2p, scenario:2+1, an adapter program's check): that check runs
first, that run first in it, then the others in the order above, so a map
that misses costs time, never a kill.  The Relacy checks run their program
one run at a time (the runs of "all") and stop at the first failing one.  Each run
prints the map's hit rate; --update-killers rewrites the map from the run
(do so when a run reports misses or mutants without an entry).  The
baseline's checks run in parallel, --jobs at a time.

The script first runs every check of every selected variant on the
unmodified tree: they must pass, or a "kill" would mean nothing (a variant
whose tests are missing or broken is an error, not a silent pass).
--variants restricts the variants (the mutants only the others compile are
left out, and listed); --without leaves out named checks (said in the
output).  It prints a killed/survived table (markdown with --markdown) and
exits 1 if any mutant survived (except those on KNOWN_SURVIVORS, each
reported by name with its reason in every run) or the baseline failed.

Usage: run_mutants.py [--list] [--only REGEX] [--jobs N] [--all-checks]
                      [--markdown] [--keep] [--variants direct,settled]
                      [--without CHECK,...] [--cc CC] [--cxx CXX]
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "..", "..", ".."))
PTHREAD_H = "adapters/pthread/include/coupled/adapter/pthread.h"
ARM_H = "adapters/baremetal-arm/include/coupled/adapter/baremetal_arm.h"
RISCV_H = "adapters/baremetal-riscv/include/coupled/adapter/baremetal_riscv.h"
LINUX_H = "adapters/linux/include/coupled/adapter/linux.h"
# The kernel atomics back-end: kernel atomics and barriers, as LINUX_H.
KATOMIC_H = "include/coupled/atomic/linux.h"
PROTOCOL_H = "include/coupled/protocol.h"
MEMBERSHIP_H = "include/coupled/membership.h"
WORD_H = "include/coupled/word.h"
SETTLED_H = "include/coupled/settled.h"
DIRECT_H = "include/coupled/direct.h"
DOMAIN_H = "include/coupled/domain.h"
DOMAIN_CALL_H = "include/coupled/domain_call.h"
DOMAIN_MEMBERSHIP_H = "include/coupled/domain_membership.h"
# The domains: the API page and its two bodies, compiled only by the domain
# checks.
DOMAIN_FILES = (DOMAIN_H, DOMAIN_CALL_H, DOMAIN_MEMBERSHIP_H)
GROUP_H = "include/coupled/group.h"
STATS_H = "include/coupled/stats.h"

# The protocol variants (coupled/protocol.h), as the compile definition that
# forces each.  Every check of the core is built once per variant it runs.
VARIANTS = {"direct": "COUPLED_PROTOCOL_DIRECT",
            "settled": "COUPLED_PROTOCOL_SETTLED"}
# Files that only one variant compiles: a mutant there is run against that
# variant's builds only (the other would compile the unmutated code).
VARIANT_OF_FILE = {DIRECT_H: "direct", SETTLED_H: "settled",
                   WORD_H: "settled"}


def headers_under(rel):
    """Every .h file below rel, as sorted paths relative to ROOT."""
    found = []
    for d, _, files in os.walk(os.path.join(ROOT, rel)):
        found += [os.path.relpath(os.path.join(d, f), ROOT)
                  for f in files if f.endswith(".h")]
    return sorted(found)


# Code written in kernel atomics and barriers (their own scan).
KERNEL_FILES = [KATOMIC_H, LINUX_H]
# The core: every header of include/coupled/ in the C11 orders.
CORE_FILES = [h for h in headers_under("include/coupled")
              if h not in KERNEL_FILES]
# Adapters written with the core's C11 orders (the same scan as the core).
C11_ADAPTER_FILES = [PTHREAD_H, ARM_H, RISCV_H]
# Mutant name prefixes of the files whose base name would be ambiguous.
SHORT = {PTHREAD_H: "pthread", ARM_H: "arm", RISCV_H: "riscv", LINUX_H: "linux",
         KATOMIC_H: "linux"}

# name, description, file, old text, new text (or two lists of them, all
# replaced).  Each old text must occur in the file exactly once: a stale
# mutant (the header changed under it) is an error, not a silent survivor.
LOGIC_MUTANTS = [
    ("seed_logical_or",
     "all-ready value computed with || as in the 2012 seed",
     WORD_H,
     "return members | (members << COUPLED__WAITING_BITS);",
     "return members || (members << COUPLED__WAITING_BITS);"),
    ("no_back_out_guard",
     "back out of ready even when every member is ready",
     WORD_H,
     "while (old != all) {",
     "while ((void)all, 1) {"),
    ("no_wait_for_poke",
     "leave phase 1 on 'all waiting' without having been poked",
     SETTLED_H,
     "if (coupled__word_waiting(c) == n && poked)",
     "if (coupled__word_waiting(c) == n)"),
    ("no_lost_poke_restart",
     "the closer ignores pokes still pending (commits anyway)",
     SETTLED_H,
     "\t\t\tpending = true;",
     "\t\t\t(void)pending;"),
    ("done_split_wrong_order",
     "done as two RMWs, waiting first, then ready",
     WORD_H,
     "(void)coupled_fetch_sub(word, COUPLED__WAITING_ONE | COUPLED__READY_ONE,\n"
     "\t\t\t\tCOUPLED_RELEASE);",
     "(void)coupled_fetch_sub(word, COUPLED__WAITING_ONE, COUPLED_RELEASE);\n"
     "\t(void)coupled_fetch_sub(word, COUPLED__READY_ONE, COUPLED_RELEASE);"),
    ("no_exit_gate",
     "members leave without waiting for the closer's exit gate",
     SETTLED_H,
     "while (coupled_load(&g->variant.exit_gate, COUPLED_ACQUIRE) !=\n"
     "\t\t       gen) {",
     "while (coupled_load(&g->variant.exit_gate, COUPLED_ACQUIRE) !=\n"
     "\t\t       gen && 0) {"),
    ("no_ack_wait",
     "the closer opens the exit gate without waiting for the acks",
     SETTLED_H,
     "while (coupled_load(&s->variant.ack, COUPLED_ACQUIRE) !=\n"
     "\t\t\t       gen) {",
     "while (coupled_load(&s->variant.ack, COUPLED_ACQUIRE) !=\n"
     "\t\t\t       gen && 0) {"),
    ("no_exit_wait",
     "leave the round without waiting for ready to reach 0",
     SETTLED_H,
     "while (coupled__word_ready(coupled_load(&g->counts, COUPLED_ACQUIRE))) {",
     "while (coupled__word_ready(coupled_load(&g->counts, COUPLED_ACQUIRE))"
     " && 0) {"),
    ("no_prevent_recheck",
     "arrive without re-checking prevent after counting as waiting",
     SETTLED_H,
     "\tif (coupled_load(&g->prevent, COUPLED_SEQ_CST)) {",
     "\tif (coupled_load(&g->prevent, COUPLED_SEQ_CST) && 0) {"),
    ("membership_read_relaxed",
     "read prevent after the arrival without acquire (nor seq_cst), so the"
     " member count and flags of the last change are not ordered",
     SETTLED_H,
     "\tif (coupled_load(&g->prevent, COUPLED_SEQ_CST)) {",
     "\tif (coupled_load(&g->prevent, COUPLED_RELAXED)) {"),
    ("no_leave_drain",
     "coupled_leave() does not wait for the removed id's call to end",
     MEMBERSHIP_H,
     "while (coupled_load(&g->slots[id].inside, COUPLED_SEQ_CST)) {",
     "while (coupled_load(&g->slots[id].inside, COUPLED_SEQ_CST) && 0) {"),
    ("reduce_skips_first",
     "the closer's reduction ignores the first member's request",
     SETTLED_H,
     "\t\tr = coupled_load(&s->request, COUPLED_RELAXED);\n"
     "\t\tacc = k ? g->reduce(acc, r) : r;",
     "\t\tr = coupled_load(&s->request, COUPLED_RELAXED);\n"
     "\t\tacc = k ? g->reduce(acc, r) : 0x7fffffff;"),
    ("join_keeps_stale_ack",
     "coupled_join() leaves the joiner's ack as it was (the wrap bug)",
     SETTLED_H,
     "\tcoupled_store(&g->slots[id].variant.ack,\n"
     "\t\t      coupled_load(&g->round_gen, COUPLED_RELAXED),\n"
     "\t\t      COUPLED_RELAXED);",
     "\t(void)0;"),
    ("no_context_check",
     "a membership change from inside a call is not refused (it hangs)",
     MEMBERSHIP_H,
     "if (coupled_load(&g->slots[i].context_id, COUPLED_RELAXED) ==\n"
     "\t\t    me)",
     "if (coupled_load(&g->slots[i].context_id, COUPLED_RELAXED) ==\n"
     "\t\t    me && 0)"),
    ("attempts_not_counted",
     "COUPLED_STATS counts no arrival",
     SETTLED_H,
     "\t/* Every arrival counts, also one that then sees a change. */\n"
     "\tCOUPLED__STAT_INC(s, attempts);",
     "\t(void)0;"),
    # --- the statistics (protocol.h, stats.h; pinned by the unit test
    # stats_exact for each variant) ---
    ("stats_commits_not_counted",
     "COUPLED_STATS counts no commit",
     PROTOCOL_H,
     "\t\tCOUPLED__STAT_INC(s, commits);",
     "\t\t(void)0;"),
    ("stats_aborts_not_counted",
     "COUPLED_STATS counts no abort",
     PROTOCOL_H,
     "\t\tCOUPLED__STAT_INC(s, aborts[ret]);",
     "\t\t(void)0;"),
    ("stats_restarts_read_from_retries",
     "coupled_stats_read() reports the retries counter as restarts",
     STATS_H,
     "out->restarts += coupled_load(&st->restarts, COUPLED_RELAXED);",
     "out->restarts += coupled_load(&st->retries, COUPLED_RELAXED);"),
    ("stats_restarts_not_counted",
     "settled: COUPLED_STATS counts no lost-wake restart",
     SETTLED_H,
     "\t\tCOUPLED__STAT_INC(s, restarts);",
     "\t\t(void)s;"),
    ("direct_attempts_not_counted",
     "direct: COUPLED_STATS counts no arrival",
     DIRECT_H,
     "\tCOUPLED__STAT_INC(s, attempts);",
     "\t(void)0;"),
    # --- the roster (membership.h, both protocols) ---
    ("roster_remove_keeps_last",
     "coupled_leave() does not move the roster's last entry into the hole"
     " (the leaver stays listed, the last member drops out)",
     MEMBERSHIP_H,
     "\tcoupled_store(&g->slots[pos].roster, last, COUPLED_RELAXED);\n"
     "\tg->slots[last].roster_pos = pos;",
     "\t(void)pos;\n\t(void)last;"),
    # --- the direct protocol (direct.h) ---
    ("direct_withdraw_after_complete",
     "a withdrawal succeeds although the count is complete (the round"
     " committed, its completer has not stored yet)",
     DIRECT_H,
     "if ((w & COUPLED__DIRECT_GEN_MASK) != gen ||\n"
     "\t\t    coupled__direct_complete_word(w, n))",
     "if ((w & COUPLED__DIRECT_GEN_MASK) != gen)"),
    ("direct_withdraw_ignores_generation",
     "a withdrawal succeeds although the generation moved (its round"
     " committed and was published)",
     DIRECT_H,
     "if ((w & COUPLED__DIRECT_GEN_MASK) != gen ||\n"
     "\t\t    coupled__direct_complete_word(w, n))",
     "if ((void)gen, coupled__direct_complete_word(w, n))"),
    ("direct_change_stops_complete",
     "a membership change sets stop while the count is complete",
     DIRECT_H,
     "\t\tif (!coupled__direct_complete_word(w, n)) {",
     "\t\tif (1) {"),
    ("direct_arrival_ignores_stop",
     "an arrival that counts while a change holds stop goes on (neither"
     " the early look nor the arrival's word is checked for stop)",
     DIRECT_H,
     ["\tif (coupled_load(&g->counts, COUPLED_RELAXED) & COUPLED__DIRECT_STOP)"
      "\n",
      "\tif (!(w & COUPLED__DIRECT_STOP) && mine)\n"],
     ["\tif (coupled_load(&g->counts, COUPLED_RELAXED) & 0)\n",
      "\tif (mine)\n"]),
    ("direct_arrival_ignores_stop_late",
     "an arrival ignores stop in the word it counted in (only the"
     " relaxed early look before the arrival checks it)",
     DIRECT_H,
     "\tif (!(w & COUPLED__DIRECT_STOP) && mine)\n",
     "\tif (mine)\n"),
    ("direct_no_poll_before_arrival",
     "the abort sources are not polled before the arrival (a last arriver"
     " with work pending completes and commits the round)",
     DIRECT_H,
     "\tret = coupled__abort_reason(g, self, opts, true, false);\n"
     "\tif (ret)\n",
     "\tret = coupled__abort_reason(g, self, opts, true, false);\n"
     "\tif (0 && ret)\n"),
    ("direct_poll_ignores_deadline",
     "the poll before the arrival does not look at the deadline (a last"
     " arriver whose deadline has passed completes and commits the round)",
     DIRECT_H,
     "\tret = coupled__abort_reason(g, self, opts, true, false);",
     "\tret = coupled__abort_reason(g, self, opts, false, false);"),
    ("direct_arrival_no_recheck",
     "an arrival does not re-load the word after loading the membership"
     " (a change after another member completed its round goes unseen)",
     DIRECT_H,
     "\tif (!(w & COUPLED__DIRECT_STOP) &&\n"
     "\t    (coupled_load(&g->counts, COUPLED_ACQUIRE) &\n"
     "\t     COUPLED__DIRECT_GEN_MASK) != gen)",
     "\tif (!(w & COUPLED__DIRECT_STOP) && 0 &&\n"
     "\t    (coupled_load(&g->counts, COUPLED_ACQUIRE) &\n"
     "\t     COUPLED__DIRECT_GEN_MASK) != gen)"),
    ("direct_completer_keeps_generation",
     "the completer empties the count without moving the generation",
     DIRECT_H,
     "\t\t      (w & COUPLED__DIRECT_GEN_MASK) + COUPLED__DIRECT_GEN_ONE,\n"
     "\t\t      COUPLED_RELEASE);",
     "\t\t      (w & COUPLED__DIRECT_GEN_MASK),\n"
     "\t\t      COUPLED_RELEASE);"),
    ("direct_completer_stores_first",
     "the completer stores the word (next generation) before it reduces"
     " the requests and publishes the parameter and generation",
     DIRECT_H,
     # (removed first: the insertion repeats the text)
     ["\tcoupled_store(&g->counts,\n"
      "\t\t      (w & COUPLED__DIRECT_GEN_MASK) + COUPLED__DIRECT_GEN_ONE,\n"
      "\t\t      COUPLED_RELEASE);\n",
      "\tCOUPLED_HOOK(g, self, COUPLED_HOOK_COMPLETE);\n"],
     ["",
      "\tCOUPLED_HOOK(g, self, COUPLED_HOOK_COMPLETE);\n"
      "\tcoupled_store(&g->counts,\n"
      "\t\t      (w & COUPLED__DIRECT_GEN_MASK) + COUPLED__DIRECT_GEN_ONE,\n"
      "\t\t      COUPLED_RELEASE);\n"]),
    ("direct_completer_no_wake",
     "the completer does not wake the other members",
     DIRECT_H,
     "\t\t\tcoupled_adapter_wake(&g->adapter, &g->slots[id].adapter,\n"
     "\t\t\t\t\t     id);",
     "\t\t\t(void)0;"),
    ("direct_reduce_walk_short",
     "the completer's walk over the roster for the requests in slots"
     " stops one entry short",
     DIRECT_H,
     "\tfor (k = 0; seen < n && k < n; k++) {",
     "\tfor (k = 0; seen < n && k + 1u < n; k++) {"),
    ("direct_reduce_skips_line",
     "the completer reads no request from the word's line",
     DIRECT_H,
     "\tfor (e = 0; used >> e; e++) {",
     "\tfor (e = 0; 0 && used >> e; e++) {"),
    ("direct_reduce_line_members_twice",
     "the completer's roster walk also reads the slots of members that"
     " publish in the line (their stale slot requests)",
     DIRECT_H,
     "\t\tif (coupled_load(&g->slots[id].variant.line_index,\n"
     "\t\t\t\t COUPLED_RELAXED) != COUPLED__DIRECT_NO_LINE)\n"
     "\t\t\tcontinue;",
     "\t\tif (0)\n"
     "\t\t\tcontinue;"),
    ("direct_publish_in_slot_only",
     "a member with an entry of the word's line publishes its request in"
     " its slot",
     DIRECT_H,
     "\tif (e < COUPLED_DIRECT_LINE_REQUESTS)\n"
     "\t\tcoupled_store(&g->variant.line_requests[e], request,",
     "\tif (0 && e < COUPLED_DIRECT_LINE_REQUESTS)\n"
     "\t\tcoupled_store(&g->variant.line_requests[e], request,"),
    ("direct_join_entry_not_marked",
     "a joiner gets an entry of the word's line that is not marked used"
     " (the completer reads neither it nor the joiner's slot)",
     DIRECT_H,
     "\tcoupled_store(&g->variant.line_used, used | (1u << e), "
     "COUPLED_RELAXED);",
     "\t(void)used;"),
    ("direct_leave_entry_kept",
     "a leaver's entry of the word's line stays marked used (its last"
     " request is reduced in every later round)",
     DIRECT_H,
     "\tcoupled_store(&g->variant.line_used, used & ~(1u << e),\n"
     "\t\t      COUPLED_RELAXED);",
     "\t(void)used;"),
    ("direct_join_entry_after_flag",
     "coupled_join() gives the joiner its entry of the word's line after"
     " the member flag's release store (a call that sees the flag may not"
     " see its entry)",
     MEMBERSHIP_H,
     ["\tcoupled__protocol_member_added(g, id);\n"
      "\tcoupled_store(&g->slots[id].member, 1u, COUPLED_RELEASE);\n",
      "\tcoupled__roster_add(g, id);\n"],
     ["\tcoupled_store(&g->slots[id].member, 1u, COUPLED_RELEASE);\n",
      "\tcoupled__protocol_member_added(g, id);\n"
      "\tcoupled__roster_add(g, id);\n"]),
    ("direct_wakes_nobody",
     "the completer takes every adapter's wake-up for a no-op and wakes"
     " nobody",
     DIRECT_H,
     "\treturn !coupled_adapter_wake_is_noop(&g->adapter);",
     "\treturn (void)g, false;"),
    ("direct_wake_walk_short",
     "the completer's wake-ups walk one roster entry too few",
     DIRECT_H,
     "\tfor (k = 0; k < n; k++) {\n"
     "\t\tuint32_t id = coupled__roster_id(g, k);\n\n"
     "\t\tif (id != self)",
     "\tfor (k = 0; k + 1u < n; k++) {\n"
     "\t\tuint32_t id = coupled__roster_id(g, k);\n\n"
     "\t\tif (id != self)"),
    ("direct_change_wake_walk_short",
     "a membership change wakes one roster entry too few (a member"
     " resting there never sees stop)",
     DIRECT_H,
     "\tfor (k = 0; k < n; k++) {\n"
     "\t\tuint32_t id = coupled__roster_id(g, k);\n\n"
     "\t\tcoupled_adapter_wake(",
     "\tfor (k = 0; k + 1u < n; k++) {\n"
     "\t\tuint32_t id = coupled__roster_id(g, k);\n\n"
     "\t\tcoupled_adapter_wake("),
    ("direct_end_keeps_stop",
     "a membership change ends without clearing stop",
     DIRECT_H,
     "\t\tif (coupled_cas(&g->counts, &w, w & ~COUPLED__DIRECT_STOP,",
     "\t\tif (coupled_cas(&g->counts, &w, w,"),
    ("direct_end_ignores_arrivals",
     "a membership change clears stop while an arrival that saw it still"
     " counts (about to withdraw)",
     DIRECT_H,
     "\t\tif (coupled__direct_arrivals(w)) {",
     "\t\tif (0 && coupled__direct_arrivals(w)) {"),
    ("settled_deadline_in_ready",
     "settled: the deadline also counts in the ready phase (a ready member"
     " backs out when it passes)",
     SETTLED_H,
     "\t\treason = coupled__abort_reason(\n\t\t\tg, self, opts, false,",
     "\t\treason = coupled__abort_reason(\n\t\t\tg, self, opts, true,"),
    ("settled_poke_walk_short",
     "settled: the pokes walk one roster entry too few",
     SETTLED_H,
     "\tfor (k = 0; k < n; k++) {\n"
     "\t\tuint32_t id = coupled__roster_id(g, k);\n\n"
     "\t\tif (id != except)",
     "\tfor (k = 0; k + 1u < n; k++) {\n"
     "\t\tuint32_t id = coupled__roster_id(g, k);\n\n"
     "\t\tif (id != except)"),
    ("settled_reduce_walk_short",
     "settled: the closer's scan walks one roster entry too few",
     SETTLED_H,
     "\tfor (k = 0; k < members; k++) {\n"
     "\t\tstruct coupled_slot *s = &g->slots[coupled__roster_id(g, k)];",
     "\tfor (k = 0; k + 1u < members; k++) {\n"
     "\t\tstruct coupled_slot *s = &g->slots[coupled__roster_id(g, k)];"),
    # --- the domains (domain_call.h, domain_membership.h;
    # coupled_group_kick() in group.h) ---
    ("domain_no_abandoned_store",
     "a core that does not commit the level above does not mark its round"
     " abandoned (the other cores of the round may wait for it there)",
     DOMAIN_CALL_H,
     "\t\tcoupled_store(&c->node[f->level]->abandoned, r->generation,\n"
     "\t\t\t      COUPLED_RELAXED);",
     "\t\t(void)0;"),
    ("domain_no_abandoned_check",
     "should_abort does not look at the abandoned mark of the round below",
     DOMAIN_CALL_H,
     "\tif (coupled_load(&c->node[f->level - 1]->abandoned, COUPLED_RELAXED)"
     " ==",
     "\tif (0 && coupled_load(&c->node[f->level - 1]->abandoned,"
     " COUPLED_RELAXED) =="),
    ("domain_give_up_no_kick",
     "a give-up does not kick the level's waiters (they rest on)",
     DOMAIN_CALL_H,
     "\t\t\t(void)coupled_group_kick(d->group);",
     "\t\t\t(void)0;"),
    ("domain_no_candidates_check",
     "should_abort does not compare the candidates with the members (a"
     " core waits at a level somebody under it gave up)",
     DOMAIN_CALL_H,
     "\t    candidates < coupled_group_members(d->group)) {",
     "\t    0 && candidates < coupled_group_members(d->group)) {"),
    ("domain_candidates_not_incremented",
     "a call does not count as a candidate of the levels above its leaf"
     " (no level above the leaf can ever commit)",
     DOMAIN_CALL_H,
     "\t\tcoupled_fetch_add(&c.node[k]->candidates, 1u, COUPLED_RELAXED);",
     "\t\t(void)0;"),
    ("domain_no_final_give_up",
     "a call ends without giving up the candidacies it still holds (a"
     " stale candidate makes a later call wait for a core not there)",
     DOMAIN_CALL_H,
     "\tcoupled__domain_give_up(&c, 1, false);\n"
     "\tcoupled__domain_call_end(gate);",
     "\t(void)0;\n\tcoupled__domain_call_end(gate);"),
    ("domain_abandon_not_published",
     "a core that marks its round abandoned at a level it is no candidate"
     " of makes no RMW of that level's candidates (nothing carries the"
     " mark, and nobody resting there is kicked)",
     DOMAIN_CALL_H,
     "\t\tif (!drop && !(publish && k == from))\n",
     "\t\tif (!drop && !(0 && publish && k == from))\n"),
    ("domain_waiting_not_incremented",
     "a core trying a level does not count as waiting there (a give-up"
     " sees nobody to kick)",
     DOMAIN_CALL_H,
     "\tcoupled_fetch_add(&d->waiting, 1u, COUPLED_SEQ_CST);",
     "\t(void)0;"),
    ("domain_outcome_not_translated",
     "a level given up for a domain reason reports COUPLED_ABORT_CALLER"
     " (the fired source is not translated)",
     DOMAIN_CALL_H,
     "\tif (ret == COUPLED_ABORT_CALLER && c->fired)",
     "\tif (0 && ret == COUPLED_ABORT_CALLER && c->fired)"),
    ("domain_give_up_kicks_from_only",
     "a give-up kicks the waiters of the first level it gives up only (those"
     " of the levels above rest on, though the level cannot commit)",
     DOMAIN_CALL_H,
     "\t\tif (coupled_load(&d->waiting, COUPLED_SEQ_CST))\n"
     "\t\t\t(void)coupled_group_kick(d->group);",
     "\t\tif (coupled_load(&d->waiting, COUPLED_SEQ_CST) && k == from)\n"
     "\t\t\t(void)coupled_group_kick(d->group);"),
    ("domain_wake_leaf_only",
     "coupled_domain_wake() wakes the core's leaf slot only (a core resting"
     " above its leaf sleeps on)",
     DOMAIN_CALL_H,
     "\tfor (k = 0; k < levels; k++) {\n"
     "\t\tstruct coupled_group *g = node[k]->group;",
     "\tfor (k = 0; k < 1; k++) {\n"
     "\t\tstruct coupled_group *g = node[k]->group;"),
    # The tree's gate (a membership change as one step, tree-wide).
    ("domain_gate_per_leaf",
     "the gate is the changed core's leaf's, not the tree's (a round of"
     " cores of other leaves, the PSCI shape's cluster round, stays alive"
     " across the change: a split outcome, two calls waiting for each"
     " other, crosswise changes waiting for each other)",
     DOMAIN_CALL_H,
     "\treturn node[levels - 1];",
     "\treturn node[0];"),
    ("domain_gate_no_entry_check",
     "a call does not look at the tree's gate when it starts (it runs while"
     " a change changes the levels)",
     DOMAIN_CALL_H,
     "\tif (coupled_load(&gate->changing, COUPLED_SEQ_CST)) {",
     "\tif (0 && coupled_load(&gate->changing, COUPLED_SEQ_CST)) {"),
    ("domain_gate_refusal_counted",
     "a call refused at the gate stays counted (the change waits for a"
     " call that has returned)",
     DOMAIN_CALL_H,
     "\t\tcoupled_fetch_sub(&gate->calls, 1u, COUPLED_RELAXED);\n"
     "\t\treturn false;",
     "\t\treturn false;"),
    ("domain_call_end_missing",
     "a call does not uncount itself when it returns (the next change in"
     " its tree waits for ever)",
     DOMAIN_CALL_H,
     "\tcoupled__domain_call_end(gate);\n\treturn ret;",
     "\treturn ret;"),
    ("domain_leaf_ignores_gate",
     "the leaf round's abort source ignores the gate (a core waiting in"
     " it for a core refused at the gate waits on, and the change for it)",
     DOMAIN_CALL_H,
     "\tif (coupled__domain_gate_closed(c)) {\n"
     "\t\tc->fired = COUPLED_ABORT_MEMBERSHIP;\n"
     "\t\treturn true;\n"
     "\t}\n"
     "\tc->fired = 0;\n"
     "\treturn o && o->should_abort && o->should_abort(o->abort_arg, self);",
     "\tif (0 && coupled__domain_gate_closed(c)) {\n"
     "\t\tc->fired = COUPLED_ABORT_MEMBERSHIP;\n"
     "\t\treturn true;\n"
     "\t}\n"
     "\tc->fired = 0;\n"
     "\treturn o && o->should_abort && o->should_abort(o->abort_arg, self);"),
    ("domain_levels_ignore_gate",
     "the abort source of the levels above the leaf ignores the gate (cores"
     " of a committed leaf round wait above it, and the change for them)",
     DOMAIN_CALL_H,
     "\tif (coupled__domain_gate_closed(c)) {\n"
     "\t\tc->fired = COUPLED_ABORT_MEMBERSHIP;\n"
     "\t\treturn true;\n"
     "\t}\n"
     "\tif (coupled_adapter_work_pending(",
     "\tif (0 && coupled__domain_gate_closed(c)) {\n"
     "\t\tc->fired = COUPLED_ABORT_MEMBERSHIP;\n"
     "\t\treturn true;\n"
     "\t}\n"
     "\tif (coupled_adapter_work_pending("),
    ("domain_gate_reported_as_cannot",
     "a core that gives a level above its leaf up because the gate closed"
     " reports COUPLED_DOMAIN_CANNOT, not COUPLED_ABORT_MEMBERSHIP (the"
     " caller cannot tell a hot-plug from a busy core)",
     DOMAIN_CALL_H,
     "\tif (coupled__domain_gate_closed(c)) {\n"
     "\t\tc->fired = COUPLED_ABORT_MEMBERSHIP;\n"
     "\t\treturn true;\n"
     "\t}\n"
     "\tif (coupled_adapter_work_pending(",
     "\tif (coupled__domain_gate_closed(c)) {\n"
     "\t\tc->fired = COUPLED_DOMAIN_CANNOT;\n"
     "\t\treturn true;\n"
     "\t}\n"
     "\tif (coupled_adapter_work_pending("),
    ("domain_change_no_kick",
     "closing the gate kicks nobody (a core resting in a round does not"
     " see it, and the change waits for that core)",
     DOMAIN_MEMBERSHIP_H,
     "\tfor (d = root; d; d = d->next)\n"
     "\t\t(void)coupled_group_kick(d->group);",
     "\t(void)0;"),
    ("domain_change_kicks_root_only",
     "closing the gate kicks the root's group only (a core resting in its"
     " leaf's or its cluster's round for a core refused at the gate does not"
     " see it, and the change waits for that core)",
     DOMAIN_MEMBERSHIP_H,
     "\tfor (d = root; d; d = d->next)\n"
     "\t\t(void)coupled_group_kick(d->group);",
     "\t(void)coupled_group_kick(root->group);"),
    ("domain_change_eperm_path_only",
     "a change looks for its caller inside a call on the changed core's"
     " path only (a change from inside an action of another subtree waits"
     " for its own call; two crosswise changes wait for each other)",
     DOMAIN_MEMBERSHIP_H,
     "\tfor (d = root; d; d = d->next)\n"
     "\t\tif (coupled__caller_inside(d->group))",
     "\tfor (d = leaf; d; d = d->parent)\n"
     "\t\tif (coupled__caller_inside(d->group))"),
    ("domain_init_not_listed",
     "coupled_domain_init() does not put a node on the tree's list (the"
     " changer neither kicks it nor finds its caller inside it)",
     DOMAIN_CALL_H,
     "\t\troot->next = d;",
     "\t\t(void)root;"),
    ("domain_change_no_drain",
     "closing the gate does not wait for the tree's calls (the levels"
     " change under a call in progress)",
     DOMAIN_MEMBERSHIP_H,
     "\twhile (coupled_load(&gate->calls, COUPLED_SEQ_CST)) {",
     "\twhile (0 && coupled_load(&gate->calls, COUPLED_SEQ_CST)) {"),
    ("domain_gate_never_opens",
     "a change does not open the tree's gate (every call gives up for"
     " ever, the next change waits for ever)",
     DOMAIN_MEMBERSHIP_H,
     "\tcoupled_store(&gate->changing, 0u, COUPLED_RELEASE);",
     "\t(void)gate;"),
    ("group_kick_wakes_nobody",
     "coupled_group_kick() walks the roster but wakes nobody",
     GROUP_H,
     "\t\t\tcoupled_adapter_wake(&g->adapter, &g->slots[id].adapter,\n"
     "\t\t\t\t\t     id);",
     "\t\t\t(void)0;"),
    # --- the adapters ---
    ("pthread_futex_no_dekker",
     "pthread futex wait: no sleeping flag, so the waker never calls"
     " FUTEX_WAKE (no Dekker pair)",
     PTHREAD_H,
     "\tcoupled_store(&as->sleeping, 1u, COUPLED_SEQ_CST);",
     "\t(void)0;"),
    ("pthread_futex_flag_after_check",
     "pthread futex wait: the sleeping flag is set after the check of"
     " wake_seq (the Dekker pair in the wrong order)",
     PTHREAD_H,
     "\tcoupled_store(&as->sleeping, 1u, COUPLED_SEQ_CST);\n"
     "\tif (coupled_load(&as->wake_seq, COUPLED_SEQ_CST) == token) {",
     "\tif (coupled_load(&as->wake_seq, COUPLED_SEQ_CST) == token) {\n"
     "\t\tcoupled_store(&as->sleeping, 1u, COUPLED_SEQ_CST);"),
    ("pthread_futex_no_wake",
     "pthread futex wake: the syscall is never made",
     PTHREAD_H,
     "\t\tCOUPLED_PTHREAD_FUTEX_WAKE(&target->wake_seq);",
     "\t\t(void)0;"),
    ("pthread_condvar_wake_unlocked",
     "pthread condvar wake: increment and signal without the mutex",
     PTHREAD_H,
     ["\t\tpthread_mutex_lock(&target->lock);\n",
      "\t\tpthread_mutex_unlock(&target->lock);\n"],
     ["", ""]),
    ("pthread_futex_spin_ignores_deadline",
     "pthread futex wait: the spin phase does not look at the clock",
     PTHREAD_H,
     "\t\tif (deadline && coupled_adapter_now(ag) >= deadline)",
     "\t\tif (0 && deadline)"),
    ("pthread_futex_no_spin_extension",
     "pthread futex wait: no extension of the spin phase by the measured"
     " wake-up cost (the turns alone, whatever sleeps cost)",
     PTHREAD_H,
     "\tfor (end = now + extra_us * 1000u; now < end;",
     "\tfor (end = now; now < end;"),
    ("pthread_futex_spin_extension_uncapped",
     "pthread futex wait: the spin phase's extension has no cap"
     " (the group's spin_max_us ignored)",
     PTHREAD_H,
     "\tif (extra_us > ag->spin_max_us)\n"
     "\t\textra_us = ag->spin_max_us;",
     "\t(void)0;"),
    ("pthread_futex_extension_ignores_wake",
     "pthread futex wait: the spin phase's extension does not look at the"
     " wake counter (a wake during it waits for its end)",
     PTHREAD_H,
     "\t\t/* relaxed: as in the turns above. */\n"
     "\t\tif (coupled_load(&as->wake_seq, COUPLED_RELAXED) != token)\n"
     "\t\t\treturn true;",
     "\t\t(void)0;"),
    ("pthread_futex_extension_ignores_deadline",
     "pthread futex wait: the spin phase's extension does not look at the"
     " deadline",
     PTHREAD_H,
     "\t\tif (deadline && now >= deadline)\n\t\t\treturn true;\n"
     "\t\tCOUPLED_PTHREAD_YIELD();",
     "\t\tCOUPLED_PTHREAD_YIELD();"),
    ("pthread_futex_no_wake_stamp",
     "pthread futex wake: FUTEX_WAKE without the stamp, so sleepers never"
     " learn what waking costs",
     PTHREAD_H,
     "\t\tcoupled_store(&target->wake_stamp_us,\n"
     "\t\t\t      (uint32_t)(coupled_adapter_now(ag) / 1000u),\n"
     "\t\t\t      COUPLED_RELAXED);",
     "\t\t(void)0;"),
    ("pthread_futex_learn_any_stamp",
     "pthread futex wait: the wake-cost estimate takes any stamp, also one"
     " from before the sleep (a timeout then teaches a false cost)",
     PTHREAD_H,
     "\tif ((uint32_t)(stamp - from) > (uint32_t)(to - from))\n"
     "\t\treturn;",
     "\t(void)from;"),
    ("pthread_futex_timeout_whole_seconds",
     "pthread futex wait: the timeout rounded up to whole seconds",
     PTHREAD_H,
     "\t\trel.tv_sec = (time_t)(left / 1000000000u);\n"
     "\t\trel.tv_nsec = (long)(left % 1000000000u);",
     "\t\trel.tv_sec = (time_t)((left + 999999999u) / 1000000000u);\n"
     "\t\trel.tv_nsec = 0;"),
    ("pthread_condvar_realtime",
     "pthread condvar wait: the condition variable waits on CLOCK_REALTIME"
     " (the deadline is a CLOCK_MONOTONIC time)",
     PTHREAD_H,
     "pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);",
     "pthread_condattr_setclock(&attr, CLOCK_REALTIME);"),
    ("arm_no_sev",
     "bare-metal WFE wake: no SEV",
     ARM_H,
     "\t\tCOUPLED_ARM_SEV();",
     "\t\t(void)0;"),
    ("arm_wfe_wake_no_dsb",
     "bare-metal WFE wake: SEV without the DSB before it",
     ARM_H,
     "\t\tCOUPLED_ARM_DSB();\n\t\tCOUPLED_ARM_SEV();",
     "\t\tCOUPLED_ARM_SEV();"),
    ("arm_wfi_wake_no_dsb",
     "bare-metal WFI wake: the SGI without the DSB after the increment",
     ARM_H,
     "\tCOUPLED_ARM_DSB();\n\tif (ag->ipi.send) {",
     "\tif (ag->ipi.send) {"),
    ("arm_wfi_no_irq_mask",
     "bare-metal WFI wait: the check and WFI with IRQs not masked",
     ARM_H,
     "\tflags = COUPLED_ARM_IRQ_SAVE();",
     "\tflags = 0;"),
    ("arm_wait_sleeps_through_deadline",
     "bare-metal wait: rests in WFE or WFI although a deadline is set"
     " (nothing wakes it there at the deadline)",
     ARM_H,
     "\tif (deadline != 0u) {\n\t\tCOUPLED_ARM_YIELD();\n\t\treturn;\n\t}\n",
     "\t(void)deadline;\n"),
    ("riscv_wake_no_fence",
     "bare-metal RISC-V wake: the MSIP store without FENCE w,o after the"
     " increment",
     RISCV_H,
     "\tCOUPLED_RISCV_FENCE_W_O();\n",
     ""),
    ("riscv_wake_no_msip",
     "bare-metal RISC-V wake: no MSIP is sent",
     RISCV_H,
     "\tCOUPLED_RISCV_FENCE_W_O();\n\tcoupled__riscv_msip(",
     "\tCOUPLED_RISCV_FENCE_W_O();\n\treturn;\n\tcoupled__riscv_msip("),
    ("riscv_wake_to_participant_id",
     "bare-metal RISC-V wake: the MSIP of the hart numbered by the target's"
     " participant id, not of its hart (coupled_riscv_set_hart())",
     RISCV_H,
     "\tcoupled__riscv_msip(ag, target->hart, 1u);",
     "\tcoupled__riscv_msip(ag, target_id, 1u);"),
    ("riscv_wait_sleeps_through_deadline",
     "bare-metal RISC-V wait: rests in WFI although a deadline is set"
     " (nothing wakes it there at the deadline)",
     RISCV_H,
     "\tif (deadline != 0u || ag->strategy != COUPLED_RISCV_WAIT_WFI) {",
     "\t(void)deadline;\n\tif (ag->strategy != COUPLED_RISCV_WAIT_WFI) {"),
    ("riscv_wfi_no_mie_clear",
     "bare-metal RISC-V WFI wait: the check and WFI with mstatus.MIE as"
     " the caller had it",
     RISCV_H,
     "\tflags = COUPLED_RISCV_IRQ_SAVE();",
     "\tflags = COUPLED__RISCV_MSTATUS_MIE;"),
    ("riscv_clear_no_fence",
     "bare-metal RISC-V WFI wait (MIE clear): the own MSIP cleared without"
     " FENCE o,r before the next read of the counter",
     RISCV_H,
     "\tcoupled__riscv_msip(ag, as->hart, 0u);\n\tCOUPLED_RISCV_FENCE_O_R();",
     "\tcoupled__riscv_msip(ag, as->hart, 0u);"),
    ("linux_wake_ignores_busy",
     "kernel wake: sends the call even when one is in flight",
     LINUX_H,
     "\tif (!atomic_xchg(&target->busy, 1)) {",
     "\tif ((void)atomic_xchg(&target->busy, 1), 1) {"),
    ("linux_handler_keeps_busy",
     "kernel IPI handler: does not give the descriptor back",
     LINUX_H,
     "\t(void)atomic_xchg(&as->busy, 0);",
     "\t(void)as;"),
]

ORDER_RE = re.compile(r"COUPLED_(RELEASE|ACQUIRE|ACQ_REL|SEQ_CST)\b")
FUNC_RE = re.compile(r"^static (?:inline|__always_inline) .*?\b(\w+)\(")
# A definition whose name starts the line after "static inline <type>".
FUNC_NAME_RE = re.compile(r"^(\w+)\(")
# An atomic call and its first argument (the object it operates on).
OP_RE = re.compile(
    r"coupled_(load|store|fetch_add|fetch_sub|exchange|cas)\(\s*([^,]+),")


def weakenings(order, op):
    """The weaker orders to try for one occurrence."""
    if order == "RELEASE" or order == "ACQUIRE":
        return ["RELAXED"]
    if order == "ACQ_REL":
        return ["ACQUIRE", "RELEASE"]
    # seq_cst: the strongest order still valid for the operation.
    if op == "store":
        return ["RELEASE"]
    if op == "load":
        return ["ACQUIRE"]
    return ["ACQ_REL"]


def code_lines(rel):
    """Yield (index, line, code, function) of a header, comments blanked.

    Blanking keeps columns, so a column found in code is one in the line.
    Preprocessor lines are skipped (definitions, not uses).
    """
    with open(os.path.join(ROOT, rel)) as f:
        lines = f.read().split("\n")
    func = "?"
    in_comment = False
    for i, line in enumerate(lines):
        m = FUNC_RE.match(line)
        if m:
            func = m.group(1)
        elif i and lines[i - 1].startswith("static ") and \
                "(" not in lines[i - 1]:
            m = FUNC_NAME_RE.match(line)
            if m:
                func = m.group(1)
        code = line
        if in_comment:
            if "*/" not in code:
                continue
            end = code.index("*/") + 2
            code = " " * end + code[end:]
            in_comment = False
        code = re.sub(r"/\*.*?\*/", lambda x: " " * len(x.group(0)), code)
        if "/*" in code:
            code = code[:code.index("/*")]
            in_comment = True
        code = code.split("//", 1)[0]
        if code.lstrip().startswith("#"):
            continue
        yield i, line, code, func, lines


def short(rel):
    return SHORT.get(rel, os.path.splitext(os.path.basename(rel))[0])


# Kernel ordering primitives and their weakenings.
KERNEL_RE = re.compile(
    r"\b(smp_mb\(\)|atomic_read_acquire\(|atomic_set_release\(|"
    r"atomic_(fetch_add|xchg|try_cmpxchg)(_relaxed|_acquire|_release)?\()")


def kernel_weakenings(m):
    tok = m.group(0)
    if tok == "smp_mb()":
        return [("((void)0)", "smp_mb removed")]
    if tok == "atomic_read_acquire(":
        return [("atomic_read(", "read_acquire>read")]
    if tok == "atomic_set_release(":
        return [("atomic_set(", "set_release>set")]
    op, suffix = m.group(2), m.group(3)
    base = "atomic_" + op
    if suffix is None:
        return [(base + "_acquire(", "%s>%s_acquire" % (op, op)),
                (base + "_release(", "%s>%s_release" % (op, op))]
    if suffix in ("_acquire", "_release"):
        return [(base + "_relaxed(", "%s%s>%s_relaxed" % (op, suffix, op))]
    return []


def kernel_mutants():
    """Scan the kernel adapter for ordering primitives in code."""
    mutants = []
    for rel in KERNEL_FILES:
        for i, line, code, func, _ in code_lines(rel):
            for m in KERNEL_RE.finditer(code):
                for new, what in kernel_weakenings(m):
                    mutants.append({
                        "name": "%s:%s:%s" % (short(rel), func, what),
                        "kind": "order",
                        "desc": "%s, %s(): %s" % (
                            rel, func, what.replace(">", " -> ")),
                        "file": rel, "line": i, "col": m.start(),
                        "old": m.group(0), "new": new,
                    })
    return mutants


def order_mutants():
    """Scan the C11 headers for memory orders in code (not comments)."""
    mutants = []
    for rel in CORE_FILES + C11_ADAPTER_FILES:
        for i, line, code, func, lines in code_lines(rel):
            for m in ORDER_RE.finditer(code):
                # The statement this order belongs to: this line and up to
                # two before it (calls are wrapped).
                ctx = " ".join(lines[max(0, i - 2):i + 1])
                ops = OP_RE.findall(ctx)
                op, obj = ops[-1] if ops else ("?", "?")
                field = re.findall(r"\w+", obj)[-1]
                if op == "cas" and m.group(1) != "RELAXED" and \
                        code[m.end():].lstrip().startswith(")"):
                    continue  # a CAS failure order; only success is tried
                col = m.start()
                for weaker in weakenings(m.group(1), op):
                    name = "%s:%s:%s:%s>%s" % (
                        short(rel), func,
                        field, m.group(1).lower(), weaker.lower())
                    mutants.append({
                        "name": name,
                        "kind": "order",
                        "desc": "%s, %s(): %s %s of %s weakened to %s" % (
                            rel, func, op, m.group(1).lower(), field,
                            weaker.lower()),
                        "file": rel, "line": i, "col": col,
                        "old": m.group(0), "new": "COUPLED_" + weaker,
                    })
    mutants += kernel_mutants()
    # Disambiguate names used twice (two loads of one field in a function).
    seen = {}
    for m in mutants:
        seen[m["name"]] = seen.get(m["name"], 0) + 1
    count = {}
    for m in mutants:
        if seen[m["name"]] > 1:
            count[m["name"]] = count.get(m["name"], 0) + 1
            m["name"] += "#%d" % count[m["name"]]
    return mutants


# Mutants no check of this suite kills yet, each with what does kill it or
# what would.  Reported loudly in every run, never silently; a known survivor
# that gets killed fails the run until it is taken off this list.  Every entry
# is an open item of the project (docs/verification.md, mutation section).
KNOWN_SURVIVORS = {
    # Empty: the last four (the direct arrival's acquire loads of the
    # member count and flag, the changers' lock) are killed by the Relacy
    # scenarios remove_inside and next_changer.  Format:
    # "mutant name": "what kills it or would, and why nothing does yet",
}


def logic_mutants():
    return [{"name": n, "kind": "logic", "desc": d, "file": f, "old": o,
             "new": w} for (n, d, f, o, w) in LOGIC_MUTANTS]


def stale_mutants(mutants):
    """Say which named mutants' texts do not occur exactly once."""
    stale = []
    for m in mutants:
        if m["kind"] != "logic":
            continue
        with open(os.path.join(ROOT, m["file"])) as f:
            text = f.read()
        olds = m["old"] if isinstance(m["old"], list) else [m["old"]]
        for old in olds:
            n = text.count(old)
            if n != 1:
                stale.append("mutant %s: pattern found %d times in %s"
                             % (m["name"], n, m["file"]))
    return stale


def apply_mutant(mutant, copy):
    """Write the mutated file into copy (holding include/ and adapters/)."""
    rel = mutant["file"]
    path = os.path.join(copy, rel)
    with open(path) as f:
        text = f.read()
    if mutant["kind"] == "logic":
        olds, news = mutant["old"], mutant["new"]
        if not isinstance(olds, list):
            olds, news = [olds], [news]
        for old, new in zip(olds, news):
            n = text.count(old)
            if n != 1:
                raise RuntimeError("mutant %s: pattern found %d times in %s "
                                   "(the header changed; update the mutant)"
                                   % (mutant["name"], n, rel))
            text = text.replace(old, new)
    else:
        lines = text.split("\n")
        line = lines[mutant["line"]]
        col = mutant["col"]
        assert line[col:col + len(mutant["old"])] == mutant["old"]
        lines[mutant["line"]] = (line[:col] + mutant["new"] +
                                 line[col + len(mutant["old"]):])
        text = "\n".join(lines)
    with open(path, "w") as f:
        f.write(text)


# The exit status of a test program that skipped (ctest SKIP_RETURN_CODE).
SKIPPED = 77


def run(cmd, timeout, env=None):
    """Run cmd; return (ok, one-line detail); ok is None if it skipped."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout,
                           env=env, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return False, "timed out after %d s" % timeout
    out = p.stdout.decode(errors="replace").strip().split("\n")
    if p.returncode == 0:
        return True, ""
    if p.returncode == SKIPPED:
        return None, "skipped: " + (out[-1].strip()[:160] if out else "")
    # Relacy: which check failed, and how (its first report line).
    fail = [l.strip() for l in out if l.startswith("FAIL: ")]
    how = [re.sub(r"^\[\d+\] \d+: ", "", l.strip())
           for l in out if re.search(r"DEADLOCK|LIVELOCK|DATA RACE|"
                                     r"RESOURCE LEAK|ASSERT FAILED", l)]
    if fail and how:
        return False, ("%s: %s" % (fail[0], how[0])).replace(
            ROOT + "/", "")[:160]
    # The most telling line: a failed CHECK, an assertion, or the last one.
    for pattern in (r"CHECK failed|stepctl:|RL_ASSERT|assert|did not return",
                    r"FAIL|failed|violat|error|timed out|ABOVE BOUND"):
        for line in out:
            if re.search(pattern, line, re.I):
                return False, line.strip().replace(ROOT + "/", "")[:160]
    return False, (out[-1].strip()[:160] if out and out[-1] else
                   "exit status %d" % p.returncode)


# The Relacy programs' optimization: -Og, not the ctest builds' -O1.  Relacy
# simulates every atomic and plain access itself, so the executions it
# explores, and what it reports, do not depend on the level (the quick runs
# of relacy_coupled, relacy_domain and the adapters' programs print the same
# at -O0, -Og and -O1); -Og compiles in about 60% of -O1's time and runs a
# full program 10 to 40% slower, and a mutant pays one build per program but
# mostly a short run (it stops at its first failing run, its recorded
# killer's run first).
RELACY_OPT = "-Og"

# The adapters' Relacy programs: source, adapter include directory, extra
# includes.  The kernel atomics back-end is checked by the Linux adapter's.
ADAPTER_RELACY = {
    PTHREAD_H: ("tests/verify/relacy/relacy_pthread.cpp",
                "adapters/pthread/include", []),
    ARM_H: ("tests/verify/relacy/relacy_arm.cpp", "adapters/baremetal-arm/include",
            []),
    RISCV_H: ("tests/verify/relacy/relacy_riscv.cpp",
              "adapters/baremetal-riscv/include", []),
    LINUX_H: ("tests/verify/relacy/relacy_linux.cpp", "adapters/linux/include",
              ["tests/verify/relacy/kshim"]),
}
ADAPTER_RELACY[KATOMIC_H] = ADAPTER_RELACY[LINUX_H]
# One of each program, for mutants of the core.
ADAPTER_PROGRAMS = [PTHREAD_H, ARM_H, RISCV_H, LINUX_H]
# The core's Relacy scenarios, with their changer threads (relacy_shape()).
RELACY_SCENARIO_LIST = "tests/verify/relacy/relacy_scenarios.def"
# The domains' Relacy program, and their C tests (each run if present).
DOMAIN_RELACY = "tests/verify/relacy/relacy_domain.cpp"
# The domain scenarios: the one list that test_domain_scenario.c and
# tests/core/domain/CMakeLists.txt read too.
DOMAIN_SCENARIO_LIST = "tests/core/domain/domain_scenarios.def"


def domain_scenario_names():
    """The names of domain_scenarios.def, in its order (none if absent)."""
    path = os.path.join(ROOT, DOMAIN_SCENARIO_LIST)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [m.group(1) for m in
                (re.match(r"^DOMAIN_SCENARIO\(([a-z0-9_]+)\)$", line.strip())
                 for line in f) if m]


# Each C test with the runs the check makes of it (a smaller share of the
# ctest rows: 2- and 3-level trees, the churn, a changer thread (a thread
# that is no core takes cores out and back while they call), every scenario
# per strategy).
DOMAIN_C_TESTS = {
    "tests/core/domain/test_domain_stress.c": [
        ["--clusters", "2,2", "--leaf", "0", "--strategy", "futex",
         "--calls", "20000", "--seed", "1"],
        ["--clusters", "2,3,4,2", "--leaf", "2", "--strategy", "futex",
         "--calls", "3000", "--seed", "4"],
        ["--clusters", "4,4", "--leaf", "2", "--strategy", "futex",
         "--calls", "5000", "--churn", "--seed", "5"],
        ["--clusters", "2,2", "--leaf", "0", "--strategy", "futex",
         "--calls", "5000", "--changer", "--seed", "6"],
    ],
    "tests/core/domain/test_domain_scenario.c": [
        [name, strategy]
        for name in domain_scenario_names()
        for strategy in ("futex", "condvar")],
}


# The stress check: threaded rounds with aborts, work and membership
# changes, every committed round checked (tests/core/stress/test_stress.c);
# one run per line below, each a kill if it fails or hangs.  Futex only:
# spinning threads on a loaded machine can exceed the limit unmutated.
# A hang: STRESS_HANG_X times the median unmutated run of the baseline, at
# least STRESS_LIMIT_S (they take a few seconds; several mutants are killed
# by the limit, so it is kept short).  On a 2-core machine loaded 8 times
# over by other test runs the unmutated --changer run went past 30 s: there
# the limit grows with the baseline (whose own runs get
# STRESS_BASELINE_LIMIT_S), so that a mutant that is only slow is no kill.
# The median, not the slowest: one run of 13 s among runs of 1.5 s set the
# limit to 133 s, and the seven mutants killed by a hang then cost 700 s.
STRESS_LIMIT_S = 30
STRESS_HANG_X = 10
STRESS_BASELINE_LIMIT_S = 300
STRESS_ARGS = ["--threads", "4", "--rounds", "20000", "--abort-pct", "10",
               "--work-pct", "10"]
# The arm_model check: the deadline application on the event model, one
# build per wait strategy and protocol.
ARM_MODEL_RUNS = [
    ("wfe", ["-DDEADLINE_SGI=0", "-DCOUPLED_ARM_WFE_ONLY=0"]),
    ("wfi-sgi", ["-DDEADLINE_SGI=1", "-DCOUPLED_ARM_WFE_ONLY=0"]),
    ("direct-wfe", ["-DDEADLINE_SGI=0", "-DCOUPLED_ARM_WFE_ONLY=1"]),
]
STRESS_RUNS = [["--strategy", "futex", "--changer"],
               ["--strategy", "futex", "--churn"]]


def verdict(ok, why):
    """A run's (ok, detail) as a check's (status, detail)."""
    if ok is None:
        return "skip", why
    return ("pass", "") if ok else ("fail", why)


def relacy_runs(exe, shapes, timeout, env=None, first=None):
    """Run a Relacy program's checks one at a time; (status, detail, run).

    What "exe all" runs, one process per run: every name of "exe list",
    with each of shapes (the participant counts or trees, [[]] for the
    adapters' programs, whose runs take a name only), in that order but the
    run first (a key as returned) first.  It stops at the first failing run
    (a kill needs only one), which it returns as its key; a run that exits
    77 skipped.  timeout bounds the whole program, as for one "all" run.
    """
    deadline = time.time() + timeout
    try:
        p = subprocess.run([exe, "list"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=60, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return "fail", "%s list: timed out" % os.path.basename(exe), ""
    names = p.stdout.decode(errors="replace").split()
    if p.returncode != 0 or not names:
        return "fail", "%s list: exit status %d" % (
            os.path.basename(exe), p.returncode), ""
    runs = [[n] + shape for n in names for shape in shapes]
    runs.sort(key=lambda r: ":".join(r) != first)
    ran = 0
    for r in runs:
        left = deadline - time.time()
        if left <= 0:
            return "fail", "timed out after %d s" % timeout, ":".join(r)
        ok, why = run([exe] + r, left, env)
        if ok is None:
            continue
        if not ok:
            return "fail", why, ":".join(r)
        ran += 1
    if not ran:
        return "skip", "every run of %s skipped" % os.path.basename(exe), ""
    return "pass", "", ""


def relacy_shape(key):
    """The compile options of a relacy_coupled build of just key's run.

    key: "scenario:2p" or "scenario:3p" (a killer map's run); the shape is
    the participant count and the scenario's changer threads (the third
    field of relacy_scenarios.def), or the publish test's own.  None when
    key names no such run.
    """
    m = re.match(r"^(\w+):([23])p$", key or "")
    if not m:
        return None
    if m.group(1) == "publish":
        n, extra = 0, 0
    else:
        with open(os.path.join(ROOT, RELACY_SCENARIO_LIST),
                  encoding="utf-8") as f:
            found = re.search(r"^SCENARIO\(\w+, %s, (\d+)," % m.group(1),
                              f.read(), re.M)
        if not found:
            return None
        n, extra = int(m.group(2)), min(int(found.group(1)), 1)
    return ["-DCOUPLED_RELACY_ONLY_N=%d" % n,
            "-DCOUPLED_RELACY_ONLY_EXTRA=%d" % extra]


# The direct builds give the word's line 2 entries (9 by default), so that
# the checks' groups of 3 and more members publish in the line and in their
# slots both, and a group of 2 in the line alone.
DIRECT_LINE = "-DCOUPLED_DIRECT_LINE_REQUESTS=2"


def variant_defines(variant):
    """The compiler options that force a protocol variant."""
    return ["-D%s=1" % VARIANTS[variant]] + (
        [DIRECT_LINE] if variant == "direct" else [])


class Checks:
    """Builds and runs the checks against one copy of include/ and adapters/.

    A check of the core is named check/variant (unit/direct,
    relacy/settled, ...): built with that variant forced by its compile
    definition.  The adapters' own Relacy programs (adapter) run the variant
    their adapter selects.
    """

    def __init__(self, args):
        self.cc = args.cc
        self.cxx = args.cxx
        self.variants = args.variants
        # The stress runs' limit for mutants (set from the baseline), and
        # the baseline's stress runs' times.
        self.stress_limit = STRESS_LIMIT_S
        self.stress_base = []
        self.relacy = None
        self.relacy_why = ""
        src = os.path.join(ROOT, "tests/verify/relacy/relacy_coupled.cpp")
        if not os.path.exists(src):
            self.relacy_why = "tests/verify/relacy/relacy_coupled.cpp is missing"
        elif not any(os.path.exists(os.path.join(d, "relacy/relacy.hpp"))
                     for d in ("/usr/include", "/usr/local/include")):
            self.relacy_why = "Relacy is not installed (Debian: relacy-dev)"
        else:
            self.relacy = src

    def names(self):
        """Every check, for the baseline and --all-checks."""
        names = ["adapter", "wait", "arm_model"]
        for v in self.variants:
            names += ["%s/%s" % (c, v)
                      for c in ("unit", "stress", "scenarios", "focused",
                                "relacy", "deadline", "domain", "domain_c")]
        return names

    def build_c(self, copy, out, src, variant, extra=()):
        cmd = [self.cc, "-std=c11", "-O2", "-g0", "-pthread",
               "-DCOUPLED_ADAPTER_PTHREAD", "-D_DEFAULT_SOURCE",
               "-DCOUPLED_STATS", *variant_defines(variant),
               "-I", os.path.join(copy, "include"),
               "-I", os.path.join(copy, "adapters/pthread/include"),
               "-I", os.path.join(ROOT, "tests/common"),
               "-I", os.path.join(ROOT, "tests/core/scenario")] + list(extra) + \
              [os.path.join(ROOT, src), "-o", out]
        return run(cmd, 300)

    def arm_model(self, copy, work):
        """The ARM deadline application on the host event model."""
        arm = "tests/adapters/baremetal-arm"
        for label, defs in ARM_MODEL_RUNS:
            exe = os.path.join(work, "arm-deadline-" + label)
            cmd = [self.cc, "-std=c11", "-O2", "-g0", "-pthread",
                   "-DCOUPLED_ADAPTER_BAREMETAL_ARM", "-DCOUPLED_STATS",
                   "-I", os.path.join(copy, "include"),
                   "-I", os.path.join(copy, "adapters/baremetal-arm/include"),
                   "-I", os.path.join(ROOT, arm, "event_model"),
                   "-I", os.path.join(ROOT, "tests/common")] + defs + \
                [os.path.join(ROOT, arm, "deadline/deadline.c"),
                 os.path.join(ROOT, arm, "event_model/model_board.c"),
                 "-o", exe]
            ok, why = run(cmd, 300)
            if not ok:
                return "fail", "build: " + why
            ok, why = run([exe, "--cpus", "1"], 60)
            if ok is None:
                return "skip", why
            if not ok:
                return "fail", "%s: %s" % (label, why)
        return "pass", ""

    def relacy_program(self, copy, work, header, first=None):
        """Build and run one adapter's Relacy program; (status, detail, run)."""
        src, adir, extra = ADAPTER_RELACY[header]
        exe = os.path.join(work, os.path.basename(src).replace(".cpp", ""))
        cmd = [self.cxx, "-std=c++17", RELACY_OPT, "-g0", "-w",
               "-I", os.path.join(copy, "include"),
               "-I", os.path.join(copy, adir)]
        for d in extra:
            cmd += ["-I", os.path.join(ROOT, d)]
        cmd += ["-I", os.path.join(ROOT, "tests/verify/relacy"),
                os.path.join(ROOT, src), "-o", exe]
        ok, why = run(cmd, 600)
        if not ok:
            return "fail", "build: " + why, ""
        return relacy_runs(exe, [[]], 900, first=first)

    def domain_c(self, copy, work, variant):
        """The domain C tests present in the tree; (status, detail)."""
        ran = 0
        for src in DOMAIN_C_TESTS:
            if not os.path.exists(os.path.join(ROOT, src)):
                print("mutation: domain_c/%s: %s is not in the tree, not run"
                      % (variant, src), flush=True)
                continue
            exe = os.path.join(work, "%s-%s" % (
                os.path.basename(src)[:-2], variant))
            ok, why = self.build_c(copy, exe, src, variant,
                                   ["-I", os.path.join(ROOT,
                                                       "tests/core/domain"),
                                    "-DSTEPCTL_LIMIT_S=5"])
            if not ok:
                return "fail", "build: " + why
            for args in DOMAIN_C_TESTS[src]:
                ok, why = run([exe] + args, 120)
                if ok is None:
                    continue
                if not ok:
                    return "fail", "%s %s: %s" % (
                        os.path.basename(src), " ".join(args), why)
                ran += 1
        if not ran:
            return "skip", "no domain C test (%s) ran" % ", ".join(
                os.path.basename(s) for s in DOMAIN_C_TESTS)
        return "pass", ""

    def check(self, name, copy, work, mutant, first=None):
        """Return (status, detail[, run]): status is pass, fail or skip.

        The Relacy checks (relacy, domain, adapter) run their programs one
        run at a time, first the run keyed first (a killer map's), and say
        which run failed (run, its key).
        """
        base, _, variant = name.partition("/")
        if base not in ("adapter", "wait", "arm_model") and \
                variant not in VARIANTS:
            raise ValueError(name)
        if base == "wait":
            # No protocol in them: built once, with the default variant.
            # The spin policy's scripted test first (instant), then the
            # timed sleeps.
            for prog in ("test_adapter_spin", "test_adapter_wait"):
                exe = os.path.join(work, prog)
                ok, why = self.build_c(copy, exe,
                                       "tests/core/deadline/%s.c" % prog,
                                       "direct")
                if not ok:
                    return "fail", "build: " + why
                ok, why = run([exe], 120)
                if ok is not True:
                    return verdict(ok, "%s: %s" % (prog, why))
            return "pass", ""
        if base == "arm_model":
            return self.arm_model(copy, work)
        tag = variant
        # The C programs that run once: source, extra flags, arguments and
        # time limit.
        one_shot = {
            "unit": ("tests/core/unit/test_unit.c", [], [], 60),
            "scenarios": ("tests/core/scenario/test_scenario.c",
                          ["-DSTEPCTL_LIMIT_S=5"], ["all", "futex"], 600),
            "focused": ("tests/verify/mutation/focused_scenarios.c",
                        ["-DSTEPCTL_LIMIT_S=5"], ["all", "futex"], 300),
        }
        if base in one_shot:
            src, flags, argv, limit = one_shot[base]
            exe = os.path.join(work, base + "-" + tag)
            ok, why = self.build_c(copy, exe, src, variant, flags)
            if not ok:
                return "fail", "build: " + why
            ok, why = run([exe] + argv, limit)
            return verdict(ok, why)
        if base == "stress":
            exe = os.path.join(work, "stress-" + tag)
            ok, why = self.build_c(copy, exe,
                                   "tests/core/stress/test_stress.c", variant)
            if not ok:
                return "fail", "build: " + why
            for extra in STRESS_RUNS:
                start = time.time()
                ok, why = run([exe] + STRESS_ARGS + extra,
                              self.stress_limit if mutant else
                              STRESS_BASELINE_LIMIT_S)
                if not mutant:
                    self.stress_base.append(time.time() - start)
                if ok is None:
                    return "skip", why
                if not ok:
                    return "fail", "%s: %s" % (" ".join(extra), why)
            return "pass", ""
        if base == "deadline":
            exe = os.path.join(work, "deadline-" + tag)
            ok, why = self.build_c(copy, exe,
                                   "tests/core/deadline/test_deadline.c",
                                   variant)
            if not ok:
                return "fail", "build: " + why
            ok, why = run([exe, "--calls", "24", "--bound-ms", "50"], 300)
            return verdict(ok, why)
        if base == "domain_c":
            return self.domain_c(copy, work, variant)
        if base in ("relacy", "adapter", "domain") and not self.relacy:
            return "skip", self.relacy_why
        if base == "domain":
            exe = os.path.join(work, "relacy-domain-" + tag)
            cmd = [self.cxx, "-std=c++17", RELACY_OPT, "-g0", "-w",
                   *variant_defines(variant),
                   "-I", os.path.join(copy, "include"),
                   "-I", os.path.join(ROOT, "tests/verify/relacy"),
                   os.path.join(ROOT, DOMAIN_RELACY), "-o", exe]
            ok, why = run(cmd, 600)
            if not ok:
                return "fail", "build: " + why
            env = dict(os.environ, COUPLED_RELACY_QUICK="1")
            return relacy_runs(exe, [["1+1"], ["2+1"]], 600, env, first)
        if base == "relacy":
            exe = os.path.join(work, "relacy-" + tag)
            cmd = [self.cxx, "-std=c++17", RELACY_OPT, "-g0", "-w",
                   *variant_defines(variant),
                   "-I", os.path.join(copy, "include"),
                   "-I", os.path.join(ROOT, "tests/verify/relacy"), self.relacy,
                   "-o", exe]
            env = dict(os.environ, COUPLED_RELACY_QUICK="1")
            shape = relacy_shape(first)
            if shape:
                # The recorded killer run alone, in a build of its shape
                # (about half the build); a pass, a skip or a build error
                # there goes on to the whole program, where it counts.
                ok, why = run(cmd[:-2] + shape + ["-o", exe + "-one"], 600)
                if ok:
                    ok, why = run([exe + "-one"] + first.split(":"), 900,
                                  env)
                    if ok is False:
                        return "fail", why, first
            ok, why = run(cmd, 600)
            if not ok:
                return "fail", "build: " + why
            return relacy_runs(exe, [["2p"], ["3p"]], 900, env, first)
        if base == "adapter":
            headers = ([mutant["file"]] if mutant and
                       mutant["file"] in ADAPTER_RELACY
                       else ADAPTER_PROGRAMS)
            for header in headers:
                res = self.relacy_program(copy, work, header, first)
                if res[0] != "pass":
                    return res
            return "pass", ""
        raise ValueError(name)


def mutant_variants(mutant, variants):
    """The protocol variants whose builds compile the mutated code."""
    rel = mutant["file"]
    if rel in VARIANT_OF_FILE:
        return [v for v in variants if v == VARIANT_OF_FILE[rel]]
    return list(variants)


def check_order(mutant, variants):
    """The checks a mutant runs, most likely killer first.

    The core's checks run once per variant that compiles the mutated code
    (direct first, the default of the host adapters, then settled): a
    mutant of direct.h only against direct builds, of settled.h and word.h
    only against settled ones, of the common files against both, stopping
    at the first kill.
    """
    rel = mutant["file"]
    vs = mutant_variants(mutant, variants)
    if rel == PTHREAD_H:
        return ["adapter", "wait"] + ["%s/%s" % (c, v) for v in vs
                              for c in ("unit", "stress", "scenarios",
                                        "deadline")]
    if rel == ARM_H:
        return ["adapter", "arm_model"]
    if rel in ADAPTER_RELACY:
        return ["adapter"]
    if rel in DOMAIN_FILES:
        # Only the domain checks compile them.
        return ["%s/%s" % (c, v) for v in vs for c in ("domain", "domain_c")]
    # group.h holds coupled_group_kick(), which only the domains call.
    domain = ["domain/%s" % v for v in vs] if rel == GROUP_H else []
    if mutant["kind"] == "logic":
        return ["%s/%s" % (c, v) for v in vs
                for c in ("unit", "stress", "scenarios", "focused",
                          "relacy")] + domain
    return (["relacy/%s" % v for v in vs] +
            ["%s/%s" % (c, v) for v in vs
             for c in ("unit", "stress", "scenarios", "focused")] + domain)


KILLERS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "killers.txt")


def read_killers():
    """{mutant: (check, run)} from the killer map; {} if there is none.

    run is the key of the Relacy run that failed ("scenario:3p", ...), ""
    for the other checks.  The fields are tab separated: a mutant's name
    can hold a space ("...:smp_mb removed").
    """
    killers = {}
    if not os.path.exists(KILLERS_FILE):
        return killers
    with open(KILLERS_FILE, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            fields = [x.strip() for x in line.rstrip("\n").split("\t")]
            if len(fields) in (2, 3) and all(fields):
                killers[fields[0]] = (fields[1], (fields + [""])[2])
    return killers


def write_killers(killers):
    """Write the killer map, one "mutant<TAB>check[<TAB>run]" line each."""
    with open(KILLERS_FILE, "w", encoding="utf-8") as f:
        f.write("# The killer map of run_mutants.py: per mutant, the check that\n"
                "# killed it in the last full run and, for a Relacy check, the\n"
                "# run that failed; they run first.  Tab separated.\n"
                "# Regenerate with:\n"
                "#   python3 tests/verify/mutation/run_mutants.py"
                " --update-killers\n")
        for name in sorted(killers):
            f.write("\t".join((name,) + tuple(
                x for x in killers[name] if x)) + "\n")


def killer_first(order, recorded):
    """ORDER with the recorded killer moved to the front (if it is in it)."""
    if recorded in order:
        return [recorded] + [c for c in order if c != recorded]
    return order


def evaluate(checks, mutant, order, all_checks, keep, first=None):
    """Run the checks of order against a copy with the mutant applied.

    first: (check, run), the recorded killer; that check runs that run
    first.  The result's killers are the failing checks, runs their
    failing runs' keys.
    """
    work = tempfile.mkdtemp(prefix="coupled-mutant-")
    copy = os.path.join(work, "src")
    for d in ("include", "adapters"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(copy, d))
    result = {"mutant": mutant, "killers": [], "detail": "", "skipped": [],
              "details": {}, "runs": {},
              "seconds": 0.0}
    start = time.time()
    try:
        if mutant:
            apply_mutant(mutant, copy)
        for name in order:
            res = checks.check(name, copy, work, mutant,
                               first[1] if first and first[0] == name
                               else None)
            status, detail = res[0], res[1]
            if status == "skip":
                result["skipped"].append(name)
                continue
            if status == "fail":
                result["killers"].append(name)
                result["details"][name] = detail
                result["runs"][name] = res[2] if len(res) > 2 else ""
                if not result["detail"]:
                    result["detail"] = detail
                if mutant and not all_checks:
                    break
    finally:
        result["seconds"] = time.time() - start
        if keep:
            print("kept %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="list the mutants")
    ap.add_argument("--only", help="run the mutants whose name matches")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--all-checks", action="store_true",
                    help="run every check on every mutant")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--update-killers", action="store_true",
                    help="rewrite the killer map (killers.txt) from this run")
    ap.add_argument("--keep", action="store_true",
                    help="keep the mutated copies (prints their paths)")
    ap.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help="the protocol variants whose builds run, comma"
                    " separated (default: %(default)s); a mutant that only"
                    " the others compile is left out, and said so")
    ap.add_argument("--without", default="",
                    help="checks left out, comma separated (e.g."
                    " relacy/direct): said in the output, never silent")
    args = ap.parse_args()
    wanted = [v for v in args.variants.split(",") if v]
    bad = [v for v in wanted if v not in VARIANTS]
    args.variants = [v for v in VARIANTS if v in wanted]
    if bad or not args.variants:
        ap.error("--variants: unknown or none: %s (known: %s)"
                 % (",".join(bad), ",".join(VARIANTS)))

    mutants = logic_mutants() + order_mutants()
    if args.only:
        mutants = [m for m in mutants if re.search(args.only, m["name"])]
    left_out = [m for m in mutants
                if m["file"] not in ADAPTER_RELACY and
                not mutant_variants(m, args.variants)]
    if left_out:
        print("mutation: %d mutants left out (only the %s variant, not"
              " selected, compiles them): %s"
              % (len(left_out), "/".join(sorted(
                  {VARIANT_OF_FILE[m["file"]] for m in left_out})),
                 " ".join(m["name"] for m in left_out)))
        mutants = [m for m in mutants if m not in left_out]
    if args.list:
        stale = stale_mutants(mutants)
        for m in mutants:
            print("%-48s %s" % (m["name"], m["desc"]))
        for why in stale:
            print("mutation: %s" % why)
        return 1 if stale else 0

    checks = Checks(args)
    without = [c for c in args.without.split(",") if c]
    bad = [c for c in without if c not in checks.names()]
    if bad:
        ap.error("--without: unknown checks %s (known: %s)"
                 % (",".join(bad), ",".join(checks.names())))
    if without:
        print("mutation: checks LEFT OUT by --without: %s" % ", ".join(without))

    killers = read_killers()

    def order_of(m):
        order = checks.names() if args.all_checks else \
            killer_first(check_order(m, args.variants),
                         killers.get(m["name"], ("", ""))[0])
        return [c for c in order if c not in without]
    if checks.relacy is None:
        print("mutation: relacy check skipped: %s" % checks.relacy_why)

    t0 = time.time()
    # The baseline: every check once on the unmodified tree, in parallel.
    base = {"killers": [], "skipped": [], "details": {}, "seconds": 0.0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        parts = list(ex.map(
            lambda c: evaluate(checks, None, [c], True, False),
            [c for c in checks.names() if c not in without]))
    for part in parts:
        base["killers"] += part["killers"]
        base["skipped"] += part["skipped"]
        base["details"].update(part["details"])
    base["seconds"] = time.time() - t0
    if base["killers"]:
        # A check that cannot even pass unmutated would kill every mutant
        # (a variant whose tests are missing, say): an error, never a pass.
        for name in base["killers"]:
            print("mutation: the unmodified tree FAILS %s: %s"
                  % (name, base["details"][name]))
        print("mutation: every check must pass on the unmodified tree;"
              " --variants restricts the protocol variants checked")
        return 1
    for name in base["skipped"]:
        print("mutation: check %s SKIPPED on the unmodified tree (it can"
              " kill no mutant)" % name)
    print("mutation: baseline passes every check (%.0f s)" % base["seconds"])
    if checks.stress_base:
        base_s = statistics.median(checks.stress_base)
        checks.stress_limit = max(STRESS_LIMIT_S, int(
            STRESS_HANG_X * base_s + 0.5))
        print("mutation: stress runs: a hang past %d s (the unmutated runs"
              " took %.1f s, median, to %.1f s)"
              % (checks.stress_limit, base_s, max(checks.stress_base)))

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = [ex.submit(evaluate, checks, m, order_of(m),
                          args.all_checks, args.keep, killers.get(m["name"]))
                for m in mutants]
        for m, fut in zip(mutants, futs):
            r = fut.result()
            results.append(r)
            verdict = ("killed by " + ",".join(r["killers"])
                       if r["killers"] else "SURVIVED")
            print("%-48s %-30s %5.0fs  %s" % (m["name"], verdict,
                                              r["seconds"], r["detail"]),
                  flush=True)

    def first_kill(r):
        """(check, run) of the check that killed r first."""
        k = r["killers"][0]
        return (k, r["runs"].get(k, ""))
    hits = [r for r in results if r["killers"] and
            killers.get(r["mutant"]["name"], ("", ""))[0] == r["killers"][0]]
    run_hits = sum(1 for r in hits
                   if killers[r["mutant"]["name"]] == first_kill(r))
    misses = [r["mutant"]["name"] for r in results
              if r["killers"] and r["mutant"]["name"] in killers and
              r not in hits]
    unmapped = [r["mutant"]["name"] for r in results
                if r["mutant"]["name"] not in killers]
    hit_rate = ""
    if not args.all_checks:
        hit_rate = "killer map hit rate %.0f%% (%d of %d)" % (
            100.0 * len(hits) / len(results) if results else 0.0,
            len(hits), len(results))
        print("mutation: killer map: %d of %d mutants killed by their"
              " recorded killer first (%d of them by its recorded run),"
              " %d missed%s, %d without an entry%s" % (
                  len(hits), len(results), run_hits,
                  len(misses), (" (" + " ".join(misses) + ")") if misses
                  else "", len(unmapped),
                  "; refresh with --update-killers"
                  if misses or unmapped else ""))
    if args.update_killers:
        for r in results:
            if r["killers"]:
                killers[r["mutant"]["name"]] = first_kill(r)
            else:
                killers.pop(r["mutant"]["name"], None)
        names = {m["name"] for m in logic_mutants() + order_mutants()}
        write_killers({k: v for k, v in killers.items() if k in names})
        print("mutation: killer map written: %s" % KILLERS_FILE)
    survivors = [r for r in results if not r["killers"]
                 and r["mutant"]["name"] not in KNOWN_SURVIVORS]
    known = [r for r in results if not r["killers"]
             and r["mutant"]["name"] in KNOWN_SURVIVORS]
    for r in known:
        print("mutation: %s SURVIVED, a known open item (not counted as a "
              "failure): %s" % (r["mutant"]["name"],
                                KNOWN_SURVIVORS[r["mutant"]["name"]]))
    for name in KNOWN_SURVIVORS:
        if any(r["mutant"]["name"] == name and r["killers"]
               for r in results):
            print("mutation: %s is killed now: take it off KNOWN_SURVIVORS"
                  % name)
            survivors.append(next(r for r in results
                                  if r["mutant"]["name"] == name))
    print()
    if args.markdown:
        print("| mutant | change | killed by | first failure |")
        print("|---|---|---|---|")
        for r in results:
            m = r["mutant"]
            print("| `%s` | %s | %s | %s |" % (
                m["name"], m["desc"].replace("|", "\\|"),
                ", ".join(r["killers"]) or "**survived**",
                # Without the test files' line numbers, which drift.
                re.sub(r"(\.(?:c|cpp|cc|h)):\d+:", r"\1:",
                       r["detail"]).replace("|", "\\|")))
    else:
        print("%-48s %s" % ("mutant", "verdict"))
        for r in results:
            print("%-48s %s" % (r["mutant"]["name"],
                                ", ".join(r["killers"]) or "SURVIVED"))
    print("\nmutation: %d mutants, %d killed, %d survived (%d of them "
          "known open items), %.0f s%s"
          % (len(results), len(results) - len(survivors) - len(known),
             len(survivors) + len(known), len(known), time.time() - t0,
             ", " + hit_rate if hit_rate else ""))
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())

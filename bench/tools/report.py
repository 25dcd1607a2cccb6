#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""report.py - turn the results of bench/run_bench.sh into docs/benchmarks.md
and the latency plot.

Usage: report.py --results DIR [DIR ...] --md FILE --png FILE

Each DIR is one run of the Google Benchmark suite (run_bench.sh RUNS=N: the
results directory and its run2 ... runN); the tables are the first run's,
the floor (the ping-pong's hand-off), the 2-thread figures in hand-offs and
the goals are shown for every run.  The first DIR holds machine.txt, gbench.json (Google Benchmark), rmw.json,
insn.jsonl, many.json and harness.json, as written by run_bench.sh, and the
settled protocol's gbench_settled.json, rmw_settled.json and
insn_settled.jsonl where present (the coupled cases, RMW and instruction
counts of the twins built with COUPLED_PROTOCOL_SETTLED=1: the protocol
before, shown next to the default one).  The fast-path goals' section comes
from goals.py (same directory).
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # goals.py is imported: no __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import goals as fast_goals  # noqa: E402
from results import (FLOOR_MOVED, PLACEMENT_GAP,  # noqa: E402
                     Placements, Run, fmt_ns, load_json, load_jsonl,
                     median_of, medians, quantile, rep_counters)

THREADS = [1, 2, 4, 8, 16]

# Latency table and plot: (label, Google Benchmark family name).  The
# coupled_settled_* families come from coupled_bench_settled.
IMPLS = [
    ("coupled, spin", "coupled_round/spin"),
    ("coupled, spin-then-futex", "coupled_round/futex"),
    ("coupled, condvar", "coupled_round/condvar"),
    ("coupled settled (before), spin", "coupled_settled_round/spin"),
    ("coupled settled (before), spin-then-futex",
     "coupled_settled_round/futex"),
    ("coupled settled (before), condvar", "coupled_settled_round/condvar"),
    ("seed baseline (4 RMW), pause", "seed_baseline/pause"),
    ("seed baseline (4 RMW), yield", "seed_baseline/yield"),
    ("pthread_barrier_wait", "pthread_barrier"),
    ("C++20 std::barrier", "std_barrier"),
    ("ck centralized", "ck_centralized"),
    ("ck combining", "ck_combining"),
    ("ck dissemination", "ck_dissemination"),
    ("ck tournament", "ck_tournament"),
    ("ck MCS", "ck_mcs"),
]
CASES = [
    ("full round", "coupled_round"),
    ("one abort, retry", "coupled_abort_retry"),
    ("leave + join between rounds", "coupled_join_leave"),
]
STRATEGIES = [("spin", "spin"), ("spin-then-futex", "futex"),
              ("condvar", "condvar")]
# (label, family prefix): the default protocol and the settled twin's.
PROTOCOLS = [("direct", "coupled_"), ("settled (before)", "coupled_settled_")]
# Plot styles, in IMPLS order: one colour per coupled strategy (solid for
# the default protocol, dashed for settled), then the baselines and peers.
STYLES = [("C0", "-", "o"), ("C1", "-", "s"), ("C2", "-", "^"),
          ("C0", "--", "o"), ("C1", "--", "s"), ("C2", "--", "^"),
          ("C3", "-.", "o"), ("C3", ":", "s"), ("C4", "-.", "D"),
          ("C5", "-.", "v"), ("C6", ":", "o"), ("C7", ":", "s"),
          ("C8", ":", "^"), ("C9", ":", "v"), ("k", ":", "D")]


def cell(med, key):
    """The median, then the spread of the repetitions (max/min) in
    parentheses; '*' for a fixed-iteration case (one repetition)."""
    if key not in med:
        return "n/a"
    v, n, fx, spread = med[key]
    return fmt_ns(v) + (" *" if fx else "") + (
        " (%.2f)" % spread if spread is not None else "")


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def get(med, fam, t):
    return med[(fam, t)][0] if (fam, t) in med else None


def plot(med, png, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 6.5))
    for (label, fam), (colour, line, marker) in zip(IMPLS, STYLES):
        xs = [t for t in THREADS if (fam, t) in med]
        ys = [med[(fam, t)][0] for t in xs]
        if xs:
            ax.plot(xs, ys, color=colour, linestyle=line, marker=marker,
                    label=label, linewidth=1.4, markersize=4)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(THREADS)
    ax.set_xticklabels([str(t) for t in THREADS])
    ax.set_xlabel("threads (one participant each)")
    ax.set_ylabel("round latency, ns (median, log scale)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6.5, ncol=2, loc="upper left")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


DOMAIN_THREADS = [t for t in THREADS if t >= 2]


def domain_table(w, gb, gbs, med):
    """The section "coupled domains: 2-level round vs flat group"."""
    root = medians(gb, "root_committed")
    root.update(medians(gbs, "root_committed"))
    w("## Coupled domains: 2-level round vs flat group")
    w("")
    w("`coupled_domain_round/<strategy>` (`coupled/domain.h`): N threads "
      "as the cores of a 2-level domain, a root over two leaves of N/2 "
      "cores, each iteration one `coupled_domain_enter()` per core with "
      "requests that allow the root.  The leaf's round always commits; the "
      "root's only when both leaves reach it together (the level above a "
      "leaf is opportunistic).  Against `coupled_round/<strategy>`, a flat "
      "group of the same N threads.  *2-level call*: median wall-clock time "
      "per call (`ns_per_round`); *root committed*: median fraction of the "
      "calls in which the root committed too (counter `root_committed`); "
      "*ratio*: 2-level call / flat round.")
    w("")
    w("| strategy | protocol | threads | 2-level call | root committed | "
      "flat group round | ratio |")
    w("|---|---|---:|---:|---:|---:|---:|")
    for slabel, s in STRATEGIES:
        for plabel, prefix in PROTOCOLS:
            dfam = "%sdomain_round/%s" % (prefix, s)
            ffam = "%sround/%s" % (prefix, s)
            for t in DOMAIN_THREADS:
                if (dfam, t) not in med:
                    continue
                r = ratio(get(med, dfam, t), get(med, ffam, t))
                w("| %s | %s | %d | %s | %s | %s | %s |" % (
                    slabel, plabel, t, cell(med, (dfam, t)),
                    "%.0f%%" % (100 * root[(dfam, t)][0])
                    if (dfam, t) in root else "n/a",
                    cell(med, (ffam, t)),
                    "%.2fx" % r if r is not None else "n/a"))
    w("")
    w("`*` as above: a spinning case with more threads than CPUs, a fixed "
      "number of iterations; its figures measure the scheduler.")
    w("")


def fmt_h(v):
    return "n/a" if v is None else "%.2f" % v


def floor_section(w, runs):
    """Each run's floor: the ping-pong's one-way hand-off and the CPUs."""
    w("## The floor: how far apart the CPUs were, run by run")
    w("")
    w("`pingpong` (2 threads, pinned like every case) bounces one cache "
      "line; `handoff_ns`, half a round trip, is the one-way hand-off "
      "between the two CPUs: the floor of every cross-CPU round.  On a "
      "virtual machine it moves with the host's placement of the virtual "
      "CPUs (40 ns and 232 ns within an hour here), so each run measures "
      "its own and the 2-thread figures are also given in hand-offs.  "
      "*CPUs*: `sched_getcpu()` of the two threads; *as the guest sees "
      "them*: the guest's topology files (which say nothing of the host's "
      "placement: the hand-off does).")
    w("")
    w("| run | date (UTC) | load before | one-way hand-off (spread) | CPUs | "
      "as the guest sees them |")
    w("|---|---|---|---:|---|---|")
    for i, r in enumerate(runs, 1):
        w("| %d | %s | %s | %s%s | %s | %s |" % (
            i, r.machine.get("date", "?"),
            r.machine.get("loadavg_before", "?"),
            fmt_ns(r.handoff),
            " (%.2f)" % r.handoff_spread if r.handoff_spread else "",
            " and ".join("?" if c is None else str(c) for c in r.cpus),
            r.topology() or "n/a"))
    w("")


def two_thread_rows(w, runs, head, cases):
    """A table of cases (label, family) at 2 threads, run by run: ns and
    hand-offs; head names the first column."""
    w("| %s | " % head + " | ".join(
        "run %d: ns | run %d: hand-offs" % (i, i)
        for i in range(1, len(runs) + 1)) + " |")
    w("|---|" + "---:|---:|" * len(runs))
    for label, fam in cases:
        w("| %s | " % label + " | ".join(
            "%s | %s" % (cell(r.med, (fam, 2)), fmt_h(r.handoffs(fam, 2)))
            for r in runs) + " |")


def handoff_table(w, runs):
    """Every 2-thread case in ns and in hand-offs, run by run."""
    w("## Two threads, in hand-offs")
    w("")
    w("Every case at 2 threads, each run: median ns per round, the spread "
      "of its repetitions (max/min) in parentheses, and the round in "
      "one-way hand-offs of that run's floor (ns / `handoff_ns`).  "
      "Hand-offs compare across runs where the nanoseconds do not.")
    w("")
    cases = IMPLS + [("coupled, spin-then-futex, 4 members in capacity 4",
                      "coupled_capacity/4/futex")]
    two_thread_rows(w, runs, "implementation",
                    [(label, fam) for label, fam in cases
                     if any((fam, 2) in r.med for r in runs)])
    w("")


def placement_table(w, runs):
    """Every 2-thread case by placement: each repetition in hand-offs of
    its own floor (results.Placements), over all runs."""
    pl = Placements(runs)
    if not pl.placements:
        return
    n = len(pl.placements)
    w("## Two threads, by placement")
    w("")
    w("A virtual machine's two CPUs are sometimes near each other and "
      "sometimes far (the hand-off moves by a factor of 3 to 8 between "
      "placements, at times within one run), and a run's single ping-pong "
      "cannot say where a given repetition ran.  So every pinned 2-thread "
      "case measures its own floor: the two threads bounce a line of their "
      "own 1,000 times right before the timed loop and right after it "
      "(`floor_ns`, `floor_after_ns`; `floor_probe()` in "
      "`bench/bench_main.cc`).  A repetition is its round in one-way "
      "hand-offs of the mean of the two; one whose two probes differ by "
      "more than %gx moved while it ran and is left out (*moved*).  The "
      "repetitions of all %d runs are grouped by floor, a new placement "
      "wherever sorted floors jump by more than %gx.  Each cell: the median "
      "in hand-offs, the spread (max/min) and the repetitions; goal 3 is "
      "judged in each column on its own."
      % (FLOOR_MOVED, len(runs), PLACEMENT_GAP))
    w("")
    w("| implementation | " + " | ".join(
        "floor %s" % pl.label(i) for i in range(n)) + " | moved |")
    w("|---|" + "---:|" * (n + 1))
    cases = IMPLS + [
        ("ping-pong, a round trip (2 by definition)", "pingpong")]
    for label, fam in cases:
        per = pl.per(fam)
        if not per and not pl.moved(fam):
            continue
        cells = []
        for i in range(n):
            v = per.get(i)
            if not v:
                cells.append("not measured")
                continue
            lo, hi = min(v), max(v)
            cells.append("%.2f (%s, %d)" % (
                pl.median(fam, i), "%.2f" % (hi / lo) if lo > 0 else "n/a",
                len(v)))
        w("| %s | %s | %d |" % (label, " | ".join(cells), pl.moved(fam)))
    w("")


def wake_latency(doc, fam, t):
    """Mean wake-up latency in ns over every measured sleep of a case's
    repetitions (wake_latency_ns_sum / wake_latency_n), or None."""
    v = rep_counters(doc, fam, t, ("wake_latency_ns_sum", "wake_latency_n"))
    n = sum(x[1] for x in v)
    return sum(x[0] for x in v) / n if n else None


def futex_tail_table(w, runs, thread_counts=(4, 8, 16)):
    """The oversubscribed futex case and std::barrier, repetition by
    repetition: ns per round with the context switches of the same
    repetition, and for coupled what its waits did (busy turns, sleeps),
    sorted, so that the tail shows what its rounds did."""
    def reps(r, fam, threads):
        return sorted(rep_counters(r.gb, fam, threads, (
            "ns_per_round", "vcsw_per_round", "ivcsw_per_round",
            "yields_per_round", "sleeps_per_round", "sleep_ns_per_round",
            "iterations")))

    rows = [(t, i, r, label, fam, reps(r, fam, t))
            for t in thread_counts
            for i, r in enumerate(runs, 1)
            for label, fam in (("coupled, spin-then-futex",
                                "coupled_round/futex"),
                               ("C++20 std::barrier", "std_barrier"))]
    if not any(v for _, _, _, _, _, v in rows):
        return
    w("## The oversubscribed futex tail, repetition by repetition")
    w("")
    w("%s threads on %s CPUs: every repetition of the two cases, fastest "
      "first, as *ns per round / voluntary / involuntary context switches "
      "per round* of that repetition (all threads), and for coupled also "
      "*busy turns (`sched_yield()`) / sleeps (`FUTEX_WAIT`) per round*, "
      "counted by the benchmark through the adapter's "
      "`COUPLED_PTHREAD_YIELD` and `COUPLED_PTHREAD_FUTEX_WAIT` hooks "
      "(`bench_wait` in `bench/bench_main.cc`).  A slow repetition with "
      "many involuntary switches lost its CPUs to the host or to another "
      "thread; one with sleeps paid a wake-up per sleep: *asleep* is the "
      "median time all threads spent in `FUTEX_WAIT` per round, *wake-up* "
      "the mean time from a `FUTEX_WAKE` call to the return of the sleeper "
      "it woke, over all the repetitions' sleeps (std::barrier's own "
      "futex calls are not counted).  The median and the 90th percentile "
      "are goal 4's figures." % (
          ", ".join(str(t) for t in thread_counts),
          runs[0].machine.get("nproc", "?")))
    w("")
    w("| threads | run | implementation | repetitions | asleep | wake-up "
      "| median | p90 |")
    w("|---:|---|---|---|---:|---:|---:|---:|")
    for threads, i, r, label, fam, v in rows:
        if not v:
            continue
        ns = [x[0] for x in v]
        if fam.startswith("coupled"):
            cells = ", ".join("%s / %.2f / %.2f / %.2f / %.3f" % (
                fmt_ns(a), b, c, y, sl) for a, b, c, y, sl, _, _ in v)
            asleep = fmt_ns(quantile([x[5] for x in v], 0.5))
            lat = wake_latency(r.gb, fam, threads)
            lat = fmt_ns(lat) if lat is not None else "no sleep"
        else:
            cells = ", ".join("%s / %.2f / %.2f" % (fmt_ns(a), b, c)
                              for a, b, c, _, _, _, _ in v)
            asleep = lat = ""
        w("| %d | %d | %s | %s | %s | %s | %s | %s |" % (
            threads, i, label, cells, asleep, lat,
            fmt_ns(quantile(ns, 0.5)), fmt_ns(quantile(ns, 0.9))))
    w("")
    for threads in thread_counts:
        mine = [x for t, _, _, _, fam, v in rows
                if t == threads and fam.startswith("coupled") for x in v]
        if not mine:
            continue
        slow = max(mine)
        typical = quantile([x[0] for x in mine], 0.5)
        w("- %d threads, over the %d runs: coupled's repetitions slept at "
          "most %.3f times per round; the slowest (%s per round over %d "
          "rounds, %.1fx the median repetition) slept %.3f times per round, "
          "%s asleep per round, and spent %.2f busy turns and %.2f "
          "involuntary switches per round." % (
              threads, len(runs), max(x[4] for x in mine), fmt_ns(slow[0]),
              int(slow[6] / threads), slow[0] / typical if typical else 0.0,
              slow[4], fmt_ns(slow[5]), slow[3], slow[2]))
    w("")


def per_run_header(w, runs, keys):
    """A blank line, then the header of a table with the right-aligned key
    columns @keys and a column per run."""
    w("")
    w("| " + " | ".join(keys) + " | " + " | ".join(
        "run %d" % i for i in range(1, len(runs) + 1)) + " |")
    w("|" + "---:|" * len(keys) + "---|" * len(runs))


LATE_FAMILY = "coupled_late_partner/futex/"


def late_partner_table(w, runs):
    """coupled_late_partner/futex/<us>: the futex strategy's price for a
    partner that is late by a given time, per run."""
    delays = sorted({int(f[len(LATE_FAMILY):]) for r in runs
                     for (f, t) in r.med if f.startswith(LATE_FAMILY)
                     and f[len(LATE_FAMILY):].isdigit()})
    if not delays:
        return
    w("## A late partner: the spin phase against a sleep")
    w("")
    w("`coupled_late_partner/futex/<us>`: 2 pinned threads, the futex "
      "strategy, and participant 1 busy for the given time before each "
      "call, so that participant 0 waits about that long in every round.  "
      "While the wait lasts less than the spin phase "
      "(`COUPLED_PTHREAD_SPIN_TURNS`, 200 `sched_yield()` turns, then "
      "twice the waiter's measured wake-up cost), the waiter only "
      "yields; past it, it sleeps, and the round pays a wake-up on top.  "
      "Each cell: the round's median minus the delay "
      "(what the wait costs), busy turns / sleeps per round, and the mean "
      "wake-up latency of the sleeps (as in the table above).")
    per_run_header(w, runs, ("delay",))
    for d in delays:
        fam = LATE_FAMILY + str(d)
        cells = []
        for r in runs:
            v = rep_counters(r.gb, fam, 2, (
                "ns_per_round", "yields_per_round", "sleeps_per_round"))
            if not v:
                cells.append("not measured")
                continue
            med = quantile([x[0] for x in v], 0.5)
            lat = wake_latency(r.gb, fam, 2)
            cells.append("+%s, %.0f / %.2f, %s" % (
                fmt_ns(max(med - d * 1e3, 0.0)),
                quantile([x[1] for x in v], 0.5),
                quantile([x[2] for x in v], 0.5),
                "wake-up " + fmt_ns(lat) if lat is not None
                else "no sleep"))
        w("| %d us | %s |" % (d, " | ".join(cells)))
    w("")


SLOW_FAMILY = "coupled_slow_wake/futex/"


def slow_wake_table(w, runs):
    """coupled_slow_wake/futex/<delay_us>/<cap_us>: an emulated host with
    slow wake-ups, with the spin extension off (cap 0) and on, per run."""
    cases = sorted({tuple(int(x) for x in f[len(SLOW_FAMILY):].split("/"))
                    for r in runs for (f, t) in r.med
                    if f.startswith(SLOW_FAMILY)
                    and re.fullmatch(r"\d+/\d+", f[len(SLOW_FAMILY):])})
    if not cases:
        return
    w("## A host with slow wake-ups: the spin phase's extension")
    w("")
    w("`coupled_slow_wake/futex/<delay>/<cap>`: 8 threads on the machine's "
      "CPUs, the futex strategy.  Every futex sleep that a wake ended "
      "returns `<delay>` us late (the benchmark sleeps that long after "
      "`FUTEX_WAIT` returns: a sleeper whose vCPU the host runs late), and "
      "participant 1 is off its CPU for 2 ms every 4096 rounds (a host "
      "hiccup), so that the others sleep now and then.  `<cap>` is the "
      "group's `coupled_pthread_set_spin_extension()`: 0 spins the 200 "
      "turns alone before a sleep; the default lets the spin phase go on "
      "for twice the participant's measured wake-up cost.  Without the "
      "extension, a wake-up slower than the spin phase makes the sleeper "
      "late for the next round, whose waiters then sleep too: a sleep "
      "convoy.  Each cell: median ns per round (p90 of the repetitions), "
      "sleeps per round (median).")
    per_run_header(w, runs, ("delay", "cap"))
    for d, cap in cases:
        fam = "%s%d/%d" % (SLOW_FAMILY, d, cap)
        cells = []
        for r in runs:
            v = rep_counters(r.gb, fam, 8, ("ns_per_round",
                                            "sleeps_per_round"))
            if not v:
                cells.append("not measured")
                continue
            ns = [x[0] for x in v]
            cells.append("%s (%s), %.3f" % (
                fmt_ns(quantile(ns, 0.5)), fmt_ns(quantile(ns, 0.9)),
                quantile([x[1] for x in v], 0.5)))
        w("| %d us | %s | %s |" % (d, "%d us" % cap if cap else "off",
                                     " | ".join(cells)))
    w("")


CSW_FAMILIES = [
    ("coupled, spin", "coupled_round/spin"),
    ("coupled, spin-then-futex", "coupled_round/futex"),
    ("coupled, condvar", "coupled_round/condvar"),
    ("C++20 std::barrier", "std_barrier"),
    ("pthread_barrier_wait", "pthread_barrier"),
    ("seed baseline, yield", "seed_baseline/yield"),
]


def csw_table(w, runs):
    """Voluntary and involuntary context switches per round."""
    w("## Context switches per round")
    w("")
    w("Counters `vcsw_per_round` / `ivcsw_per_round`: every thread's "
      "`getrusage(RUSAGE_THREAD)` voluntary and involuntary context "
      "switches from the start of its loop to the end, summed over the "
      "threads and divided by the rounds (medians of the repetitions; "
      "Google Benchmark's own start and stop of the threads are included, "
      "a few switches per repetition).  Linux counts a switch as "
      "voluntary when the thread blocked (a futex sleep, a condition "
      "variable wait) and as involuntary when it was switched out while "
      "still runnable: preempted at the end of its time slice, or handing "
      "the CPU to another thread with `sched_yield()`.  So on an "
      "oversubscribed machine the yields of a spin-then-yield phase show "
      "up as involuntary switches, and the sleeps as voluntary ones.  "
      "Each cell: voluntary / involuntary, all threads, per round.")
    w("")
    for i, r in enumerate(runs, 1):
        if len(runs) > 1:
            w("Run %d:" % i)
            w("")
        w("| implementation | " + " | ".join(
            "%d thr" % t for t in THREADS if t > 1) + " |")
        w("|---|" + "---:|" * (len(THREADS) - 1))
        for label, fam in CSW_FAMILIES:
            cells = []
            for t in THREADS:
                if t == 1:
                    continue
                v = r.counter(fam, t, "vcsw_per_round")
                iv = r.counter(fam, t, "ivcsw_per_round")
                cells.append("n/a" if v is None or iv is None
                             else "%.2f / %.2f" % (v, iv))
            w("| %s | " % label + " | ".join(cells) + " |")
        w("")


# Requests that the word's line holds (include/coupled/direct.h's default
# COUPLED_DIRECT_LINE_REQUESTS).
LINE_REQUESTS = 9


def usdt_section(w, runs, insn, insn_n):
    """The pthread adapter's USDT probes, compiled in and not attached,
    against the same cases built without them (coupled_bench_nousdt)."""
    cases = [("uncontended (1 member)", "uncontended/spin", 1),
             ("round, 2 threads", "round/spin", 2)]
    if not any(r.ns("coupled_nousdt_" + c[1], c[2]) for r in runs
               for c in cases):
        return
    w("## The USDT probes' cost")
    w("")
    w("The pthread adapter's USDT probes (docs/adapters.md) compiled in and "
      "not attached, against `coupled_bench_nousdt`, the spin cases built "
      "with `COUPLED_PTHREAD_USDT=0`, run right after the suite in each run "
      "(two binaries: not interleaved).  Medians, with the spread "
      "(max/min of the repetitions).  Goal: at most +1 ns uncontended, and "
      "no change at 2 threads beyond the spread.")
    w("")
    w("| run | case | with the probes | without | difference | spreads |")
    w("|---|---|---:|---:|---:|---|")
    for i, r in enumerate(runs, 1):
        for label, fam, t in cases:
            a = r.ns("coupled_" + fam, t)
            b = r.ns("coupled_nousdt_" + fam, t)
            if a is None or b is None:
                continue
            sa = r.spread("coupled_" + fam, t)
            sb = r.spread("coupled_nousdt_" + fam, t)
            w("| %d | %s | %.1f ns | %.1f ns | %+.1f ns | %s / %s |"
              % (i, label, a, b, a - b,
                 "%.2f" % sa if sa else "-", "%.2f" % sb if sb else "-"))
    w("")
    if "coupled" in insn and "coupled" in insn_n:
        w("Instructions per uncontended round (callgrind, exact): %.1f with "
          "the probes, %.1f without (%+.1f: the probes' nops, the "
          "semaphore's two tests and the arguments' moves)."
          % (insn["coupled"], insn_n["coupled"],
             insn["coupled"] - insn_n["coupled"]))
        w("")


def model_section(w, runs):
    """Hand-offs per round at N members, against the measured floor."""
    h = median_of(r.handoff for r in runs)
    w("## Model: hand-offs per round at N members")
    w("")
    w("No machine with more than %s CPUs was at hand, so the rounds of "
      "larger groups, each member on a CPU of its own, are modelled from "
      "the floor measured above (median one-way hand-off over the runs: "
      "%s).  Cache-line transfers on a round's critical path, steady "
      "state, spin strategy:" % (runs[0].machine.get("nproc", "?"),
                                 fmt_ns(h)))
    w("")
    w("- *arrivals*: the single arrival word takes the N arrivals one at a "
      "time, each a transfer of the line, except the previous completer's, "
      "which still holds it: N - 1;")
    w("- *publication*: the completer's store of the next generation "
      "reaches the N - 1 spinners, who re-read the line in parallel: 1;")
    w("- *requests*: the first %d members publish theirs in the word's "
      "line, which their arrivals carry (no transfer of their own); each "
      "member beyond them in its slot, which the completer reads: one "
      "transfer each if serial, 1 if the loads overlap;" % LINE_REQUESTS)
    w("- *wake-ups* (futex and condvar only): N - 1 `FUTEX_WAKE`s (or "
      "signals), serially: system calls, counted, not priced.  With the "
      "spin strategy the completer skips the walk "
      "(`coupled_adapter_wake_is_noop()`).")
    w("")
    w("ck's centralized barrier is N fetch-and-adds and a sense flip: the "
      "same (N - 1) + 1 as the library up to %d members.  *ns*: transfers "
      "x the hand-off, an upper bound where transfers overlap."
      % LINE_REQUESTS)
    w("")
    w("| N | arrivals | publication | slot requests (serial / overlapped) "
      "| library: transfers | library: ns | ck centralized: transfers | "
      "wake-ups (futex) |")
    w("|---:|---:|---:|---:|---:|---:|---:|---:|")

    def ns(x):
        return fmt_ns(x * h) if h else "n/a"
    for n in (2, 4, 8, 16, 64):
        beyond = max(0, n - LINE_REQUESTS)
        serial, overlap = beyond, min(beyond, 1)
        lo, hi = (n - 1) + 1 + overlap, (n - 1) + 1 + serial
        w("| %d | %d | 1 | %d / %d | %s | %s | %d | %d |" % (
            n, n - 1, serial, overlap,
            "%d" % lo if lo == hi else "%d to %d" % (lo, hi),
            ns(lo) if lo == hi else "%s to %s" % (ns(lo), ns(hi)),
            (n - 1) + 1, n - 1))
    r = runs[0]
    w("")
    w("Measured at N = 2, first run (hand-off %s): `coupled_round/spin` "
      "%s (%s hand-offs), `ck_centralized` %s (%s); per placement, each "
      "repetition in hand-offs of its own floor, in *Two threads, by "
      "placement* above.  Where the measured hand-offs fall below the "
      "model's transfers, the transfers overlapped (a spinner's read and "
      "the next arrival's RMW of the same line, a store buffer draining "
      "while the other CPU reads); where they exceed it, instructions and "
      "the spin loop's `pause` add to the transfers (a few tens of ns: "
      "this matters when the hand-off is short)." % (
          fmt_ns(r.handoff),
          fmt_ns(r.ns("coupled_round/spin", 2)),
          fmt_h(r.handoffs("coupled_round/spin", 2)),
          fmt_ns(r.ns("ck_centralized", 2)),
          fmt_h(r.handoffs("ck_centralized", 2))))
    w("")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True, nargs="+",
                    help="one directory per run; the first holds the counts")
    ap.add_argument("--md", required=True)
    ap.add_argument("--png", required=True)
    a = ap.parse_args()
    d = a.results[0]
    runs = [Run(x) for x in a.results]
    run1 = runs[0]

    machine = run1.machine
    gb = run1.gb
    gbs = run1.gbs
    rmw = load_json(os.path.join(d, "rmw.json")) or {"results": []}
    rmws = load_json(os.path.join(d, "rmw_settled.json")) or {"results": []}
    insn = {r["impl"]: r["insn_per_round"]
            for r in load_jsonl(os.path.join(d, "insn.jsonl"))}
    insn_s = {r["impl"]: r["insn_per_round"]
              for r in load_jsonl(os.path.join(d, "insn_settled.jsonl"))}
    insn_n = {r["impl"]: r["insn_per_round"]
              for r in load_jsonl(os.path.join(d, "insn_nousdt.jsonl"))}
    many = load_json(os.path.join(d, "many.json"))
    harness = load_json(os.path.join(d, "harness.json"))
    # The settled twin's families have their own names: Run merges them.
    med = run1.med
    hmed = medians(harness)
    ncpu = int(machine.get("nproc", "2") or 2)
    ctx = (gb or {}).get("context", {})
    reps = ctx.get("coupled_oversub_iters")
    pinned = ctx.get("coupled_pinned", "yes")
    nreps = max([v[1] for v in med.values()] or [0])

    date = machine.get("date", "?")
    title = "Round latency vs threads (%s, %s CPUs, %s)" % (
        machine.get("model", "?"), machine.get("nproc", "?"), date[:10])
    plot(med, a.png, title)

    L = []
    w = L.append
    w("# Benchmarks")
    w("")
    w("What a coupled round costs, side by side with the barriers a user would "
      "pick instead, in one binary and one run.  Everything on "
      "this page is generated by one command:")
    w("")
    w("```sh")
    w("bash bench/run_bench.sh")
    w("```")
    w("")
    w("It configures and builds `bench/` in `build/bench` (Release), runs the "
      "Google Benchmark suite, the RMW counts, the callgrind instruction "
      "counts, the 1,000-thread run and the C harness, leaves the raw results "
      "in `build/bench-results/` (`gbench.json` and `harness.json` are read by "
      "Google Benchmark's `compare.py`), and rewrites this file and "
      "`benchmarks.png`.  Debian packages: `libbenchmark-dev "
      "libbenchmark-tools libck-dev valgrind python3-numpy python3-scipy "
      "python3-matplotlib`.")
    w("")
    w("## What is measured")
    w("")
    w("- **coupled** (`coupled.h` with the pthread adapter, included from "
      "C++): a full round (enter, empty action, exit); a round in which "
      "participant 0 aborts once; a leave + join between rounds; the "
      "uncontended one-member round; each per wait strategy (spin, "
      "spin-then-futex, condvar).  The twin built with "
      "`COUPLED_PROTOCOL_SETTLED=1` (`coupled_settled_*`, "
      "`bench_rmw_count_settled`, `bench_insn_count_settled`) gives the rows "
      "marked *settled (before)*.")
    w("- **peers doing the same work per round**: `pthread_barrier_wait`; "
      "Concurrency Kit's centralized, combining, dissemination, tournament "
      "and MCS barriers (`libck`); C++20 `std::barrier`; and the **seed "
      "baseline** (`bench/baseline/`): the 2012 counting protocol written "
      "from its description, four RMWs per participant per round, polling "
      "with `pause` or `sched_yield()`, plus a round generation that ends "
      "the ready loop (without it an empty action hits the seed's exit race "
      "constantly: `seed_2012_loop` below).")
    w("- Every case runs with 1, 2, 4, 8 and 16 threads, one participant "
      "per thread, thread *i* pinned to CPU *i* mod %d "
      "(`COUPLED_BENCH_PIN=0` turns that off)." % ncpu)
    w("")
    w("## Machine and run")
    w("")
    w("| | |")
    w("|---|---|")
    w("| date (UTC) | %s |" % date)
    w("| CPUs (`nproc`) | %s |" % machine.get("nproc", "?"))
    w("| model (`lscpu`) | %s |" % machine.get("model", "?"))
    w("| kernel | %s |" % machine.get("kernel", "?"))
    w("| compiler | %s |" % machine.get("compiler", "?"))
    w("| load average before / after | %s / %s |" % (
        machine.get("loadavg_before", "?"), machine.get("loadavg_after", "?")))
    w("| CPU busy before / after the run, other jobs (1 s sample, all CPUs) "
      "| %s / %s |" % (machine.get("busy_before", "?"),
                       machine.get("busy_after", "?")))
    w("| threads pinned | %s |" % ("yes: thread i on the i-th allowed CPU "
                                   "(modulo their number)"
                                   if pinned != "no" else "no"))
    if machine.get("note"):
        w("| note | %s |" % machine["note"])
    w("")
    w("Without hardware counters here (`perf stat`: `<not supported>`), "
      "instructions come from callgrind and RMWs from an instrumented "
      "build, both independent of noise.  Latencies are medians over %d "
      "repetitions, all cases randomly interleaved, as good as the machine "
      "was quiet.  The suite ran %d time%s (`RUNS`): tables are the first "
      "run's; the floor and the hand-off figures are per run, the 2-thread "
      "figures by placement pool the runs; goals are judged on the median "
      "over the runs, goal 3 per placement and goal 4 in every run."
      % (nreps, len(runs), "s" if len(runs) > 1 else ""))
    w("")

    floor_section(w, runs)

    # --- latency table
    w("## Round latency")
    w("")
    w("Median wall-clock time of one round (every participant arrives, the "
      "empty action runs, every participant leaves), from the `ns_per_round` "
      "counter (Google Benchmark's own Time column is a round divided by the "
      "thread count, because it sums iterations over threads; the console "
      "prints the counter with an `s` suffix because it is an inverted "
      "rate, but its value is in nanoseconds).  The machine has %d CPUs, "
      "so 4, 8 and 16 threads are oversubscribed.  In parentheses after "
      "each median: the spread of the case's repetitions, max / min "
      "(1.00: all alike; a fixed-iteration case `*` has one repetition "
      "and no spread)." % ncpu)
    w("")
    w("| implementation | " + " | ".join("%d thr" % t for t in THREADS) + " |")
    w("|---|" + "---:|" * len(THREADS))
    for label, fam in IMPLS:
        w("| %s | " % label + " | ".join(cell(med, (fam, t)) for t in THREADS)
          + " |")
    w("")
    w("The *settled (before)* rows come from `coupled_bench_settled`, run "
      "right after the main binary with the same options (random "
      "interleaving among its own cases); `build/bench-results/"
      "gbench_settled.json` holds them.")
    w("")
    w("`*`: a busy-waiting implementation with more threads than CPUs: each "
      "round needs a scheduler time slice per participant, so these run a "
      "fixed %s iterations and a single repetition "
      "(`COUPLED_BENCH_OVERSUB_ITERS`) instead of a timed run; they measure "
      "the scheduler, not the protocol." % (reps or "5"))
    w("")
    w("![round latency against threads](benchmarks.png)")
    w("")
    handoff_table(w, runs)
    placement_table(w, runs)
    futex_tail_table(w, runs)
    late_partner_table(w, runs)
    slow_wake_table(w, runs)

    # --- coupled cases
    w("## Coupled cases")
    w("")
    w("Median time per round of each case, per wait strategy of the pthread "
      "adapter (`spin-then-futex` is the adapter's `futex` strategy: 200 "
      "`sched_yield()` turns, then `futex(2)`).  *One abort, retry*: "
      "participant 0 aborts once (`coupled_enter_opts()` with a caller "
      "abort: direct polls it before the arrival, settled in the waiting "
      "phase), then enters again (`aborts_per_round` in `gbench.json` "
      "must be 1).  "
      "*Leave + join*: after each full round the last participant leaves and "
      "joins again; the others count only rounds with every member in.  "
      "Each case on both protocols (the *protocol* column).")
    w("")
    w("| case | strategy | protocol | "
      + " | ".join("%d thr" % t for t in THREADS) + " |")
    w("|---|---|---|" + "---:|" * len(THREADS))
    for clabel, cfam in CASES:
        for slabel, s in STRATEGIES:
            for plabel, prefix in PROTOCOLS:
                fam = "%s%s/%s" % (prefix, cfam[len("coupled_"):], s)
                w("| %s | %s | %s | " % (clabel, slabel, plabel)
                  + " | ".join(cell(med, (fam, t)) for t in THREADS) + " |")
    for slabel, s in STRATEGIES:
        for plabel, prefix in PROTOCOLS:
            fam = "%suncontended/%s" % (prefix, s)
            w("| uncontended (1 member) | %s | %s | %s |"
              % (slabel, plabel, cell(med, (fam, 1)))
              + " |" * (len(THREADS) - 1))
    for cap in (4, 4096):
        for plabel, prefix in PROTOCOLS:
            fam = "%scapacity/%d/futex" % (prefix, cap)
            cells = [cell(med, (fam, 4)) if t == 4 else ""
                     for t in THREADS]
            w("| 4 members, capacity %d | spin-then-futex | %s | %s |"
              % (cap, plabel, " | ".join(cells)))
    w("")

    # --- coupled domains
    domain_table(w, gb, gbs, med)

    # --- context switches, the model
    csw_table(w, runs)
    model_section(w, runs)

    # --- counts
    w("## Counts that do not depend on noise")
    w("")
    w("### Atomic RMWs per participant per committed round")
    w("")
    w("`bench_rmw_count` defines `COUPLED_ATOMIC_ON_RMW()` to bump a "
      "thread-local counter, so every RMW of the library *and of the pthread "
      "adapter* (which uses the same atomics layer) is counted; the seed "
      "baseline is built with `SEED_COUNT_RMW`.  Total RMWs of all threads / "
      "(threads x committed rounds).")
    w("")
    w("The coupled rows twice: the default build (direct protocol) and "
      "`bench_rmw_count_settled` (settled, the protocol before).")
    w("")
    w("| implementation | protocol | 1 thr | 2 thr | 4 thr | "
      "retries / restarts / back-outs |")
    w("|---|---|---:|---:|---:|---|")
    by_impl = {}
    order = []
    for doc, proto in ((rmw, rmw.get("protocol", "direct")),
                       (rmws, rmws.get("protocol", "settled"))):
        for r in doc.get("results", []):
            coupled = r["impl"].startswith("coupled/")
            key = (r["impl"], proto if coupled else "")
            if key not in by_impl:
                order.append(key)
            by_impl.setdefault(key, {})[r["threads"]] = r
    order.sort(key=lambda k: (not k[0].startswith("coupled/"), k[0],
                              k[1] != "direct"))
    for key in order:
        rows = by_impl[key]
        extra = ", ".join("%d thr: %d/%d/%d" % (t, rows[t].get("retries", 0),
                                               rows[t].get("restarts", 0),
                                               rows[t].get("backouts", 0))
                          for t in sorted(rows)
                          if rows[t].get("retries") or rows[t].get("restarts")
                          or rows[t].get("backouts"))
        proto = key[1] + (" (before)" if key[1] == "settled" else "")
        w("| %s | %s | " % (key[0], proto or "-") + " | ".join(
            "%.2f" % rows[t]["rmw_per_round"] if t in rows else "n/a"
            for t in (1, 2, 4)) + " | %s |" % (extra or "none"))
    w("")
    w("Where they come from ([design.md](design.md), \"Costs\"): direct, "
      "one arrival each plus, under futex and condvar, the completer's "
      "wakes: 1 for spin, 1 + (n - 1)/n otherwise; settled, three word "
      "RMWs plus the last arriver's pokes: 3 + (n - 1)/n for spin, "
      "3 + 2(n - 1)/n otherwise; the seed baseline exactly 4.  "
      "`seed_2012_loop`, the seed's ready loop without the round "
      "generation, falls out of step with an empty action (the seed's exit "
      "race).")
    w("")
    w("### Instructions per uncontended round (callgrind)")
    w("")
    w("`bench_insn_count IMPL R` runs R rounds of a one-member group; "
      "`tools/callgrind_rounds.sh` runs it under `valgrind --tool=callgrind` "
      "for R = 1,000 and 11,000 and divides the difference of the totals by "
      "10,000, so start-up cancels out.  Callgrind counts are identical run "
      "to run.")
    w("")
    w("The settled column is `bench_insn_count_settled`, the same program "
      "built with `COUPLED_PROTOCOL_SETTLED=1` (the protocol before); the "
      "peers do not depend on it.  The fast-path goals below break the "
      "coupled figures down by source file.")
    w("")
    w("| implementation | instructions per round | settled (before) |")
    w("|---|---:|---:|")
    for impl in ("coupled", "seed", "ck_centralized", "pthread_barrier"):
        if impl in insn:
            w("| %s | %.1f | %s |" % (impl, insn[impl],
                                      "%.1f" % insn_s[impl]
                                      if impl in insn_s else "-"))
    if not insn:
        w("| (valgrind not available) | n/a |")
    w("")

    usdt_section(w, runs, insn, insn_n)

    # --- many threads
    w("## 1,000 threads on %d CPUs" % ncpu)
    w("")
    if many:
        w("`bench_many_threads --threads %d --rounds %d --strategy %s`: %s; "
          "%.3f s in all (thread creation included), %s per round (thread "
          "0's time from the end of its first round to the end of its last)."
          % (many["threads"], many["rounds"], many["strategy"],
             "every round committed with all %d participants" % many["threads"]
             if many.get("ok") else "**rounds did not all complete**",
             many["seconds"], fmt_ns(many["us_per_round"] * 1e3)))
    else:
        w("(no result)")
    w("")

    # --- goals
    w("## Goals")
    w("")
    w("Measured against the project's goals; none of them is a timed test.  "
      "Verdicts are on the default build (direct protocol); the settled "
      "protocol's figures (before) are given beside them.")
    w("")

    def rmwv(impl, proto, t):
        key = (impl, proto if impl.startswith("coupled/") else "")
        v = by_impl.get(key, {}).get(t, {}).get("rmw_per_round")
        return "n/a" if v is None else "%.2f" % v

    dproto = rmw.get("protocol", "direct")
    c2 = by_impl.get(("coupled/spin", dproto), {}).get(2, {}).get(
        "rmw_per_round")
    ok1 = c2 is not None and c2 <= 3.0
    w("1. **At most 3 atomic RMWs per participant per committed round** "
      "(the seed needs 4): %s.  Spin strategy, 1/2/4 participants: %s/%s/%s "
      "(settled: %s/%s/%s); spin-then-futex at 4: %s (settled: %s); seed "
      "baseline %s (see the RMW counts above)."
      % ("met" if ok1 else ("**missed**" if c2 is not None
                            else "not measured"),
         rmwv("coupled/spin", dproto, 1), rmwv("coupled/spin", dproto, 2),
         rmwv("coupled/spin", dproto, 4), rmwv("coupled/spin", "settled", 1),
         rmwv("coupled/spin", "settled", 2),
         rmwv("coupled/spin", "settled", 4),
         rmwv("coupled/futex", dproto, 4), rmwv("coupled/futex", "settled", 4),
         rmwv("seed_baseline", "", 2)))
    ic, is_, ics = insn.get("coupled"), insn.get("seed"), insn_s.get("coupled")
    u_c = get(med, "coupled_uncontended/spin", 1)
    u_cs = get(med, "coupled_settled_uncontended/spin", 1)
    u_s = get(med, "seed_baseline/pause", 1)
    if ic is not None and is_ is not None:
        w("2. **Uncontended round: no more instructions than the seed "
          "baseline**: %s.  %.0f against %.0f (%+.0f%%; settled: %s); in "
          "time, %s against %s per uncontended round (settled: %s).  Where "
          "the coupled round's instructions go, by source file, is under "
          "goal 1 of the fast-path goals below: the round itself, and the "
          "entry guard that every call pays (the re-entry flag with its "
          "seq_cst Dekker pair against `coupled_leave()`, and the context "
          "id)."
          % ("met" if ic <= is_ else "**missed**", ic, is_,
             100.0 * (ic - is_) / is_,
             "%.0f" % ics if ics is not None else "n/a",
             fmt_ns(u_c), fmt_ns(u_s), fmt_ns(u_cs)))
    else:
        w("2. Uncontended round against the seed: no instruction counts "
          "(valgrind missing).")
    sp2 = get(med, "coupled_round/spin", 2)
    ss2 = get(med, "coupled_settled_round/spin", 2)
    ck2 = get(med, "ck_centralized", 2)
    pb2 = get(med, "pthread_barrier", 2)
    r1 = ratio(sp2, ck2)
    r2 = ratio(sp2, pb2)
    rs = ratio(ss2, ck2)
    seed2 = get(med, "seed_baseline/pause", 2)
    met3 = r1 is not None and r2 is not None and r1 <= 1.5 and r2 <= 0.2
    w("3. **2 threads, spin: at most 1.5x `ck_barrier_centralized` and far "
      "below `pthread_barrier_wait`**: %s.  coupled %s, ck centralized %s "
      "(ratio %s), pthread_barrier_wait %s (ratio %s); settled protocol %s "
      "(ratio %s); the 4-RMW seed baseline %s.%s"
      % ("met" if met3 else ("**missed**" if r1 is not None
                             else "not measured"),
         fmt_ns(sp2), fmt_ns(ck2),
         "%.2fx" % r1 if r1 is not None else "n/a", fmt_ns(pb2),
         "%.3fx" % r2 if r2 is not None else "n/a", fmt_ns(ss2),
         "%.2fx" % rs if rs is not None else "n/a", fmt_ns(seed2),
         "  The spinning threads may have been descheduled on this run "
         "(compare the single-thread figures)."
         if r2 is not None and r2 > 0.2 else ""))
    f16 = get(med, "coupled_round/futex", 16)
    fs16 = get(med, "coupled_settled_round/futex", 16)
    p16 = get(med, "pthread_barrier", 16)
    r3 = ratio(f16, p16)
    r3s = ratio(fs16, p16)
    y16 = get(med, "seed_baseline/yield", 16)
    met4 = r3 is not None and r3 <= 1.2
    w("4. **spin-then-futex, 16 threads on %d CPUs: within 1.2x of "
      "`pthread_barrier_wait`**: %s.  coupled %s, pthread_barrier_wait %s "
      "(ratio %s); settled protocol %s (ratio %s); the seed baseline with "
      "`sched_yield()` waits %s."
      % (ncpu, ("met" if met4 else "**missed**") if r3 is not None
         else "not measured", fmt_ns(f16), fmt_ns(p16),
         "%.2fx" % r3 if r3 is not None else "n/a", fmt_ns(fs16),
         "%.2fx" % r3s if r3s is not None else "n/a", fmt_ns(y16)))
    w("5. **1,000 threads on %d CPUs with the futex strategy complete "
      "rounds** (default protocol): %s." % (ncpu, (
          "met (%d rounds, %s per round)" % (
              many["rounds"], fmt_ns(many["us_per_round"] * 1e3)))
          if many and many.get("ok") else "**not met** (see above)"))
    w("")

    # --- the fast-path goals, judged by goals.py on the same results
    insn_line, _ = fast_goals.insn_figure(d)
    L.extend(fast_goals.markdown(
        fast_goals.evaluate(a.results), "bash bench/run_bench.sh",
        "Run on %s; load average before / after %s / %s%s." % (
            date, machine.get("loadavg_before", "?"),
            machine.get("loadavg_after", "?"),
            "; " + machine["note"] if machine.get("note") else ""),
        None, insn_line, len(runs)))
    L.extend(fast_goals.criteria_md())

    # --- harness
    w("## The bindings-free C harness")
    w("")
    w("`bench/harness/` runs the coupled cases without C++ or Google "
      "Benchmark: its core (`coupled_harness.c`) needs no C library "
      "(`bench_harness_freestanding` checks it); the caller injects the "
      "clock, the contexts and the output.  `bench_harness` is the hosted "
      "driver, `bench/arm/bench_image.c` the bare-metal one "
      "(docs/baremetal-arm.md).  It writes Google Benchmark's JSON, so "
      "`compare.py benchmarks harness.json gbench.json` compares the two "
      "(`compare_harness_gbench.txt`).  Median ns per round, full round:")
    w("")
    w("| strategy | source | " + " | ".join("%d thr" % t for t in THREADS)
      + " |")
    w("|---|---|" + "---:|" * len(THREADS))
    for slabel, s in STRATEGIES:
        fam = "coupled_round/%s" % s
        w("| %s | C harness | " % slabel
          + " | ".join(cell(hmed, (fam, t))
                       + (" *" if s == "spin" and t > ncpu
                          and (fam, t) in hmed else "")
                       for t in THREADS) + " |")
        w("| %s | Google Benchmark | " % slabel
          + " | ".join(cell(med, (fam, t)) for t in THREADS) + " |")
    w("")
    w("## Reading and extending")
    w("")
    w("- `bench/bench_main.cc`: the Google Benchmark cases (the header "
      "included directly); `bench/peers/ck_peers.c`: the Concurrency Kit "
      "barriers behind a C interface; `bench/baseline/`: the seed "
      "baseline.")
    w("- Compare two runs: `/usr/bin/python3 /usr/share/benchmark/compare.py "
      "benchmarks old.json new.json`.")
    w("- Smoke tests: `ctest -L bench`.  `run_bench.sh` configures the "
      "project in `build/bench` (Release, no `COUPLED_STATS`, no "
      "sanitizer); Debian's `libbenchmark` says it was built as DEBUG, "
      "which concerns its code around the timed loop, not the loop.")
    w("")
    with open(a.md, "w") as f:
        f.write("\n".join(L))


if __name__ == "__main__":
    main()

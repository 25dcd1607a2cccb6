#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""report.py - turn the results of bench/run_bench.sh into docs/benchmarks.md
and the latency plot.

Usage: report.py --results DIR --md FILE --png FILE

DIR holds machine.txt, gbench.json (Google Benchmark), rmw.json,
insn.jsonl, many.json and harness.json, as written by run_bench.sh.  The
fast-path goals' section comes from goals.py (same directory).
"""
import argparse
import json
import os
import re
import statistics

THREADS = [1, 2, 4, 8, 16]

# Latency table and plot: (label, Google Benchmark family name).
IMPLS = [
    ("coupled, spin", "coupled_round/spin"),
    ("coupled, spin-then-futex", "coupled_round/futex"),
    ("coupled, condvar", "coupled_round/condvar"),
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


def read_kv(path):
    kv = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    kv[k] = v
    return kv


def load_json(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        try:
            return json.load(f)
        except ValueError:
            return None


def load_jsonl(path):
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    rows.append(json.loads(line))
    return rows


def family_and_threads(name):
    """'coupled_round/spin/iterations:5/real_time/threads:2' ->
    ('coupled_round/spin', 2, fixed_iterations?)."""
    m = re.search(r"/threads:(\d+)$", name)
    threads = int(m.group(1)) if m else 1
    fixed = "/iterations:" in name
    base = re.sub(r"/(iterations:\d+|repeats:\d+|real_time|threads:\d+)",
                  "", name)
    return base, threads, fixed


def medians(doc):
    """{(family, threads): (median ns/round, samples, fixed)}"""
    samples = {}
    fixed = {}
    for b in (doc or {}).get("benchmarks", []):
        if b.get("run_type") != "iteration" or "ns_per_round" not in b:
            continue
        fam, t, fx = family_and_threads(b["run_name"] if "run_name" in b
                                        else b["name"])
        samples.setdefault((fam, t), []).append(float(b["ns_per_round"]))
        fixed[(fam, t)] = fx
    return {k: (statistics.median(v), len(v), fixed[k])
            for k, v in samples.items()}


def fmt_ns(v):
    if v is None:
        return "n/a"
    if v >= 1e6:
        return "%.1f ms" % (v / 1e6)
    if v >= 1e4:
        return "%.1f us" % (v / 1e3)
    if v >= 1e3:
        return "%.2f us" % (v / 1e3)
    return "%.0f ns" % v


def cell(med, key):
    if key not in med:
        return "n/a"
    v, n, fx = med[key]
    return fmt_ns(v) + (" *" if fx else "")


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

    fig, ax = plt.subplots(figsize=(9, 5.5))
    styles = ["-o", "-s", "-^", "--o", "--s", "-.D", "-.v",
              ":o", ":s", ":^", ":v", ":D"]
    for (label, fam), style in zip(IMPLS, styles):
        xs = [t for t in THREADS if (fam, t) in med]
        ys = [med[(fam, t)][0] for t in xs]
        if xs:
            ax.plot(xs, ys, style, label=label, linewidth=1.4, markersize=4)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(THREADS)
    ax.set_xticklabels([str(t) for t in THREADS])
    ax.set_xlabel("threads (one participant each)")
    ax.set_ylabel("round latency, ns (median, log scale)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2, loc="upper left")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--md", required=True)
    ap.add_argument("--png", required=True)
    a = ap.parse_args()
    d = a.results

    machine = read_kv(os.path.join(d, "machine.txt"))
    gb = load_json(os.path.join(d, "gbench.json"))
    rmw = load_json(os.path.join(d, "rmw.json")) or {"results": []}
    insn = {r["impl"]: r["insn_per_round"]
            for r in load_jsonl(os.path.join(d, "insn.jsonl"))}
    many = load_json(os.path.join(d, "many.json"))
    harness = load_json(os.path.join(d, "harness.json"))
    med = medians(gb)
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
      "pick instead, in one binary and one run (issue #6).  Everything on "
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
    w("- **coupled** (`include/coupled/coupled.h` with the pthread adapter, "
      "included directly from C++): a full round (`coupled_enter()`, empty "
      "action, exit); a round in which participant 0 aborts once and the "
      "group retries; a leave + join of one participant between rounds; "
      "the uncontended one-member round; each for the adapter's three wait "
      "strategies (spin, spin-then-futex, condvar).")
    w("- **peers doing the same work per round** (every participant "
      "arrives, everyone leaves): `pthread_barrier_wait`; Concurrency Kit's "
      "centralized, combining (groups of two), dissemination, tournament and "
      "MCS barriers (`libck`, called from a C translation unit); C++20 "
      "`std::barrier::arrive_and_wait()`; and the **seed baseline** "
      "(`bench/baseline/`): the 2012 coupled cpuidle counting protocol "
      "written from its description, four RMWs per participant per round "
      "(waiting += 1, ready += 1, waiting -= 1, ready -= 1), waiting by "
      "polling the word with `pause` or `sched_yield()`.  Its one "
      "deviation from 2012: a round generation, stored by the participant "
      "whose ready increment completes the word, ends the ready loop; "
      "without it an empty action triggers the seed's exit race constantly "
      "(see `seed_2012_loop` below).  No RMW is added.")
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
    w("Hardware performance counters are not available on this machine "
      "(`perf stat` reports `<not supported>`), so instruction counts come "
      "from callgrind, and RMW counts from an instrumented build; both are "
      "independent of noise.  Latencies are medians over %d repetitions "
      "of each case, run with random interleaving of all cases (Google "
      "Benchmark's `--benchmark_enable_random_interleaving`); they are only "
      "as good as the machine was quiet (see the load above)." % nreps)
    w("")

    # --- latency table
    w("## Round latency")
    w("")
    w("Median wall-clock time of one round (every participant arrives, the "
      "empty action runs, every participant leaves), from the `ns_per_round` "
      "counter (Google Benchmark's own Time column is a round divided by the "
      "thread count, because it sums iterations over threads; the console "
      "prints the counter with an `s` suffix because it is an inverted "
      "rate, but its value is in nanoseconds).  The machine has %d CPUs, "
      "so 4, 8 and 16 threads are oversubscribed." % ncpu)
    w("")
    w("| implementation | " + " | ".join("%d thr" % t for t in THREADS) + " |")
    w("|---|" + "---:|" * len(THREADS))
    for label, fam in IMPLS:
        w("| %s | " % label + " | ".join(cell(med, (fam, t)) for t in THREADS)
          + " |")
    w("")
    w("`*`: a busy-waiting implementation with more threads than CPUs: each "
      "round needs a scheduler time slice per participant, so these run a "
      "fixed %s iterations and a single repetition "
      "(`COUPLED_BENCH_OVERSUB_ITERS`) instead of a timed run; they measure "
      "the scheduler, not the protocol." % (reps or "5"))
    w("")
    w("![round latency against threads](benchmarks.png)")
    w("")

    # --- coupled cases
    w("## Coupled cases")
    w("")
    w("Median time per round of each case, per wait strategy of the pthread "
      "adapter (`spin-then-futex` is the adapter's `futex` strategy: 200 "
      "`sched_yield()` turns, then `futex(2)`).  *One abort, retry*: "
      "participant 0 aborts once in the waiting phase "
      "(`coupled_enter_opts()` with a caller abort), then enters again.  "
      "*Leave + join*: after each full round the last participant leaves and "
      "joins again; the others count only rounds with every member in.")
    w("")
    w("| case | strategy | " + " | ".join("%d thr" % t for t in THREADS)
      + " |")
    w("|---|---|" + "---:|" * len(THREADS))
    for clabel, cfam in CASES:
        for slabel, s in STRATEGIES:
            fam = "%s/%s" % (cfam, s)
            w("| %s | %s | " % (clabel, slabel)
              + " | ".join(cell(med, (fam, t)) for t in THREADS) + " |")
    for slabel, s in STRATEGIES:
        fam = "coupled_uncontended/%s" % s
        w("| uncontended (1 member) | %s | %s |" % (slabel, cell(med, (fam, 1)))
          + " |" * (len(THREADS) - 1))
    w("")

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
    w("| implementation | 1 thr | 2 thr | 4 thr | retries / restarts / back-outs |")
    w("|---|---:|---:|---:|---|")
    by_impl = {}
    for r in rmw.get("results", []):
        by_impl.setdefault(r["impl"], {})[r["threads"]] = r
    for impl, rows in by_impl.items():
        extra = ", ".join("%d thr: %d/%d/%d" % (t, rows[t].get("retries", 0),
                                               rows[t].get("restarts", 0),
                                               rows[t].get("backouts", 0))
                          for t in sorted(rows)
                          if rows[t].get("retries") or rows[t].get("restarts")
                          or rows[t].get("backouts"))
        w("| %s | " % impl + " | ".join(
            "%.2f" % rows[t]["rmw_per_round"] if t in rows else "n/a"
            for t in (1, 2, 4)) + " | %s |" % (extra or "none"))
    w("")
    w("Where they come from (read off `coupled.h` and checked by the counts): "
      "every participant does three RMWs on the packed word (waiting += 1, "
      "ready += 1, and the single `coupled_word_done()` subtraction that "
      "leaves both halves).  The last arriver then pokes each of the other "
      "n - 1 members: a `poke_seq` fetch_add, plus the pthread adapter's "
      "`wake_seq` fetch_add in `coupled_adapter_wake()`.  Per participant "
      "that is 3 + 2(n - 1)/n: 3, 4, 4.5, tending to 5.  The seed baseline "
      "does exactly 4 (it has no pokes here: its waiters poll the word; the "
      "kernel seed also did a `cpumask_test_and_set_cpu()` and an IPI per "
      "poke, which this baseline leaves out in its favour).  "
      "`seed_2012_loop` is the seed's ready loop without the round "
      "generation the baseline adds (see `bench/baseline/seed_baseline.h`): "
      "with an empty action, participants miss the short all-ready window, "
      "back out of rounds the others already ran (the seed's exit race; "
      "each back-out is one more RMW) and fall out of step.")
    w("")
    w("### Instructions per uncontended round (callgrind)")
    w("")
    w("`bench_insn_count IMPL R` runs R rounds of a one-member group; "
      "`tools/callgrind_rounds.sh` runs it under `valgrind --tool=callgrind` "
      "for R = 1,000 and 11,000 and divides the difference of the totals by "
      "10,000, so start-up cancels out.  Callgrind counts are identical run "
      "to run.")
    w("")
    w("| implementation | instructions per round |")
    w("|---|---:|")
    for impl in ("coupled", "seed", "ck_centralized", "pthread_barrier"):
        if impl in insn:
            w("| %s | %.1f |" % (impl, insn[impl]))
    if not insn:
        w("| (valgrind not available) | n/a |")
    w("")

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
    w("Measured against the goals of issue #6; none of them is a timed test.")
    w("")
    c2 = by_impl.get("coupled/spin", {}).get(2, {}).get("rmw_per_round")
    c1 = by_impl.get("coupled/spin", {}).get(1, {}).get("rmw_per_round")
    c4 = by_impl.get("coupled/futex", {}).get(4, {}).get("rmw_per_round")
    s2 = by_impl.get("seed_baseline", {}).get(2, {}).get("rmw_per_round")
    ok1 = c2 is not None and c2 <= 3.0
    w("1. **At most 3 atomic RMWs per participant per committed round** "
      "(the seed needs 4): %s.  Measured %s with 1 participant, %s with 2, "
      "%s with 4 (seed baseline: %s).  The word itself costs 3 (the goal's "
      "part is met: the seed's two exit RMWs became one), but the pokes "
      "cost 2 per poked member, paid by the last arriver: 2(n-1)/n per "
      "participant.  What would close it: (a) let the adapter's wake share "
      "the protocol's `poke_seq` word (one RMW per poke instead of two: "
      "3 + (n-1)/n); (b) make the poke a plain store of the round's arrival "
      "number rather than a counter increment, since only the last arriver "
      "or a membership changer pokes and the lost-wake check only needs "
      "\"changed since I handled it\"; (c) skip the poke for members that "
      "are not asleep (the spin strategy never sleeps)."
      % ("**missed**" if not ok1 else "met",
         "%.2f" % c1 if c1 is not None else "n/a",
         "%.2f" % c2 if c2 is not None else "n/a",
         "%.2f" % c4 if c4 is not None else "n/a",
         "%.2f" % s2 if s2 is not None else "n/a"))
    ic, is_ = insn.get("coupled"), insn.get("seed")
    u_c = get(med, "coupled_uncontended/spin", 1)
    u_s = get(med, "seed_baseline/pause", 1)
    if ic is not None and is_ is not None:
        w("2. **Uncontended round: no more instructions than the seed "
          "baseline**: %s.  %.0f against %.0f (%+.0f%%); in time, %s against "
          "%s per uncontended round (both execute four locked instructions: the "
          "coupled round the seq_cst store of `inside` and three RMWs on the "
          "word; these probably dominate).  The uncontended "
          "round does what the seed does (three word RMWs instead of four) "
          "plus the generalisation: the re-entry guard (`inside` store and "
          "seq_cst load of `member`), the `prevent` checks, the poke "
          "bookkeeping, the closer's decision (a scan of every slot for "
          "pending pokes and the request reduction through a function "
          "pointer), the generation and ack, and the exit gate.  What would "
          "close it: skip the decision scan and the ack/exit gate when the "
          "round has one member, and inline the default reduction."
          % ("met" if ic <= is_ else "**missed**", ic, is_,
             100.0 * (ic - is_) / is_, fmt_ns(u_c), fmt_ns(u_s)))
    else:
        w("2. Uncontended round against the seed: no instruction counts "
          "(valgrind missing).")
    sp2 = get(med, "coupled_round/spin", 2)
    ck2 = get(med, "ck_centralized", 2)
    pb2 = get(med, "pthread_barrier", 2)
    r1 = ratio(sp2, ck2)
    r2 = ratio(sp2, pb2)
    seed2 = get(med, "seed_baseline/pause", 2)
    met3 = r1 is not None and r2 is not None and r1 <= 1.5 and r2 <= 0.2
    w("3. **2 threads, spin: at most 1.5x `ck_barrier_centralized` and far "
      "below `pthread_barrier_wait`**: %s.  coupled %s, ck centralized %s "
      "(ratio %s), pthread_barrier_wait %s (ratio %s); the 4-RMW seed "
      "baseline %s.  %s  Why%s: a centralized sense-reversing barrier hands "
      "one cache line between the CPUs once per round (each thread one "
      "fetch-and-add, the last one flips the sense).  A coupled round has "
      "three waits that each need a line to cross: every member waits for "
      "the closer's decision (`round_gen`), the closer waits for every "
      "`ack` and the others for `exit_gate`, then everyone waits for the "
      "word's ready count to drop to 0, on top of the three RMWs on the word "
      "and the pokes.  These gates are what make the commit irrevocable and "
      "the round abortable, which a barrier does not offer.  What would "
      "close the gap: fewer hand-offs per round, e.g. publish the decision "
      "in the packed word itself (the closer's ready increment already "
      "completes it; a generation field there would replace `round_gen` "
      "and `round_outcome`), let each member's `coupled_word_done()` serve "
      "as its acknowledgement instead of a separate `ack` + `exit_gate` "
      "pair, and skip pokes to members that are spinning rather than asleep."
      % ("met" if met3 else ("**missed**" if r1 is not None
                             else "not measured"),
         fmt_ns(sp2), fmt_ns(ck2),
         "%.2fx" % r1 if r1 is not None else "n/a", fmt_ns(pb2),
         "%.3fx" % r2 if r2 is not None else "n/a", fmt_ns(seed2),
         ("The second half holds (a spinning round never enters the kernel; "
          "the glibc barrier sleeps in futex(2) every round)."
          if r2 is not None and r2 <= 0.2 else
          "**Neither half is met on this run**: the spinning threads were "
          "descheduled (compare the single-thread figures); rerun on a quiet "
          "machine." if r2 is not None else ""),
         " the first half is missed" if r1 is not None and r1 > 1.5 else
         " the coupled round costs more than a barrier"))
    f16 = get(med, "coupled_round/futex", 16)
    p16 = get(med, "pthread_barrier", 16)
    r3 = ratio(f16, p16)
    y16 = get(med, "seed_baseline/yield", 16)
    met4 = r3 is not None and r3 <= 1.2
    if met4:
        why4 = ("With 8 threads per CPU a round is dominated by context "
                "switches.  Probably why the coupled round does well here: "
                "its waits call `sched_yield()` for 200 turns before "
                "sleeping, which hands the CPU straight to the next "
                "participant of the round, while glibc's barrier puts its "
                "waiters to sleep in futex(2).  The margin depends on the "
                "scheduler and the machine's load.")
    else:
        why4 = ("With 8 threads per CPU a round is dominated by context "
                "switches.  The coupled round has a sleeping phase (phase 1) "
                "but its later gates (decision, exit gate, ready == 0) are "
                "spin loops that call `sched_yield()` under this strategy, "
                "and the last arriver wakes the others one `FUTEX_WAKE` "
                "each; glibc's barrier wakes every waiter with one call.  "
                "What would close the gap: sleep at once when the group has "
                "more members than CPUs (a spin budget that adapts), let the "
                "exit gates sleep too, and wake sleepers with one "
                "`FUTEX_WAKE` on a shared word instead of one per member.")
    w("4. **spin-then-futex, 16 threads on %d CPUs: within 1.2x of "
      "`pthread_barrier_wait`**: %s.  coupled %s, pthread_barrier_wait %s "
      "(ratio %s); the seed baseline with `sched_yield()` waits %s.  %s"
      % (ncpu, ("met" if met4 else "**missed**") if r3 is not None
         else "not measured", fmt_ns(f16), fmt_ns(p16),
         "%.2fx" % r3 if r3 is not None else "n/a", fmt_ns(y16), why4))
    w("5. **1,000 threads on %d CPUs with the futex strategy complete "
      "rounds**: %s." % (ncpu, ("met (%d rounds, %s per round)" % (
          many["rounds"], fmt_ns(many["us_per_round"] * 1e3)))
          if many and many.get("ok") else "**not met** (see above)"))
    w("")

    # --- the fast-path goals, judged by goals.py on the same results
    import goals as fast_goals
    L.extend(fast_goals.markdown(
        fast_goals.evaluate(d), "bash bench/run_bench.sh",
        "Run on %s; load average before / after %s / %s%s." % (
            date, machine.get("loadavg_before", "?"),
            machine.get("loadavg_after", "?"),
            "; " + machine["note"] if machine.get("note") else "")))
    L.extend(fast_goals.criteria_md())

    # --- harness
    w("## The bindings-free C harness")
    w("")
    w("`bench/harness/` runs the coupled cases without C++ or Google "
      "Benchmark: its core (`coupled_harness.c`) needs no C library (the "
      "test `bench_harness_freestanding` compiles it with `-ffreestanding` "
      "against the spin adapter and checks it refers to no outside symbol); "
      "the caller injects the clock, the way to run N contexts, the output "
      "and the wait-strategy choice.  `bench_harness` is the hosted driver "
      "(pthreads, `clock_gettime`); `bench/arm/bench_image.c` runs it "
      "on bare metal (the generic timer as clock, the cores as contexts, "
      "JSON over the UART; docs/baremetal-arm.md).  It writes Google Benchmark's JSON "
      "schema under the same names, so `compare.py benchmarks harness.json "
      "gbench.json` compares the two (`build/bench-results/"
      "compare_harness_gbench.txt`); the smoke test `bench_harness_compare` "
      "checks that compare.py reads it.  Median ns per round, full round:")
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
    w("- `bench/bench_main.cc`: the Google Benchmark cases (the header is "
      "included directly, no binding layer); `bench/peers/ck_peers.c`: the "
      "Concurrency Kit barriers behind a C interface (`ck_barrier.h` is not "
      "C++-clean; all per-thread barrier state is static and rebuilt only in "
      "each benchmark's `Setup`, so it survives Google Benchmark's repeated "
      "runs); `bench/baseline/`: the seed baseline.")
    w("- Compare two runs: `/usr/bin/python3 /usr/share/benchmark/compare.py "
      "benchmarks old.json new.json` (needs numpy and scipy; the `python3` "
      "first on PATH may lack them).")
    w("- Smoke tests (label `bench`, under a minute in all): `ctest -L "
      "bench` in the build directory.")
    w("- Debian's `libbenchmark` prints `***WARNING*** Library was built "
      "as DEBUG` (it was built without `NDEBUG`); that concerns Google "
      "Benchmark's own code around the timed loop, not the loop itself.  If the top "
      "level is configured with `COUPLED_STATS=ON` or a sanitizer, the "
      "benchmarks inherit it; `run_bench.sh` builds `bench/` standalone "
      "without either.")
    w("")
    with open(a.md, "w") as f:
        f.write("\n".join(L))


if __name__ == "__main__":
    main()

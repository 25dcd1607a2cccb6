#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""goals.py - the fast-path goals, each reported as met or missed with the
figures it was judged on, from one or more runs of bench/run_bench.sh.

Usage: goals.py --results DIR [DIR ...] [--md FILE]

Each DIR holds the results of one run of the Google Benchmark suite
(gbench.json, machine.txt); the first also holds rmw.json (bench_rmw_count)
and insn.jsonl (tools/callgrind_rounds.sh), as run_bench.sh writes them,
and where present insn_settled.jsonl and insn_breakdown*.json (the settled
protocol's count and the coupled round's instructions by source file,
tools/insn_breakdown.py), printed under the instruction count.  A goal is
judged on the median over the runs of its per-run figure (each run's cases
compared within that run); a figure that only the first directory holds (the
counts) is that directory's.  Prints the instruction count of the
uncontended round (a figure, no longer a goal) and one line per goal,
"goal N: ...: met" or "...: missed", and writes goals.txt into the first
DIR; with --md, also a Markdown section to FILE.  Exit status 0 when every
goal could be judged (met or missed alike: the goals are reported, not
enforced), 1 when a figure is missing ("not measured").

The goals and their criteria (docs/benchmarks.md explains each):
  2. RMWs per participant per committed round at 2 and 4 participants:
     <= 2 for spin, futex and condvar; <= 1 for spin (no member sleeps),
     where a withdrawn call costs its arrival plus <= 1 RMW (the one CAS
     that takes the arrival back).
  3. 2 threads, spin, each repetition in one-way hand-offs of its own
     floor (ns per round / the mean of its floor_ns and floor_after_ns),
     the repetitions of all runs grouped by placement (results.Placements):
     at every placement, coupled's median at most ck_barrier_centralized's
     + HANDOFF_MARGIN and at most the best ck barrier's + BEST_CK_MARGIN.
     Results without per-repetition floors: each run's medians in its
     ping-pong's hand-offs, the median over the runs of the difference.
  4. 4, 8 and 16 threads, futex, in every run: the median round <=
     FUTEX_RATIO_MAX x std::barrier's and the 90th percentile of the
     repetitions <= FUTEX_P90_RATIO_MAX x std::barrier's.
  5. 4 members, futex: capacity 4,096 median round <= 1.10x capacity 4.
  6. withdrawal O(1), futex, 2/4/8 members, member 0 withdrawing by
     deadline while the others wait: (a) the withdrawing member's RMWs per
     withdrawal vary by at most WITHDRAW_SPREAD across group sizes, and
     (b) at every group size the rest of the group's RMWs per committed round
     grow by less than OTHERS_PER_ABORT per withdrawal (4 withdrawals per
     round against none).
Goal 1 (at most 40 instructions per uncontended one-member round) is
retired: the count is still printed, as a figure.
"""
import argparse
import os
import statistics
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import (Placements, Run, fmt_ns, load_json,  # noqa: E402
                     load_jsonl, median_of, quantile)

RMW_MAX = 2.0
RMW_SPIN_MAX = 1.0
WITHDRAW_CAS = 1.0
HANDOFF_MARGIN = 0.0
BEST_CK_MARGIN = 0.5
FUTEX_RATIO_MAX = 0.9
FUTEX_P90_RATIO_MAX = 1.0
OVERSUB_THREADS = (4, 8, 16)
CAPACITY_RATIO_MAX = 1.10
WITHDRAW_MEMBERS = (2, 4, 8)
WITHDRAW_SPREAD = 0.5
OTHERS_PER_ABORT = 0.5
EPS = 1e-9


def status(ok):
    if ok is None:
        return "not measured"
    return "met" if ok else "missed"


def num(v, f="%.2f"):
    return "n/a" if v is None else f % v


def per_run(vals, f):
    """' (runs: a, b)' for more than one run, else ''."""
    if len(vals) < 2:
        return ""
    return " (runs: %s)" % ", ".join(f(v) for v in vals)


def ratio(a, b):
    return a / b if a is not None and b else None


def insn_figure(d):
    """(line text, coupled count or None): the uncontended round's
    instructions, reported as a figure (retired goal 1)."""
    insn = {r["impl"]: r["insn_per_round"]
            for r in load_jsonl(os.path.join(d, "insn.jsonl"))}
    ic = insn.get("coupled")
    settled = {r["impl"]: r["insn_per_round"] for r in load_jsonl(
        os.path.join(d, "insn_settled.jsonl"))}.get("coupled")
    others = ["settled protocol %.0f" % settled] if settled is not None else []
    others += ["%s %.0f" % (k, insn[k])
               for k in ("seed", "ck_centralized", "pthread_barrier")
               if k in insn]
    peers = ", ".join(others)
    return ("uncontended 1-member round (callgrind, library and adapter): "
            "coupled %s instructions%s (a figure, not a goal)"
            % (num(ic, "%.0f"), ", " + peers if peers else ""), ic)


CK_FAMILIES = ("ck_centralized", "ck_combining", "ck_dissemination",
               "ck_tournament", "ck_mcs")


def goal3_run_level(runs):
    """Goal 3 from results without per-repetition floors (older runs):
    each run's medians in hand-offs of its ping-pong floor."""
    h = [r.handoff for r in runs]
    ch = [r.handoffs("coupled_round/spin", 2) for r in runs]
    kh = [r.handoffs("ck_centralized", 2) for r in runs]
    diff = [c - k if c is not None and k is not None else None
            for c, k in zip(ch, kh)]
    dm = median_of(diff)
    return (3, "2 threads spin, in one-way hand-offs of each run's "
            "ping-pong (%s%s; no per-repetition floors in these results): "
            "coupled %s, ck centralized %s, difference %s%s (goal <= +%.1f)"
            % (fmt_ns(median_of(h)), per_run(h, fmt_ns), num(median_of(ch)),
               num(median_of(kh)), num(dm, "%+.2f"),
               per_run(diff, lambda v: num(v, "%+.2f")), HANDOFF_MARGIN),
            None if dm is None else dm <= HANDOFF_MARGIN + EPS)


def goal3(runs):
    """Goal 3 per placement: at every placement seen, coupled's median
    hand-offs at most ck centralized's + HANDOFF_MARGIN and within
    BEST_CK_MARGIN of the best ck barrier's."""
    pl = Placements(runs)
    if not pl.placements or not pl.per("coupled_round/spin"):
        return goal3_run_level(runs)
    parts, ok = [], True
    for i in range(len(pl.placements)):
        c = pl.per("coupled_round/spin").get(i, [])
        k = pl.per("ck_centralized").get(i, [])
        best = None
        for fam in CK_FAMILIES:
            m = pl.median(fam, i)
            if m is not None and (best is None or m < best[1]):
                best = (fam, m)
        if not c or not k:
            parts.append("floor %s: not measured (coupled %d, ck "
                          "centralized %d repetitions)"
                          % (pl.label(i), len(c), len(k)))
            continue
        cm, km = statistics.median(c), statistics.median(k)
        d = cm - km
        good = d <= HANDOFF_MARGIN + EPS
        text = ("floor %s: coupled %s (%d reps), ck centralized %s (%d), "
                "difference %s (goal <= +%.1f)"
                % (pl.label(i), num(cm), len(c), num(km), len(k),
                   num(d, "%+.2f"), HANDOFF_MARGIN))
        if best is not None:
            text += ", best ck %s %s, coupled %s (goal <= +%.1f)" % (
                best[0][3:], num(best[1]), num(cm - best[1], "%+.2f"),
                BEST_CK_MARGIN)
            good = good and cm - best[1] <= BEST_CK_MARGIN + EPS
        parts.append(text)
        ok = ok and good
    moved = pl.moved("coupled_round/spin") + pl.moved("ck_centralized")
    return (3, "2 threads spin, each repetition in one-way hand-offs of its "
            "own floor, by placement: %s; %d repetitions of the two moved "
            "while they ran (left out)" % ("; ".join(parts), moved), ok)


def evaluate(dirs):
    """A list of (number, line text without status, met/missed/None), the
    goals judged over the runs in dirs (the counts from dirs[0])."""
    if isinstance(dirs, str):
        dirs = [dirs]
    d = dirs[0]
    runs = [Run(x) for x in dirs]
    rmw = load_json(os.path.join(d, "rmw.json")) or {}
    ncpu = os.cpu_count() or 0
    ctx = (runs[0].gb or {}).get("context", {})
    if ctx.get("num_cpus"):
        ncpu = ctx["num_cpus"]

    goals = []

    # 2: RMWs per participant per committed round; spin withdrawals.
    rows = {(r["impl"], r["threads"]): r["rmw_per_round"]
            for r in rmw.get("results", [])}
    parts, ok2 = [], True
    for s in ("spin", "futex", "condvar"):
        lim = RMW_SPIN_MAX if s == "spin" else RMW_MAX
        vals = [rows.get(("coupled/" + s, t)) for t in (2, 4)]
        parts.append("%s %s/%s (goal <= %g)" % (s, num(vals[0]), num(vals[1]),
                                                 lim))
        for v in vals:
            if v is None:
                ok2 = None
            elif ok2 is not None and v > lim + EPS:
                ok2 = False
    wd = {(w["strategy"], w["members"], w["aborts_per_round"]): w
          for w in rmw.get("withdrawals", [])}
    sw = wd.get(("spin", 2, 4))
    sw_v = sw["withdraw_rmw_per_abort"] if sw and sw["withdrawals"] else None
    # A withdrawn call's RMWs: its arrival (1) and what withdrawing adds.
    sw_cas = sw_v - 1.0 if sw_v is not None else None
    if sw_v is None:
        ok2 = None
    elif ok2 is not None and sw_cas > WITHDRAW_CAS + EPS:
        ok2 = False
    goals.append((2, "RMWs per participant per committed round at 2/4 "
                  "participants: %s; spin withdrawn call %s RMWs = its "
                  "arrival + %s to withdraw (goal: arrival + <= %g)"
                  % ("; ".join(parts), num(sw_v), num(sw_cas), WITHDRAW_CAS),
                  ok2))

    # 3: 2 threads spin against ck, per placement (each repetition in
    # hand-offs of its own floor; results.Placements).
    goals.append(goal3(runs))

    # 4: oversubscribed futex against std::barrier, in every run: the
    # median and the 90th percentile of the repetitions.
    parts, ok4 = [], True
    for t in OVERSUB_THREADS:
        rs = [ratio(r.ns("coupled_round/futex", t), r.ns("std_barrier", t))
              for r in runs]
        ps = [ratio(r.p90("coupled_round/futex", t), r.p90("std_barrier", t))
              for r in runs]
        parts.append("%d thr %sx%s, coupled %s, std::barrier %s, p90 %sx%s "
                     "(coupled %s, std::barrier %s)"
                     % (t, num(median_of(rs)),
                        per_run(rs, lambda v: num(v) + "x"),
                        fmt_ns(median_of(r.ns("coupled_round/futex", t)
                                         for r in runs)),
                        fmt_ns(median_of(r.ns("std_barrier", t)
                                         for r in runs)),
                        num(median_of(ps)),
                        per_run(ps, lambda v: num(v) + "x"),
                        fmt_ns(median_of(r.p90("coupled_round/futex", t)
                                         for r in runs)),
                        fmt_ns(median_of(r.p90("std_barrier", t)
                                         for r in runs))))
        if any(v is None for v in rs + ps):
            ok4 = None
        elif ok4 is not None and (
                any(v > FUTEX_RATIO_MAX + EPS for v in rs)
                or any(v > FUTEX_P90_RATIO_MAX + EPS for v in ps)):
            ok4 = False
    goals.append((4, "futex on %s CPUs, coupled / std::barrier, median and "
                  "p90 of the repetitions: %s (goal in every run: median <= "
                  "%.2fx, p90 <= %.2fx, each)"
                  % (ncpu or "?", "; ".join(parts), FUTEX_RATIO_MAX,
                     FUTEX_P90_RATIO_MAX), ok4))

    # 5: sparse group.
    rs = [ratio(r.ns("coupled_capacity/4096/futex", 4),
                r.ns("coupled_capacity/4/futex", 4)) for r in runs]
    rm = median_of(rs)
    goals.append((5, "4 members, futex: capacity 4096 %s, capacity 4 %s, "
                  "ratio %sx%s (goal <= %.2fx)"
                  % (fmt_ns(median_of(r.ns("coupled_capacity/4096/futex", 4)
                                      for r in runs)),
                     fmt_ns(median_of(r.ns("coupled_capacity/4/futex", 4)
                                      for r in runs)),
                     num(rm), per_run(rs, lambda v: num(v) + "x"),
                     CAPACITY_RATIO_MAX),
                  None if rm is None else rm <= CAPACITY_RATIO_MAX + EPS))

    # 6: withdrawal cost.
    per_abort, growth, ok6 = [], [], True
    for n in WITHDRAW_MEMBERS:
        w0, w4 = wd.get(("futex", n, 0)), wd.get(("futex", n, 4))
        if not w0 or not w4 or not w4["withdrawals"]:
            per_abort.append(None)
            growth.append(None)
            ok6 = None
            continue
        per_abort.append(w4["withdraw_rmw_per_abort"])
        growth.append((w4["group_rmw_per_round"] - w0["group_rmw_per_round"])
                      / w4["aborts_per_round"])
    if ok6 is not None:
        spread = max(per_abort) - min(per_abort)
        ok6 = (spread <= WITHDRAW_SPREAD + EPS
               and all(g < OTHERS_PER_ABORT for g in growth))
    goals.append((6, "withdrawal by deadline while the others wait, futex, "
                  "%s members: withdrawing member %s RMWs per withdrawal "
                  "(goal: spread <= %g), rest of the group %s RMWs per "
                  "committed round per extra withdrawal (goal < %g each)"
                  % ("/".join(str(n) for n in WITHDRAW_MEMBERS),
                     "/".join(num(v) for v in per_abort), WITHDRAW_SPREAD,
                     "/".join(num(v, "%+.2f") for v in growth),
                     OTHERS_PER_ABORT), ok6))
    return goals


def breakdown(d):
    """Indented lines: the coupled round's instructions by source file, per
    protocol (insn_breakdown*.json), or [] where none was measured."""
    out = []
    for name, proto in (("insn_breakdown.json", "default (direct)"),
                        ("insn_breakdown_settled.json", "settled")):
        b = load_json(os.path.join(d, name))
        if not b or not b.get("files"):
            continue
        files = b["files"]
        lib = sum(f["insn_per_round"] for f in files
                  if not f["file"].startswith("bench/"))
        loop = sum(f["insn_per_round"] for f in files
                   if f["file"].startswith("bench/"))
        out.append("  %s protocol, %.1f instructions per round by source "
                   "file (callgrind_annotate, rounds %d and %d): library "
                   "and adapter %.1f, bench loop %.1f"
                   % (proto, b["insn_per_round"], b["rounds"][0],
                      b["rounds"][1], lib, loop))
        for f in files:
            out.append("    %6.1f  %s%s" % (f["insn_per_round"], f["file"],
                                            ": " + f["part"] if f["part"]
                                            else ""))
            fns = f.get("functions") or []
            if fns and not (len(fns) == 1 and fns[0]["function"] == "main"):
                out.append("            by function: " + ", ".join(
                    "%s %.1f" % (g["function"], g["insn_per_round"])
                    for g in fns))
    return out


def lines(goals, detail=None, insn=None):
    """The instruction figure (insn: its line text) with detail (indented
    lines) under it, then one line per goal."""
    out = []
    if insn:
        out.append("figure: %s" % insn)
        out.extend(detail or [])
    for n, text, ok in goals:
        out.append("goal %d: %s: %s" % (n, text, status(ok)))
    return out


def markdown(goals, command, note, detail=None, insn=None, nruns=1):
    L = ["## Fast-path goals: today's figures", ""]
    L.append("Judged by `bench/tools/goals.py` on %s of `%s`: every ratio "
             "and every difference in hand-offs compares cases measured in "
             "the same run, and a goal is judged on the median of its "
             "per-run figure over the runs (the counts come from the first "
             "run).  The goals are reported, not enforced: a missed goal "
             "does not fail the run, a figure that could not be measured "
             "does.%s"
             % ("%d runs of the Google Benchmark suite" % nruns
                if nruns > 1 else "one run", command,
                "  " + note if note else ""))
    L.append("")
    L.append("```")
    L.extend(lines(goals, detail, insn))
    L.append("```")
    L.append("")
    return L


def criteria_md():
    """How each goal is measured and judged, as Markdown."""
    return [
        "How each goal is judged (`bench/tools/goals.py`):",
        "",
        "1. Retired (at most 40 instructions per uncontended round); the "
        "callgrind figure is still printed, with its per-file breakdown in "
        "`goals.txt`.",
        "2. `bench_rmw_count` (every RMW bumps a thread-local counter): RMWs "
        "per participant per committed round at 2 and 4 participants, at most "
        "%g for futex and condvar, %g for spin; a withdrawn spin call costs "
        "its arrival plus at most %g."
        % (RMW_MAX, RMW_SPIN_MAX, WITHDRAW_CAS),
        "3. `coupled_round/spin` and the ck barriers at 2 threads, each "
        "repetition in one-way hand-offs of its own floor (the section *Two "
        "threads, by placement*), at every placement seen in the runs: "
        "coupled's median at most `ck_centralized`'s + %.1f and at most the "
        "best ck barrier's + %.1f; a placement where a case has no "
        "repetition is *not measured* there."
        % (HANDOFF_MARGIN, BEST_CK_MARGIN),
        "4. `coupled_round/futex` / `std_barrier` at 4, 8 and 16 threads, "
        "in every run: the median at most %.2fx and the 90th percentile of "
        "the repetitions at most %.2fx." % (FUTEX_RATIO_MAX,
                                            FUTEX_P90_RATIO_MAX),
        "5. `coupled_capacity/4096/futex` / `coupled_capacity/4/futex`, 4 "
        "threads: at most %.2fx." % CAPACITY_RATIO_MAX,
        "6. `bench_rmw_count`'s withdrawal scenario (futex, groups of 2, 4 "
        "and 8; member 0 withdraws by deadline while the others wait): the "
        "withdrawer's RMWs per withdrawal differ by at most %g across sizes, "
        "and the rest of the group's RMWs per committed round grow by less "
        "than %g per withdrawal." % (WITHDRAW_SPREAD, OTHERS_PER_ABORT),
        "",
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True, nargs="+",
                    help="one directory per run; the first holds the counts")
    ap.add_argument("--md", help="also write a Markdown section here")
    ap.add_argument("--command", default="bash bench/run_bench.sh")
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    goals = evaluate(a.results)
    detail = breakdown(a.results[0])
    insn, _ = insn_figure(a.results[0])
    out = ["goals judged over %d run%s: %s" % (
        len(a.results), "s" if len(a.results) > 1 else "",
        ", ".join(a.results))]
    out += lines(goals, detail, insn)
    print("\n".join(out))
    with open(os.path.join(a.results[0], "goals.txt"), "w") as f:
        f.write("\n".join(out) + "\n")
    if a.md:
        with open(a.md, "w") as f:
            f.write("\n".join(markdown(goals, a.command, a.note, detail, insn,
                                       len(a.results))))
    missing = [n for n, _, ok in goals if ok is None]
    if missing:
        print("goals.py: not measured: goal %s"
              % ", ".join(str(n) for n in missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

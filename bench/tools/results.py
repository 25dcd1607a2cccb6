#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""results.py - loading the results of bench/run_bench.sh, shared by
goals.py and report.py (neither imports the other's loading code: report.py
imports goals.py, goals.py imports only this module).

A results directory holds machine.txt, gbench.json and, where present,
gbench_settled.json, rmw.json, insn.jsonl, ... (run_bench.sh's header lists
them).  Several directories are several runs of the Google Benchmark suite
(run_bench.sh RUNS=N writes runs 2..N under DIR/run2 ... DIR/runN); a figure
judged over runs is the median of its per-run values.
"""
import json
import os
import re
import statistics

# The ping-pong case: two threads bounce one cache line; its handoff_ns
# counter is the one-way hand-off of the line between the two CPUs.
PINGPONG = "pingpong"


def read_kv(path):
    """machine.txt's key=value lines as a dict ({} if absent)."""
    kv = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    kv[k] = v
    return kv


def load_json(path):
    """The parsed file, or None if it is absent or not JSON."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        try:
            return json.load(f)
        except ValueError:
            return None


def load_jsonl(path):
    """The JSON objects of a file's lines that start with '{'."""
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


def samples(doc, counter="ns_per_round"):
    """{(family, threads): ([the counter of each repetition], fixed)}."""
    out = {}
    for b in (doc or {}).get("benchmarks", []):
        if b.get("run_type") != "iteration" or counter not in b:
            continue
        fam, t, fx = family_and_threads(b["run_name"] if "run_name" in b
                                        else b["name"])
        out.setdefault((fam, t), ([], fx))[0].append(float(b[counter]))
    return out


def rep_counters(doc, fam, t, counters):
    """[(counter, ...)] of each repetition of one case, in the order given,
    a missing second or later counter read as 0 (the first must be
    there)."""
    out = []
    for b in (doc or {}).get("benchmarks", []):
        if b.get("run_type") != "iteration" or counters[0] not in b:
            continue
        f, n, _ = family_and_threads(b["run_name"] if "run_name" in b
                                     else b["name"])
        if (f, n) == (fam, t):
            out.append(tuple(float(b.get(c, 0.0)) for c in counters))
    return out


def medians(doc, counter="ns_per_round"):
    """{(family, threads): (median of the counter, repetitions, fixed,
    spread)}; by default the counter is ns_per_round.  spread is max/min of
    the repetitions (None with one repetition or a minimum of 0)."""
    out = {}
    for k, (v, fx) in samples(doc, counter).items():
        lo, hi = min(v), max(v)
        spread = hi / lo if len(v) > 1 and lo > 0 else None
        out[k] = (statistics.median(v), len(v), fx, spread)
    return out


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


def median_of(values):
    """The median of the values that are not None, or None."""
    v = [x for x in values if x is not None]
    return statistics.median(v) if v else None


class Run:
    """One run of the Google Benchmark suite: its directory, machine.txt,
    the medians of both binaries (the settled twin's families have their own
    names), and the floor: the ping-pong's one-way hand-off and the CPUs its
    two threads were on."""

    def __init__(self, d):
        self.dir = d
        self.machine = read_kv(os.path.join(d, "machine.txt"))
        self.gb = load_json(os.path.join(d, "gbench.json"))
        self.gbs = load_json(os.path.join(d, "gbench_settled.json"))
        self.gbn = load_json(os.path.join(d, "gbench_nousdt.json"))
        self.med = medians(self.gb)
        self.med.update(medians(self.gbs))
        self.med.update(medians(self.gbn))
        h = medians(self.gb, "handoff_ns").get((PINGPONG, 2))
        self.handoff = h[0] if h else None
        self.handoff_spread = h[3] if h else None
        self.cpus = []
        for i in (0, 1):
            c = medians(self.gb, "cpu_t%d" % i).get((PINGPONG, 2))
            self.cpus.append(int(c[0]) if c else None)

    def ns(self, fam, t):
        """The median ns per round of a case, or None."""
        return self.med[(fam, t)][0] if (fam, t) in self.med else None

    def reps(self, fam, t):
        """The ns per round of each repetition of a case ([] if absent)."""
        for doc in (self.gb, self.gbs, self.gbn):
            v = samples(doc).get((fam, t))
            if v:
                return v[0]
        return []

    def p90(self, fam, t):
        """The 90th percentile of a case's repetitions, or None."""
        return quantile(self.reps(fam, t), 0.9)

    def spread(self, fam, t):
        return self.med[(fam, t)][3] if (fam, t) in self.med else None

    def handoffs(self, fam, t):
        """A case's median round in one-way hand-offs of this run."""
        v = self.ns(fam, t)
        return v / self.handoff if v is not None and self.handoff else None

    def counter(self, fam, t, counter):
        """The median of another counter of a case, or None."""
        m = medians(self.gb, counter).get((fam, t))
        if m is None:
            m = medians(self.gbs, counter).get((fam, t))
        return m[0] if m else None

    def topology(self):
        """How the guest sees the ping-pong's two CPUs: 'same core',
        'different cores, same package' ... from machine.txt's cpuN_*
        lines, or None."""
        a, b = self.cpus
        if a is None or b is None:
            return None
        ta = self.machine.get("cpu%d_core" % a)
        tb = self.machine.get("cpu%d_core" % b)
        pa = self.machine.get("cpu%d_package" % a)
        pb = self.machine.get("cpu%d_package" % b)
        l2a = self.machine.get("cpu%d_l2" % a)
        if ta is None or tb is None:
            return None
        if a == b:
            where = "one CPU"
        elif pa == pb and ta == tb:
            where = "SMT siblings (same core)"
        elif pa == pb:
            where = "different cores, same package"
        else:
            where = "different packages"
        if l2a:
            where += ", L2 %s" % ("shared" if str(b) in expand(l2a)
                                  else "not shared")
        else:
            where += ", caches not reported"
        return where


def expand(cpulist):
    """'0-2,5' -> ['0', '1', '2', '5']."""
    out = []
    for part in cpulist.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-", 1)
            out.extend(str(i) for i in range(int(lo), int(hi) + 1))
        elif part:
            out.append(part)
    return out


# --- placements: each 2-thread repetition's own floor ------------------------
#
# A pinned 2-thread case measures the one-way hand-off between its two CPUs
# right before its timed loop and right after it (bench_main.cc's
# floor_probe(): counters floor_ns and floor_after_ns).  On a virtual machine
# that floor moves when the vCPUs move (26 ns, 61-67 ns and 208 ns have been
# seen, sometimes within one run), so a repetition is measured in hand-offs
# of its own floor, and the repetitions are grouped by where they ran.

# A repetition whose two probes differ by more than this factor moved while
# it ran: it is counted as moved and left out of every placement.
FLOOR_MOVED = 1.3
# Sorted floors whose neighbours differ by more than this factor belong to
# different placements.
PLACEMENT_GAP = 1.5


def rep_floors(doc):
    """{family: [(ns_per_round, floor_ns, floor_after_ns)]} of the 2-thread
    repetitions that measured their floor."""
    out = {}
    for b in (doc or {}).get("benchmarks", []):
        if (b.get("run_type") != "iteration" or "floor_ns" not in b
                or "ns_per_round" not in b):
            continue
        fam, t, _ = family_and_threads(b["run_name"] if "run_name" in b
                                       else b["name"])
        if t != 2:
            continue
        out.setdefault(fam, []).append(
            (float(b["ns_per_round"]), float(b["floor_ns"]),
             float(b.get("floor_after_ns", b["floor_ns"]))))
    return out


def rep_floor(before, after):
    """A repetition's floor (the mean of its probes), or None if it moved
    (or a probe is missing)."""
    if before <= 0 or after <= 0:
        return None
    if max(before, after) / min(before, after) > FLOOR_MOVED:
        return None
    return (before + after) / 2.0


def cluster_floors(floors):
    """[(lo, hi)] the placements: the sorted floors cut where two
    neighbours differ by more than PLACEMENT_GAP."""
    v = sorted(f for f in floors if f)
    if not v:
        return []
    out, lo = [], v[0]
    for a, b in zip(v, v[1:]):
        if b / a > PLACEMENT_GAP:
            out.append((lo, a))
            lo = b
    out.append((lo, v[-1]))
    return out


def quantile(v, q):
    """The q-quantile of v (linear between the order statistics), or
    None."""
    v = sorted(x for x in v if x is not None)
    if not v:
        return None
    pos = q * (len(v) - 1)
    i = int(pos)
    return v[i] if i + 1 >= len(v) else v[i] + (v[i + 1] - v[i]) * (pos - i)


class Placements:
    """The 2-thread repetitions of several runs grouped by placement.

    placements: [(lo, hi)] floors in ns, nearest first; per(fam): {index:
    [hand-offs of each repetition]}; moved(fam): repetitions whose floor
    moved; floor(i): the median floor of placement i over every case."""

    def __init__(self, runs):
        self.reps = {}
        for r in runs:
            for doc in (r.gb, r.gbs, r.gbn):
                for fam, reps in rep_floors(doc).items():
                    self.reps.setdefault(fam, []).extend(reps)
        allf = [rep_floor(b, a) for reps in self.reps.values()
                for _, b, a in reps]
        self.placements = cluster_floors(allf)
        self._floors = {}
        for f in allf:
            i = self.index(f)
            if i is not None:
                self._floors.setdefault(i, []).append(f)

    def index(self, f):
        if f is None:
            return None
        for i, (lo, hi) in enumerate(self.placements):
            if lo <= f <= hi:
                return i
        return None

    def floor(self, i):
        v = self._floors.get(i)
        return statistics.median(v) if v else None

    def per(self, fam):
        out = {}
        for ns, b, a in self.reps.get(fam, []):
            f = rep_floor(b, a)
            i = self.index(f)
            if i is not None:
                out.setdefault(i, []).append(ns / f)
        return out

    def moved(self, fam):
        return sum(1 for _, b, a in self.reps.get(fam, [])
                   if rep_floor(b, a) is None)

    def median(self, fam, i):
        v = self.per(fam).get(i)
        return statistics.median(v) if v else None

    def label(self, i):
        lo, hi = self.placements[i]
        return "%s (%s-%s)" % (fmt_ns(self.floor(i)), fmt_ns(lo),
                               fmt_ns(hi))

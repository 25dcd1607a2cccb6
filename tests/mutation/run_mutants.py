#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Mutation suite: break the header one fault at a time, expect a check to fail.

Every mutant is a copy of include/ with exactly one change.  For each mutant
the checks below are built against the copy and run; the first that fails
kills the mutant.  A mutant that no check kills means a test is missing.

Mutants:
  - named faults (LOGIC_MUTANTS below): the seed's "||", no "wait to be poked
    at least once", no lost-poke restart, the done step split into two
    operations in the wrong order, ...;
  - every memory order of the core weakened, one occurrence at a time, found
    by scanning the headers (so a new atomic operation is covered without
    editing this file): release -> relaxed, acquire -> relaxed, acq_rel ->
    acquire and -> release, seq_cst -> acq_rel (store: release, load:
    acquire).

Checks (each compiled against the mutated copy):
  unit       tests/unit/test_unit.c with the pthread adapter
  scenarios  tests/scenario/test_scenario.c, every scenario, futex strategy
  relacy     tests/relacy/relacy_coupled.cpp, every scenario, quick mode
             (relaxed-memory model checking; skipped with a reason if Relacy
             is not installed, and then no mutant can be reported killed by it)

Logic mutants run the checks in the order unit, scenarios, relacy; memory
order mutants in the order relacy, unit, scenarios (x86 runs hide most
weakened orders).  By default a mutant stops at its first failing check;
--all-checks runs every check on every mutant.

The script first runs every check on the unmodified header: they must pass,
or a "kill" would mean nothing.  It prints a killed/survived table (markdown
with --markdown) and exits 1 if any mutant survived or the baseline failed.

Usage: run_mutants.py [--list] [--only REGEX] [--jobs N] [--all-checks]
                      [--markdown] [--keep]
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "..", ".."))
CORE_FILES = ["include/coupled/word.h", "include/coupled/coupled.h"]

# name, description, file, old text, new text.  The old text must occur in
# the file exactly once: a stale mutant (the header changed under it) is an
# error, not a silent survivor.
LOGIC_MUTANTS = [
    ("seed_logical_or",
     "all-ready value computed with || as in the 2012 seed",
     "include/coupled/word.h",
     "return members | (members << COUPLED_WAITING_BITS);",
     "return members || (members << COUPLED_WAITING_BITS);"),
    ("no_back_out_guard",
     "back out of ready even when every member is ready",
     "include/coupled/word.h",
     "while (old != all) {",
     "while ((void)all, 1) {"),
    ("no_wait_for_poke",
     "leave phase 1 on 'all waiting' without having been poked",
     "include/coupled/coupled.h",
     "if (coupled_word_waiting(c) == n && poked)",
     "if (coupled_word_waiting(c) == n)"),
    ("no_lost_poke_restart",
     "the closer ignores pokes still pending (commits anyway)",
     "include/coupled/coupled.h",
     "\t\t\tpending = true;",
     "\t\t\t(void)pending;"),
    ("done_split_wrong_order",
     "done as two RMWs, waiting first, then ready",
     "include/coupled/word.h",
     "(void)coupled_fetch_sub(word, COUPLED_WAITING_ONE | COUPLED_READY_ONE,\n"
     "\t\t\t\tCOUPLED_RELEASE);",
     "(void)coupled_fetch_sub(word, COUPLED_WAITING_ONE, COUPLED_RELEASE);\n"
     "\t(void)coupled_fetch_sub(word, COUPLED_READY_ONE, COUPLED_RELEASE);"),
    ("no_exit_gate",
     "members leave without waiting for the closer's exit gate",
     "include/coupled/coupled.h",
     "while (coupled_load(&g->exit_gate, COUPLED_ACQUIRE) != gen) {",
     "while (coupled_load(&g->exit_gate, COUPLED_ACQUIRE) != gen && 0) {"),
    ("no_ack_wait",
     "the closer opens the exit gate without waiting for the acks",
     "include/coupled/coupled.h",
     "while (coupled_load(&s->ack, COUPLED_ACQUIRE) != gen) {",
     "while (coupled_load(&s->ack, COUPLED_ACQUIRE) != gen && 0) {"),
    ("no_exit_wait",
     "leave the round without waiting for ready to reach 0",
     "include/coupled/coupled.h",
     "while (coupled_word_ready(coupled_load(&g->counts, COUPLED_ACQUIRE))) {",
     "while (coupled_word_ready(coupled_load(&g->counts, COUPLED_ACQUIRE))"
     " && 0) {"),
    ("no_prevent_recheck",
     "arrive without re-checking prevent after counting as waiting",
     "include/coupled/coupled.h",
     "\tif (coupled_load(&g->prevent, COUPLED_SEQ_CST)) {",
     "\tif (coupled_load(&g->prevent, COUPLED_SEQ_CST) && 0) {"),
    ("membership_read_relaxed",
     "read prevent after the arrival without acquire (nor seq_cst), so the"
     " member count and flags of the last change are not ordered",
     "include/coupled/coupled.h",
     "\tif (coupled_load(&g->prevent, COUPLED_SEQ_CST)) {",
     "\tif (coupled_load(&g->prevent, COUPLED_RELAXED)) {"),
    ("no_leave_drain",
     "coupled_leave() does not wait for the removed id's call to end",
     "include/coupled/coupled.h",
     "while (coupled_load(&g->slots[id].inside, COUPLED_SEQ_CST)) {",
     "while (coupled_load(&g->slots[id].inside, COUPLED_SEQ_CST) && 0) {"),
    ("reduce_skips_first",
     "the closer's reduction ignores the first member's request",
     "include/coupled/coupled.h",
     "acc = seen++ ? g->reduce(acc, r) : r;",
     "acc = seen++ ? g->reduce(acc, r) : 0x7fffffff;"),
]

ORDER_RE = re.compile(r"COUPLED_(RELEASE|ACQUIRE|ACQ_REL|SEQ_CST)\b")
FUNC_RE = re.compile(r"^static inline .*?\b(\w+)\(")
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


def order_mutants():
    """Scan the core headers for memory orders in code (not comments)."""
    mutants = []
    for rel in CORE_FILES:
        with open(os.path.join(ROOT, rel)) as f:
            lines = f.read().split("\n")
        func = "?"
        in_comment = False
        for i, line in enumerate(lines):
            m = FUNC_RE.match(line)
            if m:
                func = m.group(1)
            code = line
            if in_comment:
                if "*/" not in code:
                    continue
                code = code.split("*/", 1)[1]
                in_comment = False
            code = re.sub(r"/\*.*?\*/", "", code)
            if "/*" in code:
                code = code.split("/*", 1)[0]
                in_comment = True
            code = code.split("//", 1)[0]
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
                        os.path.basename(rel).replace(".h", ""), func,
                        field, m.group(1).lower(), weaker.lower())
                    mutants.append({
                        "name": name,
                        "kind": "order",
                        "desc": "%s line %d: %s %s of %s weakened to %s" % (
                            rel, i + 1, op, m.group(1).lower(), field,
                            weaker.lower()),
                        "file": rel, "line": i, "col": col,
                        "old": m.group(0), "new": "COUPLED_" + weaker,
                    })
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


def logic_mutants():
    return [{"name": n, "kind": "logic", "desc": d, "file": f, "old": o,
             "new": w} for (n, d, f, o, w) in LOGIC_MUTANTS]


def apply_mutant(mutant, include_copy):
    """Write the mutated file into include_copy (a copy of include/)."""
    rel = mutant["file"]
    path = os.path.join(include_copy, os.path.relpath(rel, "include"))
    with open(path) as f:
        text = f.read()
    if mutant["kind"] == "logic":
        n = text.count(mutant["old"])
        if n != 1:
            raise RuntimeError("mutant %s: pattern found %d times in %s "
                               "(the header changed; update the mutant)"
                               % (mutant["name"], n, rel))
        text = text.replace(mutant["old"], mutant["new"])
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


def run(cmd, timeout, env=None):
    """Run cmd; return (ok, one-line detail)."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout,
                           env=env, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return False, "timed out after %d s" % timeout
    out = p.stdout.decode(errors="replace").strip().split("\n")
    if p.returncode == 0:
        return True, ""
    # The most telling line: a failed CHECK, an assertion, or the last one.
    for pattern in (r"CHECK failed|stepctl:|RL_ASSERT|assert",
                    r"FAIL|failed|violat|error|timed out"):
        for line in out:
            if re.search(pattern, line, re.I):
                return False, line.strip().replace(ROOT + "/", "")[:160]
    return False, (out[-1].strip()[:160] if out and out[-1] else
                   "exit status %d" % p.returncode)


class Checks:
    """Builds and runs the checks against one include directory."""

    def __init__(self, args):
        self.cc = args.cc
        self.cxx = args.cxx
        self.relacy = None
        self.relacy_why = ""
        src = os.path.join(ROOT, "tests/relacy/relacy_coupled.cpp")
        if not os.path.exists(src):
            self.relacy_why = "tests/relacy/relacy_coupled.cpp is missing"
        elif not any(os.path.exists(os.path.join(d, "relacy/relacy.hpp"))
                     for d in ("/usr/include", "/usr/local/include")):
            self.relacy_why = "Relacy is not installed (Debian: relacy-dev)"
        else:
            self.relacy = src

    def names(self):
        return ["unit", "scenarios", "relacy"]

    def build_c(self, inc, out, src, extra=()):
        cmd = [self.cc, "-std=c11", "-O2", "-g0", "-pthread",
               "-DCOUPLED_ADAPTER_PTHREAD", "-D_DEFAULT_SOURCE",
               "-DCOUPLED_STATS", "-I", inc,
               "-I", os.path.join(ROOT, "adapters/pthread"),
               "-I", os.path.join(ROOT, "tests/common"),
               "-I", os.path.join(ROOT, "tests/scenario")] + list(extra) + \
              [os.path.join(ROOT, src), "-o", out]
        return run(cmd, 300)

    def check(self, name, inc, work):
        """Return (status, detail): status is pass, fail or skip."""
        if name == "unit":
            exe = os.path.join(work, "unit")
            ok, why = self.build_c(inc, exe, "tests/unit/test_unit.c")
            if not ok:
                return "fail", "build: " + why
            ok, why = run([exe], 60)
            return ("pass", "") if ok else ("fail", why)
        if name == "scenarios":
            exe = os.path.join(work, "scenario")
            ok, why = self.build_c(inc, exe, "tests/scenario/test_scenario.c",
                                   ["-DSTEPCTL_LIMIT_S=5"])
            if not ok:
                return "fail", "build: " + why
            ok, why = run([exe, "all", "futex"], 600)
            return ("pass", "") if ok else ("fail", why)
        if name == "relacy":
            if not self.relacy:
                return "skip", self.relacy_why
            exe = os.path.join(work, "relacy")
            cmd = [self.cxx, "-std=c++17", "-O1", "-g0", "-w", "-I", inc,
                   "-I", os.path.join(ROOT, "tests/relacy"), self.relacy,
                   "-o", exe]
            ok, why = run(cmd, 600)
            if not ok:
                return "fail", "build: " + why
            env = dict(os.environ, COUPLED_RELACY_QUICK="1")
            ok, why = run([exe, "all"], 900, env)
            return ("pass", "") if ok else ("fail", why)
        raise ValueError(name)


def evaluate(checks, mutant, order, all_checks, keep):
    work = tempfile.mkdtemp(prefix="coupled-mutant-")
    inc = os.path.join(work, "include")
    shutil.copytree(os.path.join(ROOT, "include"), inc)
    result = {"mutant": mutant, "killers": [], "detail": "", "skipped": [],
              "seconds": 0.0}
    start = time.time()
    try:
        if mutant:
            apply_mutant(mutant, inc)
        for name in order:
            status, detail = checks.check(name, inc, work)
            if status == "skip":
                result["skipped"].append(name)
                continue
            if status == "fail":
                result["killers"].append(name)
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
    ap.add_argument("--keep", action="store_true",
                    help="keep the mutated copies (prints their paths)")
    ap.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    args = ap.parse_args()

    mutants = logic_mutants() + order_mutants()
    if args.only:
        mutants = [m for m in mutants if re.search(args.only, m["name"])]
    if args.list:
        for m in mutants:
            print("%-48s %s" % (m["name"], m["desc"]))
        return 0

    checks = Checks(args)
    if checks.relacy is None:
        print("mutation: relacy check skipped: %s" % checks.relacy_why)

    t0 = time.time()
    base = evaluate(checks, None, checks.names(), True, False)
    if base["killers"]:
        print("mutation: the unmodified header FAILS %s: %s"
              % (", ".join(base["killers"]), base["detail"]))
        return 1
    print("mutation: baseline passes every check (%.0f s)" % base["seconds"])

    logic_order = ["unit", "scenarios", "relacy"]
    mem_order = ["relacy", "unit", "scenarios"]
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = [ex.submit(evaluate, checks, m,
                          logic_order if m["kind"] == "logic" else mem_order,
                          args.all_checks, args.keep) for m in mutants]
        for m, fut in zip(mutants, futs):
            r = fut.result()
            results.append(r)
            verdict = ("killed by " + ",".join(r["killers"])
                       if r["killers"] else "SURVIVED")
            print("%-48s %-30s %5.0fs  %s" % (m["name"], verdict,
                                              r["seconds"], r["detail"]),
                  flush=True)

    survivors = [r for r in results if not r["killers"]]
    print()
    if args.markdown:
        print("| mutant | change | killed by | first failure |")
        print("|---|---|---|---|")
        for r in results:
            m = r["mutant"]
            print("| `%s` | %s | %s | %s |" % (
                m["name"], m["desc"].replace("|", "\\|"),
                ", ".join(r["killers"]) or "**survived**",
                r["detail"].replace("|", "\\|")))
    else:
        print("%-48s %s" % ("mutant", "verdict"))
        for r in results:
            print("%-48s %s" % (r["mutant"]["name"],
                                ", ".join(r["killers"]) or "SURVIVED"))
    print("\nmutation: %d mutants, %d killed, %d survived, %.0f s"
          % (len(results), len(results) - len(survivors), len(survivors),
             time.time() - t0))
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())

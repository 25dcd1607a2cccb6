#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""insn_breakdown.py - where the instructions of an uncontended round go,
by source file.

Usage: insn_breakdown.py [--root DIR] [--label TEXT] OUT1 R1 OUT2 R2

OUT1 and OUT2 are callgrind outputs of "bench_insn_count coupled R1" and
"... R2" (tools/callgrind_rounds.sh keeps them under $CALLGRIND_KEEP); the
program must carry line tables (-g), so that callgrind_annotate charges each
instruction, inlined or not, to the source file of its line.  For every
file, (Ir(R2) - Ir(R1)) / (R2 - R1) is its share of one round: start-up and
exit cancel out as in callgrind_rounds.sh.  Within each file of the
project, callgrind_annotate's per-line counts are summed per enclosing
function (the last "static inline ... name(" or "name(" definition above
the line).  Prints one JSON object: {"label", "rounds": [R1, R2],
"insn_per_round", "files": [{"file", "part", "insn_per_round", "functions":
[{"function", "insn_per_round"}, ...]}, ...]}, largest share first; shares
that round to 0 are left out, and what is not under DIR (libc, the loader)
is summed as "other".  $CALLGRIND_ANNOTATE names callgrind_annotate
(default: on PATH).
"""
import argparse
import json
import os
import re
import subprocess
import sys

# What each file of an uncontended round is, for the report.
PARTS = [
    ("include/coupled/protocol.h",
     "coupled_enter_opts() is the entry guard: argument checks, re-entry "
     "flag and its seq_cst Dekker pair against coupled_leave(), context id "
     "set and cleared; coupled__roster_id() serves the round's roster "
     "walks"),
    ("include/coupled/direct.h", "the round, direct protocol"),
    ("include/coupled/settled.h", "the round, settled protocol"),
    ("include/coupled/word.h", "the packed word's helpers"),
    ("include/coupled/atomic.h", "the atomics layer"),
    ("include/coupled/membership.h", "membership and roster"),
    ("include/coupled/action.h", "the action and the request reduction"),
    ("adapters/pthread/include/coupled/adapter/pthread.h",
     "pthread adapter: thread-local context id, wait and wake hooks"),
    ("bench/counts/insn_count.c", "the bench loop and its empty action"),
]
COUNT = re.compile(r"^\s*([0-9,]+|\.)\s+(?:\([^)]*\)\s+)?")
DEFN = re.compile(r"^(?:static\s+inline\s+|static\s+)?[A-Za-z_][\w\s\*]*?"
                  r"\b([A-Za-z_]\w*)\s*\([^;]*$")
LINE = re.compile(r"^\s*([0-9,]+)\s+(?:\([^)]*\)\s+)?(.*?):(\S+)(?:\s+\[.*\])?\s*$")


def per_file(path, root, annotate):
    """{file relative to root or 'other': Ir} from callgrind_annotate."""
    out = subprocess.run([annotate, "--threshold=100", "--inclusive=no",
                          path], check=True, capture_output=True,
                         text=True).stdout
    files = {}
    table = False
    for line in out.splitlines():
        if "file:function" in line:
            table = True
            continue
        if not table:
            continue
        m = LINE.match(line)
        if not m:
            continue
        ir = int(m.group(1).replace(",", ""))
        f = relative(m.group(2), root) or "other"
        files[f] = files.get(f, 0) + ir
    return files


def relative(f, root):
    """f relative to root, or None when it lies outside.  callgrind_annotate
    shortens paths under the current directory to relative ones."""
    f = os.path.normpath(os.path.abspath(f))
    if root and f.startswith(root + os.sep):
        return f[len(root) + 1:]
    return None


def functions_of(path):
    """For each line number of a C source (1-based), the function whose
    definition it follows ('' before the first)."""
    names = [""]
    cur = ""
    with open(path, errors="replace") as f:
        for line in f:
            m = DEFN.match(line)
            if m and not line.startswith(("#", " ", "\t", "*", "/")) \
                    and m.group(1) not in ("if", "while", "for", "switch",
                                           "return", "sizeof"):
                cur = m.group(1)
            names.append(cur)
    return names


def per_function(path, root, annotate):
    """{(file, function): Ir} of the project's files, from
    callgrind_annotate's per-line annotation."""
    out = subprocess.run([annotate, "--threshold=100", "--auto=yes", path],
                         check=True, capture_output=True, text=True).stdout
    res = {}
    rel = None
    names = []
    lineno = 0
    for line in out.splitlines():
        if line.startswith("-- Auto-annotated source:"):
            rel = relative(line.split(":", 1)[1].strip(), root)
            names = (functions_of(os.path.join(root, rel))
                     if rel and os.path.exists(os.path.join(root, rel))
                     else [])
            lineno = 0
            continue
        if rel is None or not names:
            continue
        m = re.match(r"^-- line (\d+) -", line)
        if m:
            lineno = int(m.group(1))
            continue
        if line.startswith("-----"):
            # The rule under a section's title comes before any "-- line";
            # one after them ends the section (the totals follow).
            if lineno:
                rel = None
            continue
        if not lineno:
            continue
        m = COUNT.match(line)
        if not m:
            continue
        if m.group(1) != ".":
            fn = names[lineno] if lineno < len(names) else ""
            key = (rel, fn or "(file scope)")
            res[key] = res.get(key, 0) + int(m.group(1).replace(",", ""))
        lineno += 1
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.normpath(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")))
    ap.add_argument("--label", default="coupled")
    ap.add_argument("out1")
    ap.add_argument("r1", type=int)
    ap.add_argument("out2")
    ap.add_argument("r2", type=int)
    a = ap.parse_args()
    if a.r2 <= a.r1:
        print("insn_breakdown.py: R2 must exceed R1", file=sys.stderr)
        return 2
    annotate = os.environ.get("CALLGRIND_ANNOTATE", "callgrind_annotate")
    root = os.path.normpath(os.path.abspath(a.root))
    f1 = per_file(a.out1, root, annotate)
    f2 = per_file(a.out2, root, annotate)
    g1 = per_function(a.out1, root, annotate)
    g2 = per_function(a.out2, root, annotate)
    parts = dict(PARTS)
    rows = []
    for f in set(f1) | set(f2):
        v = (f2.get(f, 0) - f1.get(f, 0)) / (a.r2 - a.r1)
        if round(v, 1) == 0:
            continue
        fns = []
        for key in set(k for k in g1 if k[0] == f) | \
                set(k for k in g2 if k[0] == f):
            fv = (g2.get(key, 0) - g1.get(key, 0)) / (a.r2 - a.r1)
            if round(fv, 1) != 0:
                fns.append({"function": key[1],
                            "insn_per_round": round(fv, 2)})
        fns.sort(key=lambda r: -r["insn_per_round"])
        rows.append({"file": f, "part": parts.get(
            f, "outside the project (libc, loader)" if f == "other" else ""),
            "insn_per_round": round(v, 2), "functions": fns})
    rows.sort(key=lambda r: -r["insn_per_round"])
    total = (sum(f2.values()) - sum(f1.values())) / (a.r2 - a.r1)
    print(json.dumps({"label": a.label, "rounds": [a.r1, a.r2],
                      "insn_per_round": round(total, 2), "files": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

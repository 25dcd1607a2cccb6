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
exit cancel out as in callgrind_rounds.sh.  Prints one JSON object:
{"label", "rounds": [R1, R2], "insn_per_round", "files": [{"file", "part",
"insn_per_round"}, ...]}, largest share first; files whose share rounds to 0
are left out, and what is not under DIR (libc, the loader) is summed as
"other".  $CALLGRIND_ANNOTATE names callgrind_annotate (default: on PATH).
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
     "entry guard: argument checks, re-entry flag and its seq_cst Dekker "
     "pair against coupled_leave(), context id set and cleared"),
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
        f = os.path.normpath(m.group(2))
        if root and f.startswith(root + os.sep):
            f = f[len(root) + 1:]
        elif not os.path.isabs(f) and os.path.exists(os.path.join(root, f)):
            pass
        else:
            f = "other"
        files[f] = files.get(f, 0) + ir
    return files


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
    root = os.path.normpath(a.root)
    f1 = per_file(a.out1, root, annotate)
    f2 = per_file(a.out2, root, annotate)
    parts = dict(PARTS)
    rows = []
    for f in set(f1) | set(f2):
        v = (f2.get(f, 0) - f1.get(f, 0)) / (a.r2 - a.r1)
        if round(v, 1) == 0:
            continue
        rows.append({"file": f, "part": parts.get(
            f, "outside the project (libc, loader)" if f == "other" else ""),
            "insn_per_round": round(v, 2)})
    rows.sort(key=lambda r: -r["insn_per_round"])
    total = (sum(f2.values()) - sum(f1.values())) / (a.r2 - a.r1)
    print(json.dumps({"label": a.label, "rounds": [a.r1, a.r2],
                      "insn_per_round": round(total, 2), "files": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

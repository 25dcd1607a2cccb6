#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Man pages from the headers' kernel-doc comments (the one source).

  mkman.py --kernel-doc PATH --out DIR [--source DIR] [--version V]
  mkman.py ... --check

Writes one page per public function, NAME.3, and per public type, into DIR
(section 3), made by "kernel-doc -man -function NAME" and given a coupled
title line, the #include to use and a SEE ALSO coupled(7).  The public
functions are the coupled_* (not coupled__*) functions declared in
include/coupled/coupled.h and include/coupled/domain.h, and defined in the
cpuidle helper's header.

--check also verifies what was written: every public function has a page,
and its ARGUMENTS name every parameter of the prototype, none of them
undescribed; a function returning a value has a RETURN section.  Exit 1
with one line per problem.  The date of the pages is SOURCE_DATE_EPOCH
when set, else today (UTC).
"""
import argparse
import datetime
import os
import re
import subprocess
import sys

# (header relative to the source tree, what a user includes, kind of scan)
HEADERS = [
    ("include/coupled/coupled.h", "coupled/coupled.h"),
    ("include/coupled/domain.h", "coupled/domain.h"),
    ("adapters/linux/cpuidle/include/coupled/linux/cpuidle.h",
     "coupled/linux/cpuidle.h"),
]

# Public types documented with kernel-doc, by header.
TYPES = {
    "include/coupled/coupled.h": [
        "coupled_round", "coupled_action_fn", "coupled_reduce_fn",
        "coupled_abort_opts", "coupled_stats"],
    "include/coupled/domain.h": [
        "coupled_domain", "coupled_domain_level", "coupled_domain_round",
        "coupled_domain_action_fn"],
    "adapters/linux/cpuidle/include/coupled/linux/cpuidle.h": [
        "coupled_cpuidle_ops"],
}

PROTO = re.compile(
    r"static\s+inline\s+([A-Za-z_][\w\s\*]*?)\s*\**\s*\b"
    r"(coupled_(?!_)[a-z0-9_]+)\s*\(([^)]*)\)", re.S)


def public_functions(path):
    """[(name, [params], returns_value)] of the header, in order."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    found, seen = [], set()
    for m in PROTO.finditer(text):
        name = m.group(2)
        if name in seen:
            continue
        seen.add(name)
        params = []
        for p in m.group(3).split(","):
            p = p.strip()
            if p and p != "void":
                params.append(re.findall(r"[A-Za-z_]\w*", p)[-1])
        found.append((name, params, m.group(1).strip() != "void"))
    return found


def pages(kernel_doc, header, names):
    """{name: man source} of NAMES in HEADER: one kernel-doc run."""
    cmd = [kernel_doc, "-man"]
    for name in names:
        cmd += ["-function", name]
    r = subprocess.run(cmd + [header], capture_output=True, text=True,
                       check=False)
    sys.stderr.write(r.stderr)
    found = {}
    if r.returncode != 0:
        return found
    for chunk in re.split(r"^(?=\.TH )", r.stdout, flags=re.M):
        m = re.search(r"^\.SH NAME\n(?:struct )?(\w+) ", chunk, re.M)
        if m and m.group(1) in names:
            found[m.group(1)] = chunk
    return found


def finish(src, name, include, version, date):
    """SRC with a coupled title, its #include and a SEE ALSO."""
    title = '.TH "%s" 3 "%s" "coupled %s" "coupled manual"' % (
        name.upper(), date, version)
    src = re.sub(r"^\.TH .*$", lambda _: title, src, count=1, flags=re.M)
    # whatis wants the page's name first: "struct NAME \- x" becomes
    # "NAME \- struct NAME: x".
    src = re.sub(r"^\.SH NAME\nstruct (\w+) \\- ",
                 lambda m: ".SH NAME\n%s \\- struct %s: " % (
                     m.group(1), m.group(1)), src, count=1, flags=re.M)
    src = src.replace(
        ".SH SYNOPSIS\n",
        ".SH SYNOPSIS\n.B #include <%s>\n.sp\n" % include, 1)
    return src.rstrip("\n") + "\n.SH \"SEE ALSO\"\n.BR coupled (7)\n"


def check(out, functions):
    problems = []
    for name, params, returns in functions:
        path = os.path.join(out, name + ".3")
        if not os.path.exists(path):
            problems.append("%s: no page" % name)
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # .IP "param" 12, then its description (kernel-doc writes
        # "-- undescribed --" for a parameter without an @param line).
        described = {m.group(1): m.group(2).strip() for m in re.finditer(
            r'^\.IP "([^"]+)"[^\n]*\n([^\n]*)', text, re.M)}
        for p in params:
            if p not in described:
                problems.append("%s: the page misses parameter %s"
                                % (name, p))
            elif "undescribed" in described[p] or not described[p]:
                problems.append("%s: the page misses parameter %s "
                                "(undescribed)" % (name, p))
        if returns and '.SH "RETURN"' not in text:
            problems.append("%s: no RETURN section" % name)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel-doc", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--source",
                    default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--version", default="")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
            if epoch else datetime.datetime.now(datetime.timezone.utc))
    date = when.strftime("%Y-%m-%d")
    os.makedirs(a.out, exist_ok=True)
    for old in os.listdir(a.out):
        if old.endswith(".3"):
            os.remove(os.path.join(a.out, old))

    functions = []
    for rel, include in HEADERS:
        header = os.path.join(a.source, rel)
        funcs = public_functions(header)
        functions += funcs
        names = [f[0] for f in funcs] + TYPES.get(rel, [])
        made = pages(a.kernel_doc, header, names)
        for name in names:
            if name not in made:
                print("mkman.py: no kernel-doc for %s" % name,
                      file=sys.stderr)
                continue
            with open(os.path.join(a.out, name + ".3"), "w",
                      encoding="utf-8") as f:
                f.write(finish(made[name], name, include, a.version, date))
    print("mkman.py: %d public functions, pages in %s"
          % (len(functions), a.out))
    if a.check:
        problems = check(a.out, functions)
        for p in problems:
            print("mkman.py: FAIL: " + p, file=sys.stderr)
        if problems:
            return 1
        print("mkman.py: every public function has a complete page")
    return 0


if __name__ == "__main__":
    sys.exit(main())

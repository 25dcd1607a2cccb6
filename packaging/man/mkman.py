#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""Man pages from the headers' kernel-doc comments (the one source).

  mkman.py --kernel-doc PATH --out DIR [--source DIR] [--version V]
  mkman.py ... --check

Writes one page per public function, NAME.3, and per public type, into DIR
(section 3), made by "kernel-doc -man -function NAME" and given a coupled
title line, the #include (and adapter definition) to use and a SEE ALSO of
coupled(7) and of every other page the text names.  The public functions
are the coupled_* (not coupled__*) functions declared in
include/coupled/coupled.h and include/coupled/domain.h, and defined in the
cpuidle helper's header and in every adapter's header: the spin adapter's
include/coupled/adapter/spin.h and each adapters/*/include/coupled/adapter/
header, found by that pattern, so that a new adapter gets its pages without
a change here.

An adapter's own calls (coupled_pthread_set_strategy(), coupled_arm_*(),
...) get a page each.  The hooks of the adapter contract
(coupled_adapter_now(), coupled_adapter_wait(), ...) have the same name in
every adapter: one page each, whose text is the spin adapter's (the
reference implementation of the contract), or the first adapter's that
defines the hook where spin does not, followed by an ADAPTERS section with
what every other adapter's kernel-doc says about its own.  A hook whose
logic several adapters share is defined once, in a private header of
include/coupled/adapter/ (common_hooks.h) that the adapter's header
includes after defining the macro that asks for it (the #ifdef around the
definition there): this script follows such an include, so the adapter's
part of the page is that definition's kernel-doc.

--check also verifies what was written: every public function has a page,
and its ARGUMENTS name every parameter of the prototype, none of them
undescribed; a function returning a value has a RETURN section.  For a hook
that holds for every adapter's own comment, and its page has an ADAPTERS
entry for every adapter.  Exit 1 with one line per problem.  The date of
the pages is SOURCE_DATE_EPOCH when set, else today (UTC).
"""
import argparse
import datetime
import glob
import os
import re
import subprocess
import sys

# (header relative to the source tree, what a user includes) of the core's
# and the cpuidle helper's functions.
HEADERS = [
    ("include/coupled/coupled.h", "coupled/coupled.h"),
    ("include/coupled/domain.h", "coupled/domain.h"),
    ("adapters/linux/cpuidle/include/coupled/linux/cpuidle.h",
     "coupled/linux/cpuidle.h"),
]

# The adapters' headers: the spin adapter (the reference) first.
SPIN_HEADER = "include/coupled/adapter/spin.h"
ADAPTER_GLOB = "adapters/*/include/coupled/adapter/*.h"

# Public types documented with kernel-doc, by header.  The adapters'
# struct coupled_adapter_group and coupled_adapter_slot are left out: every
# adapter has its own, private to it (callers only pass pointers).
TYPES = {
    "include/coupled/coupled.h": [
        "coupled_round", "coupled_action_fn", "coupled_reduce_fn",
        "coupled_abort_opts", "coupled_stats"],
    "include/coupled/domain.h": [
        "coupled_domain", "coupled_domain_level", "coupled_domain_round",
        "coupled_domain_action_fn"],
    "adapters/linux/cpuidle/include/coupled/linux/cpuidle.h": [
        "coupled_cpuidle_ops"],
    "adapters/pthread/include/coupled/adapter/pthread.h": [
        "coupled_pthread_strategy", "coupled_pthread_work_fn"],
    "adapters/linux/include/coupled/adapter/linux.h": [
        "coupled_linux_safe_fn"],
    "adapters/baremetal-arm/include/coupled/adapter/baremetal_arm.h": [
        "coupled_arm_ipi", "coupled_arm_work_fn"],
    "adapters/baremetal-riscv/include/coupled/adapter/baremetal_riscv.h": [
        "coupled_riscv_ipi", "coupled_riscv_work_fn"],
}

# The adapter contract's hooks: every adapter defines them.
HOOK_PREFIX = "coupled_adapter_"

# Where the adapters' shared private headers are (an adapter header
# includes one as <coupled/adapter/NAME.h>, spin.h as "NAME.h").
SHARED_DIR = "include/coupled/adapter"
INCLUDE = re.compile(r'^#include\s+(?:<coupled/adapter/(\w+\.h)>|"(\w+\.h)")',
                     re.M)

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


def shared_hooks(source, rel):
    """[(hook, shared header relative to SOURCE)]: the hooks the adapter
    header REL takes from a shared header it includes, those whose #ifdef
    MACRO there the adapter defines."""
    with open(os.path.join(source, rel), encoding="utf-8") as f:
        text = f.read()
    found = []
    for m in INCLUDE.finditer(text):
        shared = os.path.join(SHARED_DIR, m.group(1) or m.group(2))
        path = os.path.join(source, shared)
        if shared == rel or not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            stext = f.read()
        for block in re.finditer(r"^#ifdef (\w+)\n(.*?)^#endif", stext,
                                 re.M | re.S):
            if not re.search(r"^#define %s\b" % block.group(1), text, re.M):
                continue
            body = re.sub(r"/\*.*?\*/", "", block.group(2), flags=re.S)
            found += [(p.group(2), shared) for p in PROTO.finditer(body)
                      if p.group(2).startswith(HOOK_PREFIX)]
    return found


def adapter_name(path):
    """The adapter's COUPLED_ADAPTER_NAME, from its header."""
    with open(path, encoding="utf-8") as f:
        m = re.search(r'^#define COUPLED_ADAPTER_NAME "([^"]+)"', f.read(),
                      re.M)
    if not m:
        sys.exit("mkman.py: %s defines no COUPLED_ADAPTER_NAME" % path)
    return m.group(1)


def adapters(source):
    """[(name, header relative to SOURCE, selecting definition or None)],
    the spin adapter first, then the host one, pthread."""
    rels = [SPIN_HEADER] + sorted(
        (os.path.relpath(p, source)
         for p in glob.glob(os.path.join(source, ADAPTER_GLOB))),
        key=lambda rel: (not rel.endswith("/pthread.h"), rel))
    found = []
    for rel in rels:
        name = adapter_name(os.path.join(source, rel))
        # The spin adapter is what no definition selects (coupled/adapter.h).
        define = (None if rel == SPIN_HEADER else
                  "COUPLED_ADAPTER_" + re.sub(r"\W", "_", name.upper()))
        found.append((name, rel, define))
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
        m = re.search(r"^\.SH NAME\n(?:(?:struct|enum|union) )?(\w+) ", chunk,
                      re.M)
        if m and m.group(1) in names:
            found[m.group(1)] = chunk
    return found


def sections(src):
    """[(title, body)] of a kernel-doc page: NAME, SYNOPSIS, ARGUMENTS,
    DESCRIPTION, CONTEXT, RETURN, ... (titles unquoted, upper case)."""
    found = []
    for part in re.split(r"^(?=\.SH )", src, flags=re.M)[1:]:
        head, _, body = part.partition("\n")
        found.append((head[4:].strip().strip('"').upper(), body.strip("\n")))
    return found


def arguments(body):
    """{param: description} of an ARGUMENTS section (.IP "param" 12)."""
    found, name = {}, None
    for line in body.split("\n"):
        m = re.match(r'\.IP "([^"]+)"', line)
        if m:
            name = m.group(1)
            found[name] = ""
        elif name:
            found[name] = (found[name] + "\n" + line).strip()
    return found


def synopsis_head(include, define):
    """The SYNOPSIS lines before the prototype: the adapter's definition
    (DEFINE: a name, "" for the spin adapter, None for no adapter)."""
    lines = []
    if define:
        lines.append(".B #define %s      /* coupled(7), ADAPTERS */" % define)
    lines.append(".B #include <%s>" % include)
    if define == "":
        lines[-1] += "      /* no COUPLED_ADAPTER_* definition: spin */"
    return "".join(line + "\n.br\n" for line in lines[:-1]) + lines[-1]


def finish(src, name, head, version, date):
    """SRC with a coupled title and HEAD (synopsis_head()) first in its
    SYNOPSIS."""
    title = '.TH "%s" 3 "%s" "coupled %s" "coupled manual"' % (
        name.upper(), date, version)
    src = re.sub(r"^\.TH .*$", lambda _: title, src, count=1, flags=re.M)
    # whatis wants the page's name first: "struct NAME \- x" becomes
    # "NAME \- struct NAME: x".
    src = re.sub(r"^\.SH NAME\n(struct|enum|union) (\w+) \\- ",
                 lambda m: ".SH NAME\n%s \\- %s %s: " % (
                     m.group(2), m.group(1), m.group(2)),
                 src, count=1, flags=re.M)
    src = src.replace(".SH SYNOPSIS\n", ".SH SYNOPSIS\n%s\n.sp\n" % head, 1)
    return src.rstrip("\n") + "\n"


def see_also(src, name, known):
    """SRC with a SEE ALSO: the other pages of KNOWN its text names, then
    coupled(7)."""
    named = sorted(set(re.findall(
        r"(?<![a-z0-9_])coupled_[a-z0-9_]+(?![a-z0-9_])", src))
                   & known - {name})
    refs = [".BR %s (3)," % n for n in named] + [".BR coupled (7)"]
    return src + '.SH "SEE ALSO"\n' + "\n".join(refs) + "\n"


def hook_page(name, made, order, reference, srcs):
    """The page of the hook NAME: REFERENCE's text, then ADAPTERS.  MADE:
    {adapter: kernel-doc page}; ORDER: [(adapter, header, define)]; SRCS:
    {adapter: the header its definition is in, its own or a shared one}."""
    ref_secs = sections(made[reference])
    ref_args = arguments(dict(ref_secs).get("ARGUMENTS", ""))
    ref_header = srcs[reference]
    own = {a: h for a, h, _ in order}
    shared = any(srcs[a] != own[a] for a in srcs)
    out = [made[reference].rstrip("\n"), ".SH ADAPTERS",
           "Every adapter defines its own \\fB%s\\fP%s; the one compiled in"
           " is that of the adapter the build selects (coupled/adapter.h;"
           " \\fBcoupled\\fP(7), ADAPTERS)." % (
               name, ", or takes a shared one" if shared else ""),
           "The text above is the %s adapter's (%s)%s; what the others"
           " say of theirs:" % (
               reference, ref_header.split("include/", 1)[1],
               ", the reference implementation of the contract"
               if reference == "spin" else "")]
    for adapter, _, define in order:
        if adapter == reference:
            continue
        out.append(".SS %s (%s)" % (
            adapter, define or "no COUPLED_ADAPTER_* definition"))
        if adapter not in made:
            out += [".PP", "Not defined by this adapter."]
            continue
        if srcs[adapter] != own[adapter]:
            out += [".PP", "The shared definition of %s%s." % (
                srcs[adapter].split("include/", 1)[1],
                ", the text above" if srcs[adapter] == ref_header else "")]
            if srcs[adapter] == ref_header:
                continue
        secs = sections(made[adapter])
        purpose = dict(secs).get("NAME", "").partition("\\- ")[2].strip()
        ref_purpose = dict(ref_secs)["NAME"].partition("\\- ")[2].strip()
        if purpose and purpose != ref_purpose:
            out += [".PP", "\\fB%s\\fP \\- %s" % (name, purpose)]
        # The arguments this adapter says more about than the reference
        # ("(unused)" is its own business).
        args = arguments(dict(secs).get("ARGUMENTS", ""))
        differ = [(p, d) for p, d in args.items()
                  if not ref_args.get(p, "\n").startswith(
                      d.replace(" (unused)", ""))]
        if differ:
            out += [".PP", ".B Arguments:"]
            for p, d in differ:
                out += ['.IP "%s" 12' % p, d]
        for title, body in secs:
            body = body.strip()
            if title in ("NAME", "SYNOPSIS", "ARGUMENTS") or not body:
                continue
            out.append(".PP")
            if title != "DESCRIPTION":
                out.append(".B %s:" % title.capitalize())
            out.append(body)
    return "\n".join(out) + "\n"


def check_text(name, params, returns, text, where=""):
    """Problems of one page (or one adapter's part of it)."""
    problems = []
    # .IP "param" 12, then its description (kernel-doc writes
    # "-- undescribed --" for a parameter without an @param line).
    described = arguments(dict(sections(text)).get("ARGUMENTS", ""))
    for p in params:
        if p not in described:
            problems.append("%s: the page misses parameter %s%s"
                            % (name, p, where))
        elif "undescribed" in described[p] or not described[p]:
            problems.append("%s: the page misses parameter %s "
                            "(undescribed)%s" % (name, p, where))
    if returns and '.SH "RETURN"' not in text:
        problems.append("%s: no RETURN section%s" % (name, where))
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

    written = {}     # page name: its text without SEE ALSO
    functions = []   # (name, params, returns) of every page's function
    problems = []

    def keep(names, made, head):
        for name in names:
            if name not in made:
                print("mkman.py: no kernel-doc for %s" % name,
                      file=sys.stderr)
                problems.append("%s: no kernel-doc" % name)
                continue
            written[name] = finish(made[name], name, head, a.version, date)

    for rel, include in HEADERS:
        header = os.path.join(a.source, rel)
        funcs = public_functions(header)
        functions += funcs
        names = [f[0] for f in funcs] + TYPES.get(rel, [])
        keep(names, pages(a.kernel_doc, header, names),
             synopsis_head(include, None))

    # The adapters: own calls and types as above; the hooks gathered.
    order = adapters(a.source)
    hooks = {}   # hook: {adapter: kernel-doc page}
    hook_protos = {}   # hook: {adapter: (name, params, returns)}
    hook_srcs = {}   # hook: {adapter: header of its definition}
    for adapter, rel, define in order:
        header = os.path.join(a.source, rel)
        funcs = public_functions(header)
        own = [f for f in funcs if not f[0].startswith(HOOK_PREFIX)]
        functions += own
        names = [f[0] for f in funcs] + TYPES.get(rel, [])
        made = pages(a.kernel_doc, header, names)
        keep([f[0] for f in own] + TYPES.get(rel, []), made,
             synopsis_head("coupled/coupled.h", define or ""))
        defined = [(f, rel, made) for f in funcs]
        # The hooks it takes from a shared header it includes.
        taken = {}   # shared header: [hook]
        for hook, shared in shared_hooks(a.source, rel):
            if hook not in {f[0] for f in funcs}:
                taken.setdefault(shared, []).append(hook)
        for shared, hnames in taken.items():
            spath = os.path.join(a.source, shared)
            smade = pages(a.kernel_doc, spath, hnames)
            defined += [(f, shared, smade) for f in public_functions(spath)
                        if f[0] in hnames]
        for f, src, fmade in defined:
            if not f[0].startswith(HOOK_PREFIX):
                continue
            hook_protos.setdefault(f[0], {})[adapter] = f
            hook_srcs.setdefault(f[0], {})[adapter] = src
            if f[0] in fmade:
                hooks.setdefault(f[0], {})[adapter] = fmade[f[0]]
            elif a.check:
                problems.append("%s: no kernel-doc in the %s adapter"
                                % (f[0], adapter))
    for hook, protos in hook_protos.items():
        made = hooks.get(hook, {})
        if not made:
            continue
        for adapter, (name, params, returns) in protos.items():
            if adapter in made:
                problems += check_text(name, params, returns, made[adapter],
                                       " (%s adapter)" % adapter)
        reference = "spin" if "spin" in made else next(
            ad for ad, _, _ in order if ad in made)
        functions.append(protos[reference])
        written[hook] = finish(
            hook_page(hook, made, order, reference, hook_srcs[hook]), hook,
            synopsis_head("coupled/coupled.h", None), a.version, date)

    known = set(written)
    for name, text in written.items():
        with open(os.path.join(a.out, name + ".3"), "w",
                  encoding="utf-8") as f:
            f.write(see_also(text, name, known))
    print("mkman.py: %d public functions (%d adapter hooks), %d pages in %s"
          % (len(functions), len(hooks), len(written), a.out))
    if a.check:
        for name, params, returns in functions:
            path = os.path.join(a.out, name + ".3")
            if not os.path.exists(path):
                problems.append("%s: no page" % name)
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            problems += check_text(name, params, returns, text)
        for hook, made in hooks.items():
            path = os.path.join(a.out, hook + ".3")
            if not os.path.exists(path):
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for adapter, _, define in order:
                if (".SS %s (" % adapter) not in text and \
                        "is the %s adapter's" % adapter not in text:
                    problems.append("%s: no ADAPTERS entry for %s"
                                    % (hook, adapter))
        for p in problems:
            print("mkman.py: FAIL: " + p, file=sys.stderr)
        if problems:
            return 1
        print("mkman.py: every public function has a complete page")
    return 0


if __name__ == "__main__":
    sys.exit(main())

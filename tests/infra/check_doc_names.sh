#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/infra/check_doc_names.sh - fails when a doc names a function, field,
# macro or test that no longer exists.
#
#   bash tests/infra/check_doc_names.sh            docs/*.md and README.md
#   bash tests/infra/check_doc_names.sh FILE.md... only those files
#
# What is checked, in the Markdown outside fenced blocks, inside `code`
# spans:
#   - every name that starts with coupled_ or COUPLED_ (also after -D);
#   - a span that is one identifier with an underscore (a field, a test, a
#     scenario, a macro: `round_members`, `kernel_smp4`), with or without ();
#   - the field of a member access (`slot.ack`, `r->param`);
# and inside fenced blocks (examples, logs) every coupled_/COUPLED_ name,
# except in the run output that bench/run_bench.sh writes (RUN_OUTPUT).
# A name ending in * { or < is a prefix (`COUPLED_ABORT_*`), one after * a
# suffix (`*_wrap`).  "Exists" means: the name is a whole word (grep -w) of
# a tracked file that is not Markdown (the code, the tests, the build and
# packaging files; this script excepted).  Paths are not checked.
# ALLOW below lists the names the docs mean to mention although the project
# does not use them (the Linux kernel's, the seed's, other projects').
#
# Exit status 0 when every name exists, 1 with the list of missing names
# (file:line: name), 77 (a skip) without python3.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIPPED: python3 not found (bash tests/packages.sh install core)"
	exit 77
fi

exec python3 - "$ROOT" "$@" <<'PY'
import os
import re
import subprocess
import sys

root = sys.argv[1]
docs = sys.argv[2:]
if not docs:
    docs = sorted(os.path.join("docs", f) for f in os.listdir("docs")
                  if f.endswith(".md")) + ["README.md"]

# Names the docs mention on purpose that the project's files do not use.
ALLOW = {
    # Linux kernel (the seed, later kernels, genpd/PSCI), TF-A
    "CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED",
    "CONFIG_ARM_PSCI_CPUIDLE", "CONFIG_CPU_IDLE_MULTIPLE_DRIVERS",
    "CONFIG_CPU_IDLE", "CONFIG_SMP", "CONFIG_HOTPLUG_CPU",
    "CPUIDLE_FLAG_COUPLED", "CPUIDLE_FLAG_RCU_IDLE",
    "cpuidle_coupled_unregister_device", "cpuidle_enter_state",
    "ct_idle_enter", "ct_idle_exit", "genpd_power_off",
    "psci_do_state_coordination", "cpumask_test_and_set_cpu",
    "smp_mb__before_atomic", "set_done", "default_idle", "acpi_idle",
    "local_irq_enable", "CPUHP_AP_ONLINE_DYN", "pv_ops",
    "__cpuhp_state_add_instance", "__cpuhp_state_remove_instance",
    "__cpuhp_setup_state", "__cpuhp_remove_state", "cpu_is_hotpluggable",
    "cpus_read_lock", "cpuidle_get_driver", "MODULE_LICENSE",
    "NOT_IDLE", "cpu_do_idle",
    # hardware register fields
    "MIE", "MSIE", "SMP", "Aff0", "Aff1", "Aff2",
    # tools' own names
    "benchmark_enable_random_interleaving", "halt_on_error",
    "second_deadlock_stack", "print_stacktrace",
    "SYS_EXIT_EXTENDED", "SOURCE_DATE_EPOCH", "PKG_CONFIG_PATH",
    "CMAKE_INSTALL_PREFIX", "ICC_SGI1R_EL1", "FUTEX_WAKE",
    "smp_mb__after_atomic", "after_atomic", "rv32imac_zicsr",
    # Tegra20's coupled cpuidle driver
    "abort_flag",
    # a part of names: the kernel atomics back-end's short API name
    "atomic_linux",
}
# Names that look right but do not exist, with the real one: no tracked
# file (docs, code, comments) may use them.  Linux builds coupled idle
# with ARCH_NEEDS_CPU_IDLE_COUPLED only: the same name without ARCH_NEEDS_
# is no Kconfig symbol (spelled in two parts here, so that a git grep for
# it finds nothing at all).
WRONG = {
    "CONFIG_CPU_IDLE_" + "COUPLED": "CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED",
}
# Fenced blocks that a tool writes from a run's output (function names of
# a callgrind profile, say) and rewrites with the next run: not checked.
RUN_OUTPUT = {"docs/benchmarks.md"}
EXTENSIONS = {"c", "h", "cc", "cpp", "md", "py", "sh", "pml", "txt", "json",
              "png", "pc", "in", "cmake", "deb", "elf", "gz", "def", "so",
              "a", "o", "ko", "log", "d", "x", "S", "ld", "3", "7"}

try:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=root, check=True,
                           capture_output=True).stdout.decode().split("\0")
except (OSError, subprocess.CalledProcessError):
    files = []
    for top in os.listdir(root):
        if top in (".git", "build"):
            continue
        path = os.path.join(root, top)
        if os.path.isfile(path):
            files.append(top)
        for d, _, fs in os.walk(path):
            files.extend(os.path.relpath(os.path.join(d, f), root)
                         for f in fs)
words = set()
templates = set()
wrong = []
for f in files:
    if f and f != "tests/infra/check_doc_names.sh":
        try:
            with open(os.path.join(root, f), "rb") as fh:
                data = fh.read()
        except OSError:
            data = b"\0"
        if b"\0" not in data[:4096]:
            for n, line in enumerate(data.decode("utf-8", "replace")
                                     .splitlines(), 1):
                for w in re.findall(r"[A-Za-z0-9_]+", line):
                    if w in WRONG:
                        wrong.append("%s:%d: %s (the real name: %s)"
                                     % (f, n, w, WRONG[w]))
for f in files:
    if not f or f.endswith(".md") or f == "tests/infra/check_doc_names.sh":
        continue
    try:
        with open(os.path.join(root, f), "rb") as fh:
            data = fh.read()
    except OSError:
        continue
    if b"\0" in data[:4096]:
        continue
    text = data.decode("utf-8", "replace")
    words.update(re.findall(r"[A-Za-z0-9_]+", text))
    # Names the build makes: kernel_${arch}_boot, arm_board_{gcc,clang}.
    for t in re.findall(r"\w*(?:(?:\$\{\w+\}|<\w+>|\{[\w,]+\})\w*)+",
                        text):
        if len(re.sub(r"\$\{\w+\}|<\w+>|\{[\w,]+\}", "", t)) >= 4:
            templates.add(t)
patterns = []
for t in templates:
    rx = ""
    for part in re.split(r"(\$\{\w+\}|<\w+>|\{[\w,]+\})", t):
        if part.startswith("{"):
            rx += "(?:%s)" % "|".join(map(re.escape, part[1:-1].split(",")))
        elif part.startswith("$") or part.startswith("<"):
            rx += r"\w+"
        else:
            rx += re.escape(part)
    patterns.append(re.compile(rx + "$"))


def exists(name, kind):
    """Is @name a word of the project's files (@kind '': whole, 'prefix',
    'suffix'), a name its build generates, or allowed?"""
    if name in ALLOW:
        return True
    if kind == "prefix":
        return (any(w.startswith(name) for w in words)
                or any(p.match(name + "x") or p.pattern.startswith(
                    re.escape(name)) for p in patterns))
    if kind == "suffix":
        return any(w.endswith(name) for w in words)
    return name in words or any(p.match(name) for p in patterns)


PREFIXED = re.compile(
    r"(?:(?<=-D)|(?<![\w/.\-]))((?:coupled|COUPLED)_\w*)([*{<]?)")
IDENT = re.compile(r"^(\*?)([A-Za-z_]\w*?)([*{<].*)?(\(\))?$")
MEMBER = re.compile(r"(\w+)(->|\.)([A-Za-z_]\w*)")

missing = []


def check(doc, lineno, name, kind):
    if not exists(name, kind):
        missing.append("%s:%d: %s%s" % (doc, lineno, name,
                                        {"prefix": "*", "suffix": " (suffix)"}
                                        .get(kind, "")))


for doc in docs:
    fenced = False
    with open(doc, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced and os.path.normpath(doc) in RUN_OUTPUT:
                continue
            spans = [line] if fenced else re.findall(r"`([^`]+)`", line)
            for span in spans:
                for m in PREFIXED.finditer(span):
                    check(doc, lineno, m.group(1),
                          "prefix" if m.group(2) or m.group(1).endswith("_")
                          else "")
                if fenced:
                    continue
                m = IDENT.match(span.strip())
                if (m and "_" in m.group(2).strip("_")
                        and not re.match(r"(?:coupled|COUPLED)_", m.group(2))):
                    name = m.group(2)
                    kind = ("suffix" if m.group(1) else
                            "prefix" if m.group(3) or name.endswith("_")
                            else "")
                    check(doc, lineno, name, kind)
                if "/" in span:
                    continue
                for m in MEMBER.finditer(span):
                    field = m.group(3)
                    if m.group(2) == "." and (field in EXTENSIONS
                                              or m.group(1).isdigit()):
                        continue
                    check(doc, lineno, field, "")

if wrong:
    print("check_doc_names: names that do not exist where something real "
          "is meant:")
    for w in wrong:
        print("  " + w)
if missing:
    print("check_doc_names: names in the docs that nothing in the project "
          "defines or uses (fix the doc, or add the name to ALLOW in "
          "tests/infra/check_doc_names.sh if it is meant):")
    for m in missing:
        print("  " + m)
if missing or wrong:
    sys.exit(1)
print("check_doc_names: every name in %d docs exists" % len(docs))
PY

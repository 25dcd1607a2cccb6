#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/infra/check_man.sh - the man pages are complete and render.
#
#   check_man.sh KERNEL_DOC SOURCE_DIR WORK_DIR
#
# 1. packaging/man/mkman.py --check generates the section 3 pages from the
#    headers into WORK_DIR/man3: every public function has a page naming
#    every parameter of its prototype.
# 2. The check can fail: with a copy of coupled.h whose coupled_enter()
#    comment lacks its @request line, mkman.py --check must fail and name
#    coupled_enter and request.
# 3. "man -l" renders every page and coupled(7) without a warning.
#
# Exit 77 (skip, with the reason) without kernel-doc, python3 or man.
set -euo pipefail

me="check_man.sh"
die() { echo "$me: FAIL: $*" >&2; exit 1; }
skip() { echo "$me: SKIP: $*" >&2; exit 77; }

(($# == 3)) || { echo "usage: $me KERNEL_DOC SOURCE_DIR WORK_DIR" >&2; exit 2; }
kdoc=$1 src=$2 work=$3
[[ -n $kdoc && -x $kdoc ]] ||
	skip "kernel-doc not found (it comes with linux-headers-amd64, package group kernel)"
command -v python3 >/dev/null || skip "python3 not found (package group core)"
command -v man >/dev/null || skip "man not found (package man-db, group package)"

rm -rf "$work"
mkdir -p "$work"
mkman=(python3 "$src/packaging/man/mkman.py" --kernel-doc "$kdoc" --version test)

# 1. complete pages
"${mkman[@]}" --source "$src" --out "$work/man3" --check

# 2. a missing @param is caught
mut="$work/mutant"
mkdir -p "$mut/docs"
cp -r "$src/include" "$src/adapters" "$mut/"
python3 - "$mut/include/coupled/coupled.h" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
doc = re.search(r"/\*\*\n \* coupled_enter\(\) .*?\*/", s, re.S)
assert doc, "no coupled_enter() comment"
cut = re.sub(r"\n \* @request:[^\n]*", "", doc.group(0), count=1)
assert cut != doc.group(0), "no @request line in coupled_enter()'s comment"
open(p, "w").write(s.replace(doc.group(0), cut))
PY
if out=$("${mkman[@]}" --source "$mut" --out "$work/mutant-man3" --check 2>&1); then
	echo "$out" >&2
	die "mkman.py --check passed with coupled_enter()'s @request removed"
fi
grep -q "coupled_enter: .*request" <<<"$out" ||
	{ echo "$out" >&2; die "mkman.py --check failed without naming coupled_enter's request"; }
echo "$me: a removed @param is caught: $(grep 'coupled_enter:' <<<"$out" | head -n1)"

# 3. every page renders
sed -e "s/@PROJECT_VERSION@/test/" -e "s/@COUPLED_MAN_DATE@/2000-01-01/" \
	"$src/packaging/man/coupled.7" >"$work/coupled.7"
n=0
for page in "$work"/man3/*.3 "$work/coupled.7"; do
	err=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >"$work/rendered") ||
		die "man -l $page failed: $err"
	[ -z "$err" ] || die "man -l $page warns: $err"
	grep -q NAME "$work/rendered" || die "man -l $page rendered no NAME"
	n=$((n + 1))
done
echo "$me: passed ($n pages render)"

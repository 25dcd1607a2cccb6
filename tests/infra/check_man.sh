#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/infra/check_man.sh - the man pages are complete and render.
#
#   check_man.sh KERNEL_DOC SOURCE_DIR WORK_DIR
#
# 1. packaging/man/mkman.py --check generates the section 3 pages from the
#    headers into WORK_DIR/man3: every public function of the core, of the
#    cpuidle helper and of every adapter (include/coupled/adapter/spin.h,
#    adapters/*/include/coupled/adapter/*.h) has a page naming every
#    parameter of its prototype; every adapter hook's page has every
#    adapter's entry.
# 2. The check can fail: with a copy of coupled.h whose coupled_enter()
#    comment lacks its @request line, mkman.py --check must fail and name
#    coupled_enter and request; with copies of the adapters where
#    coupled_pthread_set_strategy() lacks @strategy, the Linux adapter's
#    coupled_adapter_wait() lacks @deadline and coupled_arm_set_wfe() has no
#    kernel-doc at all, it must fail and name all three.
# 3. "man -l" renders every page and coupled(7) without a warning, and the
#    adapters' pages are among them (coupled_adapter_now(3),
#    coupled_pthread_set_strategy(3)).
# 4. coupled(7)'s examples (its .EX blocks, one program: four threads, then
#    a call with a deadline) compile as strict C11 with the pthread adapter
#    against the source tree, and the program runs its rounds.
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
# mutate DIR HEADER FUNCTION PARAM: in the copy DIR, remove the @PARAM line
# of FUNCTION's kernel-doc comment in HEADER (PARAM "*": the whole comment).
mutate() {
	python3 - "$1/$2" "$3" "$4" <<'PY'
import re, sys
p, fn, param = sys.argv[1:]
s = open(p).read()
doc = re.search(r"/\*\*\n \* %s\(\) .*?\*/\n" % re.escape(fn), s, re.S)
assert doc, "no %s() comment in %s" % (fn, p)
cut = "" if param == "*" else re.sub(
    r"\n \* @%s:[^\n]*" % re.escape(param), "", doc.group(0), count=1)
assert cut != doc.group(0), "no @%s line in %s()'s comment" % (param, fn)
open(p, "w").write(s.replace(doc.group(0), cut, 1))
PY
}
# fails DIR WHAT PATTERN...: mkman.py --check on the copy DIR fails, naming
# every PATTERN.
fails() {
	local dir=$1 what=$2 out pat
	shift 2
	if out=$("${mkman[@]}" --source "$dir" --out "$dir.man3" --check 2>&1); then
		echo "$out" >&2
		die "mkman.py --check passed with $what"
	fi
	for pat; do
		grep -q -- "$pat" <<<"$out" ||
			{ echo "$out" >&2; die "mkman.py --check failed with $what without naming '$pat'"; }
		echo "$me: $what is caught: $(grep -- "$pat" <<<"$out" | head -n1)"
	done
}
mut="$work/mutant"
mkdir -p "$mut"
cp -r "$src/include" "$src/adapters" "$mut/"
mutate "$mut" include/coupled/coupled.h coupled_enter request
fails "$mut" "coupled_enter()'s @request removed" "coupled_enter: .*request"

mut="$work/mutant-adapters"
mkdir -p "$mut"
cp -r "$src/include" "$src/adapters" "$mut/"
mutate "$mut" adapters/pthread/include/coupled/adapter/pthread.h \
	coupled_pthread_set_strategy strategy
mutate "$mut" adapters/linux/include/coupled/adapter/linux.h \
	coupled_adapter_wait deadline
mutate "$mut" adapters/baremetal-arm/include/coupled/adapter/baremetal_arm.h \
	coupled_arm_set_wfe "*"
fails "$mut" "adapter comments cut" \
	"coupled_pthread_set_strategy: .*strategy" \
	"coupled_adapter_wait: .*deadline.*linux adapter" \
	"coupled_arm_set_wfe: no page"

# 3. every page renders
sed -e "s/@PROJECT_VERSION@/test/" -e "s/@COUPLED_MAN_DATE@/2000-01-01/" \
	"$src/packaging/man/coupled.7" >"$work/coupled.7"
for page in coupled_adapter_now coupled_pthread_set_strategy; do
	[ -f "$work/man3/$page.3" ] || die "no $page(3) among the pages"
done
grep -q '^\.SS linux (COUPLED_ADAPTER_LINUX)' "$work/man3/coupled_adapter_now.3" ||
	die "coupled_adapter_now(3) has no entry for the Linux adapter"
n=0
for page in "$work"/man3/*.3 "$work/coupled.7"; do
	err=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >"$work/rendered") ||
		die "man -l $page failed: $err"
	[ -z "$err" ] || die "man -l $page warns: $err"
	grep -q NAME "$work/rendered" || die "man -l $page rendered no NAME"
	n=$((n + 1))
done
echo "$me: $n pages render"

# 4. coupled(7)'s examples compile and run
cc=${CC:-cc}
command -v "$cc" >/dev/null || skip "no C compiler ($cc) for coupled(7)'s examples"
sed -n '/^\.EX$/,/^\.EE$/{/^\.E[XE]$/d;p}' "$src/packaging/man/coupled.7" |
	sed -e 's/\\-/-/g' -e 's/\\e/\\/g' >"$work/example.c"
grep -q coupled_enter_opts "$work/example.c" ||
	die "coupled(7)'s examples make no call with a deadline"
"$cc" -std=c11 -Wall -Wextra -Werror -pedantic -D_DEFAULT_SOURCE -pthread \
	-DCOUPLED_ADAPTER_PTHREAD -I"$src/include" \
	-I"$src/adapters/pthread/include" "$work/example.c" -o "$work/example" ||
	die "coupled(7)'s examples do not compile"
rounds=$("$work/example" | grep -c '^round [0-9]*: param 1$') ||
	die "coupled(7)'s example printed no round"
((rounds == 10)) || die "coupled(7)'s example printed $rounds rounds, not 10"
echo "$me: passed ($n pages render, coupled(7)'s examples compile and run)"

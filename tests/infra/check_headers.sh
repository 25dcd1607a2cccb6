#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/infra/check_headers.sh - every public header stands on its own.
#
#  1. each include/coupled/*.h compiles alone, as freestanding C11 under gcc
#     and clang, and as C++11 and C++17 under g++ and clang++;
#  2. the core headers (include/coupled/ and below) include nothing but
#     freestanding standard headers and the project's own headers, and, in a
#     branch for kernel code (#ifdef __KERNEL__), the kernel's own headers
#     (checked by reading them, and by compiling them with -nostdinc and only
#     the compiler's own include directory); the atomics back-ends for the
#     kernel and for Relacy are for those environments only and are not
#     read;
#  3. the pthread adapter compiles together with coupled.h (hosted), and
#     refuses to be included directly.
#
# Compilers can be overridden with GCC, CLANG, GXX, CLANGXX.  Exit status: 0
# when everything passed, 1 on any failure, 77 (skip) when nothing failed but
# some compiler is missing.

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."

GCC=${GCC:-gcc}
CLANG=${CLANG:-clang}
GXX=${GXX:-g++}
CLANGXX=${CLANGXX:-clang++}

C_FLAGS=(-std=c11 -Wall -Wextra -Werror -pedantic -ffreestanding -fsyntax-only)
CXX_FLAGS=(-Wall -Wextra -Werror -pedantic -fsyntax-only)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=()
skips=()
checks=0

have() { command -v "$1" >/dev/null 2>&1; }

# run_check DESCRIPTION COMMAND...: run a compile, remember a failure.
run_check() {
	local what=$1
	shift
	checks=$((checks + 1))
	if ! "$@" >"$tmp/out" 2>&1; then
		echo "FAIL: $what"
		echo "      $*"
		sed 's/^/      | /' "$tmp/out"
		failures+=("$what")
	fi
}

for cc in "$GCC" "$CLANG" "$GXX" "$CLANGXX"; do
	if ! have "$cc"; then
		skips+=("compiler '$cc' not found")
	fi
done

shopt -s nullglob
headers=(include/coupled/*.h)
shopt -u nullglob
if ((${#headers[@]} == 0)); then
	echo "FAIL: no headers in include/coupled/"
	exit 1
fi

# --- 1. each header alone ----------------------------------------------------

for h in "${headers[@]}"; do
	name=$(basename "$h" .h)
	printf '#include "coupled/%s.h"\n' "$name" >"$tmp/$name.c"
	printf '#include "coupled/%s.h"\n' "$name" >"$tmp/$name.cpp"
	for cc in "$GCC" "$CLANG"; do
		have "$cc" || continue
		run_check "$h as C11 with $cc" \
			"$cc" "${C_FLAGS[@]}" -Iinclude "$tmp/$name.c"
	done
	for cxx in "$GXX" "$CLANGXX"; do
		have "$cxx" || continue
		for std in c++11 c++17; do
			run_check "$h as $std with $cxx" \
				"$cxx" -std="$std" "${CXX_FLAGS[@]}" -Iinclude \
				"$tmp/$name.cpp"
		done
	done
done

# The counters compiled in change the structures; check that variant too.
printf '#include "coupled/coupled.h"\n' >"$tmp/stats.c"
printf '#include "coupled/coupled.h"\n' >"$tmp/stats.cpp"
for cc in "$GCC" "$CLANG"; do
	have "$cc" || continue
	run_check "coupled.h with COUPLED_STATS as C11 with $cc" \
		"$cc" "${C_FLAGS[@]}" -DCOUPLED_STATS -Iinclude "$tmp/stats.c"
done
for cxx in "$GXX" "$CLANGXX"; do
	have "$cxx" || continue
	run_check "coupled.h with COUPLED_STATS as c++17 with $cxx" \
		"$cxx" -std=c++17 "${CXX_FLAGS[@]}" -DCOUPLED_STATS -Iinclude \
		"$tmp/stats.cpp"
done

# --- 2. freestanding ---------------------------------------------------------

# Standard headers a freestanding implementation provides (C11 4p6; the C++
# ones are the atomics back-end's).
allowed_system='^(stdint\.h|stdbool\.h|stddef\.h|stdatomic\.h|atomic|cstdint)$'
# The kernel's own headers, allowed only in a branch for kernel code.
allowed_kernel='^(linux|asm)/[a-z_]+\.h$'
# Back-ends for one environment that is not freestanding C: not read.
not_freestanding='^include/coupled/atomic/(linux|relacy)\.h$'

# kernel_tagged FILE: each #include line of FILE, prefixed with "K " when it
# sits in a branch taken only for kernel code (#ifdef __KERNEL__, or an
# #if/#elif defined(__KERNEL__)), else with "- ".
kernel_tagged() {
	awk '
	/^[[:space:]]*#[[:space:]]*if/ {
		k = ($0 ~ /__KERNEL__/ && $0 !~ /ifndef|!/)
		depth++; kern[depth] = k; next
	}
	/^[[:space:]]*#[[:space:]]*elif/ {
		kern[depth] = ($0 ~ /__KERNEL__/ && $0 !~ /!/); next
	}
	/^[[:space:]]*#[[:space:]]*else/ { kern[depth] = 0; next }
	/^[[:space:]]*#[[:space:]]*endif/ { depth--; next }
	/^[[:space:]]*#[[:space:]]*include/ {
		inside = 0
		for (i = 1; i <= depth; i++)
			if (kern[i])
				inside = 1
		print (inside ? "K " : "- ") $0
	}' "$1"
}

# A project header named by an include of file $1: "x.h" relative to $1's
# directory or include/, <coupled/...> in include/ or an adapter's include/.
project_header() {
	local from=$1 inner=$2
	[[ -f $(dirname "$from")/$inner || -f include/$inner ]] && return 0
	[[ $inner == coupled/* ]] || return 1
	compgen -G "adapters/*/include/$inner" >/dev/null ||
		compgen -G "adapters/*/*/include/$inner" >/dev/null
}

shopt -s globstar nullglob
core_headers=(include/coupled/**/*.h)
shopt -u globstar nullglob
for h in "${core_headers[@]}"; do
	[[ $h =~ $not_freestanding ]] && continue
	checks=$((checks + 1))
	while IFS= read -r tagged; do
		kernel=${tagged%% *}
		line=${tagged#* }
		# "#  include <x>" -> x, "#include "x"" -> "x", macro -> itself.
		target=$(printf '%s\n' "$line" |
			sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*//; s/[[:space:]]*(\/[*/].*)?$//')
		case $target in
		\<*\>)
			inner=${target#<}
			inner=${inner%>}
			if [[ $inner =~ $allowed_system ]] ||
				{ [[ $kernel == K && $inner =~ $allowed_kernel ]]; } ||
				project_header "$h" "$inner"; then
				:
			else
				echo "FAIL: $h includes $target, not a freestanding header"
				failures+=("$h: #include $target")
			fi
			;;
		\"*\")
			inner=${target#\"}
			inner=${inner%\"}
			if ! project_header "$h" "$inner"; then
				echo "FAIL: $h includes \"$inner\", not a project header"
				failures+=("$h: #include \"$inner\"")
			fi
			;;
		COUPLED_ADAPTER_HEADER)
			# A user-supplied adapter, by design.
			;;
		*)
			echo "FAIL: $h: cannot classify '$line'"
			failures+=("$h: $line")
			;;
		esac
	done < <(kernel_tagged "$h")
done

# Compile with no include directories at all but the compiler's own: any libc
# header would be missing.
for cc in "$GCC" "$CLANG"; do
	have "$cc" || continue
	own=$("$cc" -print-file-name=include 2>/dev/null || true)
	if [[ -z $own || ! -f $own/stdatomic.h ]]; then
		echo "note: $cc: no stdatomic.h in its own include directory" \
			"('$own'); -nostdinc check not run"
		continue
	fi
	for h in "${headers[@]}"; do
		name=$(basename "$h" .h)
		run_check "$h as C11 with $cc -nostdinc" \
			"$cc" "${C_FLAGS[@]}" -nostdinc -isystem "$own" -Iinclude \
			"$tmp/$name.c"
	done
done

# --- 3. the pthread adapter (hosted) -----------------------------------------

# refused CC FLAGS... FILE: the compile must fail, saying how to do it right.
refused() {
	if "$@" >"$tmp/refused" 2>&1; then
		echo "      (it compiled)"
		return 1
	fi
	grep -q 'include <coupled/coupled.h>' "$tmp/refused"
}

PT_H=adapters/pthread/include/coupled/adapter/pthread.h
if [[ -f $PT_H ]]; then
	PT_FLAGS=(-DCOUPLED_ADAPTER_PTHREAD -D_DEFAULT_SOURCE -Iinclude
		-Iadapters/pthread/include)
	# Selected through coupled.h; included directly, it must refuse.
	printf '#include "coupled/coupled.h"\n' >"$tmp/pt_sel.c"
	printf '#include <coupled/adapter/pthread.h>\n#include "coupled/coupled.h"\n' \
		>"$tmp/pt_direct.c"
	cp "$tmp/pt_sel.c" "$tmp/pt_sel.cpp"
	printf '#include <coupled/adapter/common_hooks.h>\n' >"$tmp/hooks_direct.c"
	for cc in "$GCC" "$CLANG"; do
		have "$cc" || continue
		run_check "pthread adapter (pt_sel) as C11 with $cc" \
			"$cc" -std=c11 -Wall -Wextra -Werror -pedantic \
			-fsyntax-only "${PT_FLAGS[@]}" "$tmp/pt_sel.c"
		run_check "pthread adapter with COUPLED_STATS as C11 with $cc" \
			"$cc" -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only \
			-DCOUPLED_STATS "${PT_FLAGS[@]}" "$tmp/pt_sel.c"
		run_check "pthread adapter included directly is refused ($cc)" \
			refused "$cc" -std=c11 -fsyntax-only "${PT_FLAGS[@]}" \
			"$tmp/pt_direct.c"
		run_check "the adapters' shared hooks included directly are refused ($cc)" \
			refused "$cc" -std=c11 -fsyntax-only -Iinclude \
			"$tmp/hooks_direct.c"
	done
	for cxx in "$GXX" "$CLANGXX"; do
		have "$cxx" || continue
		for std in c++11 c++17; do
			run_check "pthread adapter (pt_sel) as $std with $cxx" \
				"$cxx" -std="$std" "${CXX_FLAGS[@]}" \
				"${PT_FLAGS[@]}" "$tmp/pt_sel.cpp"
		done
	done
else
	echo "FAIL: $PT_H is missing"
	failures+=("pthread adapter missing")
fi

# --- verdict -----------------------------------------------------------------

if ((${#failures[@]} > 0)); then
	echo
	echo "check_headers: ${#failures[@]} of $checks checks failed:"
	printf '  - %s\n' "${failures[@]}"
	exit 1
fi
if ((${#skips[@]} > 0)); then
	echo "check_headers: $checks checks passed, but SKIP:"
	printf '  - %s\n' "${skips[@]}"
	exit 77
fi
echo "check_headers: all $checks checks passed (${#headers[@]} headers)"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/infra/check_headers.sh - every public header stands on its own.
#
#  1. each include/coupled/*.h compiles alone, as freestanding C11 under gcc
#     and clang, and as C++11 and C++17 under g++ and clang++;
#  2. the core headers include nothing but freestanding standard headers and
#     the project's own headers (checked by reading them, and by compiling
#     them with -nostdinc and only the compiler's own include directory);
#  3. the pthread adapter compiles together with coupled.h (hosted).
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

for h in "${headers[@]}"; do
	checks=$((checks + 1))
	while IFS= read -r line; do
		# "#  include <x>" -> x, "#include "x"" -> "x", macro -> itself.
		target=$(printf '%s\n' "$line" |
			sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*//; s/[[:space:]]*(\/[*/].*)?$//')
		case $target in
		\<*\>)
			inner=${target#<}
			inner=${inner%>}
			if ! [[ $inner =~ $allowed_system ]]; then
				echo "FAIL: $h includes $target, not a freestanding header"
				failures+=("$h: #include $target")
			fi
			;;
		\"*\")
			inner=${target#\"}
			inner=${inner%\"}
			# The project's own headers, and the adapter picked by
			# coupled/adapter.h (checked on its own in part 3).
			if [[ -f include/coupled/$inner || -f include/$inner ||
				$inner == coupled_adapter_*.h ]]; then
				:
			else
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
	done < <(grep -E '^[[:space:]]*#[[:space:]]*include' "$h" || true)
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

if [[ -f adapters/pthread/coupled_adapter_pthread.h ]]; then
	PT_FLAGS=(-DCOUPLED_ADAPTER_PTHREAD -D_DEFAULT_SOURCE -Iinclude -Iadapters/pthread)
	# Selected through coupled.h, and included first by hand.
	printf '#include "coupled/coupled.h"\n' >"$tmp/pt_sel.c"
	printf '#include "coupled_adapter_pthread.h"\n#include "coupled/coupled.h"\n' \
		>"$tmp/pt_first.c"
	cp "$tmp/pt_sel.c" "$tmp/pt_sel.cpp"
	cp "$tmp/pt_first.c" "$tmp/pt_first.cpp"
	for cc in "$GCC" "$CLANG"; do
		have "$cc" || continue
		for v in pt_sel pt_first; do
			run_check "pthread adapter ($v) as C11 with $cc" \
				"$cc" -std=c11 -Wall -Wextra -Werror -pedantic \
				-fsyntax-only "${PT_FLAGS[@]}" "$tmp/$v.c"
		done
		run_check "pthread adapter with COUPLED_STATS as C11 with $cc" \
			"$cc" -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only \
			-DCOUPLED_STATS "${PT_FLAGS[@]}" "$tmp/pt_sel.c"
	done
	for cxx in "$GXX" "$CLANGXX"; do
		have "$cxx" || continue
		for std in c++11 c++17; do
			for v in pt_sel pt_first; do
				run_check "pthread adapter ($v) as $std with $cxx" \
					"$cxx" -std="$std" "${CXX_FLAGS[@]}" \
					"${PT_FLAGS[@]}" "$tmp/$v.cpp"
			done
		done
	done
else
	echo "FAIL: adapters/pthread/coupled_adapter_pthread.h is missing"
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

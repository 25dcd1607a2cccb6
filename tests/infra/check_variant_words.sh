#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/infra/check_variant_words.sh - fails when an adapter that runs only
# the direct protocol, or a core header that both protocols share, speaks
# the settled protocol's vocabulary.
#
#   bash tests/infra/check_variant_words.sh [FILE...]
#
# The settled variant wakes a member by counting a "poke" and rests it in
# "phase 1"; the direct variant has neither (a waiter re-reads the word's
# next generation).  An adapter header that only ever declares
# COUPLED_ADAPTER_WAKE_CAN_BE_LOST 0 runs direct, and so does
# common_hooks.h, which direct adapters include: in those files a line
# that says poke or phase 1 must name the settled variant on the same
# line, or the contract text (and the man pages generated from it) tells a
# direct adapter's author the wrong thing.  The same holds for the core's
# headers that both protocols share: every include/coupled/*.h but the
# settled variant's own, settled.h, settled_state.h and word.h (the packed
# word it alone uses).  With no FILE, the files are found as said; the exit status is 1
# with the offending lines.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
if (($# == 0)); then
	set -- include/coupled/adapter/common_hooks.h
	for f in include/coupled/*.h; do
		case $f in
		include/coupled/settled.h | include/coupled/settled_state.h | \
			include/coupled/word.h) ;;
		*) set -- "$@" "$f" ;;
		esac
	done
	while IFS= read -r f; do
		# Direct only: every definition of the macro in the file is 0.
		if ! grep -Eq 'define COUPLED_ADAPTER_WAKE_CAN_BE_LOST +1' "$f"; then
			set -- "$@" "$f"
		fi
	done < <(git grep -l -E 'define COUPLED_ADAPTER_WAKE_CAN_BE_LOST +0' -- include adapters)
fi
bad=$(grep -n -i -E 'poke|phase[ -]?1' "$@" | grep -v -i 'settled' || true)
if [[ -n $bad ]]; then
	echo "check_variant_words: settled-protocol words in direct-only adapters" \
		"or shared core headers (name the settled variant on the line, or" \
		"say it the direct way):"
	printf '%s\n' "$bad" | sed 's/^/  /'
	exit 1
fi
echo "check_variant_words: $# direct-only or shared files speak their own protocol ($*)"

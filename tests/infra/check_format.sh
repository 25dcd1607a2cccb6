#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/infra/check_format.sh - fails if any C or C++ file of the project is
# not formatted as the top-level .clang-format says (kernel style).
#
#   bash tests/infra/check_format.sh          check, list the offending files
#   bash tests/infra/check_format.sh --fix    format them in place
#
# The files: every *.c, *.h, *.cc and *.cpp under include/, adapters/,
# bench/, examples/ and tests/.  CLANG_FORMAT names the program (default
# clang-format; version 14 or later).  Exit status 77 (a skip, with the
# reason) when it is missing: tests/packages.sh installs it (group style).

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
CLANG_FORMAT=${CLANG_FORMAT:-clang-format}

if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
	echo "SKIPPED: $CLANG_FORMAT not found (bash tests/packages.sh install style)"
	exit 77
fi
version=$("$CLANG_FORMAT" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [[ -z $version || $version -lt 14 ]]; then
	echo "SKIPPED: $CLANG_FORMAT is version '${version:-?}'; the style needs 14 or later"
	exit 77
fi

mapfile -t files < <(find include adapters bench examples tests \
	-type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' \) \
	-print | LC_ALL=C sort)
if [[ ${#files[@]} -eq 0 ]]; then
	echo "check_format: no source files found under $ROOT" >&2
	exit 1
fi

if [[ ${1:-} == --fix ]]; then
	"$CLANG_FORMAT" -i "${files[@]}"
	echo "check_format: formatted ${#files[@]} files"
	exit 0
fi

bad=()
for f in "${files[@]}"; do
	if ! "$CLANG_FORMAT" --dry-run --Werror "$f" >/dev/null 2>&1; then
		bad+=("$f")
	fi
done
if [[ ${#bad[@]} -ne 0 ]]; then
	echo "check_format: ${#bad[@]} of ${#files[@]} files are not formatted" \
		"(bash tests/infra/check_format.sh --fix formats them):"
	printf '  %s\n' "${bad[@]}"
	"$CLANG_FORMAT" --dry-run "${bad[0]}" 2>&1 | head -20
	exit 1
fi
echo "check_format: ${#files[@]} files formatted ($CLANG_FORMAT $version)"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/run.sh - one entry point for the demo and the full test matrix.
#
#   bash tests/run.sh demo [demo args...]   build and run the demo (Release)
#   bash tests/run.sh domains [args...]     the same for the domains demo
#   bash tests/run.sh all [ctest args...]   every configuration, every test
#
# The configurations are CMakePresets.json's workflow presets (release,
# clang, tsan-gcc, tsan-clang, asan-ubsan): "all" runs
# "cmake --workflow --preset NAME" for each, in build/NAME, goes on after a
# failure, prints a summary (result, tests passed, time) and exits non-zero
# if anything failed.  With ctest arguments (e.g. -L fast) it runs the
# preset's three steps itself and hands them to ctest.  COUPLED_CONFIGS="release
# tsan-gcc" restricts it to some configurations.  Build directories are
# reused, so a second run only rebuilds what changed; each configuration's
# output is also kept in build/NAME.log.
#
# First, tests/packages.sh installs the Debian packages (group "demo" or
# "all"; as root, or via sudo).  COUPLED_SKIP_PACKAGES=1 skips that step.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# --- demo ---------------------------------------------------------------------

# run_demo TARGET SUBDIR [args...]: build examples/SUBDIR's TARGET, run it.
run_demo() {
	local dir=build/demo target=$1 exe
	exe=$dir/examples/$2/$1
	shift 2

	cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release
	cmake --build "$dir" --target "$target" -j2
	if [[ ! -x $exe ]]; then
		# Wherever the build tree put it.
		exe=$(find "$dir" -type f -name "$target" -perm -u+x -print -quit)
	fi
	if [[ -z $exe || ! -x $exe ]]; then
		echo "run.sh: $target was not built" >&2
		exit 1
	fi
	exec "$exe" "$@"
}

# --- all ----------------------------------------------------------------------

# The workflow presets that test, in their file's order (not "package",
# which builds the Debian package: tests/infra/check_package.sh).
preset_names() {
	cmake --list-presets=workflow | sed -n 's/^ *"\([^"]*\)".*/\1/p' |
		grep -vx package
}

# run_config NAME [ctest args...]: the configuration's output goes to the
# terminal and to build/NAME.log; sets RESULT (ok or the step that failed)
# and TESTS (passed/total, or -).
run_config() {
	local name=$1 log=build/$1.log step rc counts n_failed n_total
	shift

	mkdir -p build
	set +e
	if (($# == 0)); then
		cmake --workflow --preset "$name" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
	else
		# A ctest filter that matches nothing in some configuration is
		# not a failure (-L verify has no tests under the sanitizers).
		{
			echo "Executing step: configure" &&
				cmake --preset "$name" &&
				echo "Executing step: build" &&
				cmake --build --preset "$name" &&
				echo "Executing step: test" &&
				ctest --preset "$name" --no-tests=ignore "$@"
		} 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
	fi
	set -e

	# "N tests failed out of M" is ctest's last word on the test step.
	counts=$(sed -n 's/.* \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\).*/\1 \2/p' \
		"$log" | tail -n 1)
	if [[ -n $counts ]]; then
		read -r n_failed n_total <<<"$counts"
		TESTS="$((n_total - n_failed))/$n_total"
	elif grep -q '^No tests were found' "$log"; then
		TESTS="0/0"
	else
		TESTS="-"
	fi
	if ((rc == 0)); then
		RESULT=ok
		return 0
	fi
	# The step cmake --workflow (or the list above) was executing.
	step=$(sed -n 's/^Executing \(workflow \)\{0,1\}step.*: \([a-z]*\).*/\2/p' "$log" |
		tail -n 1)
	RESULT="FAILED: ${step:-configure}"
}

run_all() {
	local -a configs known names=() results=() tests=() times=()
	local name start elapsed failed=0 i all_start

	mapfile -t known < <(preset_names)
	if ((${#known[@]} == 0)); then
		echo "run.sh: no workflow presets in CMakePresets.json" >&2
		return 1
	fi
	if [[ -n ${COUPLED_CONFIGS:-} ]]; then
		read -r -a configs <<<"$COUPLED_CONFIGS"
	else
		configs=("${known[@]}")
	fi

	all_start=$(date +%s)
	for name in "${configs[@]}"; do
		echo
		echo "=== [$name] ==================================================="
		start=$(date +%s)
		if [[ " ${known[*]} " == *" $name "* ]]; then
			run_config "$name" "$@"
		else
			echo "run.sh: unknown configuration '$name' (known: ${known[*]})" >&2
			RESULT="FAILED: unknown configuration" TESTS="-"
		fi
		elapsed=$(($(date +%s) - start))
		echo "=== [$name] $RESULT, tests $TESTS, in ${elapsed}s"
		names+=("$name")
		results+=("$RESULT")
		tests+=("$TESTS")
		times+=("$elapsed")
		[[ $RESULT == ok ]] || failed=1
	done

	echo
	echo "=== summary ==="
	printf '%-12s %-24s %9s %8s\n' configuration result tests seconds
	for i in "${!names[@]}"; do
		printf '%-12s %-24s %9s %8s\n' "${names[$i]}" "${results[$i]}" \
			"${tests[$i]}" "${times[$i]}"
	done
	printf '%-12s %-24s %9s %8s\n' total \
		"$( ((failed)) && echo FAILED || echo ok)" "" \
		"$(($(date +%s) - all_start))"
	return "$failed"
}

# --- main ---------------------------------------------------------------------

usage() {
	echo "usage: bash tests/run.sh demo|domains|all [extra args]" >&2
	echo "  demo: extra args go to coupled_demo" >&2
	echo "  domains: extra args go to coupled_domains_demo" >&2
	echo "  all:  extra args go to ctest; COUPLED_CONFIGS restricts the" \
		"configurations (CMakePresets.json's workflow presets)" >&2
	exit 2
}

(($# >= 1)) || usage
cmd=$1
shift
case $cmd in
demo)
	bash tests/packages.sh install demo
	run_demo coupled_demo demo "$@"
	;;
domains)
	bash tests/packages.sh install demo
	run_demo coupled_domains_demo domains "$@"
	;;
all)
	bash tests/packages.sh install all
	run_all "$@"
	;;
*)
	usage
	;;
esac

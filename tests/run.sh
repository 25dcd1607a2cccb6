#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/run.sh - one entry point for the demo and the full test matrix.
#
#   bash tests/run.sh demo [demo args...]   build and run the demo (Release)
#   bash tests/run.sh all [ctest args...]   every configuration, every test
#
# "all" configures, builds and tests each configuration in build/<name>, goes
# on after a failure, prints a summary and exits non-zero if anything failed.
# COUPLED_CONFIGS="release tsan-gcc" restricts it to some configurations.
# Build directories are reused, so a second run only rebuilds what changed.
#
# Step 0 installs the Debian packages the build needs (as root, or via sudo).
# COUPLED_SKIP_PACKAGES=1 skips that step.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# --- step 0: packages ---------------------------------------------------------

# Debian 12 package names, by group.  A group is a function appending to
# PACKAGES; PACKAGE_GROUPS lists the groups "all" installs ("demo": core).  Add a
# group (arm, kernel, bench, ...) by defining packages_<group> and naming it.
PACKAGES=()
PACKAGE_GROUPS=(core verify bench arm kernel)

packages_core() {
	PACKAGES+=(cmake make gcc g++ clang libc6-dev python3
		libtsan2 libasan8 libubsan1 libclang-rt-14-dev)
}

# The verify label: Relacy (relaxed-memory checking) and SPIN (model checking).
packages_verify() {
	PACKAGES+=(relacy-dev spin)
}

# bench/: Google Benchmark (compare.py is in -tools), Concurrency Kit, callgrind,
# and Debian's python3 modules for compare.py and the plot.
packages_bench() {
	PACKAGES+=(libbenchmark-dev libbenchmark-tools libck-dev valgrind
		python3-numpy python3-scipy python3-matplotlib)
}

# Label arm: cross compilers (their binutils come along), lld for the clang
# images, and QEMU for ARM (qemu-system-arm and qemu-system-aarch64).
packages_arm() {
	PACKAGES+=(gcc-arm-none-eabi gcc-aarch64-linux-gnu lld qemu-system-arm)
}

# Label kernel: Debian's kernel and its headers (the modules build against
# them and the test boots it), QEMU for x86, a busybox initramfs (its insmod
# loads the modules) packed with cpio and gzip.
packages_kernel() {
	PACKAGES+=(linux-headers-amd64 linux-image-amd64 qemu-system-x86
		busybox-static cpio gzip)
}

package_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# ensure_packages GROUP...: install what the named groups need.
ensure_packages() {
	local group pkg
	local -a missing=() sudo=()

	if [[ ${COUPLED_SKIP_PACKAGES:-0} == 1 ]]; then
		return 0
	fi
	if ! command -v dpkg-query >/dev/null 2>&1; then
		echo "run.sh: no dpkg-query (not Debian?); not checking packages" >&2
		return 0
	fi
	PACKAGES=()
	for group in "$@"; do
		"packages_$group"
	done
	for pkg in "${PACKAGES[@]}"; do
		package_installed "$pkg" || missing+=("$pkg")
	done
	if ((${#missing[@]} == 0)); then
		return 0
	fi

	echo "run.sh: installing missing packages: ${missing[*]}"
	if ((EUID != 0)); then
		if command -v sudo >/dev/null 2>&1; then
			sudo=(sudo)
		else
			echo "run.sh: not root and no sudo; please install:" >&2
			echo "  apt-get install ${missing[*]}" >&2
			exit 1
		fi
	fi
	"${sudo[@]}" apt-get update
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends "${missing[@]}"
}

# --- demo ---------------------------------------------------------------------

run_demo() {
	local dir=build/demo exe

	cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release
	cmake --build "$dir" --target coupled_demo -j2
	exe=$dir/tests/demo/coupled_demo
	if [[ ! -x $exe ]]; then
		# Wherever the build tree put it.
		exe=$(find "$dir" -type f -name coupled_demo -perm -u+x -print -quit)
	fi
	if [[ -z $exe || ! -x $exe ]]; then
		echo "run.sh: coupled_demo was not built" >&2
		exit 1
	fi
	exec "$exe" "$@"
}

# --- all ----------------------------------------------------------------------

ALL_CONFIGS=(release clang tsan-gcc tsan-clang asan-ubsan)

# config_settings NAME: sets CC_NAME, CXX_NAME, CMAKE_ARGS, LABELS (a ctest
# -L regex; empty runs every label).
config_settings() {
	CMAKE_ARGS=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
	LABELS=""
	case $1 in
	release)
		CC_NAME=gcc CXX_NAME=g++
		# The benchmarks' smoke tests (label bench) build here only.
		CMAKE_ARGS+=(-DCOUPLED_BUILD_BENCH=ON)
		;;
	clang)
		CC_NAME=clang CXX_NAME=clang++
		LABELS='^fast$'
		;;
	tsan-gcc | tsan-clang)
		if [[ $1 == tsan-gcc ]]; then
			CC_NAME=gcc CXX_NAME=g++
		else
			CC_NAME=clang CXX_NAME=clang++
		fi
		CMAKE_ARGS+=(-DCOUPLED_SANITIZE=thread -DCOUPLED_STATS=ON)
		LABELS='^(fast|stress)$'
		;;
	asan-ubsan)
		CC_NAME=gcc CXX_NAME=g++
		CMAKE_ARGS+=("-DCOUPLED_SANITIZE=address,undefined")
		LABELS='^(fast|stress)$'
		;;
	*)
		echo "run.sh: unknown configuration '$1' (known: ${ALL_CONFIGS[*]})" >&2
		return 1
		;;
	esac
}

# run_config NAME [ctest args...]: sets RESULT to ok or the failed step.
run_config() {
	local name=$1 dir=build/$1 cc cxx
	shift
	local -a ctest_args=(--output-on-failure -j2)

	RESULT="unknown configuration"
	config_settings "$name" || return 0
	RESULT="configure"
	# Absolute compiler paths, so that reconfiguring an existing build
	# directory sees the very same values and keeps its cache.
	cc=$(command -v "$CC_NAME") || { RESULT="no $CC_NAME"; return 0; }
	cxx=$(command -v "$CXX_NAME") || { RESULT="no $CXX_NAME"; return 0; }
	cmake -S . -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
		"${CMAKE_ARGS[@]}" || return 0

	RESULT="build"
	cmake --build "$dir" -j2 || return 0

	RESULT="test"
	if [[ -n $LABELS ]]; then
		ctest_args+=(-L "$LABELS")
	fi
	(
		cd "$dir"
		export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
		export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
		ctest "${ctest_args[@]}" "$@"
	) || return 0

	RESULT="ok"
}

run_all() {
	local -a configs names=() results=() times=()
	local name start elapsed failed=0 i

	if [[ -n ${COUPLED_CONFIGS:-} ]]; then
		read -r -a configs <<<"$COUPLED_CONFIGS"
	else
		configs=("${ALL_CONFIGS[@]}")
	fi

	for name in "${configs[@]}"; do
		echo
		echo "=== [$name] ==================================================="
		start=$(date +%s)
		run_config "$name" "$@"
		elapsed=$(($(date +%s) - start))
		echo "=== [$name] $RESULT in ${elapsed}s"
		names+=("$name")
		results+=("$RESULT")
		times+=("$elapsed")
		[[ $RESULT == ok ]] || failed=1
	done

	echo
	echo "=== summary ==="
	printf '%-12s %-30s %8s\n' configuration result seconds
	for i in "${!names[@]}"; do
		if [[ ${results[$i]} == ok ]]; then
			printf '%-12s %-30s %8s\n' "${names[$i]}" ok "${times[$i]}"
		else
			printf '%-12s %-30s %8s\n' "${names[$i]}" \
				"FAILED: ${results[$i]}" "${times[$i]}"
		fi
	done
	return "$failed"
}

# --- main ---------------------------------------------------------------------

usage() {
	echo "usage: bash tests/run.sh demo|all [extra args]" >&2
	echo "  demo: extra args go to coupled_demo" >&2
	echo "  all:  extra args go to ctest; COUPLED_CONFIGS restricts the" \
		"configurations (${ALL_CONFIGS[*]})" >&2
	exit 2
}

(($# >= 1)) || usage
cmd=$1
shift
case $cmd in
demo)
	ensure_packages core
	run_demo "$@"
	;;
all)
	ensure_packages "${PACKAGE_GROUPS[@]}"
	run_all "$@"
	;;
-h | --help | help)
	usage
	;;
*)
	usage
	;;
esac

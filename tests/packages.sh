#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/packages.sh - the Debian 12 packages the project needs, by group, and
# their installation.  tests/run.sh, the fresh-machine check
# (tests/infra/fresh_machine.sh) and you read this one list.
#
#   bash tests/packages.sh list [GROUP...]      the packages, one group a line
#   bash tests/packages.sh missing [GROUP...]   those not installed (exit 1 if any)
#   bash tests/packages.sh install [GROUP...]   install those not installed
#
# GROUP: one of the groups below, "all" (every group the tests need: what
# "tests/run.sh all" installs) or "demo" (what "tests/run.sh demo" installs).
# No GROUP means all.  "install" runs apt-get as root, through sudo when not
# root; COUPLED_SKIP_PACKAGES=1 makes it do nothing.  Packages install with
# --no-install-recommends: a package the tests need is named here, never
# brought by a Recommends.
# shellcheck disable=SC2034  # the GROUP_* are read through ${!var}
set -euo pipefail

# --- the groups ---------------------------------------------------------------

# What README assumes a newcomer's machine has besides a minimal Debian 12:
# git (and the certificates) to clone the project.  Not installed by the
# tests; the fresh-machine check puts exactly this on its bare root.
GROUP_newcomer="git ca-certificates"

# Building, the fast and stress labels: gcc and clang with the sanitizer
# runtimes (clang's come with libclang-rt), python3 for small test helpers.
GROUP_core="cmake make gcc g++ clang libc6-dev python3
	libtsan2 libasan8 libubsan1 libclang-rt-14-dev"

# Label verify: Relacy (relaxed-memory checking) and SPIN (model checking).
GROUP_verify="relacy-dev spin"

# Label bench and bench/: Google Benchmark (compare.py is in -tools),
# Concurrency Kit, callgrind, and Debian's python3 modules for compare.py
# and the plot.
GROUP_bench="libbenchmark-dev libbenchmark-tools libck-dev valgrind
	python3-numpy python3-scipy python3-matplotlib"

# Label arm: the cross compilers (their binutils come along; no cross C
# library: the images use the compilers' own headers only, see
# docs/baremetal-arm.md), lld for the clang images, and QEMU for ARM
# (qemu-system-arm has both qemu-system-arm and qemu-system-aarch64).
GROUP_arm="gcc-arm-none-eabi gcc-aarch64-linux-gnu lld qemu-system-arm"

# Label riscv: the RISC-V bare-metal cross compiler (its binutils come
# along; no newlib/picolibc: the images use the compiler's own headers
# only), lld for the clang images, and QEMU for RISC-V (qemu-system-misc has
# qemu-system-riscv64; the images run with -bios none, no OpenSBI).
GROUP_riscv="gcc-riscv64-unknown-elf lld qemu-system-misc"

# Label kernel: Debian's kernel and its headers (the modules build against
# them and the test boots it), QEMU for x86, a busybox initramfs (its insmod
# loads the modules) packed with cpio and gzip.
GROUP_kernel="linux-headers-amd64 linux-image-amd64 qemu-system-x86
	busybox-static cpio gzip"

# Label kernel, ARM: the same tests in Debian's armhf (armmp) and arm64
# kernels: the cross gcc-12 (the kernels' compiler), the kernels' build
# tools (linux-kbuild-6.1, Multi-Arch: foreign), QEMU for ARM.  The kernels,
# their headers and busybox-static of those architectures cannot be
# installed here: "install" downloads and unpacks them with the first
# script of FETCH_kernel_arm (about 130 MB from the mirror, 200 MB unpacked
# in /var/cache/coupled/kernels).  The second builds the armhf kernel
# where the kernel's own coupled idle runs, with KASAN and lockdep, from
# linux-source-6.1 (with flex, bison, bc, patch and xz-utils; about 6
# minutes on 2 processors the first time, 1.6 GB in the same cache).
# "missing" lists what they lack as "kernel_arm:fetch".
GROUP_kernel_arm="gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu
	linux-kbuild-6.1 qemu-system-arm cpio gzip
	linux-source-6.1 flex bison bc patch xz-utils"
FETCH_kernel_arm="tests/adapters/linux/fetch_kernels.sh
	tests/adapters/linux/build_kernel.sh"

# The format check (test format_check, label fast): clang-format reads
# the top-level .clang-format.
GROUP_style="clang-format"

# Packaging (tests/infra: the Debian package, its man pages and the
# consumers of the installed package): lintian checks the .deb, pkgconf is
# pkg-config for the Makefile and freestanding consumers, man-db's man
# renders the pages.  kernel-doc, for the man pages, comes with the kernel
# group's linux-headers-amd64.
GROUP_package="lintian pkgconf man-db"

GROUPS_ALL="core style verify bench arm riscv kernel kernel_arm package"
GROUPS_DEMO="core"
GROUPS_KNOWN="newcomer $GROUPS_ALL"

# --- the commands -------------------------------------------------------------

me="packages.sh"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
	sed -n '4,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	echo "groups: $GROUPS_KNOWN" >&2
	exit 2
}

# expand GROUP...: sets SELECTED to the named groups, aliases resolved.
expand() {
	local g
	local -a alias
	SELECTED=()
	(($# > 0)) || set -- all
	for g in "$@"; do
		case $g in
		all) read -r -a alias <<<"$GROUPS_ALL"; SELECTED+=("${alias[@]}") ;;
		demo) read -r -a alias <<<"$GROUPS_DEMO"; SELECTED+=("${alias[@]}") ;;
		*)
			if [[ " $GROUPS_KNOWN " != *" $g "* ]]; then
				echo "$me: unknown group '$g' (groups: $GROUPS_KNOWN," \
					"all, demo)" >&2
				exit 2
			fi
			SELECTED+=("$g")
			;;
		esac
	done
}

# packages_of GROUP: sets PKGS to its packages.
packages_of() {
	local var="GROUP_$1"
	read -r -d '' -a PKGS <<<"${!var}" || true
}

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# find_missing GROUP...: sets MISSING.
find_missing() {
	local g p f
	MISSING=()
	expand "$@"
	for g in "${SELECTED[@]}"; do
		packages_of "$g"
		for p in "${PKGS[@]}"; do
			installed "$p" || MISSING+=("$p")
		done
		fetch_of "$g"
		for f in $FETCH; do
			if ! bash "$top/$f" check >/dev/null 2>&1; then
				MISSING+=("$g:fetch")
				break
			fi
		done
	done
}

# fetch_of GROUP: sets FETCH to the group's download script, if any.
fetch_of() {
	local var="FETCH_$1"
	FETCH=${!var:-}
}

cmd_list() {
	local g
	expand "$@"
	for g in "${SELECTED[@]}"; do
		packages_of "$g"
		printf '%-9s %s\n' "$g" "${PKGS[*]}"
	done
}

cmd_missing() {
	find_missing "$@"
	((${#MISSING[@]} == 0)) && return 0
	printf '%s\n' "${MISSING[@]}"
	return 1
}

cmd_install() {
	local -a sudo=()

	if [[ ${COUPLED_SKIP_PACKAGES:-0} == 1 ]]; then
		echo "$me: COUPLED_SKIP_PACKAGES=1: not checking packages"
		return 0
	fi
	if ! command -v dpkg-query >/dev/null 2>&1; then
		echo "$me: no dpkg-query (not Debian?); install by hand:" >&2
		cmd_list "$@" >&2
		return 0
	fi
	find_missing "$@"
	((${#MISSING[@]} == 0)) && return 0

	echo "$me: installing missing packages: ${MISSING[*]}"
	local -a fetches=() apt_pkgs=()
	local m
	local -a f
	for m in "${MISSING[@]}"; do
		case $m in
		*:fetch) fetch_of "${m%:fetch}"; read -r -d '' -a f <<<"$FETCH" || true
			fetches+=("${f[@]}") ;;
		*) apt_pkgs+=("$m") ;;
		esac
	done
	if ((EUID != 0)); then
		if command -v sudo >/dev/null 2>&1; then
			sudo=(sudo)
		else
			echo "$me: not root and no sudo; as root, run:" >&2
			echo "  apt-get install --no-install-recommends ${MISSING[*]}" >&2
			return 1
		fi
	fi
	if ((${#apt_pkgs[@]} > 0)); then
		"${sudo[@]}" apt-get update
		"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y --no-install-recommends "${apt_pkgs[@]}"
	fi
	for m in "${fetches[@]}"; do
		"${sudo[@]}" bash "$top/$m" fetch
	done
	find_missing "$@"
	if ((${#MISSING[@]} > 0)); then
		echo "$me: still missing after apt-get: ${MISSING[*]}" >&2
		return 1
	fi
}

(($# >= 1)) || usage
cmd=$1
shift
case $cmd in
list) cmd_list "$@" ;;
missing) cmd_missing "$@" ;;
install) cmd_install "$@" ;;
*) usage ;;
esac

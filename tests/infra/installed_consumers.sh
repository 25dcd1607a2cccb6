#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/infra/installed_consumers.sh - consumers of the INSTALLED package
# (a prefix from "cmake --install", or /usr after installing the .deb),
# never of the source tree.
#
#   installed_consumers.sh relocated BUILD_DIR WORK_DIR
#       install BUILD_DIR into WORK_DIR/prefix, move that prefix to
#       WORK_DIR/moved, then build and run the Makefile consumer with
#       pkg-config from the moved place
#   installed_consumers.sh make PREFIX WORK_DIR
#       the plain Makefile consumer (consumer_make/): pkg-config
#       coupled-pthread, several threads commit rounds
#   installed_consumers.sh cmake PREFIX WORK_DIR
#       the CMake consumer (consumer/): find_package(coupled) from PREFIX,
#       one program each with coupled::pthread, coupled::spin and
#       coupled::coupled
#   installed_consumers.sh freestanding PREFIX WORK_DIR
#       the freestanding consumer (consumer_freestanding/): pkg-config
#       coupled-spin, -ffreestanding -nostdlib -static, its own _start;
#       x86-64 Linux only
#   installed_consumers.sh kbuild PREFIX WORK_DIR
#       the out-of-tree module (consumer_kbuild/) with COUPLED_ADAPTER_LINUX
#       and the cpuidle helper, built (W=1, no warning allowed from it)
#       against Debian's linux-headers-amd64; build only
#
# Exit status: 0 passed, 77 skipped (a tool is missing; the reason is
# printed), anything else failed.  CC (default cc) is the compiler.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
me="installed_consumers.sh"
CC=${CC:-cc}

die() { echo "$me: FAIL: $*" >&2; exit 1; }
skip() { echo "$me: SKIP: $*" >&2; exit 77; }
need() { command -v "$1" >/dev/null 2>&1 || skip "$1 not found ($2)"; }

# fresh WORK_DIR: wipe and create it.
fresh() { rm -rf "$1"; mkdir -p "$1"; }

# use_prefix PREFIX: pkg-config reads PREFIX's files (and only those).
use_prefix() {
	local pc="$1/share/pkgconfig"
	[ -f "$pc/coupled-pthread.pc" ] || die "no $pc/coupled-pthread.pc"
	export PKG_CONFIG_PATH="$pc"
	export PKG_CONFIG_LIBDIR="$pc"
}

run_make() {
	local prefix=$1 work=$2
	need pkg-config "package pkgconf, group package"
	need make "package group core"
	use_prefix "$prefix"
	cp "$here/consumer_make/Makefile" "$here/consumer_make/rounds.c" "$work/"
	make -C "$work" CC="$CC" check
	# The flags came from this prefix.
	pkg-config --cflags coupled-pthread | grep -q -- "-I$prefix/" ||
		[ "$prefix" = /usr ] ||
		die "pkg-config's flags do not name $prefix"
}

cmd_relocated() {
	local build=$1 work=$2
	need pkg-config "package pkgconf, group package"
	fresh "$work"
	cmake --install "$build" --prefix "$work/prefix" >/dev/null
	mv "$work/prefix" "$work/moved"
	[ ! -e "$work/prefix" ] || die "the old prefix still exists"
	mkdir "$work/make"
	run_make "$work/moved" "$work/make"
	local inc
	inc=$(pkg-config --variable=includedir coupled-spin)
	[ -f "$inc/coupled/coupled.h" ] ||
		die "coupled-spin's includedir $inc has no coupled/coupled.h"
	echo "$me: relocated: passed"
}

cmd_make() {
	fresh "$2"
	run_make "$1" "$2"
	echo "$me: make: passed"
}

cmd_cmake() {
	local prefix=$1 work=$2
	need cmake "package group core"
	fresh "$work"
	cmake -S "$here/consumer" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$CC"
	local found
	found=$(sed -n 's/^coupled_DIR:[A-Z]*=//p' "$work/build/CMakeCache.txt")
	[ "$(realpath "$found")" = "$(realpath "$prefix/lib/cmake/coupled")" ] ||
		die "find_package found coupled in '$found', not in $prefix"
	cmake --build "$work/build"
	ctest --test-dir "$work/build" --output-on-failure --no-tests=error
	echo "$me: cmake: passed"
}

cmd_freestanding() {
	local prefix=$1 work=$2 rc=0
	need pkg-config "package pkgconf, group package"
	[[ $(uname -m) == x86_64 && $(uname -s) == Linux ]] ||
		skip "the freestanding consumer's _start is x86-64 Linux only"
	fresh "$work"
	use_prefix "$prefix"
	# shellcheck disable=SC2046  # pkg-config's flags are words
	"$CC" -std=c11 -Wall -Wextra -Werror -pedantic -O2 \
		-ffreestanding -nostdlib -static -fno-stack-protector \
		$(pkg-config --cflags coupled-spin) \
		"$here/consumer_freestanding/start.c" -o "$work/start"
	"$work/start" || rc=$?
	[ "$rc" -eq 0 ] || die "the freestanding consumer exited $rc"
	echo "$me: freestanding: passed"
}

cmd_kbuild() {
	local prefix=$1 work=$2 deps kver="" kdir log
	need make "package group core"
	if deps=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null); then
		kver=$(printf '%s\n' "$deps" | tr ',' '\n' |
			sed -n 's/^ *linux-headers-\([^ ]*-amd64\).*/\1/p' | head -n1)
	fi
	kdir=/usr/src/linux-headers-$kver
	[[ -n $kver && -d $kdir ]] ||
		skip "linux-headers-amd64 not installed (package group kernel)"
	fresh "$work"
	cp "$here/consumer_kbuild/Kbuild" \
		"$here/consumer_kbuild/coupled_consumer.c" "$work/"
	# Kernel code must not see the rest of PREFIX/include (with /usr,
	# the C library's headers): a directory holding only coupled/.
	mkdir "$work/include"
	ln -s "$prefix/include/coupled" "$work/include/coupled"
	log="$work/build.log"
	make -C "$kdir" M="$work" COUPLED_INCLUDE="$work/include" W=1 \
		2>&1 | tee "$log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || die "the module did not build"
	[ -f "$work/coupled_consumer.ko" ] || die "no coupled_consumer.ko"
	if grep -E '(warning|error):' "$log"; then
		die "the module built with warnings (W=1)"
	fi
	echo "$me: kbuild ($kver): passed"
}

(($# == 3)) || { sed -n '4,25p' "${BASH_SOURCE[0]}" >&2; exit 2; }
case $1 in
relocated | make | cmake | freestanding | kbuild) "cmd_$1" "$2" "$3" ;;
*) die "unknown command '$1'" ;;
esac

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/infra/check_package.sh - the Debian package libcoupled-dev.
#
#   check_package.sh SOURCE_DIR WORK_DIR
#
# Builds the package as "cmake --workflow --preset package" does (the
# package preset's cache, in WORK_DIR/build instead of build/package),
# then checks it: Architecture all, section libdevel, every adapter's
# header, the cpuidle helper, the pkg-config and CMake files, the
# copyright file (machine-readable), a gzipped man page per generated
# section 3 page and coupled(7), the copyright file's MIT text the same as
# LICENSE's; and lintian reports no error.  Prints
# lintian's warnings and infos.  The .deb is left in WORK_DIR/out.
#
# Exit 77 (skip, with the reason) without dpkg-deb, lintian or kernel-doc.
set -euo pipefail

me="check_package.sh"
die() { echo "$me: FAIL: $*" >&2; exit 1; }
skip() { echo "$me: SKIP: $*" >&2; exit 77; }

(($# == 2)) || { echo "usage: $me SOURCE_DIR WORK_DIR" >&2; exit 2; }
src=$1 work=$2
command -v dpkg-deb >/dev/null || skip "dpkg-deb not found (not Debian?)"
command -v lintian >/dev/null || skip "lintian not found (package group package)"
compgen -G "/usr/lib/linux-kbuild-*/scripts/kernel-doc" >/dev/null ||
	skip "kernel-doc not found (linux-headers-amd64, package group kernel)"

rm -rf "$work"
mkdir -p "$work"
(cd "$src" && cmake --preset package -B "$work/build")
cmake --build "$work/build" -j2
cpack --config "$work/build/CPackConfig.cmake" -B "$work/out"
deb=$(find "$work/out" -maxdepth 1 -name 'libcoupled-dev_*_all.deb' -print -quit)
[ -n "$deb" ] || die "no libcoupled-dev_*_all.deb in $work/out"
echo "$me: built $deb"

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Architecture)" = all ] || die "Architecture is not all"
[ "$(field Section)" = libdevel ] || die "Section is not libdevel"
[ -n "$(field Maintainer)" ] || die "no Maintainer"
[ -z "$(field Homepage)" ] || die "a Homepage field (the project has none)"

contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')
for f in \
	/usr/include/coupled/coupled.h \
	/usr/include/coupled/adapter/spin.h \
	/usr/include/coupled/adapter/pthread.h \
	/usr/include/coupled/adapter/linux.h \
	/usr/include/coupled/adapter/baremetal_arm.h \
	/usr/include/coupled/adapter/baremetal_riscv.h \
	/usr/include/coupled/linux/cpuidle.h \
	/usr/include/coupled/tracepoints/coupled.h \
	/usr/share/pkgconfig/coupled-pthread.pc \
	/usr/share/pkgconfig/coupled-spin.pc \
	/usr/lib/cmake/coupled/coupledConfig.cmake \
	/usr/share/doc/libcoupled-dev/copyright \
	/usr/share/doc/libcoupled-dev/changelog.Debian.gz \
	/usr/share/man/man7/coupled.7.gz; do
	grep -qx -- "$f" <<<"$contents" || die "$f is not in the package"
done
n=0
for page in "$work"/build/man/man3/*.3; do
	f=/usr/share/man/man3/$(basename "$page").gz
	grep -qx -- "$f" <<<"$contents" || die "$f is not in the package"
	n=$((n + 1))
done
((n > 0)) || die "no section 3 pages were generated"
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO ./usr/share/doc/libcoupled-dev/copyright |
	grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
	die "the copyright file is not machine-readable"

# The copyright file's MIT text is LICENSE's, word for word.
mit_license=$(sed -n '/^Permission is hereby granted/,/^SOFTWARE\.$/p' "$src/LICENSE")
mit_copyright=$(sed -n '/^License: MIT$/,/^$/p' "$src/packaging/debian/copyright" |
	sed -e '1d' -e 's/^ //' -e 's/^\.$//' | sed -e '${/^$/d}')
[[ -n $mit_license && $mit_license == "$mit_copyright" ]] ||
	die "packaging/debian/copyright's MIT text differs from LICENSE's"

# lintian: no error; the rest is printed.
out=$(lintian -I -E --pedantic "$deb" 2>&1) || true
echo "$me: lintian says:"
echo "${out:-  (nothing)}"
if grep -q '^E:' <<<"$out"; then
	die "lintian reports errors"
fi
echo "$me: passed ($n section 3 pages, lintian without error)"

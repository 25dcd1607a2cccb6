#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# fetch_kernels.sh - download and unpack Debian 12's ARM kernels for the
# kernel label: for each of armhf and arm64, the kernel image, its headers
# (the flavour's and the -common ones, same version) and busybox-static of
# that architecture.  They cannot be installed next to the amd64 packages
# (foreign architecture, no dpkg --add-architecture needed), so they are
# fetched with apt-get download through private package lists and unpacked
# with dpkg-deb into the cache below.  The host packages they need
# (the cross compilers, linux-kbuild-6.1, qemu-system-arm) are the kernel_arm
# group of tests/packages.sh, which runs this script on "install".
#
# Usage: fetch_kernels.sh fetch|check [ARCH...]    (ARCH: armhf arm64)
#   fetch   download and unpack what is missing or out of date
#   check   exit 1 (listing the architecture) if something is not unpacked
#
# Cache: $COUPLED_KERNEL_CACHE, default /var/cache/coupled/kernels.  Per
# architecture ARCH it holds ARCH/kver (the kernel release, written last),
# ARCH/vmlinuz, ARCH/busybox and ARCH/root/usr/src/linux-headers-<kver>
# whose Makefile includes the unpacked -common tree; the headers' scripts
# link to the installed linux-kbuild-6.1 through ARCH/root/usr/lib.
set -euo pipefail

cache=${COUPLED_KERNEL_CACHE:-/var/cache/coupled/kernels}
me=fetch_kernels.sh

# flavour ARCH: Debian's kernel flavour for ARCH.
flavour() {
	case $1 in
	armhf) echo armmp ;;
	arm64) echo arm64 ;;
	*) echo "$me: unknown architecture '$1' (armhf, arm64)" >&2; exit 2 ;;
	esac
}

# unpacked ARCH: is ARCH's tree complete?
unpacked() {
	local d="$cache/$1" kver
	[ -s "$d/kver" ] || return 1
	kver=$(cat "$d/kver")
	[ -s "$d/vmlinuz" ] && [ -x "$d/busybox" ] &&
		[ -f "$d/root/usr/src/linux-headers-$kver/Makefile" ] &&
		[ -d "$d/root/usr/lib/linux-kbuild-6.1/scripts" ]
}

(($# >= 1)) || { sed -n '15,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
cmd=$1
shift
(($# > 0)) || set -- armhf arm64
for a in "$@"; do flavour "$a" >/dev/null; done

if [ "$cmd" = check ]; then
	rc=0
	for a in "$@"; do
		unpacked "$a" || { echo "$me: $a kernel not unpacked in $cache/$a"; rc=1; }
	done
	exit $rc
fi
[ "$cmd" = fetch ] || { echo "$me: fetch or check" >&2; exit 2; }

# Private package lists for the foreign architectures: the system's apt
# state (its lists, its architectures) is left alone.
mkdir -p "$cache/apt/lists/partial" "$cache/apt/debs"
apt=(-q -o "Dir::State::Lists=$cache/apt/lists" -o Dir::Cache::pkgcache=
	-o Dir::Cache::srcpkgcache= -o APT::Architectures::=armhf
	-o APT::Architectures::=arm64 -o APT::Sandbox::User=root)
# An index of another suite that fails to download (a mirror in sync) does
# not matter as long as the packages below resolve: they are checked next.
apt-get "${apt[@]}" update || echo "$me: apt-get update reported errors; going on"

for a in "$@"; do
	fl=$(flavour "$a")
	# The versioned image the metapackage points to, e.g.
	# linux-image-6.1.0-50-arm64 (= 6.1.176-1).
	dep=$(apt-cache "${apt[@]}" show --no-all-versions "linux-image-$fl:$a" |
		sed -n "s/^Depends: .*\(linux-image-\([0-9][^ ]*-$fl\)\) (= \([^)]*\)).*/\2 \3/p" |
		head -n1)
	[ -n "$dep" ] || { echo "$me: cannot resolve linux-image-$fl:$a" >&2; exit 1; }
	kver=${dep% *}
	ver=${dep#* }
	if unpacked "$a" && [ "$(cat "$cache/$a/kver")" = "$kver" ]; then
		echo "$me: $a: $kver already unpacked"
		continue
	fi
	kbuild=$(dpkg-query -W -f='${Version}' linux-kbuild-6.1 2>/dev/null || true)
	if [ -z "$kbuild" ] || dpkg --compare-versions "$kbuild" lt "$ver"; then
		echo "$me: linux-kbuild-6.1 >= $ver is needed (installed: ${kbuild:-none})" >&2
		exit 1
	fi
	debs="$cache/apt/debs/$a"
	rm -rf "$debs" "$cache/$a"
	mkdir -p "$debs" "$cache/$a/root/usr/lib"
	(cd "$debs" && apt-get "${apt[@]}" download \
		"linux-image-$kver:$a=$ver" "linux-headers-$kver:$a=$ver" \
		"linux-headers-${kver%-"$fl"}-common=$ver" "busybox-static:$a")
	root="$cache/$a/root"
	for d in "$debs"/linux-headers-*.deb; do
		dpkg-deb -x "$d" "$root"
	done
	# The flavour's Makefile includes the -common one by absolute path.
	sed -i "s|^include /usr/src/|include $root/usr/src/|" \
		"$root/usr/src/linux-headers-$kver/Makefile"
	ln -s /usr/lib/linux-kbuild-6.1 "$root/usr/lib/linux-kbuild-6.1"
	tmp="$debs/x"
	mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$debs"/linux-image-*.deb |
		tar -x -C "$tmp" "./boot/vmlinuz-$kver"
	cp "$tmp/boot/vmlinuz-$kver" "$cache/$a/vmlinuz"
	dpkg-deb -x "$debs"/busybox-static_*.deb "$tmp"
	cp "$tmp/bin/busybox" "$cache/$a/busybox"
	chmod 0644 "$cache/$a/vmlinuz"
	rm -rf "$debs"
	echo "$kver" >"$cache/$a/kver"
	echo "$me: $a: $kver ($ver) unpacked in $cache/$a"
done

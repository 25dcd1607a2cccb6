#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# build_kernel.sh - build the armhf kernel where the kernel's own coupled
# idle (drivers/cpuidle/coupled.c) runs, from Debian's linux-source-6.1,
# for QEMU virt (Cortex-A15), with KASAN, lockdep (PROVE_LOCKING) and
# DEBUG_ATOMIC_SLEEP.  Debian's own armhf kernels are built without
# CONFIG_CPU_IDLE, so no packaged kernel runs coupled.c.
#
# The configuration is kernel/armhf-coupled.config merged on allnoconfig;
# the patches of kernel/patches/ are applied in order (today one: it
# exports the governor registration and the coupled barrier, which the
# side-by-side test module needs).  "tests/packages.sh install kernel_arm"
# runs this script; nothing is built by hand.
#
# Usage: build_kernel.sh build|check   ("fetch" = build, for tests/packages.sh)
#   build   unpack, configure and build what is missing or out of date
#   check   exit 1 (saying why) unless the cached build matches
#
# Cache: $COUPLED_KERNEL_CACHE (default /var/cache/coupled/kernels)/
# armhf-coupled: src/ (the unpacked, patched source), obj/ (the build,
# O=obj: the modules build against it), zImage, and key (written last):
# the source package's version and the sha256 of the fragment and the
# patches.  A different key rebuilds from scratch.
#
# Cost: 354 s on the 2-processor development machine the first time
# (unpacking about 20 s; about 800 objects, KASAN-instrumented), 1.6 GB
# in the cache; nothing on later runs while the key matches.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${COUPLED_KERNEL_CACHE:-/var/cache/coupled/kernels}
dir="$cache/armhf-coupled"
me=build_kernel.sh
tarball=/usr/src/linux-source-6.1.tar.xz
cross=arm-linux-gnueabihf-

# key: what the cached build must have been made from.
key() {
	local ver
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo none)
	{
		echo "linux-source-6.1 $ver"
		sha256sum "$here/kernel/armhf-coupled.config" \
			"$here"/kernel/patches/*.patch | sed 's|  .*/| |'
	} | sha256sum | cut -d' ' -f1
}

built() {
	[ -s "$dir/key" ] && [ "$(cat "$dir/key")" = "$(key)" ] &&
		[ -s "$dir/zImage" ] && [ -f "$dir/obj/Module.symvers" ]
}

case ${1:-} in
check)
	if built; then
		echo "$me: $dir is up to date"
		exit 0
	fi
	echo "$me: the armhf-coupled kernel is not built or out of date ($dir)"
	exit 1
	;;
build|fetch) ;;
*) sed -n '17,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

if built; then
	echo "$me: $dir is up to date"
	exit 0
fi
for t in "$tarball" "$(command -v ${cross}gcc || true)" "$(command -v flex || true)" \
	"$(command -v bison || true)" "$(command -v bc || true)" \
	"$(command -v patch || true)" "$(command -v xz || true)"; do
	if [ -z "$t" ] || [ ! -e "$t" ]; then
		echo "$me: missing linux-source-6.1, gcc-arm-linux-gnueabihf, flex, bison, bc, patch or xz" \
			"(bash tests/packages.sh install kernel_arm)" >&2
		exit 1
	fi
done

start=$(date +%s)
rm -rf "$dir"
mkdir -p "$dir"
echo "$me: unpacking $tarball"
tar -xJf "$tarball" -C "$dir"
mv "$dir/linux-source-6.1" "$dir/src"
for p in "$here"/kernel/patches/*.patch; do
	echo "$me: applying $(basename "$p")"
	patch -s -d "$dir/src" -p1 <"$p"
done
mk=(make -s -C "$dir/src" O="$dir/obj" ARCH=arm CROSS_COMPILE="$cross")
"${mk[@]}" allnoconfig
(cd "$dir/obj" && ARCH=arm "$dir/src/scripts/kconfig/merge_config.sh" -m -O . \
	.config "$here/kernel/armhf-coupled.config" >/dev/null)
"${mk[@]}" olddefconfig
# Every line of the fragment must have survived olddefconfig: a symbol
# whose dependencies are not met is dropped without a word.
missing=0
while IFS= read -r line; do
	case $line in CONFIG_*=*) ;; *) continue ;; esac
	grep -qx "$line" "$dir/obj/.config" || {
		echo "$me: $line did not survive olddefconfig" >&2
		missing=1
	}
done <"$here/kernel/armhf-coupled.config"
[ "$missing" -eq 0 ] || exit 1
grep -qx CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED=y "$dir/obj/.config" || {
	echo "$me: CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED is not set" >&2
	exit 1
}
echo "$me: building zImage and modules (-j$(nproc))"
"${mk[@]}" -j"$(nproc)" zImage modules
cp "$dir/obj/arch/arm/boot/zImage" "$dir/zImage"
key >"$dir/key"
echo "$me: built $dir in $(( $(date +%s) - start ))s"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/infra/fresh_machine.sh - README's two commands on a fresh Debian 12.
#
#   sudo bash tests/infra/fresh_machine.sh [--workdir DIR] [--keep]
#                                          [--mirror URL] [--only-demo]
#                                          [--package]
#
# Builds a minimal Debian 12 (bookworm) root with debootstrap
# --variant=minbase, adds only what README says a newcomer has (group
# "newcomer" of tests/packages.sh: git and ca-certificates), clones the
# committed HEAD of this tree into it, and runs the commands of README's
# "Two commands" section exactly as written, as root, in a chroot, in the
# clone.  Prints each command's exit status and wall time, the size of the
# root before and after, and exits non-zero if any command failed.
#
# It catches what a long-lived machine hides: a package that the tests need
# but no package list names (brought there by a Recommends, or by hand).
# Run it before changing a package list (tests/packages.sh) or a toolchain
# step; see docs/testing.md.  It is not part of .ci/run: it needs root,
# the package registry and, with the whole suite, about half an hour.
#
#   --workdir DIR   where the root goes (default: a new directory under
#                   /var/tmp; needs about 3 GiB)
#   --keep          keep the root afterwards (default: removed)
#   --mirror URL    Debian mirror (default http://deb.debian.org/debian)
#   --only-demo     run only README's first command (a quick check)
#   --package       then, after README's commands, one more step: install
#                   the package groups it needs, build the Debian package
#                   (cmake --workflow --preset package), dpkg -i it, and
#                   build the four consumers of tests/infra/
#                   installed_consumers.sh (make, cmake, freestanding,
#                   kbuild) against /usr; a skipped consumer fails the step
#
# Needs: root, debootstrap, git.  Uncommitted changes are not tested (only
# the committed HEAD is cloned); the script says so when there are some.
# shellcheck disable=SC2317  # cleanup and its helpers run from the EXIT trap
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
me="fresh_machine.sh"

die() { echo "$me: $*" >&2; exit 2; }
usage() { sed -n '4,37p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

workdir="" keep=0 mirror=http://deb.debian.org/debian only_demo=0 package=0
suite=bookworm
while (($# > 0)); do
	case $1 in
	--workdir) workdir=${2:?}; shift 2 ;;
	--keep) keep=1; shift ;;
	--mirror) mirror=${2:?}; shift 2 ;;
	--only-demo) only_demo=1; shift ;;
	--package) package=1; shift ;;
	-h | --help) usage ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done

((EUID == 0)) || die "needs root (debootstrap, mount, chroot): run it with sudo"
command -v debootstrap >/dev/null || die "needs debootstrap (apt-get install debootstrap)"
command -v git >/dev/null || die "needs git"

# --- what to run ------------------------------------------------------------

# README's commands: the code blocks of its "Two commands" section, one
# command a line, exactly as written.
mapfile -t commands < <(awk '
	/^## / { in_sec = ($0 ~ /^## Two commands/); next }
	in_sec && /^```/ { in_code = !in_code; next }
	in_sec && in_code && NF { print }
' "$repo/README.md")
((${#commands[@]} == 2)) ||
	die "README's 'Two commands' section has ${#commands[@]} commands, expected 2"
((only_demo == 0)) || commands=("${commands[0]}")
# The package step (--package): the .deb from the clone, installed, and the
# consumers of the installed package built against /usr.
# shellcheck disable=SC2016  # expanded in the root, not here
package_cmd='bash tests/packages.sh install core kernel package &&
cmake --workflow --preset package &&
dpkg -i build/package/libcoupled-dev_*_all.deb &&
for k in make cmake freestanding kbuild; do
	bash tests/infra/installed_consumers.sh "$k" /usr "/tmp/consumer-$k" || exit
done'
((package == 0)) || commands+=("$package_cmd")

head=$(git -C "$repo" rev-parse HEAD)
if [[ -n $(git -C "$repo" status --porcelain) ]]; then
	echo "$me: note: uncommitted changes in $repo are not tested"
fi
read -r -a newcomer < <(bash "$repo/tests/packages.sh" list newcomer |
	sed 's/^newcomer *//')

# --- the root ---------------------------------------------------------------

if [[ -z $workdir ]]; then
	workdir=$(mktemp -d /var/tmp/coupled-fresh.XXXXXX)
else
	mkdir -p "$workdir"
	workdir=$(cd "$workdir" && pwd)
	[[ ! -e $workdir/root ]] || die "$workdir/root exists; remove it or pick another --workdir"
fi
root=$workdir/root
log=$workdir/fresh_machine.log
mounts=()

# Everything mounted under the root, deepest first.
mounted_under_root() {
	findmnt -rn -o TARGET | awk -v r="$root" 'index($0, r "/") == 1' | sort -r
}

cleanup() {
	local rc=$? i
	set +e
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[$i]}" || umount -l "${mounts[$i]}"
	done
	if [[ -n $(mounted_under_root) ]]; then
		# Never remove a root with the host's /dev or /sys bound in it.
		echo "$me: still mounted, not removing $workdir:" >&2
		mounted_under_root >&2
	elif ((keep)); then
		echo "$me: kept the root in $root (log: $log)"
	else
		rm -rf "$root"
		echo "$me: removed the root (log kept: $log)"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mount_in() { # TYPE/--bind SOURCE TARGET-in-root [options]
	local kind=$1 src=$2 dst=$root$3
	shift 3
	mkdir -p "$dst"
	if [[ $kind == --bind ]]; then
		mount --bind "$@" "$src" "$dst"
	else
		mount -t "$kind" "$@" "$src" "$dst"
	fi
	mounts+=("$dst")
}

# MiB of the root without the project (its clone and build trees).
size_of_root() {
	du -sxm --exclude="$root/root/coupled" --exclude="$root/srv" "$root" | cut -f1
}

# seconds since $1
since() { echo $(($(date +%s) - $1)); }

exec > >(tee "$log") 2>&1

echo "$me: Debian $suite minbase + ${newcomer[*]} in $root"
echo "$me: cloning $head ($(git -C "$repo" log -1 --format=%s "$head"))"
echo "$me: host: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"

t=$(date +%s)
include=$(IFS=,; echo "${newcomer[*]}")
debootstrap --variant=minbase --include="$include" \
	"$suite" "$root" "$mirror" >"$workdir/debootstrap.log" 2>&1 ||
	{ tail -n 20 "$workdir/debootstrap.log"; die "debootstrap failed (log: $workdir/debootstrap.log)"; }
t_debootstrap=$(since "$t")

# The sources of an installed Debian 12: the release, its updates and the
# security archive (the kernel packages follow the latter two).
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb ${mirror%/debian}/debian-security $suite-security main
EOF
# No daemon that a package brings starts in the chroot (on the host).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
apt_clean() { rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*; }
apt_clean
size_before=$(size_of_root)

# The project, as a newcomer clones it: from a repository holding HEAD.
git init -q --bare "$root/srv/coupled.git"
git -C "$repo" push -q "$root/srv/coupled.git" "$head:refs/heads/main"
git -C "$root/srv/coupled.git" symbolic-ref HEAD refs/heads/main

mount_in proc proc /proc
mount_in sysfs sysfs /sys
mount_in --bind /dev /dev
mount_in --bind /dev/pts /dev/pts
mount_in tmpfs tmpfs /dev/shm -o mode=1777
cp -L /etc/resolv.conf "$root/etc/resolv.conf"

in_root() { # COMMAND: bash -c COMMAND as root in the root, clean environment
	chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "$1"
}

in_root "git clone -q /srv/coupled.git /root/coupled" || die "git clone failed in the root"

names=() statuses=() times=()
failed=0
for cmd in "${commands[@]}"; do
	echo
	echo "=== $me: \$ $cmd ==="
	t=$(date +%s)
	set +e
	in_root "cd /root/coupled && $cmd"
	rc=$?
	set -e
	if [[ $cmd == "$package_cmd" ]]; then
		names+=("package: .deb, dpkg -i, consumers")
	else
		names+=("$cmd")
	fi
	statuses+=("$rc")
	times+=("$(since "$t")")
	echo "=== $me: \$ $cmd: exit $rc in $(since "$t") s"
	((rc == 0)) || failed=1
done

# Whatever the commands installed, the package list names it all.
missing=$(in_root "bash /root/coupled/tests/packages.sh missing all" | tr '\n' ' ' || true)
apt_clean
size_after=$(size_of_root)
size_builds=$(du -sxm "$root/root/coupled" | cut -f1)

echo
echo "=== $me: summary ==="
printf '%-32s %6s %9s\n' step exit seconds
printf '%-32s %6s %9s\n' "debootstrap minbase + newcomer" 0 "$t_debootstrap"
for i in "${!names[@]}"; do
	printf '%-32s %6s %9s\n' "${names[$i]}" "${statuses[$i]}" "${times[$i]}"
done
echo "root: ${size_before} MiB before the commands, ${size_after} MiB after" \
	"($((size_after - size_before)) MiB for the packages; apt's caches emptied);" \
	"the clone with its build trees: ${size_builds} MiB"
if [[ -n $missing ]]; then
	echo "packages of tests/packages.sh not installed after the run: $missing"
	((only_demo)) || failed=1
fi
echo "$me: $( ((failed)) && echo FAILED || echo PASSED)"
exit "$failed"

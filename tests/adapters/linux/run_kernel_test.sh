#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# run_kernel_test.sh - build the Linux adapter's test modules against Debian's
# linux-headers-amd64, boot Debian's linux-image-amd64 of the same version
# under QEMU (software emulation, no KVM) with a busybox initramfs, run the
# torture module (with CPU hotplug churn), the cpuidle driver test and the
# coupled-domain test, and decide pass/fail from the serial console.
#
# Usage: run_kernel_test.sh [options]
#   --build DIR       build directory (default: a temporary directory)
#   --smp N           vCPUs (default 4)
#   --tcg MODE        single | multi: QEMU TCG threading (default single)
#   --torture ARGS    coupled_torture parameters (default "rounds=100000")
#   --idle ARGS       coupled_idle_test parameters (default "")
#   --domain ARGS     coupled_domain_test parameters (default "rounds=2000");
#                     "off": do not load it
#   --min-rounds N    fail unless the torture committed at least N rounds
#                     (default: the rounds= parameter, else 100000)
#   --min-full N      fail unless at least N of them had every CPU in them
#                     (default 0)
#   --timeout S       watchdog on the whole boot (default 240)
#   --protocol NAME   the core's variant the torture must report (default
#                     settled: the adapter's wake-ups can stay pending)
#   --expect-fail     invert: succeed only if a module printed a FAIL verdict
#                     (to show that the checks catch a broken run)
#
# Fails on: a missing package, a build warning (W=1), a missing verdict line,
# a FAIL verdict, fewer torture rounds than asked, another protocol than
# --protocol (torture and domain test), or any kernel WARNING, BUG, oops,
# panic, lockup or RCU stall in the log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)

build=""
smp=4
tcg=single
torture_args="rounds=100000"
idle_args=""
domain_args="rounds=2000"
min_rounds=""
min_full=0
timeout_s=240
protocol=settled
expect_fail=0

while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--torture) torture_args=$2; shift 2 ;;
	--idle) idle_args=$2; shift 2 ;;
	--domain) domain_args=$2; shift 2 ;;
	--min-rounds) min_rounds=$2; shift 2 ;;
	--min-full) min_full=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--protocol) protocol=$2; shift 2 ;;
	--expect-fail) expect_fail=1; shift ;;
	-h|--help) sed -n '2,31p' "$0"; exit 0 ;;
	*) echo "run_kernel_test: unknown argument: $1" >&2; exit 2 ;;
	esac
done
case "$tcg" in single|multi) ;; *) echo "run_kernel_test: --tcg single|multi" >&2; exit 2 ;; esac

die() { echo "run_kernel_test: FAIL: $*" >&2; exit 1; }

# ---- prerequisites: fail loudly, never skip silently ------------------------
missing=()
kver=""
if deps=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null); then
	kver=$(printf '%s\n' "$deps" | tr ',' '\n' |
	       sed -n 's/^ *linux-headers-\([^ ]*-amd64\).*/\1/p' | head -n1)
fi
[ -n "$kver" ] && [ -d "/usr/src/linux-headers-$kver" ] || missing+=(linux-headers-amd64)
if [ -n "$kver" ] && [ ! -e "/boot/vmlinuz-$kver" ]; then
	missing+=(linux-image-amd64)
fi
command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 || missing+=(busybox-static)
command -v cpio >/dev/null || missing+=(cpio)
command -v gzip >/dev/null || missing+=(gzip)
command -v make >/dev/null || missing+=(make)
command -v gcc >/dev/null || missing+=(gcc)
if [ ${#missing[@]} -gt 0 ]; then
	die "missing packages: ${missing[*]} (apt-get install ${missing[*]}; or: bash tests/packages.sh install kernel)"
fi
kimg="/boot/vmlinuz-$kver"
[ -r "$kimg" ] || die "$kimg is not readable (Debian installs it mode 0600: run as root)"
if [ -n "$kver" ] && ! dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null | grep -q "linux-image-$kver"; then
	die "linux-image-amd64 and linux-headers-amd64 point to different versions (headers: $kver)"
fi

if [ -z "$build" ]; then
	build=$(mktemp -d "${TMPDIR:-/tmp}/coupled-kernel.XXXXXX")
	trap 'rm -rf "$build"' EXIT
fi
mkdir -p "$build"
build=$(cd "$build" && pwd)
echo "run_kernel_test: kernel $kver, smp $smp, tcg $tcg, build $build"

# ---- modules ----------------------------------------------------------------
mod="$build/modules"
rm -rf "$mod"
mkdir -p "$mod"
cp "$here/modules/Kbuild" "$here"/modules/*.c "$mod/"
if ! make -s -C "/usr/src/linux-headers-$kver" M="$mod" COUPLED_ROOT="$root" \
	W=1 modules >"$build/kbuild.log" 2>&1; then
	cat "$build/kbuild.log" >&2
	die "module build failed"
fi
if grep -E "warning:|error:" "$build/kbuild.log"; then
	die "module build (W=1) printed warnings"
fi
echo "run_kernel_test: modules built with W=1, no warnings"

# ---- initramfs --------------------------------------------------------------
rd="$build/initramfs"
rm -rf "$rd"
mkdir -p "$rd/bin" "$rd/proc" "$rd/sys" "$rd/dev"
cp /bin/busybox "$rd/bin/busybox"
cp "$mod/coupled_torture.ko" "$mod/coupled_idle_test.ko" \
	"$mod/coupled_domain_test.ko" "$rd/"
domain_cmds=""
if [ "$domain_args" != off ]; then
	domain_cmds="insmod /coupled_domain_test.ko $domain_args || echo \"COUPLED: insmod coupled_domain_test failed\"
rmmod coupled_domain_test"
fi
cat >"$rd/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
echo "COUPLED: init on \$(nproc) CPUs"
insmod /coupled_torture.ko $torture_args || echo "COUPLED: insmod coupled_torture failed"
rmmod coupled_torture
insmod /coupled_idle_test.ko $idle_args || echo "COUPLED: insmod coupled_idle_test failed"
rmmod coupled_idle_test
$domain_cmds
echo "COUPLED: dmesg begin"
dmesg
echo "COUPLED: dmesg end"
poweroff -f
EOF
chmod +x "$rd/init"
(cd "$rd" && find . | cpio -o -H newc --quiet | gzip -1) >"$build/initramfs.cpio.gz"

# ---- boot -------------------------------------------------------------------
log="$build/serial-smp$smp-$tcg.log"
start=$(date +%s)
set +e
timeout --foreground -k 10 "$timeout_s" qemu-system-x86_64 \
	-smp "$smp" -accel "tcg,thread=$tcg" -m 256 -nographic -no-reboot \
	-kernel "$kimg" -initrd "$build/initramfs.cpio.gz" \
	-append "console=ttyS0 loglevel=4 panic=-1 mitigations=off" \
	</dev/null >"$log" 2>&1
qrc=$?
set -e
secs=$(( $(date +%s) - start ))
echo "run_kernel_test: boot took ${secs}s (qemu exit $qrc), log $log"

# ---- verdict ----------------------------------------------------------------
bad=0
report() { echo "run_kernel_test: $*"; bad=1; }
[ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ] && report "QEMU watchdog expired after ${timeout_s}s"
grep -q "COUPLED: dmesg end" "$log" || report "the init script did not finish"
tv=$(grep -a "coupled_torture: verdict" "$log" | tail -n1 | tr -d '\r' || true)
iv=$(grep -a "coupled_idle_test: verdict" "$log" | tail -n1 | tr -d '\r' || true)
[ -n "$tv" ] || report "no coupled_torture verdict"
[ -n "$iv" ] || report "no coupled_idle_test verdict"
dv=""
if [ "$domain_args" != off ]; then
	dv=$(grep -a "coupled_domain_test: verdict" "$log" | tail -n1 | tr -d '\r' || true)
	[ -n "$dv" ] || report "no coupled_domain_test verdict"
	# Its per-level counts (entries = rounds x CPUs under a node).
	grep -a "coupled_domain_test: level " "$log" | tr -d '\r' |
		sed 's/^.*\] /run_kernel_test: /' || true
fi
for v in "$tv" "$iv" "$dv"; do
	[ -z "$v" ] && continue
	echo "run_kernel_test: ${v#*] }"
	case "$v" in *"verdict PASS"*) ;; *) report "failed verdict" ;; esac
done
if [ -n "$tv" ]; then
	want=${min_rounds:-$(printf '%s\n' "$torture_args" | sed -n 's/.*rounds=\([0-9]*\).*/\1/p')}
	want=${want:-100000}
	got=$(printf '%s\n' "$tv" | sed -n 's/.* rounds=\([0-9]*\).*/\1/p')
	[ "${got:-0}" -ge "$want" ] || report "torture committed ${got:-0} rounds, fewer than $want"
	full=$(printf '%s\n' "$tv" | sed -n 's/.* full=\([0-9]*\).*/\1/p')
	[ "${full:-0}" -ge "$min_full" ] ||
		report "only ${full:-0} rounds had every CPU in them, fewer than $min_full"
	case "$tv" in
	*" protocol=$protocol "*) ;;
	*) report "the torture did not run the $protocol protocol" ;;
	esac
fi
if [ -n "$dv" ]; then
	case "$dv" in
	*" protocol=$protocol "*) ;;
	*) report "the domain test did not run the $protocol protocol" ;;
	esac
fi
if grep -a -n -E "WARNING:|BUG:|Oops|Kernel panic|general protection fault|Call Trace|soft lockup|hard LOCKUP|blocked for more than|rcu_.*stall|self-detected stall|detected stalls" "$log"; then
	report "kernel warning, BUG, oops, panic, lockup or stall in the log"
fi

if [ "$expect_fail" -eq 1 ]; then
	# Only a FAIL verdict counts: a run that broke some other way (no
	# boot, no verdict) does not show that the checks work.
	if [ "$bad" -eq 1 ] && grep -a -q "verdict FAIL" "$log"; then
		echo "run_kernel_test: PASS (a failure was expected and detected)"
		exit 0
	fi
	die "a failure was expected but everything passed"
fi
[ "$bad" -eq 0 ] || die "see $log"
echo "run_kernel_test: PASS (smp $smp, tcg $tcg, ${secs}s)"

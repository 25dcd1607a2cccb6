#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# run_kernel_test.sh - build the Linux adapter's test modules against Debian's
# kernel headers, boot Debian's kernel of the same version under QEMU
# (software emulation, no KVM) with a busybox initramfs, run the torture
# module (with CPU hotplug churn), the cpuidle driver test and the
# coupled-domain test, and decide pass/fail from the serial console.
# amd64: linux-headers-amd64 and linux-image-amd64 (installed packages),
# qemu-system-x86_64.  armhf (armmp flavour, qemu-system-arm -M virt -cpu
# cortex-a15) and arm64 (qemu-system-aarch64 -M virt -cpu cortex-a57): the
# kernel, headers and busybox that fetch_kernels.sh unpacked, modules built
# with the cross gcc-12.
#
# Usage: run_kernel_test.sh [options]
#   --arch A          amd64 (default), armhf, arm64, or armhf-coupled: the
#                     self-built armhf kernel where coupled.c runs, with
#                     KASAN and lockdep (build_kernel.sh), its modules built
#                     with the test governor (COUPLED_IDLE_GOV=1)
#   --build DIR       build directory (default: a temporary directory)
#   --smp N           vCPUs (default 4)
#   --tcg MODE        single | multi: QEMU TCG threading (default single)
#   --torture ARGS    coupled_torture parameters (default "rounds=100000");
#                     "off": do not load it
#   --idle ARGS       coupled_idle_test parameters (default ""); several
#                     runs, one after the other, separated by ";" (for
#                     example "impl=helper ...;impl=kernel ..."); "off":
#                     do not load it
#   --min-hotplug N   judge idle: fail unless every coupled_idle_test
#                     verdict counts at least N hotplug cycles (default 0)
#   --min-reregister N  judge idle: the same for the re-register cycles of
#                     impl=helper (default 0)
#   --expect-kasan FN judge idle: succeed only if a KASAN report names FN
#                     (a known kernel bug the run is meant to show); the
#                     verdicts and warnings are not judged
#   --domain ARGS     coupled_domain_test parameters (default "rounds=2000");
#                     "off": do not load it
#   --trace           require the library's trace events: each test run's
#                     event counts (hist triggers, tracefs) must match the
#                     module's own counts (commits, aborts by reason,
#                     retries, restarts, domain depths); without it they
#                     are compared only where the log has them
#   --min-rounds N    fail unless the torture committed at least N rounds
#                     (default: the rounds= parameter, else 100000)
#   --min-full N      fail unless at least N of them had every CPU in them
#                     (default 0)
#   --timeout S       watchdog on the whole boot (default 240)
#   --protocol NAME   the core's variant the torture must report (default
#                     settled: the adapter's wake-ups can stay pending)
#   --expect-fail     invert: succeed only if a module printed a FAIL verdict
#                     (to show that the checks catch a broken run)
#   --broken-torture ARGS, --broken-domain ARGS
#                     first, in the same boot, load the module with ARGS
#                     (which must include wrong_reduce=1) and unload it;
#                     its verdict must be FAIL (judged by --judge broken)
#   --boot-only       build and boot, keep the log as DIR/serial.log; fail
#                     only if the init script did not finish
#   --judge WHAT      no build or boot: judge DIR/serial.log of an earlier
#                     --boot-only run for WHAT: torture, idle, domain or
#                     broken (the --broken-* runs failed as they must), or
#                     table (print the side-by-side table of the measured
#                     coupled_idle_test runs, docs/linux.md); the log-wide
#                     checks (kernel warnings...) apply to each.
#                     A kernel without CONFIG_CPU_IDLE makes "idle" a skip
#                     (exit 77, with the reason)
#
# Fails on: a missing package, a build warning (W=1), a missing verdict line,
# a FAIL verdict, fewer torture rounds than asked, another protocol than
# --protocol (torture and domain test), or any kernel WARNING, BUG, oops,
# panic, lockup or RCU stall in the log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)

arch=amd64
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
broken_torture=""
broken_domain=""
boot_only=0
judge=all
min_hotplug=0
min_rereg=0
expect_kasan=""
need_trace=0

while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arch=$2; shift 2 ;;
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
	--broken-torture) broken_torture=$2; shift 2 ;;
	--broken-domain) broken_domain=$2; shift 2 ;;
	--boot-only) boot_only=1; shift ;;
	--judge) judge=$2; shift 2 ;;
	--min-hotplug) min_hotplug=$2; shift 2 ;;
	--min-reregister) min_rereg=$2; shift 2 ;;
	--expect-kasan) expect_kasan=$2; shift 2 ;;
	--trace) need_trace=1; shift ;;
	-h|--help) sed -n '2,68p' "$0"; exit 0 ;;
	*) echo "run_kernel_test: unknown argument: $1" >&2; exit 2 ;;
	esac
done
case "$tcg" in single|multi) ;; *) echo "run_kernel_test: --tcg single|multi" >&2; exit 2 ;; esac
case "$arch" in amd64|armhf|arm64|armhf-coupled) ;;
*) echo "run_kernel_test: --arch amd64|armhf|arm64|armhf-coupled" >&2; exit 2 ;; esac
case "$judge" in all|torture|idle|domain|broken|table) ;;
*) echo "run_kernel_test: --judge torture|idle|domain|broken|table" >&2; exit 2 ;; esac

die() { echo "run_kernel_test: FAIL: $*" >&2; exit 1; }

if [ "$judge" != all ]; then
	[ -n "$build" ] || die "--judge needs the --build of the --boot-only run"
	log="$build/serial.log"
	[ -s "$log" ] || die "no $log: the boot (--boot-only) did not run or failed"
fi

# ---- prerequisites: fail loudly, never skip silently ------------------------
missing=()
kver=""
kcache=${COUPLED_KERNEL_CACHE:-/var/cache/coupled/kernels}
make_args=()
if [ "$judge" != all ]; then
	: # judging an existing log needs nothing installed
elif [ "$arch" = amd64 ]; then
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
hdrs="/usr/src/linux-headers-$kver"
kimg="/boot/vmlinuz-$kver"
bbox=/bin/busybox
qemu=(qemu-system-x86_64 -m 256)
console=ttyS0
elif [ "$arch" = armhf-coupled ]; then
	# The self-built kernel (build_kernel.sh, which "tests/packages.sh
	# install kernel_arm" runs); busybox from Debian's armhf.
	cross=arm-linux-gnueabihf- karch=arm
	qemu=(qemu-system-arm -M virt,highmem=off -cpu cortex-a15 -m 512)
	console=ttyAMA0
	bash "$here/build_kernel.sh" check >/dev/null ||
		missing+=("armhf-coupled-kernel(build_kernel.sh)")
	bash "$here/fetch_kernels.sh" check armhf >/dev/null ||
		missing+=("armhf-kernel(fetch_kernels.sh)")
	kver=$(cat "$kcache/armhf-coupled/obj/include/config/kernel.release" 2>/dev/null || echo unknown)
	hdrs="$kcache/armhf-coupled/obj"
	kimg="$kcache/armhf-coupled/zImage"
	bbox="$kcache/armhf/busybox"
	command -v "${cross}gcc-12" >/dev/null || missing+=("gcc-${cross%-}")
	command -v "${qemu[0]}" >/dev/null || missing+=(qemu-system-arm)
	make_args=(ARCH="$karch" CROSS_COMPILE="$cross" COUPLED_IDLE_GOV=1)
else
	case $arch in
	armhf) cross=arm-linux-gnueabihf- karch=arm
	       qemu=(qemu-system-arm -M virt,highmem=off -cpu cortex-a15 -m 256) ;;
	arm64) cross=aarch64-linux-gnu- karch=arm64
	       qemu=(qemu-system-aarch64 -M virt -cpu cortex-a57 -m 256) ;;
	esac
	console=ttyAMA0
	# The kernel, its headers and busybox of $arch: fetch_kernels.sh,
	# which "tests/packages.sh install kernel_arm" runs.
	if [ -s "$kcache/$arch/kver" ] &&
		bash "$here/fetch_kernels.sh" check "$arch" >/dev/null; then
		kver=$(cat "$kcache/$arch/kver")
	else
		missing+=("$arch-kernel(fetch_kernels.sh)")
	fi
	hdrs="$kcache/$arch/root/usr/src/linux-headers-$kver"
	kimg="$kcache/$arch/vmlinuz"
	bbox="$kcache/$arch/busybox"
	command -v "${cross}gcc-12" >/dev/null || missing+=("gcc-${cross%-}")
	command -v "${qemu[0]}" >/dev/null || missing+=(qemu-system-arm)
	[ -d /usr/lib/linux-kbuild-6.1 ] || missing+=(linux-kbuild-6.1)
	make_args=(ARCH="$karch" CROSS_COMPILE="$cross")
fi
if [ "$judge" = all ]; then
command -v cpio >/dev/null || missing+=(cpio)
command -v gzip >/dev/null || missing+=(gzip)
command -v make >/dev/null || missing+=(make)
command -v gcc >/dev/null || missing+=(gcc)
group=kernel
[ "$arch" = amd64 ] || group=kernel_arm
if [ ${#missing[@]} -gt 0 ]; then
	die "missing packages: ${missing[*]} (bash tests/packages.sh install $group)"
fi
[ -r "$kimg" ] || die "$kimg is not readable (Debian installs it mode 0600: run as root)"
if [ "$arch" = amd64 ] && [ -n "$kver" ] && ! dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null | grep -q "linux-image-$kver"; then
	die "linux-image-amd64 and linux-headers-amd64 point to different versions (headers: $kver)"
fi
fi

if [ "$judge" = all ]; then
if [ -z "$build" ]; then
	build=$(mktemp -d "${TMPDIR:-/tmp}/coupled-kernel.XXXXXX")
	trap 'rm -rf "$build"' EXIT
fi
mkdir -p "$build"
build=$(cd "$build" && pwd)
echo "run_kernel_test: $arch kernel $kver, smp $smp, tcg $tcg, build $build"

# ---- modules ----------------------------------------------------------------
mod="$build/modules"
rm -rf "$mod"
mkdir -p "$mod"
cp "$here/modules/Kbuild" "$here"/modules/*.c "$mod/"
kb_start=$(date +%s)
if ! make -s -C "$hdrs" M="$mod" COUPLED_ROOT="$root" "${make_args[@]}" \
	W=1 modules >"$build/kbuild.log" 2>&1; then
	cat "$build/kbuild.log" >&2
	die "module build failed"
fi
if grep -E "warning:|error:" "$build/kbuild.log"; then
	die "module build (W=1) printed warnings"
fi
echo "run_kernel_test: modules built with W=1, no warnings ($(( $(date +%s) - kb_start ))s)"

# ---- initramfs --------------------------------------------------------------
rd="$build/initramfs"
rm -rf "$rd"
mkdir -p "$rd/bin" "$rd/proc" "$rd/sys" "$rd/dev"
cp "$bbox" "$rd/bin/busybox"
cp "$mod/coupled_torture.ko" "$mod/coupled_idle_test.ko" \
	"$mod/coupled_domain_test.ko" "$mod/coupled_trace.ko" "$rd/"
gov_cmds=""
if [ -f "$mod/coupled_idle_gov.ko" ]; then
	cp "$mod/coupled_idle_gov.ko" "$rd/"
	gov_cmds="insmod /coupled_idle_gov.ko || echo \"COUPLED: insmod coupled_idle_gov failed\""
fi
torture_cmds=""
if [ "$torture_args" != off ]; then
	torture_cmds="trace_on
insmod /coupled_torture.ko $torture_args || echo \"COUPLED: insmod coupled_torture failed\"
trace_show torture
rmmod coupled_torture"
fi
# Each run of coupled_idle_test; impl=kernel pins the module (its driver
# stays registered), so its rmmod fails, which is expected.
idle_cmds=""
if [ "$idle_args" != off ]; then
	IFS=';' read -r -a idle_runs <<<"$idle_args"
	[ ${#idle_runs[@]} -gt 0 ] || idle_runs=("")
	for a in "${idle_runs[@]}"; do
		idle_cmds="$idle_cmds
trace_on
insmod /coupled_idle_test.ko $a || echo \"COUPLED: insmod coupled_idle_test failed\"
trace_show idle
rmmod coupled_idle_test 2>/dev/null || echo \"COUPLED: coupled_idle_test stays loaded\""
	done
fi
broken_cmds=""
if [ -n "$broken_torture" ]; then
	broken_cmds="insmod /coupled_torture.ko $broken_torture || echo \"COUPLED: insmod coupled_torture failed\"
rmmod coupled_torture"
fi
if [ -n "$broken_domain" ]; then
	broken_cmds="$broken_cmds
insmod /coupled_domain_test.ko $broken_domain || echo \"COUPLED: insmod coupled_domain_test failed\"
rmmod coupled_domain_test"
fi
domain_cmds=""
if [ "$domain_args" != off ]; then
	domain_cmds="trace_on
insmod /coupled_domain_test.ko $domain_args || echo \"COUPLED: insmod coupled_domain_test failed\"
trace_show domain
rmmod coupled_domain_test"
fi
cat >"$rd/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
echo "COUPLED: init on \$(nproc) CPUs"
# The library's trace events: coupled_trace.ko creates them; around each
# test run a hist trigger per LABEL:EVENT:KEY counts them, and the counts
# are printed, labelled, for the judge to compare with the module's own
# (commits are keyed by the time from the call's start to its commit, the
# histogram of docs/linux.md).  Kernels without tracefs print "trace off".
T=/sys/kernel/tracing
EV="commit:commit:wait_ns.log2 abort:abort:reason retry:retry:id
restart:restart:id join:join:id leave:leave:id domain:domain:depth"
insmod /coupled_trace.ko || echo "COUPLED: insmod coupled_trace failed"
TR=0
if mount -t tracefs nodev \$T 2>/dev/null && [ -d \$T/events/coupled ]; then
	TR=1
else
	echo "COUPLED: trace off (no tracefs or no coupled events)"
fi
trace_on() {
	[ \$TR = 1 ] || return 0
	for e in \$EV; do
		k=\${e#*:}
		echo "hist:keys=\${k#*:}" >\$T/events/coupled/coupled_\${k%%:*}/trigger
	done
}
trace_show() {
	[ \$TR = 1 ] || return 0
	for e in \$EV; do
		k=\${e#*:}
		f=\$T/events/coupled/coupled_\${k%%:*}
		grep -E "^\\{|Hits:" \$f/hist | tr -s ' ' |
			sed "s/^ */COUPLED: trace \$1 \${e%%:*} /"
		echo "!hist:keys=\${k#*:}" >\$f/trigger
	done
}
$broken_cmds
$torture_cmds
$gov_cmds
$idle_cmds
$domain_cmds
echo "COUPLED: dmesg begin"
dmesg
echo "COUPLED: dmesg end"
poweroff -f
EOF
chmod +x "$rd/init"
(cd "$rd" && find . | cpio -o -H newc --quiet | gzip -1) >"$build/initramfs.cpio.gz"

# ---- boot -------------------------------------------------------------------
log="$build/serial.log"
rm -f "$log"
start=$(date +%s)
set +e
timeout --foreground -k 10 "$timeout_s" "${qemu[@]}" \
	-smp "$smp" -accel "tcg,thread=$tcg" -nographic -no-reboot \
	-kernel "$kimg" -initrd "$build/initramfs.cpio.gz" \
	-append "console=$console loglevel=4 panic=-1 mitigations=off" \
	</dev/null >"$log" 2>&1
qrc=$?
set -e
secs=$(( $(date +%s) - start ))
echo "run_kernel_test: boot took ${secs}s (qemu exit $qrc), log $log"
if [ "$boot_only" -eq 1 ]; then
	grep -q "COUPLED: dmesg end" "$log" ||
		die "the init script did not finish (qemu exit $qrc; see $log)"
	grep -a "COUPLED: init on\|verdict" "$log" | tr -d '\r' |
		sed 's/^.*\] /run_kernel_test: /'
	echo "run_kernel_test: booted $arch $kver, smp $smp, tcg $tcg, ${secs}s"
	exit 0
fi
fi # judge = all
qrc=${qrc:-0}
secs=${secs:-0}

# ---- verdict ----------------------------------------------------------------
# The verdicts of the deliberately broken runs (--broken-*) end in
# "(wrong_reduce)"; the others do not.
bad=0
skip=""
report() { echo "run_kernel_test: $*"; bad=1; }
want_t=0 want_i=0 want_d=0 want_b=0
case $judge in
all) want_t=1 want_i=1; [ "$domain_args" != off ] && want_d=1
     [ "$torture_args" != off ] || want_t=0
     [ "$idle_args" != off ] || want_i=0 ;;
torture) want_t=1 ;;
idle) want_i=1 ;;
domain) want_d=1 ;;
broken) want_b=1 ;;
esac
[ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ] && report "QEMU watchdog expired after ${timeout_s}s"
grep -q "COUPLED: dmesg end" "$log" || report "the init script did not finish"
verdict() { grep -a "$1: verdict" "$log" | grep -a -v "(wrong_reduce)" | tail -n1 | tr -d '\r' || true; }
tv="" dv=""
[ "$want_t" -eq 1 ] && { tv=$(verdict coupled_torture); [ -n "$tv" ] || report "no coupled_torture verdict"; }
# kasan_lockdep FROM TO: "kasan=N lockdep=N", the reports between two
# lines of the log (KASAN reports; lockdep splats and the checks that come
# with it: sleeping in atomic context, suspicious RCU usage).
lockdep_re='possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|bad unlock balance|held lock freed|lock held when returning|DEBUG_LOCKS_WARN_ON|BUG: sleeping function called from invalid context|BUG: scheduling while atomic|BUG: Invalid wait context|WARNING: .*(lock_acquire|lock_release|lockdep)'
kasan_lockdep() {
	local k l
	k=$(sed -n "${1},${2}p" "$log" | grep -a -c "BUG: KASAN:" || true)
	l=$(sed -n "${1},${2}p" "$log" | grep -a -c -E "$lockdep_re" || true)
	echo "kasan=$k lockdep=$l"
}
if [ "$judge" = table ]; then
	# The measured runs of coupled_idle_test, one row per implementation.
	echo "| implementation | coupled entries/s | safe-state entries per coupled entry | IPIs per coupled entry | last CPU idle to coupled entry, median | p99 | hotplug cycles | re-register cycles | KASAN, lockdep |"
	echo "|---|---|---|---|---|---|---|---|---|"
	grep -a "coupled_idle_test: measure impl=" "$log" | tr -d '\r' |
	while IFS= read -r m; do
		im=$(sed -n 's/.* impl=\([a-z]*\) .*/\1/p' <<<"$m")
		v=$(grep -a "coupled_idle_test: verdict .* impl=$im " "$log" | grep -a -v "(wrong_reduce)" | tail -n1 | tr -d '\r')
		f() { sed -n "s/.* $1=\([-0-9]*\).*/\1/p" <<<"$2"; }
		ms=$(f ms "$m") e=$(f entries "$m") sf=$(f safe "$m") ip=$(f ipis "$m")
		med=$(f latency_median_ns "$m") p99=$(f latency_p99_ns "$m")
		from=$(grep -a -n "coupled_idle_test: start impl=$im" "$log" | head -n1 | cut -d: -f1)
		to=$(grep -a -n "coupled_idle_test: verdict .* impl=$im " "$log" | tail -n1 | cut -d: -f1)
		kl=$(kasan_lockdep "${from:-1}" "${to:-\$}")
		awk -v im="$im" -v ms="$ms" -v e="$e" -v sf="$sf" -v ip="$ip" \
			-v med="$med" -v p99="$p99" -v hp="$(f hotplug "$v")" \
			-v rr="$(f reregister "$v")" -v kl="$kl" 'BEGIN {
			printf "| %s | %.0f | %.2f | %.2f | %.1f us | %.1f us | %s | %s | %s |\n",
				im, e * 1000 / ms, sf / e, ip / e, med / 1000, p99 / 1000,
				hp, rr, kl }'
	done
	exit 0
fi
if [ "$want_i" -eq 1 ] && [ -n "$expect_kasan" ]; then
	# A run meant to show a known kernel bug: only its KASAN report counts.
	if grep -a -q "BUG: KASAN: .* in $expect_kasan" "$log"; then
		n=$(grep -a -n "BUG: KASAN: .* in $expect_kasan" "$log" | head -n1 | cut -d: -f1)
		sed -n "${n},$((n + 12))p" "$log" | tr -d '\r' | sed 's/^/run_kernel_test: | /'
		echo "run_kernel_test: PASS (the expected KASAN report in $expect_kasan)"
		exit 0
	fi
	die "no KASAN report in $expect_kasan (see $log)"
fi
if [ "$want_i" -eq 1 ]; then
	ivs=$(grep -a "coupled_idle_test: verdict" "$log" | grep -a -v "(wrong_reduce)" | tr -d '\r' || true)
	[ -n "$ivs" ] || report "no coupled_idle_test verdict"
	grep -a "coupled_idle_test: .*cpu[0-9]\|coupled_idle_test: measure\|coupled_idle_test: impl=.*hotplug" "$log" | tr -d '\r' |
		sed 's/^.*\] /run_kernel_test: /' || true
	while IFS= read -r v; do
		[ -n "$v" ] || continue
		im=$(sed -n 's/.* impl=\([a-z]*\) .*/\1/p' <<<"$v")
		from=$(grep -a -n "coupled_idle_test: start impl=$im" "$log" | head -n1 | cut -d: -f1)
		to=$(grep -a -n -F "$v" "$log" | head -n1 | cut -d: -f1)
		kl=$(kasan_lockdep "${from:-1}" "${to:-\$}")
		echo "run_kernel_test: ${v#*] } $kl"
		case "$v" in
		*"verdict PASS"*) ;;
		*"verdict SKIP"*) skip=${v#*verdict SKIP} ;;
		*) report "failed verdict (impl=$im)" ;;
		esac
		[ "$kl" = "kasan=0 lockdep=0" ] || report "impl=$im: $kl"
		hp=$(sed -n 's/.* hotplug=\([0-9]*\).*/\1/p' <<<"$v")
		[ -z "$hp" ] || [ "$hp" -ge "$min_hotplug" ] ||
			report "impl=$im: $hp hotplug cycles, fewer than $min_hotplug"
		rr=$(sed -n 's/.* reregister=\([0-9]*\).*/\1/p' <<<"$v")
		if [ "$im" = helper ] && [ -n "$rr" ] && [ "$rr" -lt "$min_rereg" ]; then
			report "impl=helper: $rr re-register cycles, fewer than $min_rereg"
		fi
	done <<<"$ivs"
	if [ "$arch" = armhf-coupled ]; then
		# kasan=0 lockdep=0 mean something only if both were on.
		grep -a -q -i "kernel *address *sanitizer initialized" "$log" || report "KASAN was not on"
		grep -a -q "Lock dependency validator" "$log" || report "lockdep was not on"
	fi
fi
if [ "$want_d" -eq 1 ]; then
	dv=$(verdict coupled_domain_test)
	[ -n "$dv" ] || report "no coupled_domain_test verdict"
	# Its per-level counts (entries = rounds x CPUs under a node).
	grep -a "coupled_domain_test: level " "$log" | tr -d '\r' |
		sed 's/^.*\] /run_kernel_test: /' | tail -n 3 || true
fi
for v in "$tv" "$dv"; do
	[ -z "$v" ] && continue
	echo "run_kernel_test: ${v#*] }"
	case "$v" in
	*"verdict PASS"*) ;;
	*"verdict SKIP"*) skip=${v#*verdict SKIP} ;;
	*) report "failed verdict" ;;
	esac
done
if [ "$want_b" -eq 1 ]; then
	# Every broken run that was loaded must have been caught.
	nb=0
	for m in coupled_torture coupled_domain_test; do
		bv=$(grep -a "$m: verdict" "$log" | grep -a "(wrong_reduce)" | tail -n1 | tr -d '\r' || true)
		[ -n "$bv" ] || continue
		nb=$((nb + 1))
		echo "run_kernel_test: ${bv#*] }"
		case "$bv" in
		*"verdict FAIL"*" errors=0 "*) report "$m: FAIL without errors" ;;
		*"verdict FAIL"*) ;;
		*) report "$m: a wrong reduction was not caught" ;;
		esac
	done
	[ "$nb" -gt 0 ] || report "no verdict of a broken run (--broken-torture, --broken-domain)"
fi
# trace_judge TEST: compare the trace event counts the init script printed
# for TEST (torture, idle, domain) with that module's own counts.
trace_judge() {
	local t=$1 msg
	if ! grep -a -q "COUPLED: trace $t commit Hits:" "$log"; then
		if [ "$need_trace" -eq 1 ]; then
			report "no trace event counts for $t (--trace)"
		fi
		return 0
	fi
	msg=$(tr -d '\r' <"$log" | awk -v t="$t" '
	function hits(ev) { return (t SUBSEP ev) in H ? H[t, ev] : 0 }
	function key(ev, k) { return (t SUBSEP ev SUBSEP k) in K ? K[t, ev, k] : 0 }
	function val(line, f,   m) {
		if (match(line, " " f "=[0-9]+")) {
			m = substr(line, RSTART + length(f) + 2, RLENGTH - length(f) - 2)
			return m + 0
		}
		return -1
	}
	/COUPLED: trace / {
		sub(/.*COUPLED: trace /, "")
		if ($3 == "Hits:") H[$1, $2] = $4
		else if ($3 == "{") K[$1, $2, $5] = $8
		next
	}
	/coupled_torture: cpu[0-9]+ calls=/ {
		c += val($0, "commits"); w += val($0, "work")
		m += val($0, "membership"); a += val($0, "caller"); next
	}
	/coupled_torture: verdict/ {
		if ($0 !~ /wrong_reduce/) {
			tc = c; tw = w; tm = m; ta = a
			tr = val($0, "retries"); ts = val($0, "restarts")
		}
		c = w = m = a = 0; next
	}
	/coupled_idle_test: .*cpu[0-9]+ SAFE=/ { ic += val($0, "committed"); next }
	/coupled_idle_test: impl=helper cpu[0-9]+ fallbacks=/ {
		sub(/aborts\(/, "aborts( ")
		iw += val($0, "work"); im += val($0, "membership"); next
	}
	/coupled_domain_test: level [0-9]+ / {
		split($0, f, "level "); split(f[2], g, " ")
		L[g[1] + 0] = val($0, "entries"); nl = g[1] + 1; next
	}
	END {
		bad = ""
		if (t == "torture") {
			if (hits("commit") != tc) bad = bad " commit " hits("commit") "!=" tc
			if (key("abort", 1) != tw) bad = bad " abort(work) " key("abort", 1) "!=" tw
			if (key("abort", 2) != tm) bad = bad " abort(membership) " key("abort", 2) "!=" tm
			if (key("abort", 3) != ta) bad = bad " abort(caller) " key("abort", 3) "!=" ta
			if (hits("retry") != tr) bad = bad " retry " hits("retry") "!=" tr
			if (hits("restart") != ts) bad = bad " restart " hits("restart") "!=" ts
			sum = "commit=" tc " abort=" tw "/" tm "/" ta " retry=" tr " restart=" ts
		} else if (t == "idle") {
			if (hits("commit") != ic) bad = bad " commit " hits("commit") "!=" ic
			if (key("abort", 1) != iw) bad = bad " abort(work) " key("abort", 1) "!=" iw
			if (key("abort", 2) != im) bad = bad " abort(membership) " key("abort", 2) "!=" im
			sum = "commit=" ic " abort=" iw "/" im
		} else {
			sum = "domain"
			for (l = 0; l < nl; l++) {
				n = 0
				for (k in K) {
					split(k, p, SUBSEP)
					if (p[1] == t && p[2] == "domain" && p[3] + 0 > l) n += K[k]
				}
				if (n != L[l]) bad = bad " depth>" l " " n "!=" L[l]
				sum = sum " depth>" l "=" n
			}
		}
		print (bad == "" ? "ok " sum : "MISMATCH" bad)
	}')
	case $msg in
	ok*) echo "run_kernel_test: trace $t: the events match the module's counts (${msg#ok })" ;;
	*) report "trace $t: events and the module's counts differ:${msg#MISMATCH}" ;;
	esac
}
[ -n "$tv" ] && trace_judge torture
[ -n "$dv" ] && trace_judge domain
if [ "$want_i" -eq 1 ] && [ "$(grep -a -c "coupled_idle_test: start impl=" "$log")" -le 1 ]; then
	trace_judge idle
fi
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
if grep -a -n -E "WARNING:|BUG:|Oops|Kernel panic|general protection fault|Call Trace|Internal error|Unable to handle kernel|soft lockup|hard LOCKUP|blocked for more than|rcu_.*stall|self-detected stall|detected stalls" "$log"; then
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
if [ -n "$skip" ] && [ "$judge" = idle ]; then
	echo "run_kernel_test: SKIP:$skip"
	exit 77
fi
if [ "$judge" = all ]; then
	echo "run_kernel_test: PASS ($arch, smp $smp, tcg $tcg, ${secs}s)"
else
	echo "run_kernel_test: PASS ($judge, log $log)"
fi

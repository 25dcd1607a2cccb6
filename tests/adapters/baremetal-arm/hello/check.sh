#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/adapters/baremetal-arm/hello/check.sh - build and run the board smoke test matrix.
#
#   check.sh OUTDIR [--cc gcc|clang] [--quick]
#
# Positive runs must print "hello: PASS" and exit 0; the negative runs
# (wrong PSCI conduit, LSE image on a core without LSE) must report an
# unexpected exception and exit with the BSP's fatal status 2 instead of
# hanging.  --quick: only the 4-core single-threaded runs and one negative.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
arm=$(cd "$here/.." && pwd)
out=${1:?usage: check.sh OUTDIR [--cc gcc|clang] [--quick]}
shift
cc=gcc quick=0
while [ $# -gt 0 ]; do
	case "$1" in
	--cc) cc=${2:?}; shift 2 ;;
	--quick) quick=1; shift ;;
	*) echo "check.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done

fails=0 runs=0
build() { # name arch [build options...]
	local name=$1 arch=$2; shift 2
	"$arm/build_image.sh" --arch "$arch" --cc "$cc" --out "$out/$name.elf" "$@" \
		"$here/hello.c" >/dev/null || { echo "check.sh: FAIL build $name"; fails=$((fails + 1)); return 1; }
}
run() { # name arch cpu smp accel [run options...]
	local name=$1 arch=$2 cpu=$3 smp=$4 accel=$5; shift 5
	runs=$((runs + 1))
	if "$arm/run_qemu.sh" --arch "$arch" --cpu "$cpu" --smp "$smp" --accel "$accel" \
		--timeout 60 "$@" "$out/$name.elf" >"$out/$name-$cpu-$smp-$accel.out" 2>&1; then
		tail -n 1 "$out/$name-$cpu-$smp-$accel.out"
	else
		cat "$out/$name-$cpu-$smp-$accel.out"
		fails=$((fails + 1))
	fi
}
neg=(--expect 'board: unexpected exception' --expect-status 2)

build v7 armv7 && run v7 armv7 cortex-a15 4 single
build a64 aarch64 && run a64 aarch64 cortex-a53 4 single
build a64-lse aarch64 --lse && run a64-lse aarch64 cortex-a76 4 single
build v7-smc armv7 -DBOARD_PSCI_CONDUIT_SMC && run v7-smc armv7 cortex-a15 4 single "${neg[@]}"
if [ "$quick" = 0 ]; then
	build a64-smc aarch64 -DBOARD_PSCI_CONDUIT_SMC && run a64-smc aarch64 cortex-a53 4 single "${neg[@]}"
	run a64-lse aarch64 cortex-a53 4 single "${neg[@]}"
	run a64-lse aarch64 max 4 single
	build v7-mmu armv7 --mmu && run v7-mmu armv7 cortex-a15 4 single
	build a64-mmu aarch64 --mmu && run a64-mmu aarch64 cortex-a53 4 single
	build a64-lse-mmu aarch64 --lse --mmu && run a64-lse-mmu aarch64 cortex-a76 4 single
	build v7-2 armv7 -DEXPECT_CPUS=2 && run v7-2 armv7 cortex-a15 2 multi
	build a64-2 aarch64 -DEXPECT_CPUS=2 && run a64-2 aarch64 cortex-a53 2 multi
	build a64-lse-2 aarch64 --lse -DEXPECT_CPUS=2 && run a64-lse-2 aarch64 cortex-a76 2 multi
	build a64-mmu-2 aarch64 --mmu -DEXPECT_CPUS=2 && run a64-mmu-2 aarch64 cortex-a53 2 multi
	build v7-mmu-2 armv7 --mmu -DEXPECT_CPUS=2 && run v7-mmu-2 armv7 cortex-a15 2 multi
fi
echo "check.sh: $runs runs, $fails failures ($cc)"
[ "$fails" = 0 ]

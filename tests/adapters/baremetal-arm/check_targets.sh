#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR GPL-2.0-only
#
# tests/adapters/baremetal-arm/check_targets.sh - the bare-metal ARM adapter compiles for every
# target it claims, with -std=c11 -Wall -Wextra -Werror -pedantic, under gcc
# and clang, freestanding, and needs nothing from outside:
#
#   ARMv7-A (ARM and Thumb), AArch64, AArch64 with LSE, ARMv7-M (Cortex-M3,
#   Cortex-M4), ARMv8-M Mainline (Cortex-M33)
#
# For each it compiles a translation unit using every public call of the
# core and the adapter, twice: as shipped (both wait strategies: the settled
# protocol) and with -DCOUPLED_ARM_WFE_ONLY=1 (the direct protocol; the
# unit asserts at compile time which protocol each build got); then checks with nm that the object has no undefined
# symbol (no libatomic or libc helper), and with objdump that the atomics are
# the ones the target should use: exclusives (LDREX/STREX, LDAXR/STLXR) or,
# for the LSE build, LSE instructions (LDADD, CAS, SWP).
#
# Like the images (build_image.sh), it compiles with -nostdinc and the
# compiler's own include directory only (freestanding.sh), so a C library
# installed on the build machine cannot make it pass.  For each compiler
# it also checks that the translation unit read no header from outside
# the project and that directory, and that <stdio.h> is not reachable.
#
# Exit status: 0 all passed, 1 any failure (a missing compiler is a failure:
# tests/packages.sh, group arm, lists gcc-arm-none-eabi, gcc-aarch64-linux-gnu
# and clang).
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
# shellcheck source=tests/adapters/baremetal-arm/freestanding.sh
. tests/adapters/baremetal-arm/freestanding.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/use.c" <<'C'
#include "coupled/coupled.h"

#if COUPLED_ARM_WFE_ONLY
_Static_assert(!COUPLED_PROTOCOL_SETTLED, "WFE only: the direct protocol");
#else
_Static_assert(COUPLED_PROTOCOL_SETTLED, "WFI in the build: settled");
#endif

static struct coupled_group g;
static struct coupled_slot s[4];

static bool work(void *arg, uint32_t self) { (void)arg; return self == 99u; }
static void send(void *arg, uint32_t target) { (void)arg; (void)target; }
static void action(const struct coupled_round *r, void *ctx)
{
	(void)ctx;
	if (coupled_vote(r, false) == 0)
		(void)coupled_barrier(r);
}

int use(uint32_t self, int sgi);
int use(uint32_t self, int sgi)
{
	struct coupled_adapter_group *ag;
	struct coupled_arm_ipi ipi = { 0 };
	struct coupled_abort_opts o = { 0, 0, 0 };

	if (coupled_group_init(&g, s, 4, 4, coupled_reduce_max) != 0)
		return -1;
	ag = coupled_group_adapter(&g);
	(void)coupled_arm_set_work_hook(ag, work, 0);
	if (sgi) {
		ipi.send = sgi > 1 ? send : 0;
		ipi.gicd_base = 0x08000000u;
		ipi.sgi_id = 1u;
		(void)coupled_arm_set_wfi_sgi(ag, &ipi);
		(void)coupled_arm_set_gic_target(
			coupled_participant_adapter(&g, self), self);
	} else {
		(void)coupled_arm_set_wfe(ag);
	}
	o.deadline = coupled_adapter_now(ag) + 1000u;
	(void)coupled_enter_opts(&g, self, 1, action, 0, &o);
	(void)coupled_leave(&g, 3);
	(void)coupled_join(&g, 3);
	return coupled_enter(&g, self, 2, action, 0);
}
C

flags=(-std=c11 -Wall -Wextra -Werror -pedantic -ffreestanding -O2
	-Iinclude -Iadapters/baremetal-arm/include -DCOUPLED_ADAPTER_BAREMETAL_ARM -c)

# name | gcc driver and flags | clang flags | expected atomics (egrep)
targets=(
	"armv7-a-arm|arm-none-eabi-gcc -march=armv7-a -marm|--target=armv7a-none-eabi -marm|ldrex|strex"
	"armv7-a-thumb|arm-none-eabi-gcc -march=armv7-a -mthumb|--target=armv7a-none-eabi -mthumb|ldrex|strex"
	"aarch64|aarch64-linux-gnu-gcc -march=armv8-a -mno-outline-atomics -mstrict-align|--target=aarch64-none-elf -march=armv8-a -mstrict-align|ld[a]?xr|st[l]?xr"
	"aarch64-lse|aarch64-linux-gnu-gcc -march=armv8.1-a -mno-outline-atomics -mstrict-align|--target=aarch64-none-elf -march=armv8.1-a -mstrict-align|ldadd|cas|swp"
	"armv7-m-cortex-m3|arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb|--target=thumbv7m-none-eabi -mcpu=cortex-m3|ldrex|strex"
	"armv7e-m-cortex-m4|arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb|--target=thumbv7em-none-eabi -mcpu=cortex-m4|ldrex|strex"
	"armv8-m.main-cortex-m33|arm-none-eabi-gcc -mcpu=cortex-m33 -mthumb|--target=thumbv8m.main-none-eabi -mcpu=cortex-m33|ldaex|stlex|ldrex"
)

failed=0
checks=0
check_object() { # name obj objdump nm pattern
	local name=$1 obj=$2 objdump=$3 nm=$4 pattern=$5 undef
	undef=$($nm -u "$obj")
	if [[ -n $undef ]]; then
		echo "FAIL $name: undefined symbols: $(echo $undef)"
		return 1
	fi
	# Into a file first: grep -q would close the pipe early (pipefail).
	$objdump -d "$obj" >"$obj.dis"
	if ! grep -qE "[[:space:]]($pattern)[a-z.]*[[:space:]]" "$obj.dis"; then
		echo "FAIL $name: no $pattern instruction in the object"
		return 1
	fi
	return 0
}

# check_no_libc NAME TARGET_FLAGS...: with FREESTANDING_INCS (for the
# compiler of cmd[0]), use.c reads headers only from the project and the
# compiler's own directory, and <stdio.h> is not found.
check_no_libc() {
	local name=$1 own=$FREESTANDING_DIR dep
	shift
	checks=$((checks + 1))
	if ! "${cmd[0]}" "$@" "${FREESTANDING_INCS[@]}" "${flags[@]}" -M \
		"$tmp/use.c" -o "$tmp/deps" 2>"$tmp/err"; then
		echo "FAIL $name: header list:"
		cat "$tmp/err"
		return 1
	fi
	for dep in $(sed 's/\\$//; s/^[^:]*://' "$tmp/deps"); do
		dep=$(realpath -m "$dep")
		case $dep in
		"$tmp"/* | "$PWD"/include/* | "$PWD"/adapters/baremetal-arm/include/*) ;;
		"$(realpath -m "$own")"/*) ;;
		*)
			echo "FAIL $name: reads $dep (outside the project and $own)"
			return 1
			;;
		esac
	done
	printf '#include <stdio.h>\n' >"$tmp/libc.c"
	if "${cmd[0]}" "$@" "${FREESTANDING_INCS[@]}" "${flags[@]}" \
		"$tmp/libc.c" -o "$tmp/libc.o" 2>"$tmp/err"; then
		echo "FAIL $name: <stdio.h> is reachable (a C library leaks in)"
		return 1
	fi
	if ! grep -q 'stdio.h.*not found\|stdio.h: No such file' "$tmp/err"; then
		echo "FAIL $name: <stdio.h> failed for another reason:"
		cat "$tmp/err"
		return 1
	fi
	echo "ok   $name: own headers only, no <stdio.h>"
}

for t in "${targets[@]}"; do
	# The last field takes the rest of the line, '|' included.
	IFS='|' read -r name gcc_cmd clang_flags pattern <<<"$t"
	read -r -a gcc_argv <<<"$gcc_cmd"
	read -r -a clang_argv <<<"$clang_flags"
	tool=${gcc_argv[0]%-gcc}
	for cc in gcc clang; do
		obj="$tmp/$name-$cc.o"
		checks=$((checks + 1))
		if [[ $cc == gcc ]]; then
			cmd=("${gcc_argv[@]}" "${flags[@]}" "$tmp/use.c" -o "$obj")
		else
			cmd=(clang "${clang_argv[@]}" "${flags[@]}" "$tmp/use.c" -o "$obj")
		fi
		if ! command -v "${cmd[0]}" >/dev/null 2>&1; then
			echo "FAIL $name/$cc: ${cmd[0]} not found"
			failed=1
			continue
		fi
		if ! freestanding_incs "${cmd[0]}"; then
			echo "FAIL $name/$cc: no own include directory"
			failed=1
			continue
		fi
		cmd=("${cmd[0]}" "${FREESTANDING_INCS[@]}" "${cmd[@]:1}")
		if [[ $cc == clang ]]; then
			check_no_libc "$name/$cc" "${clang_argv[@]}" || failed=1
		else
			check_no_libc "$name/$cc" "${gcc_argv[@]:1}" || failed=1
		fi
		if ! "${cmd[@]}" 2>"$tmp/err"; then
			echo "FAIL $name/$cc: does not compile:"
			cat "$tmp/err"
			failed=1
			continue
		fi
		if check_object "$name/$cc" "$obj" "$tool-objdump" "$tool-nm" "$pattern"; then
			echo "ok   $name/$cc ($pattern)"
		else
			failed=1
		fi
		# The WFE-only build: the same checks, the direct protocol.
		checks=$((checks + 1))
		obj="$tmp/$name-$cc-wfe-only.o"
		if ! "${cmd[@]:0:${#cmd[@]}-1}" "$obj" -DCOUPLED_ARM_WFE_ONLY=1 \
			2>"$tmp/err"; then
			echo "FAIL $name/$cc/wfe-only: does not compile:"
			cat "$tmp/err"
			failed=1
			continue
		fi
		if check_object "$name/$cc/wfe-only" "$obj" "$tool-objdump" "$tool-nm" "$pattern"; then
			echo "ok   $name/$cc/wfe-only ($pattern, direct)"
		else
			failed=1
		fi
	done
done

echo "check_targets: $checks checks, $([[ $failed == 0 ]] && echo 'all passed' || echo 'FAILURES')"
exit $failed

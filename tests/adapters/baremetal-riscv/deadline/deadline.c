/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * deadline.c - a wait with a deadline returns by it on the bare-metal
 * RISC-V adapter under the WFI strategy, which has no timer to end a WFI
 * at a deadline and so must not rest in WFI when a deadline is set.
 *
 * Hart 0 enters a two-member group alone DEADLINE_CALLS times, with
 * deadlines 0 to 4 ms ahead in mtime ticks; the other member never comes
 * and nobody sends an MSIP, so each call can only wait for its round until
 * its deadline: each must return COUPLED_ABORT_TIMEOUT, not before its
 * deadline, and the median lateness must be at most DEADLINE_BOUND_MS.
 * One more call with a deadline long past must time out too.  The calls
 * run with mstatus.MIE clear, or set with -DDEADLINE_IRQ=1.
 *
 * Where a hart sleeps through its deadline, nothing ends its WFI:
 *  - on the host model (event_model/, --cpus 1) hart 0 is the only live
 *    hart, asleep: the model's lost wake-up (exit status 3);
 *  - on QEMU (-smp 2 or more) hart 1 watches: it fails the run once
 *    DEADLINE_WATCHDOG_MS of mtime passed without hart 0's verdict.
 * The verdict line, "deadline: PASS ..." or "deadline: FAIL ...", names
 * the strategy and the protocol.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "coupled/coupled.h"
#include "../../baremetal-common/deadline_common.h"

#ifndef DEADLINE_WATCHDOG_MS
#define DEADLINE_WATCHDOG_MS 10000u
#endif
#ifndef DEADLINE_IRQ
#define DEADLINE_IRQ 0
#endif

/* Hart 0's start (mtime + 1, 0 before it), and whether it is done. */
static atomic_ullong started_at;

/* Hart 1 on QEMU: fail once hart 0 has been at it for too long. */
static void watch(void)
{
	uint64_t t0, limit;

	/* relaxed: a time stamp; hart 0's verdict ends the run. */
	while ((t0 = atomic_load_explicit(&started_at, memory_order_relaxed)) ==
	       0u)
		board_yield();
	limit = (uint64_t)DEADLINE_WATCHDOG_MS * (board_counter_freq() / 1000u);
	for (;;) {
		if (board_counter() - (t0 - 1u) > limit)
			fail("hart 0 not done: a wait slept through its "
			     "deadline (watchdog ms, hart 0's start)",
			     DEADLINE_WATCHDOG_MS, t0 - 1u);
		board_yield();
	}
}

void app_main(uint32_t cpu)
{
	struct coupled_riscv_ipi ipi = { 0 };
	struct coupled_adapter_group *ag;
	uint64_t tick_us;

	if (cpu == 1)
		watch();
	if (cpu != 0)
		return; /* takes no part */
	tick_us = board_counter_freq() / 1000000u;
	if (tick_us == 0u)
		fail("mtime below 1 MHz", board_counter_freq(), 1000000u);
	ag = deadline_group();
#ifdef BOARD_MSIP_SEND_HOOK
	ipi.send = BOARD_MSIP_SEND_HOOK; /* the host model */
	ipi.clear = BOARD_MSIP_CLEAR_HOOK;
#endif
	ipi.clint_base = BOARD_CLINT_BASE;
	if (coupled_riscv_set_ipi(ag, &ipi) != 0)
		fail("wfi strategy", 0, 0);
	if (DEADLINE_IRQ)
		board_irq_enable();
	/* relaxed: read by the watchdog only. */
	atomic_store_explicit(&started_at, board_counter() + 1u,
			      memory_order_relaxed);
	deadline_run(ag, tick_us,
		     DEADLINE_IRQ ? "wfi-msip-irq" : "wfi-msip-masked");
}

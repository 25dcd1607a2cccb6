/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * deadline.c - a wait with a deadline returns by it on the bare-metal
 * RISC-V adapter under the WFI strategy, which has no timer to end a WFI
 * at a deadline and so must not rest in WFI when a deadline is set.
 *
 * Hart 0 enters a two-member group alone DEADLINE_CALLS times, with
 * deadlines 0 to 4 ms ahead in mtime ticks; the other member never comes
 * and nobody sends an MSIP, so each call can only wait in phase 1 until
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
#include "../../baremetal-common/image_print.h"
#include "coupled/coupled.h"

#ifndef DEADLINE_CALLS
#define DEADLINE_CALLS 20u
#endif
#ifndef DEADLINE_BOUND_MS
#define DEADLINE_BOUND_MS 250u
#endif
#ifndef DEADLINE_WATCHDOG_MS
#define DEADLINE_WATCHDOG_MS 10000u
#endif
#ifndef DEADLINE_IRQ
#define DEADLINE_IRQ 0
#endif

static struct coupled_group group;
static struct coupled_slot slots[2];
/* Hart 0's start (mtime + 1, 0 before it), and whether it is done. */
static atomic_ullong started_at;

static void never_action(const struct coupled_round *r, void *ctx)
{
	(void)r;
	(void)ctx;
	board_puts("deadline: FAIL a round committed with a member absent\n");
	board_exit(1);
}

static __attribute__((noreturn)) void fail(const char *what, uint64_t a,
					   uint64_t b)
{
	image_fail("deadline", what, a, b);
}

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
	static uint64_t late[DEADLINE_CALLS];
	struct coupled_abort_opts opts = { 0 };
	struct coupled_riscv_ipi ipi = { 0 };
	struct coupled_adapter_group *ag;
	uint64_t tick_us, bound;
	uint32_t i, k;
	int rc;

	if (cpu == 1)
		watch();
	if (cpu != 0)
		return; /* takes no part */
	tick_us = board_counter_freq() / 1000000u;
	if (tick_us == 0u)
		fail("mtime below 1 MHz", board_counter_freq(), 1000000u);
	if (coupled_group_init(&group, slots, 2, 2, NULL) != 0)
		fail("group init", 0, 0);
	ag = coupled_group_adapter(&group);
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

	for (i = 0; i < DEADLINE_CALLS; i++) {
		uint64_t done;

		/* 0, 1, ..., 4 ms ahead, in turn. */
		opts.deadline = coupled_adapter_now(ag) +
				(uint64_t)(i % 5u) * 1000u * tick_us;
		rc = coupled_enter_opts(&group, 0, 1, never_action, 0, &opts);
		done = coupled_adapter_now(ag);
		if (rc != COUPLED_ABORT_TIMEOUT)
			fail("a call did not time out", i, (uint64_t)rc);
		if (done < opts.deadline)
			fail("a call returned before its deadline", i,
			     opts.deadline - done);
		late[i] = done - opts.deadline;
		/* Insertion sort: no libc here. */
		for (k = i; k > 0 && late[k - 1] > late[k]; k--) {
			uint64_t t = late[k];

			late[k] = late[k - 1];
			late[k - 1] = t;
		}
	}
	opts.deadline = 1; /* long past */
	rc = coupled_enter_opts(&group, 0, 1, never_action, 0, &opts);
	if (rc != COUPLED_ABORT_TIMEOUT)
		fail("a call with a past deadline did not time out", 0,
		     (uint64_t)rc);
	bound = (uint64_t)DEADLINE_BOUND_MS * 1000u * tick_us;
	if (late[DEADLINE_CALLS / 2u] > bound)
		fail("median lateness above the bound (ticks)",
		     late[DEADLINE_CALLS / 2u], bound);

	board_puts("deadline: PASS strategy=");
	board_puts(DEADLINE_IRQ ? "wfi-msip-irq" : "wfi-msip-masked");
	board_puts(" protocol=" COUPLED_PROTOCOL_NAME);
	put_kv("calls", DEADLINE_CALLS + 1u);
	put_kv("median_late_us", late[DEADLINE_CALLS / 2u] / tick_us);
	put_kv("max_late_us", late[DEADLINE_CALLS - 1u] / tick_us);
	put_kv("bound_ms", DEADLINE_BOUND_MS);
	board_puts("\n");
	board_exit(0);
}

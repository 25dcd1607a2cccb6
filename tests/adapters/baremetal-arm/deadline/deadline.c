/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * deadline.c - a wait with a deadline returns by it on the bare-metal ARM
 * adapter, which has no timer to wake WFE or WFI at a deadline and so must
 * not sleep in them when a deadline is set.
 *
 * Core 0 enters a two-member group alone DEADLINE_CALLS times, with
 * deadlines 0 to 4 ms ahead in generic-timer ticks, so that each call can
 * only wait in phase 1 until its deadline: each must return
 * COUPLED_ABORT_TIMEOUT, not before its deadline, and the median lateness
 * must be at most DEADLINE_BOUND_MS.  The other cores take no part.  One
 * more call with a deadline long past must time out at once too.
 *
 * Under the strict host model (event_model/, run with --cpus 1) nothing but
 * a SEV or an interrupt ends a WFE or WFI, and nobody sends one here: an
 * adapter that slept through its deadline leaves every core asleep, which
 * the model reports as a lost wake-up (exit status 3).  Built with
 * -DDEADLINE_SGI=1 the group waits in WFI with IRQs masked (the WFI
 * strategy); otherwise in WFE.  The verdict line, "deadline: PASS ..." or
 * "deadline: FAIL ...", names the strategy and the protocol.
 */
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
#ifndef DEADLINE_SGI
#define DEADLINE_SGI 0
#endif
#if DEADLINE_SGI && COUPLED_ARM_WFE_ONLY
#error "DEADLINE_SGI needs the WFI strategy, which COUPLED_ARM_WFE_ONLY leaves out"
#endif
#ifndef BOARD_GICD_BASE
#define BOARD_GICD_BASE 0x08000000u /* QEMU virt's GICv2 distributor */
#endif
#define DEADLINE_WAKE_SGI 1u

static struct coupled_group group;
static struct coupled_slot slots[2];

/* Nobody else sends interrupts here; the board's handler calls this. */
void board_on_irq(uint32_t cpu, uint32_t irq_id)
{
	(void)cpu;
	(void)irq_id;
}

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

void app_main(uint32_t cpu)
{
	static uint64_t late[DEADLINE_CALLS];
	struct coupled_abort_opts opts = { 0 };
	struct coupled_adapter_group *ag;
	uint64_t freq, tick_us, bound;
	uint32_t i, k;
	int rc;

	if (cpu != 0)
		return; /* takes no part */
	freq = board_counter_freq();
	if (freq < 1000000u)
		fail("counter below 1 MHz", freq, 1000000u);
	tick_us = freq / 1000000u;
	if (coupled_group_init(&group, slots, 2, 2, NULL) != 0)
		fail("group init", 0, 0);
	ag = coupled_group_adapter(&group);
	if (DEADLINE_SGI) {
		struct coupled_arm_ipi ipi = { 0 };

#ifdef BOARD_SGI_SEND_HOOK
		ipi.send = BOARD_SGI_SEND_HOOK; /* the host model */
#endif
		ipi.gicd_base = BOARD_GICD_BASE;
		ipi.sgi_id = DEADLINE_WAKE_SGI;
		if (coupled_arm_set_wfi_sgi(ag, &ipi) != 0)
			fail("wfi-sgi strategy", 0, 0);
	}

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
	board_puts(DEADLINE_SGI ? "wfi-sgi" : "wfe-sev");
	board_puts(" protocol=" COUPLED_PROTOCOL_NAME);
	put_kv("calls", DEADLINE_CALLS + 1u);
	put_kv("median_late_us", late[DEADLINE_CALLS / 2u] / tick_us);
	put_kv("max_late_us", late[DEADLINE_CALLS - 1u] / tick_us);
	put_kv("bound_ms", DEADLINE_BOUND_MS);
	board_puts("\n");
	board_exit(0);
}

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * deadline.c - a wait with a deadline returns by it on the bare-metal ARM
 * adapter, which has no timer to wake WFE or WFI at a deadline and so must
 * not sleep in them when a deadline is set.
 *
 * Core 0 enters a two-member group alone DEADLINE_CALLS times, with
 * deadlines 0 to 4 ms ahead in generic-timer ticks, so that each call can
 * only wait for its round until its deadline: each must return
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
#include "coupled/coupled.h"
#include "../../baremetal-common/deadline_common.h"

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

/* Nobody else sends interrupts here; the board's handler calls this. */
void board_on_irq(uint32_t cpu, uint32_t irq_id)
{
	(void)cpu;
	(void)irq_id;
}

void app_main(uint32_t cpu)
{
	struct coupled_adapter_group *ag;
	uint64_t freq;

	if (cpu != 0)
		return; /* takes no part */
	freq = board_counter_freq();
	if (freq < 1000000u)
		fail("counter below 1 MHz", freq, 1000000u);
	ag = deadline_group();
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
	deadline_run(ag, freq / 1000000u, DEADLINE_SGI ? "wfi-sgi" : "wfe-sev");
}

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_arm.cpp - the bare-metal ARM adapter's wait/wake handshake under the
 * Relacy race detector, for both wait strategies.
 *
 * The real bare-metal ARM adapter (<coupled/adapter/baremetal_arm.h>) is compiled
 * here (COUPLED_ARM_INSTRUCTIONS_PROVIDED) with its atomics on rl::atomic
 * and its instructions replaced by a model, one core per Relacy thread:
 *   SEV    sets every core's event register (a relaxed read-modify-write:
 *          an event set twice is one event, and whoever consumes it must
 *          see what both senders made observable before their SEVs);
 *   WFE    returns at once, clearing it, if the event register is set,
 *          otherwise waits until a SEV sets it; consuming an event is an
 *          acquire, pairing with the DSB before the SEV (assumption: the
 *          architecture's DSB makes the earlier stores observable before
 *          the SEV, and the woken core's later reads come after the event);
 *   DSB    a seq_cst fence;
 *   SGI    makes an interrupt pending on the target (a relaxed
 *          read-modify-write after the wake's DSB: two SGIs to a core
 *          merge into one pending interrupt);
 *   WFI    waits until an interrupt is pending, masked or not;
 *   IRQ    an unmasked pending interrupt is taken at instruction boundaries
 *          (the modelled instructions and the core's steps in between):
 *          taking it clears it and is an acquire;
 *   YIELD  a Relacy yield; IRQ mask save/restore: per core, plain.
 * A lost wake-up leaves the waiting core in WFE or WFI for good: a Relacy
 * livelock.  The same model as tests/adapters/baremetal-arm/event_model/ (which runs the whole
 * torture on host threads, in sequentially consistent x86 order), here under
 * the C++ memory model.
 *
 * Build: c++ -std=c++17 -O1 -I<include> -I<adapters>/baremetal-arm/include
 *        -Itests/verify/relacy tests/verify/relacy/relacy_arm.cpp
 * Usage: relacy_arm list | all | <check>
 */
#include "relacy_model.h"

/* --- the instruction model ---------------------------------------------- */

struct arm_model : model_irqs {
	rl::atomic<int> event[MODEL_CORES];
	rl::atomic<int> pending[MODEL_CORES];
};

static arm_model *g_arm;

/* An instruction boundary: take the pending interrupt if unmasked. */
static void model_boundary()
{
	unsigned me = model_me();

	if (!g_arm->masked[me] && g_arm->pending[me].load(rl::mo_relaxed, $) &&
	    g_arm->pending[me].exchange(0, rl::mo_acquire, $))
		g_arm->taken[me]++;
}

static void model_sev()
{
	model_boundary();
	for (unsigned i = 0; i < MODEL_CORES; i++)
		(void)g_arm->event[i].exchange(1, rl::mo_relaxed, $);
}

static void model_wfe()
{
	unsigned me = model_me();

	model_boundary();
	while (!g_arm->event[me].exchange(0, rl::mo_acquire, $)) {
		/* An unmasked pending interrupt ends WFE too. */
		if (!g_arm->masked[me] &&
		    g_arm->pending[me].load(rl::mo_relaxed, $))
			break;
		rl::yield(1, $);
	}
	model_boundary();
}

static void model_wfi()
{
	unsigned me = model_me();

	while (!g_arm->pending[me].load(rl::mo_relaxed, $))
		rl::yield(1, $);
}

/* The saved flags: 1 if interrupts were masked. */
static unsigned long model_irq_save()
{
	return model_mask(g_arm->masked) ? 1ul : 0ul;
}

static void model_irq_restore(unsigned long flags)
{
	model_unmask(g_arm->masked, flags != 0);
}

static void model_send_sgi(void *arg, uint32_t target)
{
	(void)arg;
	model_boundary();
	(void)g_arm->pending[target].exchange(1, rl::mo_relaxed, $);
}

#define COUPLED_ARM_WFE() model_wfe()
#define COUPLED_ARM_SEV() model_sev()
#define COUPLED_ARM_WFI() model_wfi()
#define COUPLED_ARM_DSB() model_fence()
#define COUPLED_ARM_YIELD() model_yield()
#define COUPLED_ARM_IRQ_SAVE() model_irq_save()
#define COUPLED_ARM_IRQ_RESTORE(flags) model_irq_restore(flags)
#define COUPLED_ARM_INSTRUCTIONS_PROVIDED 1

#define COUPLED_ADAPTER_BAREMETAL_ARM 1
#include <coupled/adapter.h>

/* --- the handshake ------------------------------------------------------ */

struct handshake_platform : model_platform {
	arm_model arm;

	void before(unsigned threads)
	{
		model_irqs_reset(&arm, threads);
		for (unsigned i = 0; i < MODEL_CORES; i++) {
			arm.event[i].store(0, rl::mo_relaxed, $);
			arm.pending[i].store(0, rl::mo_relaxed, $);
		}
		g_arm = &arm;
	}
};

static void handshake_setup(struct coupled_adapter_group *ag, int mode)
{
	if (mode == (int)COUPLED_ARM_WAIT_WFI_SGI) {
		struct coupled_arm_ipi ipi;

		std::memset(&ipi, 0, sizeof(ipi));
		ipi.send = model_send_sgi;
		ipi.sgi_id = 1u;
		RL_ASSERT(coupled_arm_set_wfi_sgi(ag, &ipi) == 0);
	} else {
		RL_ASSERT(coupled_arm_set_wfe(ag) == 0);
	}
}

#include "relacy_handshake.h"

/* The checks: the wait modes, one and two wakers. */
#define HANDSHAKE_CASES(ONE, BOTH)         \
	BOTH(COUPLED_ARM_WAIT_WFE, wfe, 3) \
	BOTH(COUPLED_ARM_WAIT_WFI_SGI, wfi_sgi, 3)
RELACY_HANDSHAKE_PROGRAM()

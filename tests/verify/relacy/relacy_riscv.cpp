/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_riscv.cpp - the bare-metal RISC-V adapter's wait/wake handshake
 * under the Relacy race detector, for its strategies.
 *
 * The real adapter (<coupled/adapter/baremetal_riscv.h>) is compiled here
 * (COUPLED_RISCV_INSTRUCTIONS_PROVIDED) with its atomics on rl::atomic, its
 * instructions replaced by a model and its MSIP reached through the send
 * and clear hooks of struct coupled_riscv_ipi; one hart per Relacy thread:
 *   MSIP   one word per hart: the wake's send stores 1 (relaxed), the
 *          adapter's clear stores 0 (relaxed): stores to an I/O register,
 *          ordered only by the fences around them;
 *   FENCE  w,o and o,r: a seq_cst fence (the model is stronger than the
 *          two fences only in ordering more; what it shows is that the
 *          adapter's fences are where an order is needed);
 *   WFI    waits until the hart's MSIP is 1, whatever mstatus.MIE says;
 *   trap   with MIE set, a pending MSIP is taken at instruction boundaries
 *          (the modelled instructions and the hart's steps in between): the
 *          handler stores 0 to MSIP and fences, as the test board's does;
 *   MIE    per hart, plain; PAUSE a Relacy yield.
 * The waiter runs with MIE set (wfi_irq: the trap handler clears the
 * MSIPs) or clear throughout (wfi_masked: the adapter clears its own after
 * WFI).  A lost wake-up leaves the waiter in WFI for good: a Relacy
 * livelock.
 *
 * Build: c++ -std=c++17 -O1 -I<include> -I<adapters>/baremetal-riscv/include
 *        -Itests/verify/relacy tests/verify/relacy/relacy_riscv.cpp
 * Usage: relacy_riscv list | all | <check>
 */
#include "relacy_model.h"

/* --- the instruction model ---------------------------------------------- */

/* masked: mstatus.MIE clear. */
struct riscv_model : model_irqs {
	rl::atomic<int> msip[MODEL_CORES];
};

static riscv_model *g_rv;

/* An instruction boundary: with MIE set, the trap handler takes the MSIP. */
static void model_boundary()
{
	unsigned me = model_me();

	if (!g_rv->masked[me] && g_rv->msip[me].load(rl::mo_relaxed, $)) {
		g_rv->msip[me].store(0, rl::mo_relaxed, $);
		rl::atomic_thread_fence(rl::mo_seq_cst, $);
		g_rv->taken[me]++;
	}
}

static void model_wfi()
{
	unsigned me = model_me();

	/* An unmasked interrupt may still be taken right before WFI. */
	model_boundary();
	while (!g_rv->msip[me].load(rl::mo_relaxed, $))
		rl::yield(1, $);
}

/* The saved flags: mstatus, MIE (0x8) set if interrupts were enabled. */
static unsigned long model_irq_save()
{
	return model_mask(g_rv->masked) ? 0ul : 0x8ul;
}

static void model_irq_restore(unsigned long flags)
{
	model_unmask(g_rv->masked, !(flags & 0x8ul));
}

static void model_send(void *arg, uint32_t hart)
{
	(void)arg;
	model_boundary();
	g_rv->msip[hart].store(1, rl::mo_relaxed, $);
}

static void model_clear(void *arg, uint32_t hart)
{
	(void)arg;
	g_rv->msip[hart].store(0, rl::mo_relaxed, $);
}

#define COUPLED_RISCV_WFI() model_wfi()
#define COUPLED_RISCV_PAUSE() model_yield()
#define COUPLED_RISCV_FENCE_W_O() model_fence()
#define COUPLED_RISCV_FENCE_O_R() model_fence()
#define COUPLED_RISCV_IRQ_SAVE() model_irq_save()
#define COUPLED_RISCV_IRQ_RESTORE(flags) model_irq_restore(flags)
#define COUPLED_RISCV_MMIO_WRITE32(addr, v) RL_ASSERT(!"no MMIO in the model")
#define COUPLED_RISCV_TIME(clint_base) ((void)(clint_base), (uint64_t)0)
#define COUPLED_RISCV_HART_ID() model_me()
#define COUPLED_RISCV_INSTRUCTIONS_PROVIDED 1

#define COUPLED_ADAPTER_BAREMETAL_RISCV 1
#include <coupled/adapter.h>

/* --- the handshake ------------------------------------------------------ */

/* The modes: the strategy, and for WFI the waiter's mstatus.MIE. */
enum { MODE_SPIN, MODE_WFI_IRQ, MODE_WFI_MASKED };

struct handshake_platform : model_platform {
	riscv_model rv;

	void before(unsigned threads)
	{
		model_irqs_reset(&rv, threads);
		for (unsigned i = 0; i < MODEL_CORES; i++)
			rv.msip[i].store(0, rl::mo_relaxed, $);
		g_rv = &rv;
	}
};

static void handshake_setup(struct coupled_adapter_group *ag, int mode)
{
	struct coupled_riscv_ipi ipi;

	if (mode == MODE_SPIN) {
		RL_ASSERT(coupled_riscv_set_spin(ag) == 0);
		return;
	}
	std::memset(&ipi, 0, sizeof(ipi));
	ipi.send = model_send;
	ipi.clear = model_clear;
	RL_ASSERT(coupled_riscv_set_ipi(ag, &ipi) == 0);
	/* The waiter (thread 0) runs its calls with MIE clear, or set. */
	g_rv->masked[0] = mode == MODE_WFI_MASKED;
}

#include "relacy_handshake.h"

/* The checks: the wait modes, one and two wakers. */
#define HANDSHAKE_CASES(ONE, BOTH)     \
	ONE(MODE_SPIN, spin)           \
	BOTH(MODE_WFI_IRQ, wfi_irq, 3) \
	BOTH(MODE_WFI_MASKED, wfi_masked, 3)
RELACY_HANDSHAKE_PROGRAM()

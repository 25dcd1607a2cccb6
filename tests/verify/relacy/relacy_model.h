/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_model.h - what the Relacy programs of the bare-metal adapters
 * (relacy_arm.cpp, relacy_riscv.cpp) share: Relacy and the core's Relacy
 * atomics, the modelled core's index, the instructions both models build
 * the same way from their boundary (a full fence, a yield, the interrupt
 * mask), and the handshake platform's hooks that only take the pending
 * interrupt at an instruction boundary.  Each
 * program defines model_boundary(), its interrupt model, and derives its
 * struct handshake_platform from struct model_platform (relacy_handshake.h
 * says what a platform is).
 */
#ifndef COUPLED_RELACY_MODEL_H
#define COUPLED_RELACY_MODEL_H

#include <relacy/relacy.hpp>

#include <cstddef>
#include <cstring>

#define COUPLED_ATOMIC_RELACY 1
#include <coupled/atomic.h>

struct coupled_adapter_slot;

/* The modelled cores (harts): at most 3, one a Relacy thread. */
enum { MODEL_CORES = 3 };

/*
 * What both models keep of each core's interrupts: masked (the ARM IRQ
 * mask, RISC-V's mstatus.MIE clear; per core, plain) and how many it took.
 */
struct model_irqs {
	bool masked[MODEL_CORES];
	unsigned taken[MODEL_CORES];
};

/* Reset @irqs for a check of @threads cores: none masked, none taken. */
static void model_irqs_reset(model_irqs *irqs, unsigned threads)
{
	RL_ASSERT(threads <= MODEL_CORES);
	for (unsigned i = 0; i < MODEL_CORES; i++) {
		irqs->masked[i] = false;
		irqs->taken[i] = 0;
	}
}

/* The modelled core (hart): the Relacy thread. */
static unsigned model_me()
{
	return rl::thread_index();
}

/* An instruction boundary: the model takes a pending, unmasked interrupt. */
static void model_boundary();

/* A full barrier (DSB, FENCE): a seq_cst fence, then a boundary. */
static void model_fence()
{
	rl::atomic_thread_fence(rl::mo_seq_cst, $);
	model_boundary();
}

/* YIELD, PAUSE: a boundary, then a Relacy yield. */
static void model_yield()
{
	model_boundary();
	rl::yield(1, $);
}

/*
 * The interrupt mask save: a boundary, then this core's flag in @masked
 * (true: interrupts masked) set.
 * Return: the flag before.
 */
static bool model_mask(bool *masked)
{
	unsigned me = model_me();
	bool old;

	model_boundary();
	old = masked[me];
	masked[me] = true;
	return old;
}

/* The restore: this core's flag in @masked back to @old, then a boundary. */
static void model_unmask(bool *masked, bool old)
{
	masked[model_me()] = old;
	model_boundary();
}

/* The platform hooks both models share (before() is each model's own). */
struct model_platform {
	void after(struct coupled_adapter_slot *slots, unsigned n)
	{
		(void)slots;
		(void)n;
	}
	void boundary(unsigned self)
	{
		(void)self;
		model_boundary();
	}
	void waker_done(unsigned self)
	{
		(void)self;
	}
};

#endif /* COUPLED_RELACY_MODEL_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_model.h - what the Relacy programs of the bare-metal adapters
 * (relacy_arm.cpp, relacy_riscv.cpp) share: Relacy and the core's Relacy
 * atomics, the modelled core's index, and the handshake platform's hooks
 * that only take the pending interrupt at an instruction boundary.  Each
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

/* The modelled core (hart): the Relacy thread. */
static unsigned model_me()
{
	return rl::thread_index();
}

/* An instruction boundary: the model takes a pending, unmasked interrupt. */
static void model_boundary();

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

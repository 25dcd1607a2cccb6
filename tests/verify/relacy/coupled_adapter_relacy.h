/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled_adapter_relacy.h - runs the real core under the Relacy race
 * detector: the atomics layer (coupled/atomic.h) mapped onto rl::atomic
 * (coupled/atomic/relacy.h, selected by COUPLED_ATOMIC_RELACY), and an adapter whose safe state and wake-ups
 * are Relacy atomics too.
 *
 * Include <relacy/relacy.hpp> first (it redefines new, malloc, assert and the
 * memory_order_* names), then select this file with
 *   #define COUPLED_ADAPTER_HEADER "coupled_adapter_relacy.h"
 * before including coupled/coupled.h.
 *
 * Every operation carries Relacy's debug info ($) so that a failing
 * execution history names the line of the core that did it.
 *
 * Two wait modes, chosen per group at run time (coupled_relacy_set_mode()):
 *
 *   COUPLED_RELACY_WAIT_SPIN   wait() yields once and returns, like the spin
 *                              adapter: the adapter adds no synchronization
 *                              at all, so every ordering the core needs must
 *                              come from the core's own atomics;
 *   COUPLED_RELACY_WAIT_TOKEN  wait() spins (with rl::yield) until the slot's
 *                              wake sequence differs from the token taken by
 *                              wait_prepare(); wake() increments it.  This
 *                              checks that the core never loses a wake-up
 *                              (a lost one shows as a Relacy livelock).  The
 *                              sequence is acquire/release, the minimum a real
 *                              sleeping primitive gives (see wait_prepare()).
 */
#ifndef COUPLED_ADAPTER_RELACY_H
#define COUPLED_ADAPTER_RELACY_H

#include <relacy/relacy.hpp>

#include <stdbool.h>
#include <stdint.h>

#ifndef COUPLED_ATOMIC_RELACY
#define COUPLED_ATOMIC_RELACY 1
#endif
#include <coupled/atomic.h>

/* --- the adapter ---------------------------------------------------------- */

#define COUPLED_ADAPTER_NAME "relacy"
#define COUPLED_ADAPTER_HAS_CLOCK 0
/*
 * No wake-up is ever lost, in either wait mode, so both protocols may run
 * on this adapter (the build picks one with COUPLED_PROTOCOL_SETTLED or
 * COUPLED_PROTOCOL_DIRECT; with neither it gets the direct one):
 *   spin   wait() returns after one yield, so the core re-reads its word
 *          at every turn; a wake-up is nothing to lose;
 *   token  wake() always increments the slot's sequence (it never looks at
 *          whether the target sleeps), and wait() returns as soon as the
 *          sequence differs from the token that wait_prepare() read before
 *          the core's check: a wake after the prepare always ends the wait,
 *          and nothing stays pending beyond it (the next prepare re-reads
 *          the sequence).
 */
#define COUPLED_ADAPTER_WAKE_CAN_BE_LOST 0

/*
 * Execution contexts, on request (COUPLED_RELACY_CONTEXT 1 before the
 * include): coupled_adapter_context() names the calling Relacy thread, so
 * that a membership change from inside a call is refused (COUPLED_EPERM),
 * as on the pthread and bare-metal adapters.  Off by default: the context
 * stores of every call cost the other programs' searches.
 */
#if defined(COUPLED_RELACY_CONTEXT) && COUPLED_RELACY_CONTEXT
#define COUPLED_ADAPTER_HAS_CONTEXT 1
#endif

#define COUPLED_RELACY_WAIT_SPIN 0u
#define COUPLED_RELACY_WAIT_TOKEN 1u

/* Per-group state: the wait mode, set before any participant runs. */
struct coupled_adapter_group {
	unsigned mode;
};

/* Per-participant state: the wake sequence and the injected work flag. */
struct coupled_adapter_slot {
	rl::atomic<uint32_t> wake_seq;
	rl::atomic<uint32_t> work;
};

#if defined(COUPLED_RELACY_CONTEXT) && COUPLED_RELACY_CONTEXT
/* The calling thread's index + 1: nonzero, one per Relacy thread. */
static inline uint32_t coupled_adapter_context(struct coupled_adapter_group *ag)
{
	(void)ag;
	return (uint32_t)rl::thread_index() + 1u;
}
#endif

static inline void coupled_adapter_group_init(struct coupled_adapter_group *ag,
					      uint32_t capacity)
{
	(void)capacity;
	ag->mode = COUPLED_RELACY_WAIT_SPIN;
}

static inline void coupled_adapter_slot_init(struct coupled_adapter_group *ag,
					     struct coupled_adapter_slot *as,
					     uint32_t id)
{
	(void)ag;
	(void)id;
	as->wake_seq.store(0u, rl::mo_relaxed, $);
	as->work.store(0u, rl::mo_relaxed, $);
}

static inline void coupled_relacy_set_mode(struct coupled_adapter_group *ag,
					   unsigned mode)
{
	ag->mode = mode;
}

static inline void coupled_adapter_relax(struct coupled_adapter_group *ag)
{
	(void)ag;
	rl::yield(1, $);
}

static inline uint32_t
coupled_adapter_wait_prepare(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	(void)self;
	if (ag->mode == COUPLED_RELACY_WAIT_SPIN)
		return 0;
	/*
	 * acquire, pairing with the release increment in wake(): if the token
	 * already includes a wake, whatever the waker did before it (the
	 * poke) is visible to the checks the core makes next; if it does not,
	 * wait() sees the increment.  Either way no wake-up is lost.
	 */
	return as->wake_seq.load(rl::mo_acquire, $);
}

static inline void coupled_adapter_wait(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *as,
					uint32_t self, uint32_t token,
					uint64_t deadline)
{
	(void)self;
	(void)deadline;
	if (ag->mode == COUPLED_RELACY_WAIT_SPIN) {
		rl::yield(1, $);
		return;
	}
	/* relaxed: only the change matters; the next prepare acquires. */
	while (as->wake_seq.load(rl::mo_relaxed, $) == token)
		rl::yield(1, $);
}

static inline void coupled_adapter_wake(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *target,
					uint32_t target_id)
{
	(void)target_id;
	if (ag->mode == COUPLED_RELACY_WAIT_SPIN)
		return;
	/* release: pairs with the acquire in wait_prepare(). */
	(void)target->wake_seq.fetch_add(1u, rl::mo_release, $);
}

static inline bool
coupled_adapter_work_pending(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	(void)ag;
	(void)self;
	/* relaxed: a test-controlled flag; it carries no data. */
	return as->work.load(rl::mo_relaxed, $) != 0;
}

static inline uint64_t coupled_adapter_now(struct coupled_adapter_group *ag)
{
	(void)ag;
	return 0;
}

/* Test side: raise or clear a participant's pending work. */
static inline void coupled_relacy_raise_work(struct coupled_adapter_group *ag,
					     struct coupled_adapter_slot *as,
					     uint32_t id)
{
	as->work.store(1u, rl::mo_relaxed, $);
	coupled_adapter_wake(ag, as, id);
}

static inline void coupled_relacy_clear_work(struct coupled_adapter_slot *as)
{
	as->work.store(0u, rl::mo_relaxed, $);
}

#endif /* COUPLED_ADAPTER_RELACY_H */

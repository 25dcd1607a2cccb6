/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/adapter/spin.h - the default, freestanding adapter: pure spinning.
 *
 * It needs nothing but C11 atomics, so the core compiles and runs on any
 * target without a platform binding: the safe state is a busy loop, a wake
 * needs no signal (the waiter re-reads what the core changed: in the direct
 * variant the word's next generation, in the settled variant the poke
 * counter), no work is ever pending and there is no clock (a deadline is
 * refused with COUPLED_EOPNOTSUPP).
 *
 * It is also the reference for the adapter contract: every adapter defines
 * the same two types, the same functions with the same meaning, and
 * COUPLED_ADAPTER_NAME and COUPLED_ADAPTER_HAS_CLOCK.  See docs/adapters.md.
 *
 * Selected by coupled/adapter.h when no other adapter is defined.
 */
#ifndef COUPLED_ADAPTER_SPIN_H
#define COUPLED_ADAPTER_SPIN_H

#ifndef COUPLED__ADAPTER_SELECTING
#error "do not include <coupled/adapter/spin.h> directly: include <coupled/coupled.h> without any COUPLED_ADAPTER_* definition"
#endif

#include "../relax.h"
#include "../types.h"

#define COUPLED_ADAPTER_NAME "spin"
/*
 * Wake-ups: a spinning waiter sees every change of the word itself.
 */
#define COUPLED_ADAPTER_WAKE_CAN_BE_LOST 0
/* coupled_adapter_wake() does nothing (coupled_adapter_wake_is_noop()). */
#define COUPLED_ADAPTER_HAS_WAKE_IS_NOOP 1
/* No clock: coupled_enter_opts() refuses a deadline. */
#define COUPLED_ADAPTER_HAS_CLOCK 0
/* What the shared hooks do here (coupled/adapter/common_hooks.h). */
#define COUPLED__ADAPTER_PAUSE() coupled_cpu_relax()
#define COUPLED__ADAPTER_NO_WAIT_TOKEN 1

/** struct coupled_adapter_group - per-group adapter state (none needed) */
struct coupled_adapter_group {
	uint32_t unused;
};

/** struct coupled_adapter_slot - per-participant adapter state (none needed) */
struct coupled_adapter_slot {
	uint32_t unused;
};

/**
 * coupled_adapter_group_init() - initialise the group's adapter state
 * @ag: adapter state embedded in the group
 * @capacity: the group's capacity
 *
 * Context: called once by coupled_group_init(), before any participant runs.
 */
static inline void coupled_adapter_group_init(struct coupled_adapter_group *ag,
					      uint32_t capacity)
{
	(void)capacity;
	ag->unused = 0;
}

/**
 * coupled_adapter_slot_init() - initialise one participant's adapter state
 * @ag: the group's adapter state
 * @as: adapter state embedded in the participant's slot
 * @id: the participant's id
 *
 * Context: called by coupled_group_init() for every id, before any
 * participant runs.
 */
static inline void coupled_adapter_slot_init(struct coupled_adapter_group *ag,
					     struct coupled_adapter_slot *as,
					     uint32_t id)
{
	(void)ag;
	(void)id;
	as->unused = 0;
}

/* coupled_adapter_relax() and _wait_prepare(): the shared ones. */
#include "common_hooks.h"

/**
 * coupled_adapter_wait() - rest in the safe state until woken
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @self: the calling participant's id
 * @token: the value coupled_adapter_wait_prepare() returned
 * @deadline: absolute coupled_adapter_now() time to return by; 0 for none
 *
 * Returns when woken since the prepare call, when @deadline has passed, or
 * spuriously (the core re-checks everything).  The spin adapter returns at
 * once, after one coupled_adapter_relax().
 *
 * Context: only while the participant waits for its round to complete,
 * counted as waiting.
 */
static inline void coupled_adapter_wait(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *as,
					uint32_t self, uint32_t token,
					uint64_t deadline)
{
	(void)as;
	(void)self;
	(void)token;
	(void)deadline;
	coupled_adapter_relax(ag);
}

/**
 * coupled_adapter_wake() - wake a participant out of its safe state
 * @ag: the group's adapter state
 * @target: the target participant's adapter state
 * @target_id: the target's id
 *
 * Called after the core made the change @target waits for, with release
 * order: in the direct variant the completer's store of the word or a
 * membership changer's stop bit; in the settled variant @target's poke
 * counter's increment.  Must tolerate a target that is not waiting and
 * repeated wakes.
 */
static inline void coupled_adapter_wake(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *target,
					uint32_t target_id)
{
	(void)ag;
	(void)target;
	(void)target_id;
}

/**
 * coupled_adapter_wake_is_noop() - does coupled_adapter_wake() do nothing?
 * @ag: the group's adapter state
 *
 * Optional (COUPLED_ADAPTER_HAS_WAKE_IS_NOOP 1): true lets the protocol
 * skip the walk that would wake each member (the direct completer's).  The
 * answer must not change while the group is in use.
 *
 * Context: any.
 * Return: always true here: a spinning waiter needs no wake-up.
 */
static inline bool
coupled_adapter_wake_is_noop(struct coupled_adapter_group *ag)
{
	(void)ag;
	return true;
}

/**
 * coupled_adapter_work_pending() - has the participant other work to do?
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @self: the calling participant's id
 *
 * The analog of need_resched(): true makes the participant abort with
 * COUPLED_ABORT_WORK wherever the protocol still allows an abort.
 *
 * Context: the participant's own execution context, while it waits.
 * Return: true if @self has other work to do; always false in the spin
 * adapter, which knows of none.
 */
static inline bool
coupled_adapter_work_pending(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	(void)ag;
	(void)as;
	(void)self;
	return false;
}

/**
 * coupled_adapter_now() - the adapter's clock, the time base of deadlines
 * @ag: the group's adapter state; a caller gets it from its group with
 *      coupled_group_adapter()
 *
 * The @deadline of struct coupled_abort_opts, given to coupled_enter_opts()
 * or coupled_domain_enter_opts(), is an absolute time on this clock: read
 * it, add the time the caller is willing to wait, in the adapter's units,
 * and pass the sum.  With the pthread adapter (nanoseconds), a deadline 1 ms
 * ahead is coupled_adapter_now(coupled_group_adapter(g)) + 1000000.  Each
 * adapter's coupled_adapter_now() names its units.  An adapter without a
 * clock defines COUPLED_ADAPTER_HAS_CLOCK to 0 and returns 0; a call with a
 * deadline is then refused with COUPLED_EOPNOTSUPP.  The spin adapter is
 * one.
 *
 * Context: any.
 * Return: a monotonic time in the adapter's units; 0 without a clock (always
 * 0 in the spin adapter).
 */
static inline uint64_t coupled_adapter_now(struct coupled_adapter_group *ag)
{
	(void)ag;
	return 0;
}

#endif /* COUPLED_ADAPTER_SPIN_H */

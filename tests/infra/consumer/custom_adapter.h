/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * custom_adapter.h - an adapter of a package user's own, selected with
 * -DCOUPLED_ADAPTER_HEADER='"custom_adapter.h"': it spins like the spin
 * adapter, on the portable relax helper the package installs.  It shows
 * that an installed package accepts an adapter from outside it.
 */
#ifndef CUSTOM_ADAPTER_H
#define CUSTOM_ADAPTER_H

#include <coupled/relax.h>
#include <coupled/types.h>

#define COUPLED_ADAPTER_NAME "custom"
#define COUPLED_ADAPTER_HAS_CLOCK 0

struct coupled_adapter_group {
	uint32_t relaxed;
};

struct coupled_adapter_slot {
	uint32_t unused;
};

static inline void coupled_adapter_group_init(struct coupled_adapter_group *ag,
					      uint32_t capacity)
{
	(void)capacity;
	ag->relaxed = 0;
}

static inline void coupled_adapter_slot_init(struct coupled_adapter_group *ag,
					     struct coupled_adapter_slot *as,
					     uint32_t id)
{
	(void)ag;
	(void)id;
	as->unused = 0;
}

static inline void coupled_adapter_relax(struct coupled_adapter_group *ag)
{
	(void)ag;
	coupled_cpu_relax();
}

static inline uint32_t
coupled_adapter_wait_prepare(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	(void)ag;
	(void)as;
	(void)self;
	return 0;
}

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

static inline void coupled_adapter_wake(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *target,
					uint32_t target_id)
{
	(void)ag;
	(void)target;
	(void)target_id;
}

static inline bool
coupled_adapter_work_pending(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	(void)ag;
	(void)as;
	(void)self;
	return false;
}

static inline uint64_t coupled_adapter_now(struct coupled_adapter_group *ag)
{
	(void)ag;
	return 0;
}

#endif /* CUSTOM_ADAPTER_H */

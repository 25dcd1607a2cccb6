/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/action.h - what an action may call: coupled_barrier() and
 * coupled_vote() (documented in coupled/coupled.h), on the group's
 * sense-reversing barrier and its two alternating vote slots.
 */
#include "coupled.h" /* first: this file is part of coupled/coupled.h */

#ifndef COUPLED_ACTION_H
#define COUPLED_ACTION_H

/**
 * coupled__barrier() - the parallel barrier over a round's members
 * @g: the group
 * @members: the round's member count
 *
 * Sense-reversing: the sense is a counter whose change releases the
 * waiters; the last arriver resets the count first, so the barrier can be
 * reused at once.  It also clears the vote slot the next vote will use.
 */
static inline void coupled__barrier(struct coupled_group *g, uint32_t members)
{
	/*
	 * relaxed: the latest flip, and the reset of the count before it,
	 * already happen before this load (through the previous barrier's
	 * acquire wait, or through the round's word for the round's first
	 * barrier), so coherence alone makes it read that flip; and the
	 * sense cannot flip again before this member arrives.
	 */
	uint32_t sense = coupled_load(&g->barrier_sense, COUPLED_RELAXED);
	/*
	 * acq_rel: release publishes this member's writes (e.g. its vote) to
	 * the last arriver; acquire gives the last arriver everyone's.
	 */
	uint32_t arrived =
		coupled_fetch_add(&g->barrier_count, 1u, COUPLED_ACQ_REL) + 1u;

	if (arrived == members) {
		/* relaxed, both: published by the release flip below. */
		coupled_store(&g->barrier_count, 0u, COUPLED_RELAXED);
		coupled_store(&g->vote[(sense + 1u) & 1u], 0u, COUPLED_RELAXED);
		/* release: pairs with the waiters' acquire load below. */
		coupled_store(&g->barrier_sense, sense + 1u, COUPLED_RELEASE);
	} else {
		/* acquire: pairs with the last arriver's release flip. */
		while (coupled_load(&g->barrier_sense, COUPLED_ACQUIRE) ==
		       sense)
			coupled_adapter_relax(&g->adapter);
	}
}

static inline int coupled_barrier(const struct coupled_round *round)
{
	if (!round || !round->group || round->members == 0)
		return COUPLED_EINVAL;
	coupled__barrier(round->group, round->members);
	return 0;
}

static inline int coupled_vote(const struct coupled_round *round,
			       bool want_abort)
{
	struct coupled_group *g;
	uint32_t slot;

	if (!round || !round->group || round->members == 0)
		return COUPLED_EINVAL;
	g = round->group;
	/* relaxed: as the first load in coupled__barrier(); names the slot. */
	slot = coupled_load(&g->barrier_sense, COUPLED_RELAXED) & 1u;
	if (want_abort)
		/* relaxed: published by the barrier's acq_rel increment. */
		coupled_store(&g->vote[slot], 1u, COUPLED_RELAXED);
	coupled__barrier(g, round->members);
	/*
	 * relaxed: the barrier ordered every vote before this load, and the
	 * slot is not cleared before the next barrier, which needs us.
	 */
	return coupled_load(&g->vote[slot], COUPLED_RELAXED) ? 1 : 0;
}

#endif /* COUPLED_ACTION_H */

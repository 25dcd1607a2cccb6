/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/stats.h - the optional counters (COUPLED_STATS).
 *
 * The only file that looks at COUPLED_STATS.  With it defined, every slot
 * carries its owner's counters (struct coupled__slot_stats, the member
 * stats of struct coupled_slot, there when COUPLED__HAVE_SLOT_STATS) and
 * the protocol counts with
 * COUPLED__STAT_INC(); without it the member is absent, the increments
 * compile to nothing and coupled_stats_read() returns COUPLED_EOPNOTSUPP.
 *
 * Included by coupled/coupled.h after struct coupled_stats, before
 * struct coupled_slot.
 */
#include "coupled.h" /* first: see the end of coupled/coupled.h */

#ifndef COUPLED_STATS_H
#define COUPLED_STATS_H

#ifdef COUPLED_STATS

/* The owner writes, anyone reads: atomics, relaxed, single writer. */
struct coupled__slot_stats {
	coupled_atomic_u32 attempts;
	coupled_atomic_u32 commits;
	coupled_atomic_u32 aborts[COUPLED_ABORT_REASONS];
	coupled_atomic_u32 retries;
	coupled_atomic_u32 restarts;
};

/* struct coupled_slot has the member stats, the owner's counters. */
#define COUPLED__HAVE_SLOT_STATS 1

#define COUPLED__STAT_INC(slot, field)                                      \
	/* relaxed: single writer (the owner); readers want a snapshot. */  \
	coupled_store(&(slot)->stats.field,                                 \
		      coupled_load(&(slot)->stats.field, COUPLED_RELAXED) + \
			      1u,                                           \
		      COUPLED_RELAXED)

/* Initialise a slot's counters (coupled_group_init()). */
#define COUPLED__STATS_INIT(slot) coupled__stats_init(&(slot)->stats)
/* Add a slot's counters to a struct coupled_stats (coupled_stats_read()). */
#define COUPLED__STATS_ADD(out, slot) coupled__stats_add((out), &(slot)->stats)
/* What coupled_stats_read() returns after adding up. */
#define COUPLED__STATS_READ_RESULT 0

/**
 * coupled__stats_init() - zero one slot's counters
 * @st: the counters
 *
 * Context: coupled_group_init(), before the group is shared.
 */
static inline void coupled__stats_init(struct coupled__slot_stats *st)
{
	uint32_t r;

	coupled_atomic_init(&st->attempts, 0u);
	coupled_atomic_init(&st->commits, 0u);
	for (r = 0; r < COUPLED_ABORT_REASONS; r++)
		coupled_atomic_init(&st->aborts[r], 0u);
	coupled_atomic_init(&st->retries, 0u);
	coupled_atomic_init(&st->restarts, 0u);
}

/**
 * coupled__stats_add() - add one slot's counters to a sum
 * @out: the sum
 * @st: the slot's counters
 *
 * Context: any; a snapshot.
 */
static inline void coupled__stats_add(struct coupled_stats *out,
				      struct coupled__slot_stats *st)
{
	uint32_t r;

	/* relaxed: counters, no data depends on them. */
	out->attempts += coupled_load(&st->attempts, COUPLED_RELAXED);
	out->commits += coupled_load(&st->commits, COUPLED_RELAXED);
	for (r = 0; r < COUPLED_ABORT_REASONS; r++)
		out->aborts[r] += coupled_load(&st->aborts[r], COUPLED_RELAXED);
	out->retries += coupled_load(&st->retries, COUPLED_RELAXED);
	out->restarts += coupled_load(&st->restarts, COUPLED_RELAXED);
}

#else /* !COUPLED_STATS */

#define COUPLED__HAVE_SLOT_STATS 0
#define COUPLED__STAT_INC(slot, field) ((void)(slot))
#define COUPLED__STATS_INIT(slot) ((void)(slot))
#define COUPLED__STATS_ADD(out, slot) ((void)(out), (void)(slot))
#define COUPLED__STATS_READ_RESULT COUPLED_EOPNOTSUPP

#endif /* COUPLED_STATS */

#endif /* COUPLED_STATS_H */

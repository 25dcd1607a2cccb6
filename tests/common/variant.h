/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * variant.h - what a test reads of a group's state, the same way for both
 * protocol variants (coupled/protocol.h).
 *
 * The settled word is two 16-bit counts (waiting, ready) and is 0 at rest;
 * a membership change holds g->prevent.  The direct word packs the
 * arrivals, the stop flag and a 15-bit generation, so it is not 0 at rest.
 * A test that asks "is anybody counted?" or "is the group at rest?" asks
 * it here instead of comparing g->counts with 0.
 *
 * Include after coupled/coupled.h (C or C++).
 */
#ifndef COUPLED_TEST_VARIANT_H
#define COUPLED_TEST_VARIANT_H

#include "coupled/coupled.h"

/**
 * test_word_counted() - the part of a word value that counts participants
 * @w: a value of g->counts
 *
 * Context: any.
 * Return: settled: the whole word (waiting in the low half, ready in the
 * high half); direct: the arrivals.
 */
static inline uint32_t test_word_counted(uint32_t w)
{
#if COUPLED_PROTOCOL_SETTLED
	return w;
#else
	return w & COUPLED__DIRECT_ARRIVALS_MASK;
#endif
}

/**
 * test_group_word() - the group's word, read by a test
 * @g: the group
 *
 * Context: the test orders the read itself (participants stopped, idle or
 * joined).
 * Return: g->counts.
 */
static inline uint32_t test_group_word(struct coupled_group *g)
{
	/* relaxed: see Context. */
	return coupled_load(&g->counts, COUPLED_RELAXED);
}

/**
 * test_group_stopped() - does a membership change hold the group?
 * @g: the group
 *
 * Context: as for test_group_word().
 * Return: settled: prevent is held; direct: the word's stop flag is set.
 */
static inline bool test_group_stopped(struct coupled_group *g)
{
#if COUPLED_PROTOCOL_SETTLED
	/* relaxed: see test_group_word(). */
	return coupled_load(&g->prevent, COUPLED_RELAXED) != 0;
#else
	return (test_group_word(g) & COUPLED__DIRECT_STOP) != 0;
#endif
}

/**
 * test_group_at_rest() - nobody counted in a round, no change in progress
 * @g: the group
 *
 * Settled: the word is 0 and prevent is free.  Direct: no arrival and no
 * stop; the generation field may hold anything.
 *
 * Context: as for test_group_word().
 * Return: true at rest.
 */
static inline bool test_group_at_rest(struct coupled_group *g)
{
	return test_word_counted(test_group_word(g)) == 0 &&
	       !test_group_stopped(g);
}

/**
 * test_roster_consistent() - is the roster the dense list of the members?
 * @g: the group, at rest
 *
 * Entries 0..members-1 name distinct member ids, each id's roster_pos is
 * its index, and every id whose member flag is set is listed.
 *
 * Context: the group at rest, no concurrent membership change.
 * Return: NULL if consistent, else what is wrong (a static string).
 */
static inline const char *test_roster_consistent(struct coupled_group *g)
{
	uint32_t n = coupled_group_members(g), k, id, flagged = 0;

	if (n > g->capacity)
		return "more members than the capacity";
	for (k = 0; k < n; k++) {
		/* relaxed: see Context. */
		id = coupled_load(&g->slots[k].roster, COUPLED_RELAXED);
		if (id >= g->capacity)
			return "a roster entry beyond the capacity";
		if (!coupled_is_member(g, id))
			return "a roster entry names a non-member";
		if (g->slots[id].roster_pos != k)
			return "an id's roster_pos is not its roster index";
	}
	for (id = 0; id < g->capacity; id++)
		if (coupled_is_member(g, id))
			flagged++;
	/* Each listed id is a distinct member (roster_pos is unique), so
	 * equal counts mean every member is listed. */
	if (flagged != n)
		return "member flags and the member count disagree";
	return NULL;
}

#endif /* COUPLED_TEST_VARIANT_H */

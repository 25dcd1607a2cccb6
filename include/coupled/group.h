/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/group.h - a group's set-up and queries: coupled_group_init(), the
 * member queries, the adapter-state accessors, the statistics and the stock
 * reductions, documented in coupled/coupled.h; and the test hooks, which
 * are not part of the API and are documented here.
 */
#include "coupled.h" /* first: this file is part of coupled/coupled.h */

#ifndef COUPLED_GROUP_H
#define COUPLED_GROUP_H

static inline int32_t coupled_reduce_min(int32_t acc, int32_t request)
{
	return request < acc ? request : acc;
}

static inline int32_t coupled_reduce_max(int32_t acc, int32_t request)
{
	return request > acc ? request : acc;
}

static inline int coupled_group_init(struct coupled_group *g,
				     struct coupled_slot *slots,
				     uint32_t capacity,
				     uint32_t initial_members,
				     coupled_reduce_fn reduce)
{
	uint32_t i;

	if (!g || !slots)
		return COUPLED_EINVAL;
	if (capacity == 0 || capacity > COUPLED_MAX_MEMBERS)
		return COUPLED_ERANGE;
	if (initial_members > capacity)
		return COUPLED_EINVAL;

	/*
	 * Plain initialisation: nobody else may look at the group yet; the
	 * caller publishes it (e.g. by creating the threads) afterwards.
	 */
	coupled_atomic_init(&g->counts, 0u);
	coupled_atomic_init(&g->members, initial_members);
	coupled_atomic_init(&g->round_gen, 0u);
	coupled_atomic_init(&g->round_param, 0);
	coupled_atomic_init(&g->prevent, 0u);
	coupled__protocol_init_group(g);
	coupled_atomic_init(&g->barrier_count, 0u);
	coupled_atomic_init(&g->barrier_sense, 0u);
	coupled_atomic_init(&g->vote[0], 0u);
	coupled_atomic_init(&g->vote[1], 0u);
	g->capacity = capacity;
	g->reduce = reduce ? reduce : coupled_reduce_min;
	g->slots = slots;
	coupled_adapter_group_init(&g->adapter, capacity);

	for (i = 0; i < capacity; i++) {
		struct coupled_slot *s = &slots[i];

		coupled_atomic_init(&s->member, i < initial_members ? 1u : 0u);
		/* The roster starts as 0..initial_members-1, in order. */
		coupled_atomic_init(&s->roster, i);
		s->roster_pos = i;
		coupled_atomic_init(&s->request, 0);
		coupled__protocol_init_slot(s);
		coupled_atomic_init(&s->inside, 0u);
#if COUPLED_ADAPTER_HAS_CONTEXT
		coupled_atomic_init(&s->context_id, 0u);
#endif
		COUPLED__STATS_INIT(s);
		coupled_adapter_slot_init(&g->adapter, &s->adapter, i);
	}
	for (i = 0; i < initial_members; i++)
		coupled__protocol_member_added(g, i);
	return 0;
}

static inline struct coupled_adapter_group *
coupled_group_adapter(struct coupled_group *g)
{
	return &g->adapter;
}

static inline struct coupled_adapter_slot *
coupled_participant_adapter(struct coupled_group *g, uint32_t id)
{
	if (!g || id >= g->capacity)
		return NULL;
	return &g->slots[id].adapter;
}

static inline int coupled_group_kick(struct coupled_group *g)
{
	uint32_t n, k;

	if (!g)
		return COUPLED_EINVAL;
	/*
	 * relaxed: any value will do.  The roster's entries are ids below
	 * the capacity whatever a concurrent change does to them, so a stale
	 * count or entry wakes a wrong id at worst, which is harmless; a
	 * member that a change adds meanwhile is woken by nobody here, but
	 * it cannot be resting in a call the caller wants to reach (it was
	 * not a member when the caller changed its abort source).
	 */
	n = coupled_load(&g->members, COUPLED_RELAXED);
	if (n > g->capacity)
		n = g->capacity;
	for (k = 0; k < n; k++) {
		uint32_t id = coupled__roster_id(g, k);

		if (id < g->capacity)
			coupled_adapter_wake(&g->adapter, &g->slots[id].adapter,
					     id);
	}
	return 0;
}

static inline uint32_t coupled_group_members(struct coupled_group *g)
{
	if (!g)
		return 0;
	/* acquire: pairs with the release store of the count by a change. */
	return coupled_load(&g->members, COUPLED_ACQUIRE);
}

static inline bool coupled_is_member(struct coupled_group *g, uint32_t id)
{
	if (!g || id >= g->capacity)
		return false;
	/*
	 * acquire: pairs with the release (join) or seq_cst (leave) store of
	 * the flag: seeing the id as a member means seeing what the joiner
	 * did before coupled_join().
	 */
	return coupled_load(&g->slots[id].member, COUPLED_ACQUIRE) != 0;
}

static inline int coupled_stats_read(struct coupled_group *g,
				     struct coupled_stats *out)
{
	uint32_t i, r;

	if (!g || !out)
		return COUPLED_EINVAL;
	out->attempts = 0;
	out->commits = 0;
	for (r = 0; r < COUPLED_ABORT_REASONS; r++)
		out->aborts[r] = 0;
	out->retries = 0;
	out->restarts = 0;
	for (i = 0; i < g->capacity; i++)
		COUPLED__STATS_ADD(out, &g->slots[i]);
	return COUPLED__STATS_READ_RESULT;
}

/* ---- test hooks: not part of the API (coupled/coupled.h) ------------- */

/**
 * coupled_group_set_generation() - test hook: put a group at a chosen round
 *                                  generation
 * @g: the group
 * @generation: the generation of the last decided round
 *
 * A test hook, not part of the API: a real group only ever moves its
 * generation by deciding rounds.
 *
 * The round generation is a 32-bit counter that wraps: a group deciding a
 * million rounds a second wraps it in 72 minutes.  This call lets a test
 * reach any generation at once, without deciding the rounds: @g becomes what
 * it would be after rounds up to @generation had been decided with its
 * current members.  The generation of the last decision becomes
 * @generation, and so does the protocol's own round state
 * (coupled__protocol_set_generation(): in the settled protocol the exit
 * gate and every member's acknowledgement).  A non-member's
 * acknowledgement is left as it is, as it would be after any number of
 * rounds without that id: 0 for an id that was never a member, the
 * generation of its last round for one that left.  So a test can build
 * what the wrap does to a joiner, a next round whose generation equals the
 * joiner's stale acknowledgement: this call with UINT32_MAX, then
 * coupled_join() of an id that was never a member; or an id leaves after
 * its round G, this call puts the group at G - 1 (2^32 - 1 rounds later),
 * and the id rejoins.
 *
 * Context: tests only, with the group at rest: nobody inside a call of @g,
 * no membership change in progress, and no concurrent access to @g (as for
 * coupled_group_init(); the caller publishes the group afterwards, e.g. by
 * creating the threads).
 * Return: 0; COUPLED_EINVAL for a null @g; COUPLED_EBUSY if somebody counts
 * in a round, is inside a call or runs a membership change (settled:
 * prevent; direct: stop; nothing is written).
 */
static inline int coupled_group_set_generation(struct coupled_group *g,
					       uint32_t generation)
{
	uint32_t i;

	if (!g)
		return COUPLED_EINVAL;
	if (!coupled__protocol_idle(g))
		return COUPLED_EBUSY;
	/*
	 * relaxed, these loads and the store below: the group is at rest
	 * and not shared concurrently (see Context); the checks only refuse
	 * a call that breaks that rule in a way visible from here.
	 */
	for (i = 0; i < g->capacity; i++)
		if (coupled_load(&g->slots[i].inside, COUPLED_RELAXED))
			return COUPLED_EBUSY;
	coupled_store(&g->round_gen, generation, COUPLED_RELAXED);
	coupled__protocol_set_generation(g, generation);
	return 0;
}

#endif /* COUPLED_GROUP_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/membership.h - membership changes: coupled_join() and
 * coupled_leave() (documented in coupled/coupled.h) and the roster, the
 * dense list of member ids the protocol walks.
 *
 * A change runs between coupled__membership_begin() and
 * coupled__membership_end(), which the protocol variant defines
 * (coupled/settled.h, coupled/direct.h): begin stops new rounds, makes the
 * participants resting in a round see it and give up, and waits until
 * nobody counts in a round; then the member flags, the count and the roster
 * are stable and only the changer writes them; end publishes them to the
 * next entrants.
 */
#include "coupled.h" /* first: this file is part of coupled/coupled.h */

#ifndef COUPLED_MEMBERSHIP_H
#define COUPLED_MEMBERSHIP_H

/**
 * coupled__caller_inside() - is the calling context inside a call of @g?
 * @g: the group
 *
 * A membership change waits until nobody counts in a round, and a caller
 * inside coupled_enter() of @g (in an action, in should_abort, in the
 * adapter's work check, or interrupted there by a handler on the same
 * context) counts in a round until that call returns: the change would wait
 * for itself forever.  With an adapter that names execution contexts, that
 * is one relaxed load per slot; without one (COUPLED_ADAPTER_HAS_CONTEXT 0)
 * nothing is checked and the misuse is the caller's to avoid.
 *
 * Return: true if a call of @g by the calling context is in progress.
 */
static inline bool coupled__caller_inside(struct coupled_group *g)
{
#if COUPLED_ADAPTER_HAS_CONTEXT
	uint32_t me = coupled_adapter_context(&g->adapter);
	uint32_t i;

	for (i = 0; i < g->capacity; i++)
		/*
		 * relaxed: a slot holds our id only if we stored it and have
		 * not cleared it yet (nobody else stores our id), and our own
		 * latest store is what coherence makes us read.
		 */
		if (coupled_load(&g->slots[i].context_id, COUPLED_RELAXED) ==
		    me)
			return true;
#else
	(void)g;
#endif
	return false;
}

/**
 * coupled__roster_add() - append an id to the roster, count it
 * @g: the group, rounds stopped by the change and nobody counted in one
 * @id: the new member, not in the roster
 *
 * The roster is the dense list of member ids: slot k's roster field names
 * the k-th member, k < members, and an id's roster_pos is its index.  The
 * protocol walks it instead of the capacity.  Only changers write it, with
 * nobody counted in a round; the end of the change publishes it.
 *
 * Context: coupled_join(), between coupled__membership_begin() and _end().
 */
static inline void coupled__roster_add(struct coupled_group *g, uint32_t id)
{
	/* relaxed: only changers write the count, one at a time. */
	uint32_t n = coupled_load(&g->members, COUPLED_RELAXED);

	/*
	 * relaxed: published to the next round by the release that ends
	 * the change (coupled__membership_end()).
	 */
	coupled_store(&g->slots[n].roster, id, COUPLED_RELAXED);
	g->slots[id].roster_pos = n;
	/*
	 * release: the protocol reads the count after the end of the change,
	 * but coupled_group_members() reads it directly, with acquire.
	 */
	coupled_store(&g->members, n + 1u, COUPLED_RELEASE);
}

/**
 * coupled__roster_remove() - take an id out of the roster, uncount it
 * @g: the group, rounds stopped by the change and nobody counted in one
 * @id: a member, in the roster
 *
 * The last entry moves into the hole: O(1), the roster stays dense.
 *
 * Context: coupled_leave(), between coupled__membership_begin() and _end().
 */
static inline void coupled__roster_remove(struct coupled_group *g, uint32_t id)
{
	/* relaxed, the loads: only changers write these, one at a time. */
	uint32_t n = coupled_load(&g->members, COUPLED_RELAXED);
	uint32_t pos = g->slots[id].roster_pos;
	uint32_t last = coupled_load(&g->slots[n - 1u].roster, COUPLED_RELAXED);

	/* relaxed: published as in coupled__roster_add(). */
	coupled_store(&g->slots[pos].roster, last, COUPLED_RELAXED);
	g->slots[last].roster_pos = pos;
	/* release: as in coupled__roster_add(), for the queries. */
	coupled_store(&g->members, n - 1u, COUPLED_RELEASE);
}

/**
 * coupled__membership_check_and_begin() - refuse a bad request, else begin
 * the change
 * @g: the group
 * @id: the participant
 * @joining: true for coupled_join() (@id must not be a member), false for
 *           coupled_leave() (it must be one)
 *
 * Return: 0 with the change begun (coupled__membership_begin()): the caller
 * changes @id and calls coupled__membership_end(); else the call's error,
 * with nothing held.
 */
static inline int coupled__membership_check_and_begin(struct coupled_group *g,
						      uint32_t id, bool joining)
{
	int refused = joining ? COUPLED_EEXIST : COUPLED_ENOENT;

	if (!g)
		return COUPLED_EINVAL;
	if (id >= g->capacity)
		return COUPLED_ERANGE;
	if (coupled__caller_inside(g))
		return COUPLED_EPERM;
	/*
	 * relaxed: a refused request must not even wake anybody, so check
	 * before taking prevent; this is a hint, the check under prevent
	 * below (ordered by the prevent CAS) settles races.
	 */
	if ((coupled_load(&g->slots[id].member, COUPLED_RELAXED) != 0u) ==
	    joining)
		return refused;
	coupled__membership_begin(g);
	/* relaxed: we hold prevent; only holders write the flags. */
	if ((coupled_load(&g->slots[id].member, COUPLED_RELAXED) != 0u) !=
	    joining)
		return 0;
	coupled__membership_end(g);
	return refused;
}

static inline int coupled_join(struct coupled_group *g, uint32_t id)
{
	int ret = coupled__membership_check_and_begin(g, id, true);

	if (ret)
		return ret;
	/*
	 * The protocol's own state of a member first: the member flag's
	 * release store publishes it to the joiner's calls.
	 * release, both stores: the protocol reads them after the release of
	 * prevent in _end(), but coupled_is_member() and
	 * coupled_group_members() read them directly; their acquire pairs
	 * with these, so a caller who sees the new member also sees what the
	 * joiner did before coupled_join().
	 */
	coupled__protocol_member_added(g, id);
	coupled_store(&g->slots[id].member, 1u, COUPLED_RELEASE);
	coupled__roster_add(g, id);
	coupled__membership_joined(g, id);
	coupled__membership_end(g);
	COUPLED_TRACE_JOIN(g, id);
	return 0;
}

static inline int coupled_leave(struct coupled_group *g, uint32_t id)
{
	int ret = coupled__membership_check_and_begin(g, id, false);

	if (ret)
		return ret;
	/*
	 * seq_cst: the Dekker pair with coupled_enter_opts()'s store of
	 * inside and load of member (see there).
	 */
	coupled_store(&g->slots[id].member, 0u, COUPLED_SEQ_CST);
	coupled__roster_remove(g, id);
	/*
	 * seq_cst: the other half of that pair; also an acquire of the
	 * call's final release store of inside.  A call still inside sees
	 * prevent or stop (held) and returns soon.
	 */
	while (coupled_load(&g->slots[id].inside, COUPLED_SEQ_CST)) {
		COUPLED_HOOK(g, g->capacity, COUPLED_HOOK_LEAVE_DRAIN);
		coupled_adapter_relax(&g->adapter);
	}
	/* Only now: the call that just returned may have used it. */
	coupled__protocol_member_removed(g, id);
	coupled__membership_end(g);
	COUPLED_TRACE_LEAVE(g, id);
	return 0;
}

#endif /* COUPLED_MEMBERSHIP_H */

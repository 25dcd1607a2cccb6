/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/membership.h - membership changes: coupled_join() and
 * coupled_leave() (documented in coupled/coupled.h), and the two halves
 * every change runs between, coupled__membership_begin() and
 * coupled__membership_end().
 *
 * A change takes the group's prevent flag, which stops new rounds: entrants
 * see it and abort (the Dekker pair with phase 0, coupled/protocol.h), and
 * participants resting in phase 1 are poked so that they see it too.  Once
 * nobody counts as waiting, the member flags and count are stable and only
 * the changer writes them; releasing prevent publishes them to the next
 * entrants.
 */
#include "coupled.h" /* first: this file is part of coupled/coupled.h */

#ifndef COUPLED_MEMBERSHIP_H
#define COUPLED_MEMBERSHIP_H

/**
 * coupled__caller_inside() - is the calling context inside a call of @g?
 * @g: the group
 *
 * A membership change waits until nobody counts as waiting, and a caller
 * inside coupled_enter() of @g (in an action, in should_abort, in the
 * adapter's work check, or interrupted there by a handler on the same
 * context) counts as waiting until that call returns: the change would wait
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
		if (coupled_load(&g->slots[i].ctx, COUPLED_RELAXED) == me)
			return true;
#else
	(void)g;
#endif
	return false;
}

/**
 * coupled__membership_begin() - stop rounds and wait until nobody waits
 * @g: the group
 *
 * Takes prevent (also the lock between changers), pokes every member so that
 * those resting in phase 1 see it and abort, then waits until the waiting
 * count drops to 0.  A round that already reached all-ready finishes first.
 */
static inline void coupled__membership_begin(struct coupled_group *g)
{
	uint32_t expected = 0;

	/*
	 * seq_cst on success: the Dekker pair with the arrival in
	 * coupled__phase_entry()
	 * and its seq_cst load of prevent.  relaxed on failure: we retry.
	 */
	while (!coupled_cas(&g->prevent, &expected, 1u, COUPLED_SEQ_CST,
			    COUPLED_RELAXED)) {
		expected = 0;
		coupled_adapter_relax(&g->adapter);
	}
	coupled__poke_members(g, g->capacity);
	/*
	 * seq_cst: second half of the Dekker pair (it is also an acquire,
	 * pairing with the release of leave-waiting and done).
	 */
	while (coupled_word_waiting(coupled_load(&g->counts, COUPLED_SEQ_CST)))
		coupled_adapter_relax(&g->adapter);
	COUPLED_HOOK(g, g->capacity, COUPLED_HOOK_MEMBERSHIP);
}

/**
 * coupled__membership_end() - let rounds run again
 * @g: the group
 */
static inline void coupled__membership_end(struct coupled_group *g)
{
	/*
	 * release: pairs with the entrants' seq_cst/acquire loads of
	 * prevent, publishing the new member flags and count.
	 */
	coupled_store(&g->prevent, 0u, COUPLED_RELEASE);
}

static inline int coupled_join(struct coupled_group *g, uint32_t id)
{
	int ret = 0;

	if (!g)
		return COUPLED_EINVAL;
	if (id >= g->capacity)
		return COUPLED_ERANGE;
	if (coupled__caller_inside(g))
		return COUPLED_EPERM;
	/*
	 * relaxed: a refused request must not even poke anybody, so check
	 * before taking prevent; this is a hint, the check under prevent
	 * below (ordered by the prevent CAS) settles races.
	 */
	if (coupled_load(&g->slots[id].member, COUPLED_RELAXED))
		return COUPLED_EEXIST;
	coupled__membership_begin(g);
	/* relaxed: we hold prevent; only holders write the flags. */
	if (coupled_load(&g->slots[id].member, COUPLED_RELAXED)) {
		ret = COUPLED_EEXIST;
	} else {
		/*
		 * release, both stores: the protocol reads them after the
		 * release of prevent in _end(), but coupled_is_member() and
		 * coupled_group_members() read them directly; their acquire
		 * pairs with these, so a caller who sees the new member also
		 * sees what the joiner did before coupled_join().
		 */
		coupled_store(&g->slots[id].member, 1u, COUPLED_RELEASE);
		coupled_store(&g->members,
			      coupled_load(&g->members, COUPLED_RELAXED) + 1u,
			      COUPLED_RELEASE);
		/*
		 * The joiner acknowledges the last decision, as every member
		 * has at rest: its old value (0 for an id that was never a
		 * member, its last round's generation for one that left)
		 * could equal the next round's generation after the 32-bit
		 * wrap and pass the closer's check in coupled__phase_exit() before
		 * the joiner saw that round's decision.
		 * relaxed, the load: no round is being decided or exited (a
		 * change holds prevent and saw waiting == 0 with seq_cst,
		 * which also acquired every done, so the last closer's store
		 * of round_gen happens before this load).
		 * relaxed, the store: published by the release of prevent in
		 * coupled__membership_end(), which pairs with the entrants'
		 * seq_cst load of prevent, before any closer's scan of acks;
		 * the joiner's own later acks are ordered after it the same
		 * way.
		 */
		coupled_store(&g->slots[id].ack,
			      coupled_load(&g->round_gen, COUPLED_RELAXED),
			      COUPLED_RELAXED);
	}
	coupled__membership_end(g);
	return ret;
}

static inline int coupled_leave(struct coupled_group *g, uint32_t id)
{
	int ret = 0;

	if (!g)
		return COUPLED_EINVAL;
	if (id >= g->capacity)
		return COUPLED_ERANGE;
	if (coupled__caller_inside(g))
		return COUPLED_EPERM;
	/* relaxed: a hint, as in coupled_join(); refuse before poking. */
	if (!coupled_load(&g->slots[id].member, COUPLED_RELAXED))
		return COUPLED_ENOENT;
	coupled__membership_begin(g);
	/* relaxed: we hold prevent; only holders write the flags. */
	if (!coupled_load(&g->slots[id].member, COUPLED_RELAXED)) {
		ret = COUPLED_ENOENT;
	} else {
		/*
		 * seq_cst: the Dekker pair with coupled_enter_opts()'s store
		 * of inside and load of member (see there).
		 */
		coupled_store(&g->slots[id].member, 0u, COUPLED_SEQ_CST);
		/* release: as in coupled_join(), for the queries. */
		coupled_store(&g->members,
			      coupled_load(&g->members, COUPLED_RELAXED) - 1u,
			      COUPLED_RELEASE);
		/*
		 * seq_cst: the other half of that pair; also an acquire of
		 * the call's final release store of inside.  A call still
		 * inside sees prevent (held) and returns soon.
		 */
		while (coupled_load(&g->slots[id].inside, COUPLED_SEQ_CST)) {
			COUPLED_HOOK(g, g->capacity, COUPLED_HOOK_LEAVE_DRAIN);
			coupled_adapter_relax(&g->adapter);
		}
	}
	coupled__membership_end(g);
	return ret;
}

#endif /* COUPLED_MEMBERSHIP_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/protocol.h - the round: coupled_enter_opts() and coupled_enter()
 * (documented in coupled/coupled.h), and the choice between the two
 * variants of the protocol.
 *
 * A round commits at one point, and after it nobody can back out; before it
 * anybody can give up and leave the group as if it had never come.  Where
 * that point lies depends on what the adapter's wake-ups can do
 * (COUPLED_ADAPTER_WAKE_CAN_BE_LOST, coupled/adapter.h):
 *
 *  direct   (coupled/direct.h) a wake-up cannot be lost: spinning, futex,
 *           condition variables, WFE/SEV.  One word holds the arrival
 *           count and the round generation; an arrival is one atomic
 *           increment, and the arrival that completes the count is the
 *           commit point.  The completer reduces the requests, starts the
 *           next generation and wakes the others.  Giving up is one CAS
 *           that fails once the count is complete.  One RMW per member and
 *           round where nobody sleeps.
 *
 *  settled  (coupled/settled.h) a wake-up can be lost or stay pending: an
 *           IPI-woken idle state, WFI with a software-generated interrupt.
 *           Every member must be known awake before the commit (each
 *           wake-up is a settled poke, counted, and checked as handled),
 *           so a round has a waiting phase and a ready phase, and the
 *           member that completes "all ready" decides, restarting the round
 *           while a settled poke is still pending.  This is the generalized
 *           coupled-cpuidle protocol.
 *
 * Both keep the same guarantees (all or none, one reduced parameter,
 * irrevocable commit, aborts, membership changes with no round on a stale
 * member count) and are verified the same way (docs/verification.md).  A
 * build may force either with COUPLED_PROTOCOL_SETTLED or
 * COUPLED_PROTOCOL_DIRECT defined to 1; forcing direct on an adapter whose
 * wake-ups can be lost is refused.
 *
 * This file is the seam between the library and the variant, with
 * coupled/protocol_state.h, which picks the variant's state (its header
 * declares the field "variant" of coupled/coupled.h's structs and says who
 * writes it).  coupled/coupled.h includes this file once, after its
 * structs; it includes the variant's round, which defines
 *   - coupled__run(), the round;
 *   - coupled__protocol_init_group() and _init_slot(), its state in
 *     coupled_group_init();
 *   - coupled__protocol_idle(): nobody counts in a round and no change
 *     runs (the word and prevent at rest);
 *   - coupled__protocol_set_generation(), its state at a chosen generation
 *     (for the test hook coupled_group_set_generation(), coupled/group.h);
 *   - coupled__membership_begin(), _end() and _joined(), and
 *     coupled__protocol_member_added() and _removed(), the variant's state
 *     of a member that joins or leaves (coupled/membership.h; _added() also
 *     in coupled_group_init()).
 * coupled/coupled.h and coupled/group.h use only these, never the
 * variant's name.
 *
 * Besides, this file holds what both share: the argument checks, the
 * re-entry guard and the statistics of coupled_enter_opts() (commits and
 * aborts, counted here by return code), the abort sources and the roster
 * access.  Who writes each field: coupled/coupled.h for those it names,
 * the variant's state header for its own.
 */
#include "coupled.h" /* first: this file is part of coupled/coupled.h */

#ifndef COUPLED_PROTOCOL_H
#define COUPLED_PROTOCOL_H

/**
 * coupled__roster_id() - the id of the k-th member
 * @g: the group
 * @k: an index below the round's member count
 *
 * Context: the membership is stable (the caller counts in a round, or
 * stops rounds for a change).
 * Return: a member id.
 */
static inline uint32_t coupled__roster_id(struct coupled_group *g, uint32_t k)
{
	/*
	 * relaxed: written only by membership changes, which publish it
	 * with the release that lets rounds run again; whoever walks the
	 * roster acquired that when it entered the round.
	 */
	return coupled_load(&g->slots[k].roster, COUPLED_RELAXED);
}

/**
 * coupled__abort_reason() - poll the caller's abort sources
 * @g: the group
 * @self: the caller
 * @opts: the caller's options, may be NULL
 * @deadline_counts: whether @opts->deadline may still end the call (direct:
 *                   in its whole wait; settled: while waiting, not once ready)
 * @changing: the variant saw a membership change in progress
 *
 * Return: a COUPLED_ABORT_* reason, or 0 to go on.
 */
static inline int coupled__abort_reason(struct coupled_group *g, uint32_t self,
					const struct coupled_abort_opts *opts,
					bool deadline_counts, bool changing)
{
	struct coupled_slot *s = &g->slots[self];

	if (coupled_adapter_work_pending(&g->adapter, &s->adapter, self))
		return COUPLED_ABORT_WORK;
	if (changing)
		return COUPLED_ABORT_MEMBERSHIP;
	if (opts && opts->should_abort &&
	    opts->should_abort(opts->abort_arg, self))
		return COUPLED_ABORT_CALLER;
	if (deadline_counts && opts && opts->deadline &&
	    coupled_adapter_now(&g->adapter) >= opts->deadline)
		return COUPLED_ABORT_TIMEOUT;
	return 0;
}

/* The variant's round. */
#if COUPLED_PROTOCOL_SETTLED
#include "settled.h"
#else
#include "direct.h"
#endif

/**
 * coupled__enter_inside() - mark the caller inside its call, if a member
 * @g: the group
 * @s: the caller's slot
 *
 * Context: coupled_enter_opts(), after its argument checks.
 * Return: 0 with the caller inside (its context id stored), or
 * COUPLED_ENOENT with the flag cleared again: the caller was removed.
 */
static inline int coupled__enter_inside(struct coupled_group *g,
					struct coupled_slot *s)
{
	(void)g;
	/*
	 * seq_cst, this store and the load after it: a Dekker pair with
	 * coupled_leave() (seq_cst store of member, then seq_cst load of
	 * inside).  Either we see that we were removed and return without
	 * touching the word, or the leaver sees us inside and waits until
	 * this call returns.  Without it, a call racing with its own removal
	 * could count in a round after the change ended, a stray arrival that
	 * could complete a round of the new membership.
	 */
	coupled_store(&s->inside, 1u, COUPLED_SEQ_CST);
	if (!coupled_load(&s->member, COUPLED_SEQ_CST)) {
		/*
		 * relaxed: since setting the flag this call only loaded
		 * member, so it has nothing to publish to the leaver.
		 */
		coupled_store(&s->inside, 0u, COUPLED_RELAXED);
		return COUPLED_ENOENT;
	}
#if COUPLED_ADAPTER_HAS_CONTEXT
	/*
	 * relaxed, this store and the one in coupled__enter_outside(): only
	 * this context ever stores its own id, and only a change requested by
	 * this same context needs to find it (coupled__caller_inside());
	 * coherence alone makes that context read its own latest store.
	 */
	coupled_store(&s->context_id, coupled_adapter_context(&g->adapter),
		      COUPLED_RELAXED);
#endif
	return 0;
}

/**
 * coupled__enter_outside() - count a call's result and leave the call
 * @g: the group
 * @self: the caller
 * @ret: what the round returned
 *
 * Context: coupled_enter_opts(), after coupled__run().
 * Return: @ret.
 */
static inline int coupled__enter_outside(struct coupled_group *g, uint32_t self,
					 int ret)
{
	struct coupled_slot *s = &g->slots[self];

	/* Every commit and abort, counted once (coupled/coupled.h). */
	if (ret == COUPLED_COMMITTED) {
		COUPLED__STAT_INC(s, commits);
	} else if (ret > 0 && ret < COUPLED_ABORT_REASONS) {
		COUPLED__STAT_INC(s, aborts[ret]);
		COUPLED_TRACE_ABORT(g, self, ret);
	}
#if COUPLED_ADAPTER_HAS_CONTEXT
	coupled_store(&s->context_id, 0u, COUPLED_RELAXED);
#endif
	/*
	 * release: pairs with the leaver's seq_cst load of inside; this
	 * call's accesses to the group happen before the leave completes.
	 */
	coupled_store(&s->inside, 0u, COUPLED_RELEASE);
	return ret;
}

static inline int coupled_enter_opts(struct coupled_group *g, uint32_t self,
				     int32_t request, coupled_action_fn action,
				     void *ctx,
				     const struct coupled_abort_opts *opts)
{
	struct coupled_slot *s;
	int ret;

	if (!g || !action || request < 0)
		return COUPLED_EINVAL;
	if (self >= g->capacity)
		return COUPLED_ERANGE;
	if (opts && opts->deadline && !COUPLED_ADAPTER_HAS_CLOCK)
		return COUPLED_EOPNOTSUPP;
	s = &g->slots[self];
	/*
	 * relaxed: an early refusal only; the seq_cst load in
	 * coupled__enter_inside() decides, and the variant's own check of a
	 * change in progress after the arrival is what orders the membership
	 * for the protocol.
	 */
	if (!coupled_load(&s->member, COUPLED_RELAXED))
		return COUPLED_ENOENT;
	/* relaxed: only this participant's own context writes the flag. */
	if (coupled_load(&s->inside, COUPLED_RELAXED))
		return COUPLED_EBUSY;
	ret = coupled__enter_inside(g, s);
	if (ret)
		return ret;
	COUPLED_TRACE_ENTER(g, self, request);
	ret = coupled__run(g, self, request, action, ctx, opts);
	return coupled__enter_outside(g, self, ret);
}

static inline int coupled_enter(struct coupled_group *g, uint32_t self,
				int32_t request, coupled_action_fn action,
				void *ctx)
{
	return coupled_enter_opts(g, self, request, action, ctx, NULL);
}

#endif /* COUPLED_PROTOCOL_H */

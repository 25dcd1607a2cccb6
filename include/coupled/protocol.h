/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/protocol.h - the round: coupled_enter_opts() and coupled_enter()
 * (documented in coupled/coupled.h), one function per phase.
 *
 * A call goes through these phases (docs/design.md has the diagram and the
 * argument for every memory order):
 *
 *  0. entry   coupled__phase_entry(): discard pokes that predate this
 *             attempt, publish the request, count as waiting in the packed
 *             word; the last arriver pokes the others.
 *  1. waiting coupled__phase_waiting(): rest in the adapter's safe state
 *             until every member is waiting and this participant has been
 *             poked (unless it was the last arriver).  Work pending, a
 *             membership change, the caller's abort or the phase-1 deadline
 *             make it leave and return an abort code, with the word as if it
 *             never entered.
 *  2. ready   coupled__phase_ready(): count as ready and spin until the
 *             round is decided.  If some member stopped waiting, back out of
 *             ready (unless the word is all-ready) and go back to phase 1;
 *             abort sources are honoured the same way.  The one participant
 *             whose increment makes the word all-ready is the round's
 *             *closer*.
 *  3. decide  coupled__phase_decide(), the closer alone: restart if any
 *             member still has a poke pending (the lost-wake check),
 *             otherwise commit with the reduction of all requests; publish
 *             the decision under a new round generation.
 *  4. action  coupled__phase_action(): read the decision and acknowledge it;
 *             on commit every member runs the action exactly once with the
 *             same parameter; coupled_barrier() and coupled_vote() work
 *             inside.
 *  5. exit    coupled__phase_exit(): only when every member has acknowledged
 *             the decision (the closer checks, then opens the exit gate) does
 *             anyone leave both halves of the word (coupled_word_done()),
 *             then each waits until no member is ready.  On restart
 *             everybody then starts again at phase 0.
 *
 * coupled__run() strings the phases together.
 *
 * Irrevocable commit: the all-ready value is absorbing until the first
 * coupled_word_done(), and nobody reaches that before every member has seen
 * the decision, so a slow member can never back out of a round the others
 * committed.
 *
 * Who writes each field (struct coupled_slot, struct coupled_group):
 *   slot.member        membership changes only (holding prevent)
 *   slot.request       the owner, per attempt
 *   slot.poke_seq      any poker (an RMW)
 *   slot.poke_handled  the owner
 *   slot.ack           the owner; coupled_join() (the current generation)
 *   slot.inside        the owner, around its call: the re-entry guard, and
 *                      what coupled_leave() waits on (a Dekker pair with
 *                      slot.member)
 *   slot.ctx           the execution context inside the slot's call (its
 *                      adapter id, 0 when none)
 *   counts             every member (RMWs only, coupled/word.h)
 *   members, prevent   membership changes
 *   round_gen, round_outcome, round_param, exit_gate   the round's closer
 *   barrier_count, barrier_sense, vote[2]              members in an action
 */
#include "coupled.h" /* first: this file is part of coupled/coupled.h */

#ifndef COUPLED_PROTOCOL_H
#define COUPLED_PROTOCOL_H

/* Decision of a round, published by its closer. */
#define COUPLED__OUTCOME_COMMIT 1u
#define COUPLED__OUTCOME_RESTART 2u

/*
 * What a phase function returns besides a code that ends the call (a
 * COUPLED_ABORT_* reason or COUPLED_ENOENT): go on to the next phase, or,
 * from phase 2, go back to phase 1.  Neither is a return code of the library
 * (coupled/errno.h).
 */
#define COUPLED__NEXT_PHASE 0
#define COUPLED__BACK_TO_WAITING 0x100

/* The phases, in order (defined below in the same order). */
static inline int coupled__phase_entry(struct coupled_group *g, uint32_t self,
				       int32_t request, uint32_t *members,
				       bool *poked);
static inline int coupled__phase_waiting(struct coupled_group *g, uint32_t self,
					 uint32_t n,
					 const struct coupled_abort_opts *opts,
					 bool poked);
static inline int coupled__phase_ready(struct coupled_group *g, uint32_t self,
				       uint32_t n,
				       const struct coupled_abort_opts *opts,
				       uint32_t *decided, bool *closer);
static inline void coupled__phase_decide(struct coupled_group *g,
					 uint32_t members, uint32_t gen);
static inline uint32_t
coupled__phase_action(struct coupled_group *g, uint32_t self, uint32_t n,
		      uint32_t gen, coupled_action_fn action, void *ctx);
static inline void coupled__phase_exit(struct coupled_group *g, uint32_t self,
				       bool closer, uint32_t gen);

/**
 * coupled__poke() - wake a participant and count the poke
 * @g: the group
 * @target: the participant to poke
 *
 * Context: any.
 */
static inline void coupled__poke(struct coupled_group *g, uint32_t target)
{
	struct coupled_slot *t = &g->slots[target];

	/*
	 * release: pairs with the acquire load in coupled__handle_pokes(), so
	 * a target that sees this poke also sees the word change (an arrival
	 * or prevent) that caused it.  An RMW because pokers may race.
	 */
	(void)coupled_fetch_add(&t->poke_seq, 1u, COUPLED_RELEASE);
	coupled_adapter_wake(&g->adapter, &t->adapter, target);
}

/**
 * coupled__poke_members() - poke every member except one
 * @g: the group
 * @except: the id not to poke (pass g->capacity to poke all)
 *
 * Context: the membership is stable (the caller is counted as waiting, or
 * holds prevent).
 */
static inline void coupled__poke_members(struct coupled_group *g,
					 uint32_t except)
{
	uint32_t i;

	for (i = 0; i < g->capacity; i++) {
		/*
		 * relaxed: membership is stable here and was published to us
		 * by the seq_cst/acquire load of prevent that let us in.
		 */
		if (i != except &&
		    coupled_load(&g->slots[i].member, COUPLED_RELAXED))
			coupled__poke(g, i);
	}
}

/**
 * coupled__handle_pokes() - take note of pokes received
 * @s: the caller's own slot
 *
 * The analog of handling the poke interrupt: marks every poke sent so far as
 * handled.
 *
 * Return: true if at least one poke was new.
 */
static inline bool coupled__handle_pokes(struct coupled_slot *s)
{
	/* acquire: pairs with the release increment in coupled__poke(). */
	uint32_t seq = coupled_load(&s->poke_seq, COUPLED_ACQUIRE);
	/* relaxed: this slot's owner is the only writer of poke_handled. */
	uint32_t handled = coupled_load(&s->poke_handled, COUPLED_RELAXED);

	if (seq == handled)
		return false;
	/*
	 * relaxed: the closer reads it after the owner's acq_rel ready
	 * increment, which publishes it (coupled_word_arrive_ready()).
	 */
	coupled_store(&s->poke_handled, seq, COUPLED_RELAXED);
	return true;
}

/**
 * coupled__abort_reason() - poll the abort sources
 * @g: the group
 * @self: the caller
 * @opts: the caller's options, may be NULL
 * @phase1: true in phase 1, where the deadline also counts
 *
 * Return: a COUPLED_ABORT_* reason, or 0 to go on.
 */
static inline int coupled__abort_reason(struct coupled_group *g, uint32_t self,
					const struct coupled_abort_opts *opts,
					bool phase1)
{
	struct coupled_slot *s = &g->slots[self];

	if (coupled_adapter_work_pending(&g->adapter, &s->adapter, self))
		return COUPLED_ABORT_WORK;
	/* relaxed: a hint only; entry re-checks prevent with seq_cst. */
	if (coupled_load(&g->prevent, COUPLED_RELAXED))
		return COUPLED_ABORT_MEMBERSHIP;
	if (opts && opts->should_abort &&
	    opts->should_abort(opts->abort_arg, self))
		return COUPLED_ABORT_CALLER;
	if (phase1 && opts && opts->deadline &&
	    coupled_adapter_now(&g->adapter) >= opts->deadline)
		return COUPLED_ABORT_TIMEOUT;
	return 0;
}

/**
 * coupled__phase_entry() - phase 0: arrive, counted as waiting
 * @g: the group
 * @self: the caller, a member, inside its call
 * @request: the caller's request
 * @members: receives the round's member count
 * @poked: receives true for the last arriver, which needs no poke
 *
 * Context: coupled__run(), at the start of every attempt.
 * Return: COUPLED__NEXT_PHASE, counted as waiting; or COUPLED_ABORT_MEMBERSHIP
 * or COUPLED_ENOENT, not counted.
 */
static inline int coupled__phase_entry(struct coupled_group *g, uint32_t self,
				       int32_t request, uint32_t *members,
				       bool *poked)
{
	struct coupled_slot *s = &g->slots[self];
	uint32_t n, w;

	/*
	 * Pokes that arrived before this attempt cannot be the poke of its
	 * last arriver (that one arrives after us, or is us): handle them now
	 * so that they do not count as "poked" below.
	 */
	(void)coupled__handle_pokes(s);
	/* relaxed: published to the closer by the arrival RMW (release). */
	coupled_store(&s->request, request, COUPLED_RELAXED);
	/* relaxed: a cheap early-out; the seq_cst check below decides. */
	if (coupled_load(&g->prevent, COUPLED_RELAXED)) {
		COUPLED__STAT_INC(s, aborts[COUPLED_ABORT_MEMBERSHIP]);
		return COUPLED_ABORT_MEMBERSHIP;
	}

	COUPLED_HOOK(g, self, COUPLED_HOOK_ARRIVE);
	w = coupled_word_arrive_waiting(&g->counts);
	/* Every arrival counts, also one that then sees a change. */
	COUPLED__STAT_INC(s, attempts);
	/*
	 * seq_cst: the other half of the Dekker pair with
	 * coupled__membership_begin(): either we see prevent, or the changer
	 * sees our waiting count and waits for us to leave.  Also an acquire:
	 * the member count and flags written before prevent was cleared are
	 * visible from here on, and stay stable while we count as waiting.
	 */
	if (coupled_load(&g->prevent, COUPLED_SEQ_CST)) {
		coupled_word_leave_waiting(&g->counts);
		COUPLED__STAT_INC(s, aborts[COUPLED_ABORT_MEMBERSHIP]);
		return COUPLED_ABORT_MEMBERSHIP;
	}
	/*
	 * relaxed: stable while we count as waiting (see above).  Defensive:
	 * coupled_leave() keeps prevent until our call has returned, so a
	 * removed participant aborts on prevent above and never gets here.
	 */
	if (!coupled_load(&s->member, COUPLED_RELAXED)) {
		coupled_word_leave_waiting(&g->counts);
		return COUPLED_ENOENT;
	}
	/* relaxed: stable while we count as waiting (see above). */
	n = coupled_load(&g->members, COUPLED_RELAXED);
	*members = n;

	*poked = false;
	if (coupled_word_waiting(w) == n) {
		/* The last arriver pokes the others and needs no poke itself. */
		COUPLED_HOOK(g, self, COUPLED_HOOK_LAST_ARRIVER);
		coupled__poke_members(g, self);
		*poked = true;
	}
	return COUPLED__NEXT_PHASE;
}

/**
 * coupled__phase_waiting() - phase 1: rest until all wait and we were poked
 * @g: the group
 * @self: the caller, counted as waiting
 * @n: the round's member count
 * @opts: the caller's abort sources, may be NULL
 * @poked: true if the caller needs no (further) poke: the last arriver
 *
 * Context: coupled__run(), after phase 0 or after a back-out from phase 2.
 * Return: COUPLED__NEXT_PHASE, still counted as waiting; or a COUPLED_ABORT_*
 * reason, no longer counted.
 */
static inline int coupled__phase_waiting(struct coupled_group *g, uint32_t self,
					 uint32_t n,
					 const struct coupled_abort_opts *opts,
					 bool poked)
{
	struct coupled_slot *s = &g->slots[self];
	struct coupled_adapter_group *ag = &g->adapter;
	uint32_t token;
	int reason;

	for (;;) {
		uint32_t c;

		token = coupled_adapter_wait_prepare(ag, &s->adapter, self);
		if (coupled__handle_pokes(s))
			poked = true;
		reason = coupled__abort_reason(g, self, opts, true);
		if (reason) {
			coupled_word_leave_waiting(&g->counts);
			COUPLED__STAT_INC(s, aborts[reason]);
			return reason;
		}
		/*
		 * relaxed: only tells whether to try the ready phase, whose
		 * RMWs check again; a poke (acquire) is what orders it when
		 * it matters.
		 */
		c = coupled_load(&g->counts, COUPLED_RELAXED);
		if (coupled_word_waiting(c) == n && poked)
			return COUPLED__NEXT_PHASE;
		COUPLED_HOOK(g, self, COUPLED_HOOK_PHASE1_SLEEP);
		coupled_adapter_wait(ag, &s->adapter, self, token,
				     opts ? opts->deadline : 0);
	}
}

/**
 * coupled__phase_ready() - phase 2: count as ready until the round is decided
 * @g: the group
 * @self: the caller, counted as waiting
 * @n: the round's member count
 * @opts: the caller's abort sources, may be NULL
 * @decided: receives the generation of the decided round
 * @closer: receives true if the caller is the round's closer (it then ran
 *          phase 3 itself)
 *
 * Context: coupled__run(), after phase 1.
 * Return: COUPLED__NEXT_PHASE once the round is decided; or
 * COUPLED__BACK_TO_WAITING after backing out because a member stopped
 * waiting (still counted as waiting, to be poked again by whoever completes
 * "all waiting" next); or a COUPLED_ABORT_* reason, no longer counted.
 */
static inline int coupled__phase_ready(struct coupled_group *g, uint32_t self,
				       uint32_t n,
				       const struct coupled_abort_opts *opts,
				       uint32_t *decided, bool *closer)
{
	struct coupled_slot *s = &g->slots[self];
	uint32_t gen;
	int reason;

	/*
	 * relaxed: no round can be decided without our ready increment, so
	 * this is the latest generation and we saw its decision (acquire)
	 * when we took part in it, or it predates our membership.
	 */
	gen = coupled_load(&g->round_gen, COUPLED_RELAXED);
	COUPLED_HOOK(g, self, COUPLED_HOOK_READY);
	*closer = coupled_word_arrive_ready(&g->counts) ==
		  coupled_word_all_ready(n);
	if (*closer)
		coupled__phase_decide(g, n, gen);

	for (;;) {
		uint32_t c;

		COUPLED_HOOK(g, self, COUPLED_HOOK_READY_SPIN);
		/* acquire: pairs with the closer's release of the decision. */
		if (coupled_load(&g->round_gen, COUPLED_ACQUIRE) != gen)
			break;
		reason = coupled__abort_reason(g, self, opts, false);
		/* relaxed: a hint; the back-out below is the real check. */
		c = coupled_load(&g->counts, COUPLED_RELAXED);
		if (reason || coupled_word_waiting(c) != n) {
			COUPLED_HOOK(g, self, COUPLED_HOOK_BACK_OUT);
			if (coupled_word_back_out_ready(&g->counts, n)) {
				if (reason) {
					coupled_word_leave_waiting(&g->counts);
					COUPLED__STAT_INC(s, aborts[reason]);
					return reason;
				}
				COUPLED__STAT_INC(s, retries);
				return COUPLED__BACK_TO_WAITING;
			}
			/* All ready: the decision is on its way. */
		}
		coupled_adapter_relax(&g->adapter);
	}
	*decided = gen + 1u;
	return COUPLED__NEXT_PHASE;
}

/**
 * coupled__phase_decide() - phase 3: the closer decides the round
 * @g: the group
 * @members: the round's member count
 * @gen: the generation of the previous decision
 *
 * Context: only the participant whose ready increment made the word
 * all-ready; every member is ready and spinning, so no member handles a poke
 * or changes its request until the decision is published.  A membership
 * change may still send pokes meanwhile; one seen pending here only turns
 * the round into a restart, after which its callers see prevent and abort.
 */
static inline void coupled__phase_decide(struct coupled_group *g,
					 uint32_t members, uint32_t gen)
{
	uint32_t i, seen = 0;
	bool pending = false;
	int32_t acc = 0;

	(void)members;
	for (i = 0; i < g->capacity; i++) {
		struct coupled_slot *s = &g->slots[i];
		int32_t r;

		/*
		 * relaxed, all four loads: the closer's acq_rel increment that
		 * completed the word synchronized with every member's ready
		 * increment, which was sequenced after its request store and
		 * its last poke_handled store; membership is stable.
		 */
		if (!coupled_load(&s->member, COUPLED_RELAXED))
			continue;
		if (coupled_load(&s->poke_seq, COUPLED_RELAXED) !=
		    coupled_load(&s->poke_handled, COUPLED_RELAXED))
			pending = true;
		r = coupled_load(&s->request, COUPLED_RELAXED);
		acc = seen++ ? g->reduce(acc, r) : r;
	}
	/* relaxed: published by the release store of round_gen below. */
	coupled_store(&g->round_param, acc, COUPLED_RELAXED);
	coupled_store(&g->round_outcome,
		      pending ? COUPLED__OUTCOME_RESTART
			      : COUPLED__OUTCOME_COMMIT,
		      COUPLED_RELAXED);
	/* release: pairs with the acquire load in coupled__phase_ready(). */
	coupled_store(&g->round_gen, gen + 1u, COUPLED_RELEASE);
}

/**
 * coupled__phase_action() - phase 4: acknowledge the decision, run the action
 * @g: the group
 * @self: the caller, counted as waiting and ready
 * @n: the round's member count
 * @gen: the generation of the decided round
 * @action: the shared action
 * @ctx: passed to @action
 *
 * Context: coupled__run(), after phase 2 saw the decision.
 * Return: the round's outcome, COUPLED__OUTCOME_COMMIT or _RESTART.
 */
static inline uint32_t
coupled__phase_action(struct coupled_group *g, uint32_t self, uint32_t n,
		      uint32_t gen, coupled_action_fn action, void *ctx)
{
	struct coupled_slot *s = &g->slots[self];
	uint32_t outcome;

	/* relaxed: ordered after the acquire load of round_gen in phase 2. */
	outcome = coupled_load(&g->round_outcome, COUPLED_RELAXED);
	/* release: pairs with the closer's acquire scan in phase 5. */
	coupled_store(&s->ack, gen, COUPLED_RELEASE);
	COUPLED_HOOK(g, self, COUPLED_HOOK_DECIDED);

	if (outcome == COUPLED__OUTCOME_COMMIT) {
		struct coupled_round round;

		round.group = g;
		round.self = self;
		/* relaxed: ordered after the acquire load of round_gen. */
		round.param = coupled_load(&g->round_param, COUPLED_RELAXED);
		round.members = n;
		round.generation = gen;
		action(&round, ctx);
	}
	return outcome;
}

/**
 * coupled__phase_exit() - phase 5: leave a decided round
 * @g: the group
 * @self: the caller
 * @closer: true for the round's closer
 * @gen: the round's generation
 *
 * Two steps: first every member must have acknowledged the decision (the
 * closer checks, then opens the gate), then each leaves both halves of the
 * word at once and waits until no member is ready, so nobody starts a new
 * round while another still counts in this one.
 */
static inline void coupled__phase_exit(struct coupled_group *g, uint32_t self,
				       bool closer, uint32_t gen)
{
	uint32_t i;

	if (closer) {
		for (i = 0; i < g->capacity; i++) {
			struct coupled_slot *s = &g->slots[i];

			/* relaxed: membership is stable during the round. */
			if (!coupled_load(&s->member, COUPLED_RELAXED))
				continue;
			/* acquire: pairs with the member's release ack. */
			while (coupled_load(&s->ack, COUPLED_ACQUIRE) != gen) {
				COUPLED_HOOK(g, self, COUPLED_HOOK_GATE_WAIT);
				coupled_adapter_relax(&g->adapter);
			}
		}
		/* release: pairs with the acquire gate load below. */
		coupled_store(&g->exit_gate, gen, COUPLED_RELEASE);
	} else {
		/* acquire: pairs with the closer's release of the gate. */
		while (coupled_load(&g->exit_gate, COUPLED_ACQUIRE) != gen) {
			COUPLED_HOOK(g, self, COUPLED_HOOK_GATE_WAIT);
			coupled_adapter_relax(&g->adapter);
		}
	}

	COUPLED_HOOK(g, self, COUPLED_HOOK_DONE);
	coupled_word_done(&g->counts);
	/* acquire: pairs with the release in every member's done. */
	while (coupled_word_ready(coupled_load(&g->counts, COUPLED_ACQUIRE))) {
		COUPLED_HOOK(g, self, COUPLED_HOOK_EXIT_WAIT);
		coupled_adapter_relax(&g->adapter);
	}
	COUPLED_HOOK(g, self, COUPLED_HOOK_EXITED);
}

/**
 * coupled__run() - the protocol proper, arguments already checked
 * @g: the group
 * @self: the caller, a member, not inside
 * @request: the caller's request, >= 0
 * @action: the shared action
 * @ctx: passed to @action
 * @opts: optional abort sources, may be NULL
 *
 * Runs the phases (the list at the top of this file) until a round commits
 * or the call gives up; a restart decided in phase 3 starts at phase 0 again.
 *
 * Context: coupled_enter_opts(), with the caller's inside flag set.
 * Return: COUPLED_COMMITTED, a COUPLED_ABORT_* reason or COUPLED_ENOENT.
 */
static inline int coupled__run(struct coupled_group *g, uint32_t self,
			       int32_t request, coupled_action_fn action,
			       void *ctx, const struct coupled_abort_opts *opts)
{
	struct coupled_slot *s = &g->slots[self];
	/* Set by the phases before any use; initialised for the compilers. */
	uint32_t n = 0, gen = 0, outcome;
	bool poked = false, closer = false;
	int ret;

	for (;;) {
		ret = coupled__phase_entry(g, self, request, &n, &poked);
		if (ret != COUPLED__NEXT_PHASE)
			return ret;
		do {
			ret = coupled__phase_waiting(g, self, n, opts, poked);
			if (ret != COUPLED__NEXT_PHASE)
				return ret;
			ret = coupled__phase_ready(g, self, n, opts, &gen,
						   &closer);
			/*
			 * After a back-out, whoever completes "all waiting"
			 * next arrives after it and pokes us again.
			 */
			poked = false;
		} while (ret == COUPLED__BACK_TO_WAITING);
		if (ret != COUPLED__NEXT_PHASE)
			return ret;

		outcome = coupled__phase_action(g, self, n, gen, action, ctx);
		coupled__phase_exit(g, self, closer, gen);
		if (outcome == COUPLED__OUTCOME_COMMIT) {
			COUPLED__STAT_INC(s, commits);
			return COUPLED_COMMITTED;
		}
		COUPLED__STAT_INC(s, restarts);
	}
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
	 * relaxed: an early refusal only; the seq_cst load below decides,
	 * and the seq_cst load of prevent after the arrival is what orders
	 * the membership for the protocol.
	 */
	if (!coupled_load(&s->member, COUPLED_RELAXED))
		return COUPLED_ENOENT;
	/* relaxed: only this participant's own context writes the flag. */
	if (coupled_load(&s->inside, COUPLED_RELAXED))
		return COUPLED_EBUSY;
	/*
	 * seq_cst, this store and the load after it: a Dekker pair with
	 * coupled_leave() (seq_cst store of member, then seq_cst load of
	 * inside).  Either we see that we were removed and return without
	 * touching the word, or the leaver sees us inside and waits until
	 * this call returns.  Without it, a call racing with its own removal
	 * could count as waiting after the change ended, a stray arrival that
	 * can steal the last arriver's role or unlock the all-ready guard.
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
	 * relaxed, this store and the one after the call: only this context
	 * ever stores its own id, and only a change requested by this same
	 * context needs to find it (coupled__caller_inside()); coherence
	 * alone makes that context read its own latest store.
	 */
	coupled_store(&s->ctx, coupled_adapter_context(&g->adapter),
		      COUPLED_RELAXED);
#endif
	ret = coupled__run(g, self, request, action, ctx, opts);
#if COUPLED_ADAPTER_HAS_CONTEXT
	coupled_store(&s->ctx, 0u, COUPLED_RELAXED);
#endif
	/*
	 * release: pairs with the leaver's seq_cst load of inside; this
	 * call's accesses to the group happen before the leave completes.
	 */
	coupled_store(&s->inside, 0u, COUPLED_RELEASE);
	return ret;
}

static inline int coupled_enter(struct coupled_group *g, uint32_t self,
				int32_t request, coupled_action_fn action,
				void *ctx)
{
	return coupled_enter_opts(g, self, request, action, ctx, NULL);
}

#endif /* COUPLED_PROTOCOL_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/settled.h - the settled protocol: a round in two phases, for
 * adapters whose wake-ups can be lost (COUPLED_ADAPTER_WAKE_CAN_BE_LOST 1:
 * IPI-woken idle states, WFI with a software-generated interrupt).  Selected
 * by coupled/protocol.h, which documents both protocols side by side.
 *
 * Every member must be known awake, with its poke handled and out of its
 * safe state, before the round commits: a pending interrupt that survived
 * into the action would wake a core out of the shared state.  So a round
 * has a waiting phase, a ready phase and a decision by the one member that
 * completes "all ready".  A call goes through these phases (docs/design.md
 * has the diagram; each operation's comment argues its memory order):
 *
 *  0. entry   coupled__phase_entry(): discard pokes that predate this
 *             attempt, publish the request, count as waiting in the packed
 *             word (coupled/word.h); the last arriver pokes the others.
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
 *             anyone leave both halves of the word (coupled__word_done()),
 *             then each waits until no member is ready.  On restart
 *             everybody then starts again at phase 0.
 *
 * coupled__run() strings the phases together.  Every loop over the members
 * walks the roster (the dense list of member ids, coupled/membership.h), so
 * a round costs the same in a group of capacity 4 and of capacity 4,096.
 *
 * Irrevocable commit: the all-ready value is absorbing until the first
 * coupled__word_done(), and nobody reaches that before every member has seen
 * the decision, so a slow member can never back out of a round the others
 * committed.
 *
 * The protocol's own state (its members of coupled/coupled.h's structs) is
 * declared in coupled/settled_state.h, which says who writes it; the word
 * is coupled/word.h.
 */
#include "coupled.h" /* first: this file is part of coupled/coupled.h */

/* Only the protocol the build selects (coupled/protocol.h) has a body. */
#if COUPLED_PROTOCOL_SETTLED

#ifndef COUPLED_SETTLED_H
#define COUPLED_SETTLED_H

/* Decision of a round, published by its closer. */
#define COUPLED__OUTCOME_COMMIT 1u
#define COUPLED__OUTCOME_RESTART 2u

/*
 * What a phase function returns besides a code that ends the call (a
 * COUPLED_ABORT_* reason or COUPLED_ENOENT): go on to the next phase, or,
 * from phase 2, go back to phase 1.  Neither is a return code of the library
 * (coupled/errno.h), and neither equals one: not even COUPLED_COMMITTED (0),
 * so that "go on" can never be mistaken for "committed".
 */
#define COUPLED__NEXT_PHASE 0x200
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
				       uint32_t n, bool closer, uint32_t gen);

/**
 * coupled__protocol_init_group() - initialise the settled state of a group
 * @g: the group
 *
 * Context: coupled_group_init(), before the group is shared.
 */
static inline void coupled__protocol_init_group(struct coupled_group *g)
{
	coupled_atomic_init(&g->variant.round_outcome, 0u);
	coupled_atomic_init(&g->variant.exit_gate, 0u);
}

/**
 * coupled__protocol_init_slot() - initialise the settled state of a slot
 * @s: the slot
 *
 * Context: coupled_group_init(), before the group is shared.
 */
static inline void coupled__protocol_init_slot(struct coupled_slot *s)
{
	coupled_atomic_init(&s->variant.poke_seq, 0u);
	coupled_atomic_init(&s->variant.poke_handled, 0u);
	coupled_atomic_init(&s->variant.ack, 0u);
}

/**
 * coupled__protocol_idle() - does nobody count and no change run?
 * @g: the group
 *
 * Context: coupled_group_set_generation(), with the group not shared
 * concurrently.
 * Return: true if the word is 0 (nobody waiting or ready) and prevent is
 * clear.
 */
static inline bool coupled__protocol_idle(struct coupled_group *g)
{
	/*
	 * relaxed, both: the group is not shared concurrently (see Context);
	 * the check only refuses a call that breaks that rule visibly.
	 */
	return !coupled_load(&g->counts, COUPLED_RELAXED) &&
	       !coupled_load(&g->prevent, COUPLED_RELAXED);
}

/**
 * coupled__protocol_set_generation() - the settled state at a generation
 * @g: the group
 * @generation: the generation of the last decided round
 *
 * Opens the exit gate at @generation and makes every member acknowledge
 * it, as after a round decided at @generation; a non-member's
 * acknowledgement is left as it is (coupled/group.h says why).
 *
 * Context: coupled_group_set_generation(), the group idle.
 */
static inline void coupled__protocol_set_generation(struct coupled_group *g,
						    uint32_t generation)
{
	uint32_t i;

	/* relaxed, all: as coupled__protocol_idle(). */
	coupled_store(&g->variant.exit_gate, generation, COUPLED_RELAXED);
	for (i = 0; i < g->capacity; i++)
		if (coupled_load(&g->slots[i].member, COUPLED_RELAXED))
			coupled_store(&g->slots[i].variant.ack, generation,
				      COUPLED_RELAXED);
}

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
	(void)coupled_fetch_add(&t->variant.poke_seq, 1u, COUPLED_RELEASE);
	coupled_adapter_wake(&g->adapter, &t->adapter, target);
}

/**
 * coupled__poke_members() - poke every member except one
 * @g: the group
 * @except: the id not to poke (pass g->capacity to poke all)
 *
 * Walks the roster, not the capacity.
 *
 * Context: the membership is stable (the caller is counted as waiting, or
 * holds prevent).
 */
static inline void coupled__poke_members(struct coupled_group *g,
					 uint32_t except)
{
	/*
	 * relaxed: membership is stable here and was published to us by the
	 * seq_cst/acquire load of prevent that let us in.
	 */
	uint32_t n = coupled_load(&g->members, COUPLED_RELAXED);
	uint32_t k;

	for (k = 0; k < n; k++) {
		uint32_t id = coupled__roster_id(g, k);

		if (id != except)
			coupled__poke(g, id);
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
	uint32_t seq = coupled_load(&s->variant.poke_seq, COUPLED_ACQUIRE);
	/* relaxed: this slot's owner is the only writer of poke_handled. */
	uint32_t handled =
		coupled_load(&s->variant.poke_handled, COUPLED_RELAXED);

	if (seq == handled)
		return false;
	/*
	 * relaxed: the closer reads it after the owner's acq_rel ready
	 * increment, which publishes it (coupled__word_arrive_ready()).
	 */
	coupled_store(&s->variant.poke_handled, seq, COUPLED_RELAXED);
	return true;
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
	if (coupled_load(&g->prevent, COUPLED_RELAXED))
		return COUPLED_ABORT_MEMBERSHIP;

	COUPLED_HOOK(g, self, COUPLED_HOOK_ARRIVE);
	w = coupled__word_arrive_waiting(&g->counts);
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
		coupled__word_leave_waiting(&g->counts);
		return COUPLED_ABORT_MEMBERSHIP;
	}
	/*
	 * relaxed: stable while we count as waiting (see above).  Defensive:
	 * coupled_leave() keeps prevent until our call has returned, so a
	 * removed participant aborts on prevent above and never gets here.
	 */
	if (!coupled_load(&s->member, COUPLED_RELAXED)) {
		coupled__word_leave_waiting(&g->counts);
		return COUPLED_ENOENT;
	}
	/* relaxed: stable while we count as waiting (see above). */
	n = coupled_load(&g->members, COUPLED_RELAXED);
	*members = n;

	*poked = false;
	if (coupled__word_waiting(w) == n) {
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
		/* relaxed: a hint only; entry re-checks prevent with seq_cst. */
		reason = coupled__abort_reason(
			g, self, opts, true,
			coupled_load(&g->prevent, COUPLED_RELAXED) != 0);
		if (reason) {
			coupled__word_leave_waiting(&g->counts);
			return reason;
		}
		/*
		 * relaxed: only tells whether to try the ready phase, whose
		 * RMWs check again; a poke (acquire) is what orders it when
		 * it matters.
		 */
		c = coupled_load(&g->counts, COUPLED_RELAXED);
		if (coupled__word_waiting(c) == n && poked)
			return COUPLED__NEXT_PHASE;
		COUPLED_HOOK(g, self, COUPLED_HOOK_WAIT_SLEEP);
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
	*closer = coupled__word_arrive_ready(&g->counts) ==
		  coupled__word_all_ready(n);
	if (*closer)
		coupled__phase_decide(g, n, gen);

	for (;;) {
		uint32_t c;

		COUPLED_HOOK(g, self, COUPLED_HOOK_READY_SPIN);
		/* acquire: pairs with the closer's release of the decision. */
		if (coupled_load(&g->round_gen, COUPLED_ACQUIRE) != gen)
			break;
		/* relaxed: a hint, as in phase 1. */
		reason = coupled__abort_reason(
			g, self, opts, false,
			coupled_load(&g->prevent, COUPLED_RELAXED) != 0);
		/* relaxed: a hint; the back-out below is the real check. */
		c = coupled_load(&g->counts, COUPLED_RELAXED);
		if (reason || coupled__word_waiting(c) != n) {
			COUPLED_HOOK(g, self, COUPLED_HOOK_BACK_OUT);
			if (coupled__word_back_out_ready(&g->counts, n)) {
				if (reason) {
					coupled__word_leave_waiting(&g->counts);
					return reason;
				}
				COUPLED__STAT_INC(s, retries);
				COUPLED_TRACE_RETRY(g, self);
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
	uint32_t k;
	bool pending = false;
	int32_t acc = 0;

	for (k = 0; k < members; k++) {
		struct coupled_slot *s = &g->slots[coupled__roster_id(g, k)];
		int32_t r;

		/*
		 * relaxed, all three loads: the closer's acq_rel increment
		 * that completed the word synchronized with every member's
		 * ready increment, which was sequenced after its request store
		 * and its last poke_handled store; membership is stable.
		 */
		if (coupled_load(&s->variant.poke_seq, COUPLED_RELAXED) !=
		    coupled_load(&s->variant.poke_handled, COUPLED_RELAXED))
			pending = true;
		r = coupled_load(&s->request, COUPLED_RELAXED);
		acc = k ? g->reduce(acc, r) : r;
	}
	/* relaxed: published by the release store of round_gen below. */
	coupled_store(&g->round_param, acc, COUPLED_RELAXED);
	coupled_store(&g->variant.round_outcome,
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
	outcome = coupled_load(&g->variant.round_outcome, COUPLED_RELAXED);
	/* release: pairs with the closer's acquire scan in phase 5. */
	coupled_store(&s->variant.ack, gen, COUPLED_RELEASE);
	COUPLED_HOOK(g, self, COUPLED_HOOK_DECIDED);

	if (outcome == COUPLED__OUTCOME_COMMIT) {
		struct coupled_round round;

		round.group = g;
		round.self = self;
		/* relaxed: ordered after the acquire load of round_gen. */
		round.param = coupled_load(&g->round_param, COUPLED_RELAXED);
		round.members = n;
		round.generation = gen;
		COUPLED_TRACE_COMMIT(&round);
		action(&round, ctx);
	}
	return outcome;
}

/**
 * coupled__phase_exit() - phase 5: leave a decided round
 * @g: the group
 * @self: the caller
 * @n: the round's member count
 * @closer: true for the round's closer
 * @gen: the round's generation
 *
 * Two steps: first every member must have acknowledged the decision (the
 * closer checks, then opens the gate), then each leaves both halves of the
 * word at once and waits until no member is ready, so nobody starts a new
 * round while another still counts in this one.
 */
static inline void coupled__phase_exit(struct coupled_group *g, uint32_t self,
				       uint32_t n, bool closer, uint32_t gen)
{
	uint32_t k;

	if (closer) {
		for (k = 0; k < n; k++) {
			struct coupled_slot *s =
				&g->slots[coupled__roster_id(g, k)];

			/* acquire: pairs with the member's release ack. */
			while (coupled_load(&s->variant.ack, COUPLED_ACQUIRE) !=
			       gen) {
				COUPLED_HOOK(g, self, COUPLED_HOOK_GATE_WAIT);
				coupled_adapter_relax(&g->adapter);
			}
		}
		/* release: pairs with the acquire gate load below. */
		coupled_store(&g->variant.exit_gate, gen, COUPLED_RELEASE);
	} else {
		/* acquire: pairs with the closer's release of the gate. */
		while (coupled_load(&g->variant.exit_gate, COUPLED_ACQUIRE) !=
		       gen) {
			COUPLED_HOOK(g, self, COUPLED_HOOK_GATE_WAIT);
			coupled_adapter_relax(&g->adapter);
		}
	}

	COUPLED_HOOK(g, self, COUPLED_HOOK_DONE);
	coupled__word_done(&g->counts);
	/* acquire: pairs with the release in every member's done. */
	while (coupled__word_ready(coupled_load(&g->counts, COUPLED_ACQUIRE))) {
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
		coupled__phase_exit(g, self, n, closer, gen);
		if (outcome == COUPLED__OUTCOME_COMMIT)
			return COUPLED_COMMITTED;
		COUPLED__STAT_INC(s, restarts);
		COUPLED_TRACE_RESTART(g, self);
	}
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
	while (coupled__word_waiting(coupled_load(&g->counts, COUPLED_SEQ_CST)))
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

/**
 * coupled__protocol_member_added() - the settled state of a new member
 * @g: the group
 * @id: the new member
 *
 * Nothing before the member flag: the settled protocol reads every request
 * from its slot (the joiner's acknowledgement is coupled__membership_joined()).
 *
 * Context: coupled_join() and coupled_group_init().
 */
static inline void coupled__protocol_member_added(struct coupled_group *g,
						  uint32_t id)
{
	(void)g;
	(void)id;
}

/**
 * coupled__protocol_member_removed() - the settled state of a leaver
 * @g: the group
 * @id: the member that left
 *
 * Nothing: a leaver leaves no settled state that a joiner could inherit
 * before coupled__membership_joined() resets it.
 *
 * Context: coupled_leave().
 */
static inline void coupled__protocol_member_removed(struct coupled_group *g,
						    uint32_t id)
{
	(void)g;
	(void)id;
}

/**
 * coupled__membership_joined() - what a joiner needs besides its flag
 * @g: the group, prevent held, nobody waiting
 * @id: the id that just became a member
 *
 * The joiner acknowledges the last decision, as every member has at rest:
 * its old value (0 for an id that was never a member, its last round's
 * generation for one that left) could equal the next round's generation
 * after the 32-bit wrap and pass the closer's check in
 * coupled__phase_exit() before the joiner saw that round's decision.
 *
 * Context: coupled_join(), between coupled__membership_begin() and _end().
 */
static inline void coupled__membership_joined(struct coupled_group *g,
					      uint32_t id)
{
	/*
	 * relaxed, the load: no round is being decided or exited (a change
	 * holds prevent and saw waiting == 0 with seq_cst, which also
	 * acquired every done, so the last closer's store of round_gen
	 * happens before this load).
	 * relaxed, the store: published by the release of prevent in
	 * coupled__membership_end(), which pairs with the entrants' seq_cst
	 * load of prevent, before any closer's scan of acks; the joiner's own
	 * later acks are ordered after it the same way.
	 */
	coupled_store(&g->slots[id].variant.ack,
		      coupled_load(&g->round_gen, COUPLED_RELAXED),
		      COUPLED_RELAXED);
}

#endif /* COUPLED_SETTLED_H */
#endif /* COUPLED_PROTOCOL_SETTLED */

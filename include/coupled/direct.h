/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/direct.h - the direct protocol: a round in one counting step, for
 * adapters whose wake-ups cannot be lost (COUPLED_ADAPTER_WAKE_CAN_BE_LOST
 * 0: spinning, futex, condition variables, WFE/SEV).  Selected by
 * coupled/protocol.h, which documents both protocols side by side.
 *
 * The group's word (g->counts) packs three fields:
 *
 *    31                   17   16   15               0
 *   +-----------------------+------+------------------+
 *   |  generation (15 bits) | stop |  arrivals (16)   |
 *   +-----------------------+------+------------------+
 *
 * arrivals  members counted in the current round, at most 65,535;
 * stop      set while a membership change runs: nobody can complete a
 *           round, every arrival gives up;
 * generation the round's number modulo 2^15.  A member that arrived in
 *           generation G cannot miss more than one step: the next round
 *           needs its own arrival.  So any change of the field tells it
 *           that its round committed.  (The 32-bit generation an action
 *           sees is g->round_gen, written by the completer.)
 *
 * A call:
 *  1. arrive  coupled__run(): poll the abort sources once (work pending,
 *             the caller's abort, a deadline already past: give up without
 *             counting), publish the request (in the member's entry of the
 *             word's line, or in its slot), then one acq_rel increment of
 *             the arrivals.  If stop was set the call withdraws and gives
 *             up at once.
 *  2. commit  the arrival that makes the count equal to the member count,
 *             with stop clear, is the round's commit point; that member is
 *             the *completer* (coupled__direct_complete()).  From here on
 *             the word is frozen: nobody may withdraw, no change may set
 *             stop, and nobody else can arrive (all members have).  The
 *             completer reduces the requests over the roster, publishes
 *             the parameter and the 32-bit generation, and with one release
 *             store empties the count and starts the next generation, then
 *             wakes the others.
 *  3. wait    everyone else (coupled__direct_wait()) rests in the adapter's
 *             safe state until the generation moves.  Work pending, the
 *             caller's abort, the deadline or stop make it try to withdraw:
 *             one CAS that takes its arrival back, refused once the count
 *             is complete or the generation moved.  A refused withdrawal
 *             means the round committed: the member takes part.
 *  4. action  every member runs the action once with the same parameter;
 *             coupled_barrier() and coupled_vote() work inside.  Nobody
 *             waits for anybody on the way out: the next round needs
 *             everybody's next arrival anyway.
 *
 * Irrevocable commit: the completing increment freezes the word until the
 * completer's release store, and that store moves the generation, so every
 * withdrawal CAS that could follow fails.  All or none: a member runs the
 * action only after a committed round, and a round commits only with every
 * member's arrival counted.  No stale member count: a change sets stop only
 * while the count is not complete, waits for the count to drain to 0, and
 * only then changes the members.
 *
 * Requests in the word's line.  The completer reads every member's
 * request.  From the members' slots that is one more cache line per member
 * on the round's critical path, which a barrier without requests does not
 * pay.  So the first COUPLED_DIRECT_LINE_REQUESTS members (9 by default)
 * each own an entry of line_requests, next to the word: the arrival that
 * brings the line in also carries the request, and the completer reduces
 * them from the line its own increment fetched.  A member owns its entry
 * from its join to its leave (coupled__protocol_member_added(), _removed()),
 * so no change can move it under a call in progress, and a sparse group
 * (capacity 4096, 4 members of any ids) uses the line as a dense one does.
 * Members beyond the line's entries publish in their slots, read only when
 * there are such members.  The benefit needs the group to start a cache
 * line (e.g. alignas(64) or _Alignas(64) on its storage): the library works
 * either way.  With an adapter whose wake-up does nothing
 * (coupled_adapter_wake_is_noop()), the completer also skips the walk that
 * wakes the others, and so touches no other member's line at all.
 *
 * The protocol's own state (its members of coupled/coupled.h's structs,
 * the fields of the word) is declared in coupled/direct_state.h, which says
 * who writes it.
 */
#include "coupled.h" /* first: this file is part of coupled/coupled.h */

/* Only the protocol the build selects (coupled/protocol.h) has a body. */
#if !COUPLED_PROTOCOL_SETTLED && !defined(COUPLED_DIRECT_H)
#define COUPLED_DIRECT_H

/**
 * coupled__protocol_init_group() - initialise the direct state of a group
 * @g: the group
 *
 * Context: coupled_group_init(), before the group is shared.
 */
static inline void coupled__protocol_init_group(struct coupled_group *g)
{
	uint32_t e;

	coupled_atomic_init(&g->variant.round_members, 0u);
	coupled_atomic_init(&g->variant.line_used, 0u);
	for (e = 0; e < COUPLED_DIRECT_LINE_REQUESTS; e++)
		coupled_atomic_init(&g->variant.line_requests[e], 0);
}

/**
 * coupled__protocol_init_slot() - initialise the direct state of a slot
 * @s: the slot
 *
 * No entry in the word's line yet: coupled_group_init() gives the initial
 * members theirs (coupled__protocol_member_added()).
 *
 * Context: coupled_group_init(), before the group is shared.
 */
static inline void coupled__protocol_init_slot(struct coupled_slot *s)
{
	coupled_atomic_init(&s->variant.line_index, COUPLED__DIRECT_NO_LINE);
}

/**
 * coupled__protocol_member_added() - give a new member an entry in the line
 * @g: the group, rounds stopped and nobody counted (or not yet shared)
 * @id: the new member, its member flag not yet set
 *
 * The lowest free entry of line_requests, if any is free; else the member
 * publishes its requests in its slot.  An entry stays its member's until it
 * leaves: a call reads its own line_index before its arrival, and only a
 * change of its own id could move it, which waits for the call to return.
 *
 * Context: coupled_join() before the member flag's release store, which
 * publishes the entry to the joiner's calls; coupled_group_init().
 */
static inline void coupled__protocol_member_added(struct coupled_group *g,
						  uint32_t id)
{
	/* relaxed: only changers write it, one at a time. */
	uint32_t used = coupled_load(&g->variant.line_used, COUPLED_RELAXED);
	uint32_t e;

	for (e = 0; e < COUPLED_DIRECT_LINE_REQUESTS; e++)
		if (!(used & (1u << e)))
			break;
	if (e == COUPLED_DIRECT_LINE_REQUESTS)
		return;
	/*
	 * relaxed, both: the member flag's release store (coupled_join())
	 * publishes line_index to the member's calls, and the release that
	 * ends the change publishes line_used to the next completer.
	 */
	coupled_store(&g->slots[id].variant.line_index, e, COUPLED_RELAXED);
	coupled_store(&g->variant.line_used, used | (1u << e), COUPLED_RELAXED);
}

/**
 * coupled__protocol_member_removed() - free a leaver's entry in the line
 * @g: the group, rounds stopped and nobody counted
 * @id: the member that left, no call of it in progress
 *
 * Context: coupled_leave(), after the leaver's last call returned (a call
 * still in progress could store into the entry after a later joiner got
 * it).
 */
static inline void coupled__protocol_member_removed(struct coupled_group *g,
						    uint32_t id)
{
	/* relaxed, the loads: only changers write these, one at a time. */
	uint32_t e =
		coupled_load(&g->slots[id].variant.line_index, COUPLED_RELAXED);
	uint32_t used;

	if (e == COUPLED__DIRECT_NO_LINE)
		return;
	used = coupled_load(&g->variant.line_used, COUPLED_RELAXED);
	/* relaxed, both: published as in coupled__protocol_member_added(). */
	coupled_store(&g->variant.line_used, used & ~(1u << e),
		      COUPLED_RELAXED);
	coupled_store(&g->slots[id].variant.line_index, COUPLED__DIRECT_NO_LINE,
		      COUPLED_RELAXED);
}

/**
 * coupled__protocol_idle() - does nobody count and no change run?
 * @g: the group
 *
 * The arrival count is 0 and stop is clear; the generation field may hold
 * anything at rest.
 *
 * Context: coupled_group_set_generation(), with the group not shared
 * concurrently.
 * Return: true if the word counts nobody and no change holds the lock.
 */
static inline bool coupled__protocol_idle(struct coupled_group *g)
{
	/*
	 * relaxed, both: the group is not shared concurrently (see Context);
	 * the check only refuses a call that breaks that rule visibly.
	 */
	return !(coupled_load(&g->counts, COUPLED_RELAXED) &
		 ~COUPLED__DIRECT_GEN_MASK) &&
	       !coupled_load(&g->prevent, COUPLED_RELAXED);
}

/**
 * coupled__protocol_set_generation() - the direct state at a generation
 * @g: the group
 * @generation: the generation of the last decided round
 *
 * Nothing besides round_gen (which the caller stores): a member keeps no
 * per-round state, and the word's 15-bit generation field only has to
 * move at the next commit, from whatever value it holds.
 *
 * Context: coupled_group_set_generation(), the group idle.
 */
static inline void coupled__protocol_set_generation(struct coupled_group *g,
						    uint32_t generation)
{
	(void)g;
	(void)generation;
}

/**
 * coupled__direct_arrivals() - the arrival count of a word value
 * @w: a value of the direct word
 *
 * Return: the low 16 bits.
 */
static inline uint32_t coupled__direct_arrivals(uint32_t w)
{
	return w & COUPLED__DIRECT_ARRIVALS_MASK;
}

/**
 * coupled__direct_complete_word() - is a word value a committed round?
 * @w: a value of the direct word
 * @n: the round's member count
 *
 * Return: true if every member arrived and no change stopped the round: the
 * word is frozen until the completer's store.  A group without members has
 * no round: its empty count is not complete (else the first join would
 * wait forever for a round that cannot come).
 */
static inline bool coupled__direct_complete_word(uint32_t w, uint32_t n)
{
	return n && !(w & COUPLED__DIRECT_STOP) &&
	       coupled__direct_arrivals(w) == n;
}

/**
 * coupled__direct_withdraw() - take the caller's arrival back
 * @g: the group
 * @gen: the generation field of the caller's round
 * @n: the round's member count
 *
 * One CAS in the common case.  Refused once the round committed: when the
 * count is complete (the completer has not stored yet) or the generation
 * moved.
 *
 * Context: the caller counts as arrived in generation @gen.
 * Return: true if the caller no longer counts; false if the round committed
 * and the caller must take part.
 */
static inline bool coupled__direct_withdraw(struct coupled_group *g,
					    uint32_t gen, uint32_t n)
{
	/* relaxed: a first guess for the CAS below, which re-checks. */
	uint32_t w = coupled_load(&g->counts, COUPLED_RELAXED);

	for (;;) {
		if ((w & COUPLED__DIRECT_GEN_MASK) != gen ||
		    coupled__direct_complete_word(w, n))
			return false;
		/*
		 * release on success: pairs with the acquire load of a
		 * membership change waiting for the count to drain, so this
		 * call's reads of the membership happen before the change.
		 * relaxed on failure: the loop re-checks, and a refusal is
		 * followed by the caller's acquire wait for the generation.
		 */
		if (coupled_cas(&g->counts, &w, w - 1u, COUPLED_RELEASE,
				COUPLED_RELAXED))
			return true;
	}
}

/**
 * coupled__direct_reduce() - reduce the requests of a committed round
 * @g: the group
 * @n: the round's member count
 *
 * The members with an entry in the word's line first, from that line,
 * which the completing increment has just brought in; then, only if some
 * member has none, the others from their slots.
 *
 * Context: coupled__direct_complete(), the word frozen.
 * Return: the reduction of every member's request.
 */
static inline int32_t coupled__direct_reduce(struct coupled_group *g,
					     uint32_t n)
{
	/*
	 * relaxed, line_used and every line_index below: written only by
	 * changes, published by the release that ended the last one, which
	 * our acq_rel arrival acquired (as the member count).
	 */
	uint32_t used = coupled_load(&g->variant.line_used, COUPLED_RELAXED);
	uint32_t e, k, seen = 0;
	int32_t acc = 0;

	for (e = 0; used >> e; e++) {
		int32_t r;

		if (!(used & (1u << e)))
			continue;
		/*
		 * relaxed: the completing acq_rel increment synchronized
		 * with every member's release arrival (all RMWs of the word,
		 * one release sequence), each sequenced after its request.
		 */
		r = coupled_load(&g->variant.line_requests[e], COUPLED_RELAXED);
		acc = seen++ ? g->reduce(acc, r) : r;
	}
	for (k = 0; seen < n && k < n; k++) {
		uint32_t id = coupled__roster_id(g, k);
		int32_t r;

		if (coupled_load(&g->slots[id].variant.line_index,
				 COUPLED_RELAXED) != COUPLED__DIRECT_NO_LINE)
			continue;
		/* relaxed: as the line's requests above. */
		r = coupled_load(&g->slots[id].request, COUPLED_RELAXED);
		acc = seen++ ? g->reduce(acc, r) : r;
	}
	return acc;
}

/**
 * coupled__direct_wakes() - must the completer wake the other members?
 * @g: the group
 *
 * Return: false where the adapter says its wake-up does nothing (pure
 * spinning: the waiters poll the word), which spares the completer a walk
 * over the roster and its cache lines.
 */
static inline bool coupled__direct_wakes(struct coupled_group *g)
{
#if COUPLED_ADAPTER_HAS_WAKE_IS_NOOP
	return !coupled_adapter_wake_is_noop(&g->adapter);
#else
	(void)g;
	return true;
#endif
}

/**
 * coupled__direct_complete() - the completer publishes a committed round
 * @g: the group
 * @self: the completer
 * @n: the round's member count
 * @w: the word's value just after the completing increment
 *
 * Context: only the member whose increment completed the count; the word is
 * frozen, every other member is waiting for the generation to move.
 */
static inline void coupled__direct_complete(struct coupled_group *g,
					    uint32_t self, uint32_t n,
					    uint32_t w)
{
	uint32_t k;
	int32_t acc;

	COUPLED_HOOK(g, self, COUPLED_HOOK_COMPLETE);
	acc = coupled__direct_reduce(g, n);
	/*
	 * relaxed, all four: only completers write these, each completer's
	 * accesses happen before the next one's (through the word), and the
	 * release store of the word below publishes them to the members.
	 */
	coupled_store(&g->round_param, acc, COUPLED_RELAXED);
	coupled_store(&g->variant.round_members, n, COUPLED_RELAXED);
	coupled_store(&g->round_gen,
		      coupled_load(&g->round_gen, COUPLED_RELAXED) + 1u,
		      COUPLED_RELAXED);
	/*
	 * release: pairs with the members' acquire load of the word in
	 * coupled__direct_wait().  A plain store is enough: the word is
	 * frozen (see the top of this file), so no RMW can fall between the
	 * completing increment and this store.  Arrivals 0, stop clear, next
	 * generation (wrapping within its 15 bits).
	 */
	coupled_store(&g->counts,
		      (w & COUPLED__DIRECT_GEN_MASK) + COUPLED__DIRECT_GEN_ONE,
		      COUPLED_RELEASE);
	/*
	 * The count is empty from the store above, so a membership change
	 * may rewrite the roster while this loop walks it (relaxed atomics:
	 * no data race).  A member of this round that the loop then misses
	 * is woken by that change's own pass over the roster in
	 * coupled__membership_begin(), which follows the generation's move.
	 */
	if (!coupled__direct_wakes(g))
		return;
	for (k = 0; k < n; k++) {
		uint32_t id = coupled__roster_id(g, k);

		if (id != self)
			coupled_adapter_wake(&g->adapter, &g->slots[id].adapter,
					     id);
	}
}

/**
 * coupled__direct_wait() - rest until the round commits or the call gives up
 * @g: the group
 * @self: the caller, counted as arrived
 * @n: the round's member count
 * @gen: the generation field of the caller's round
 * @opts: the caller's abort sources, may be NULL
 *
 * Context: coupled__run(), after an arrival that did not complete the count.
 * Return: COUPLED_COMMITTED once the generation moved (the caller has
 * acquired the completer's publication); or a COUPLED_ABORT_* reason after a
 * successful withdrawal.
 */
static inline int coupled__direct_wait(struct coupled_group *g, uint32_t self,
				       uint32_t n, uint32_t gen,
				       const struct coupled_abort_opts *opts)
{
	struct coupled_slot *s = &g->slots[self];
	struct coupled_adapter_group *ag = &g->adapter;
	bool committed = false;

	for (;;) {
		uint32_t token =
			coupled_adapter_wait_prepare(ag, &s->adapter, self);
		/*
		 * acquire: pairs with the completer's release store, which
		 * publishes the round's parameter and generation.
		 */
		uint32_t w = coupled_load(&g->counts, COUPLED_ACQUIRE);

		if ((w & COUPLED__DIRECT_GEN_MASK) != gen)
			return COUPLED_COMMITTED;
		if (!committed) {
			int reason = coupled__abort_reason(
				g, self, opts, true,
				(w & COUPLED__DIRECT_STOP) != 0);

			if (reason) {
				COUPLED_HOOK(g, self, COUPLED_HOOK_WITHDRAW);
				if (coupled__direct_withdraw(g, gen, n))
					return reason;
				/* Refused: the round committed. */
				committed = true;
				continue;
			}
		}
		COUPLED_HOOK(g, self, COUPLED_HOOK_WAIT_SLEEP);
		if (committed)
			coupled_adapter_relax(ag);
		else
			coupled_adapter_wait(ag, &s->adapter, self, token,
					     opts ? opts->deadline : 0);
	}
}

/**
 * coupled__direct_publish() - store the caller's request for the completer
 * @g: the group
 * @s: the caller's slot
 * @request: the request
 *
 * Into the caller's entry of the word's line if it has one, so that the
 * completer finds it in the line its own arrival brings in; else into the
 * slot.
 *
 * Context: coupled__run(), before the arrival, which publishes it.
 */
static inline void coupled__direct_publish(struct coupled_group *g,
					   struct coupled_slot *s,
					   int32_t request)
{
	/*
	 * relaxed: our own entry, written by the change that made us a
	 * member before its release store of the member flag, which
	 * coupled_enter_opts()'s seq_cst load acquired; no change can move
	 * it while we are inside (coupled_leave() of our id waits for us).
	 */
	uint32_t e = coupled_load(&s->variant.line_index, COUPLED_RELAXED);

	/* relaxed, both: published to the completer by the arrival. */
	if (e < COUPLED_DIRECT_LINE_REQUESTS)
		coupled_store(&g->variant.line_requests[e], request,
			      COUPLED_RELAXED);
	else
		coupled_store(&s->request, request, COUPLED_RELAXED);
}

/**
 * coupled__direct_arrive() - step 1: poll the abort sources, then count in
 * @g: the group
 * @self: the caller, a member, not inside
 * @request: the caller's request, >= 0
 * @opts: optional abort sources, may be NULL
 * @w: set to the word as the arrival found it (before its increment)
 *
 * Context: coupled__run().
 * Return: 0 once counted; or, not counted, COUPLED_ABORT_MEMBERSHIP (stop
 * already set) or the abort sources' reason.
 */
static inline int coupled__direct_arrive(struct coupled_group *g, uint32_t self,
					 int32_t request,
					 const struct coupled_abort_opts *opts,
					 uint32_t *w)
{
	struct coupled_slot *s = &g->slots[self];
	int ret;

	/*
	 * relaxed: a cheap early-out that keeps retrying callers off the
	 * word while a change drains it; the arrival below decides.
	 */
	if (coupled_load(&g->counts, COUPLED_RELAXED) & COUPLED__DIRECT_STOP)
		return COUPLED_ABORT_MEMBERSHIP;
	/*
	 * The abort sources, once before the arrival: the arrival that
	 * completes the count commits at once, so this poll is what lets a
	 * caller with work already pending, an abort already asked for or a
	 * deadline already past give up even when it would be the last to
	 * arrive.  (Work that turns up between this poll and the arrival is
	 * the same race as work that turns up just after any commit.)
	 */
	ret = coupled__abort_reason(g, self, opts, true, false);
	if (ret)
		return ret;
	coupled__direct_publish(g, s, request);
	COUPLED_HOOK(g, self, COUPLED_HOOK_ARRIVE);
	/*
	 * acq_rel: the release publishes the request (and this member's
	 * writes of its previous round) to the completer; the acquire makes
	 * the completer see every other member's, all earlier in the word's
	 * release sequence, and makes every arrival see the membership that
	 * the change which last cleared stop published.
	 */
	*w = coupled_fetch_add(&g->counts, 1u, COUPLED_ACQ_REL);
	COUPLED__STAT_INC(s, attempts);
	COUPLED_HOOK(g, self, COUPLED_HOOK_ARRIVED);
	return 0;
}

/*
 * What coupled__direct_admit() found after an arrival.
 * @COUPLED__DIRECT_OPEN: counted in a round that is still open, whose member
 *                        count it returned
 * @COUPLED__DIRECT_DONE: another member already completed the round
 * @COUPLED__DIRECT_STOPPED: withdrawn: a change had set stop
 * @COUPLED__DIRECT_NOT_MEMBER: withdrawn: the caller is no member
 */
enum coupled__direct_admission {
	COUPLED__DIRECT_OPEN,
	COUPLED__DIRECT_DONE,
	COUPLED__DIRECT_STOPPED,
	COUPLED__DIRECT_NOT_MEMBER
};

/**
 * coupled__direct_admit() - read the round an arrival counted in
 * @g: the group
 * @self: the caller, counted
 * @w: the word as the caller's arrival found it
 * @n: set to the round's member count (with COUPLED__DIRECT_OPEN)
 *
 * An arrival with stop set, or of a caller that is no member, withdraws
 * here (cannot be refused: no round completes with stop set).
 *
 * Context: coupled__run(), right after coupled__direct_arrive() counted.
 * Return: an enum coupled__direct_admission.
 */
static inline enum coupled__direct_admission
coupled__direct_admit(struct coupled_group *g, uint32_t self, uint32_t w,
		      uint32_t *n)
{
	const uint32_t gen = w & COUPLED__DIRECT_GEN_MASK;
	bool mine;

	/*
	 * acquire, both: they pair with the release stores of a change
	 * (roster_add/_remove's count, the member flag).  Reading a change
	 * that ran after our arrival is only possible once our round
	 * committed (a change drains the count first), and then the acquire
	 * makes the re-load of the word below see the generation moved.
	 */
	*n = coupled_load(&g->members, COUPLED_ACQUIRE);
	mine = coupled_load(&g->slots[self].member, COUPLED_ACQUIRE) != 0;
	/*
	 * acquire: pairs with the completer's release store.  The
	 * generation moved since our arrival: another member completed our
	 * round (and a change may have run since, so n and mine may be
	 * newer than the round): take part with the round's published
	 * member count.
	 */
	if (!(w & COUPLED__DIRECT_STOP) &&
	    (coupled_load(&g->counts, COUPLED_ACQUIRE) &
	     COUPLED__DIRECT_GEN_MASK) != gen)
		return COUPLED__DIRECT_DONE;
	/* Otherwise n and mine are our round's: no change ran since. */
	if (!(w & COUPLED__DIRECT_STOP) && mine)
		return COUPLED__DIRECT_OPEN;
	/*
	 * A non-member (defensive: coupled_leave() keeps stop until our call
	 * returns, so we would have seen stop) is not counted in n, so its
	 * guard is n + 1.
	 */
	(void)coupled__direct_withdraw(g, gen, *n + 1u);
	return (w & COUPLED__DIRECT_STOP) ? COUPLED__DIRECT_STOPPED
					  : COUPLED__DIRECT_NOT_MEMBER;
}

/**
 * coupled__direct_take_part() - step 4: run the committed round's action
 * @g: the group
 * @self: the caller, a member of the committed round
 * @action: the shared action
 * @ctx: passed to @action
 *
 * Context: coupled__run(), once the caller's round committed.
 */
static inline void coupled__direct_take_part(struct coupled_group *g,
					     uint32_t self,
					     coupled_action_fn action,
					     void *ctx)
{
	struct coupled_round round;

	COUPLED_HOOK(g, self, COUPLED_HOOK_DECIDED);
	round.group = g;
	round.self = self;
	/*
	 * relaxed, all three: the completer's own stores, or published to us by
	 * its release store of the word, which we acquired; stable until
	 * the next round, which needs our next arrival.
	 */
	round.param = coupled_load(&g->round_param, COUPLED_RELAXED);
	round.generation = coupled_load(&g->round_gen, COUPLED_RELAXED);
	round.members =
		coupled_load(&g->variant.round_members, COUPLED_RELAXED);
	COUPLED_TRACE_COMMIT(&round);
	action(&round, ctx);
	COUPLED_HOOK(g, self, COUPLED_HOOK_EXITED);
}

/**
 * coupled__run() - the direct protocol, arguments already checked
 * @g: the group
 * @self: the caller, a member, not inside
 * @request: the caller's request, >= 0
 * @action: the shared action
 * @ctx: passed to @action
 * @opts: optional abort sources, may be NULL
 *
 * The steps at the top of this file: arrive, then complete the round or
 * wait for it, then take part.
 *
 * Context: coupled_enter_opts(), with the caller's inside flag set.
 * Return: COUPLED_COMMITTED, a COUPLED_ABORT_* reason or COUPLED_ENOENT.
 */
static inline int coupled__run(struct coupled_group *g, uint32_t self,
			       int32_t request, coupled_action_fn action,
			       void *ctx, const struct coupled_abort_opts *opts)
{
	uint32_t w, n;
	int ret;

	ret = coupled__direct_arrive(g, self, request, opts, &w);
	if (ret)
		return ret;
	switch (coupled__direct_admit(g, self, w, &n)) {
	case COUPLED__DIRECT_STOPPED: return COUPLED_ABORT_MEMBERSHIP;
	case COUPLED__DIRECT_NOT_MEMBER: return COUPLED_ENOENT;
	case COUPLED__DIRECT_DONE: break;
	case COUPLED__DIRECT_OPEN:
		if (coupled__direct_arrivals(w) + 1u == n) {
			coupled__direct_complete(g, self, n, w + 1u);
			break;
		}
		ret = coupled__direct_wait(g, self, n,
					   w & COUPLED__DIRECT_GEN_MASK, opts);
		if (ret != COUPLED_COMMITTED)
			return ret;
		break;
	}
	coupled__direct_take_part(g, self, action, ctx);
	return COUPLED_COMMITTED;
}

/**
 * coupled__membership_begin() - stop rounds and wait until nobody counts
 * @g: the group
 *
 * Takes the changers' lock (g->prevent), then sets stop with a CAS,
 * refused while the count is complete (that round committed: its completer
 * is about to store).  Then wakes every member so that those resting see it
 * and withdraw, and waits until the arrivals drain to 0.
 */
static inline void coupled__membership_begin(struct coupled_group *g)
{
	uint32_t expected = 0, w, n, k;

	/*
	 * The changers' lock first: with it held the member count is stable
	 * (only holders write it), so the complete-count guard below is
	 * judged against the count the word is counting to, and no other
	 * change can run between our load of the word and our CAS.
	 * acquire on success: pairs with the release that unlocked the
	 * previous change, publishing its member flags, count and roster.
	 * relaxed on failure: we retry.
	 */
	while (!coupled_cas(&g->prevent, &expected, 1u, COUPLED_ACQUIRE,
			    COUPLED_RELAXED)) {
		expected = 0;
		coupled_adapter_relax(&g->adapter);
	}
	/* relaxed: stable while we hold the lock (see above). */
	n = coupled_load(&g->members, COUPLED_RELAXED);
	/* relaxed: a first guess for the CAS, which re-checks. */
	w = coupled_load(&g->counts, COUPLED_RELAXED);
	for (;;) {
		if (!coupled__direct_complete_word(w, n)) {
			/*
			 * relaxed, success and failure: the lock gave us the
			 * membership; what the drained calls did is acquired
			 * by the drain loop below; on failure we retry.
			 */
			if (coupled_cas(&g->counts, &w,
					w | COUPLED__DIRECT_STOP,
					COUPLED_RELAXED, COUPLED_RELAXED))
				break;
			continue;
		}
		/* A committed round: its completer is about to store. */
		coupled_adapter_relax(&g->adapter);
		/* relaxed: the CAS re-checks. */
		w = coupled_load(&g->counts, COUPLED_RELAXED);
	}
	for (k = 0; k < n; k++) {
		uint32_t id = coupled__roster_id(g, k);

		coupled_adapter_wake(&g->adapter, &g->slots[id].adapter, id);
	}
	/*
	 * acquire: pairs with the release withdrawals, so every drained
	 * call's reads of the membership happen before we change it.
	 */
	while (coupled__direct_arrivals(
		coupled_load(&g->counts, COUPLED_ACQUIRE)))
		coupled_adapter_relax(&g->adapter);
	COUPLED_HOOK(g, g->capacity, COUPLED_HOOK_MEMBERSHIP);
}

/**
 * coupled__membership_end() - let rounds run again
 * @g: the group, stop held by the caller
 *
 * Clears stop only while nobody counts: an arrival that saw stop is still
 * counted until its withdrawal, which it makes unconditionally (it read the
 * member count of a change in progress).  Clearing stop under it would let
 * the next arrival complete a round that counts it, and its withdrawal then
 * take an arrival back from a complete count.
 */
static inline void coupled__membership_end(struct coupled_group *g)
{
	/* relaxed: a first guess for the CAS, which re-checks. */
	uint32_t w = coupled_load(&g->counts, COUPLED_RELAXED);

	for (;;) {
		if (coupled__direct_arrivals(w)) {
			/*
			 * An arrival that saw stop, about to withdraw.
			 * relaxed: the CAS re-checks.
			 */
			coupled_adapter_relax(&g->adapter);
			w = coupled_load(&g->counts, COUPLED_RELAXED);
			continue;
		}
		/*
		 * release on success: pairs with the next arrivals' acq_rel
		 * increment and the next change's acquire CAS, publishing the
		 * new member flags, count and roster.  relaxed on failure:
		 * arrivals that see stop and withdraw may move the count
		 * meanwhile; retry.
		 */
		if (coupled_cas(&g->counts, &w, w & ~COUPLED__DIRECT_STOP,
				COUPLED_RELEASE, COUPLED_RELAXED))
			break;
	}
	/*
	 * release: pairs with the next changer's acquire CAS of the lock
	 * (coupled__membership_begin()).
	 */
	coupled_store(&g->prevent, 0u, COUPLED_RELEASE);
}

/**
 * coupled__membership_joined() - what a joiner needs besides its flag
 * @g: the group
 * @id: the id that just became a member
 *
 * Nothing in the direct protocol: a member keeps no per-round state that a
 * stale value could confuse.
 */
static inline void coupled__membership_joined(struct coupled_group *g,
					      uint32_t id)
{
	(void)g;
	(void)id;
}

#endif /* !COUPLED_PROTOCOL_SETTLED && !COUPLED_DIRECT_H */

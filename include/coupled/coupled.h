/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/coupled.h - coupled rendezvous: all members of a group enter one
 * shared action together, or none does.
 *
 * The protocol generalizes Linux's coupled cpuidle from "CPUs entering an
 * idle state" to "participants entering a shared action".  A call of
 * coupled_enter() goes through these phases (docs/design.md has the diagram
 * and the argument for every memory order):
 *
 *  0. entry   discard pokes that predate this attempt, publish the request,
 *             count as waiting in the packed word; the last arriver pokes the
 *             others.
 *  1. waiting rest in the adapter's safe state until every member is waiting
 *             and this participant has been poked (unless it was the last
 *             arriver).  Work pending, a membership change, the caller's
 *             abort or the phase-1 deadline make it leave and return an abort
 *             code, with the word as if it never entered.
 *  2. ready   count as ready and spin.  If some member stopped waiting, back
 *             out of ready (unless the word is all-ready) and go back to
 *             phase 1; abort sources are honoured the same way.  The one
 *             participant whose increment makes the word all-ready is the
 *             round's *closer*.
 *  3. decide  the closer alone decides the round: restart if any member still
 *             has a poke pending (the lost-wake check), otherwise commit with
 *             the reduction of all requests, and publishes the decision under
 *             a new round generation.
 *  4. action  on commit every member runs the action exactly once with the
 *             same parameter; coupled_barrier() and coupled_vote() work inside.
 *  5. exit    each member acknowledges the decision; only when all have (the
 *             closer opens the exit gate) does anyone leave both halves of the
 *             word (coupled_word_done()), then each waits until no member is
 *             ready.  On restart everybody then starts again at phase 0.
 *
 * Irrevocable commit: the all-ready value is absorbing until the first
 * coupled_word_done(), and nobody reaches that before every member has seen
 * the decision, so a slow member can never back out of a round the others
 * committed (the hazard of the Linux exit).
 *
 * Freestanding: no libc, no allocation, no threads; storage is the caller's.
 */
#ifndef COUPLED_COUPLED_H
#define COUPLED_COUPLED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "adapter.h"
#include "atomic.h"
#include "word.h"

/*
 * Return codes.  0 is a committed round, positive values are aborts (the word
 * is left as if the call never happened), negative values are errors in the
 * errno style (nothing shared was touched).
 */
#define COUPLED_COMMITTED 0
#define COUPLED_ABORT_WORK 1       /* the adapter reported pending work */
#define COUPLED_ABORT_MEMBERSHIP 2 /* a membership change is in progress */
#define COUPLED_ABORT_CALLER 3     /* the caller's abort check said so */
#define COUPLED_ABORT_TIMEOUT 4    /* the phase-1 deadline passed */
#define COUPLED_ABORT_REASONS 5    /* array size for per-reason counters */

#define COUPLED_EPERM (-1)        /* not allowed here: a membership change
				   * from inside a call of the same group */
#define COUPLED_ENOENT (-2)       /* the id is not a member */
#define COUPLED_EBUSY (-16)       /* the participant is already inside */
#define COUPLED_EEXIST (-17)      /* the id is already a member */
#define COUPLED_EINVAL (-22)      /* a null pointer or a bad value */
#define COUPLED_ERANGE (-34)      /* id or capacity out of range */
#define COUPLED_EOPNOTSUPP (-95)  /* deadline without an adapter clock */

/*
 * The optional adapter hook coupled_adapter_context() (docs/adapters.md):
 * an adapter that defines COUPLED_ADAPTER_HAS_CONTEXT to 1 names the calling
 * execution context, so that a membership change requested from inside a
 * call of the same group is refused instead of waiting for itself forever.
 */
#ifndef COUPLED_ADAPTER_HAS_CONTEXT
#define COUPLED_ADAPTER_HAS_CONTEXT 0
#endif

/* Decision of a round, published by its closer. */
#define COUPLED__OUTCOME_COMMIT 1u
#define COUPLED__OUTCOME_RESTART 2u

/*
 * Test hook points.  A test may define COUPLED_HOOK(group, self, point)
 * before including this header to observe or pause a participant at each
 * point; by default the hooks compile to nothing.
 */
enum coupled_hook_point {
	COUPLED_HOOK_ARRIVE,         /* before counting as waiting */
	COUPLED_HOOK_LAST_ARRIVER,   /* counted as the last arriver, before poking */
	COUPLED_HOOK_PHASE1_SLEEP,   /* before resting in the safe state */
	COUPLED_HOOK_READY,          /* before counting as ready */
	COUPLED_HOOK_READY_SPIN,     /* each turn of the ready loop */
	COUPLED_HOOK_BACK_OUT,       /* before trying to back out of ready */
	COUPLED_HOOK_DECIDED,        /* after acknowledging the decision */
	COUPLED_HOOK_DONE,           /* before coupled_word_done() */
	COUPLED_HOOK_EXITED,         /* after the exit wait, before returning */
	COUPLED_HOOK_MEMBERSHIP,     /* a changer holds prevent, waiting == 0 */
	COUPLED_HOOK_LEAVE_DRAIN,    /* a leaver waits for the id's call to end */
	COUPLED_HOOK_GATE_WAIT,      /* each turn of the wait to leave a decided
				      * round (closer: for the acks; others:
				      * for the exit gate) */
	COUPLED_HOOK_EXIT_WAIT       /* each turn of the wait for ready == 0 */
};
#ifndef COUPLED_HOOK
#define COUPLED_HOOK(group, self, point) \
	((void)(group), (void)(self), (void)(point))
#endif

struct coupled_group;

/**
 * struct coupled_round - what an action learns about its round
 * @group: the group
 * @self: the calling participant
 * @param: the reduction of all members' requests, the same for every member
 * @members: how many members the round has
 * @generation: the round's generation number (the same for every member).
 *              It counts decided rounds modulo 2^32 and wraps from
 *              UINT32_MAX to 0; compare two generations as serial numbers,
 *              (int32_t)(a - b) > 0 for "a is later".
 */
struct coupled_round {
	struct coupled_group *group;
	uint32_t self;
	int32_t param;
	uint32_t members;
	uint32_t generation;
};

/**
 * typedef coupled_action_fn - the shared action
 * @round: the round (valid during the call only)
 * @ctx: the caller's context pointer given to coupled_enter()
 *
 * Called exactly once on every member of a committed round, with the same
 * round->param.  May call coupled_barrier() and coupled_vote(); every member
 * must call them the same number of times.  Must not change the membership
 * of its own group (coupled_join() and coupled_leave() refuse it with
 * COUPLED_EPERM where the adapter names execution contexts).
 */
typedef void (*coupled_action_fn)(const struct coupled_round *round, void *ctx);

/**
 * typedef coupled_reduce_fn - fold two requests into one
 * @acc: the reduction so far
 * @request: the next member's request
 *
 * Must be associative and commutative; members are folded in id order.
 */
typedef int32_t (*coupled_reduce_fn)(int32_t acc, int32_t request);

/**
 * struct coupled_enter_opts - optional abort sources of one coupled_enter()
 * @deadline: absolute coupled_adapter_now() time after which a participant
 *            still in phase 1 gives up with COUPLED_ABORT_TIMEOUT; 0 for none
 * @should_abort: polled in phases 1 and 2; true aborts with
 *                COUPLED_ABORT_CALLER where an abort is still possible
 * @abort_arg: first argument of @should_abort
 */
struct coupled_enter_opts {
	uint64_t deadline;
	bool (*should_abort)(void *abort_arg, uint32_t self);
	void *abort_arg;
};

/**
 * struct coupled_stats - counters of one participant or of a whole group
 * @attempts: arrivals in phase 1: one per increment of the waiting count,
 *            i.e. per attempt, restarts included, and also an arrival
 *            that then sees a membership change and aborts (a call refused
 *            before it arrives is not counted)
 * @commits: committed rounds
 * @aborts: aborted calls, indexed by COUPLED_ABORT_* reason
 * @retries: back-outs from the ready phase to the waiting phase
 * @restarts: lost-wake restarts (decided by a closer that found a pending poke)
 */
struct coupled_stats {
	uint32_t attempts;
	uint32_t commits;
	uint32_t aborts[COUPLED_ABORT_REASONS];
	uint32_t retries;
	uint32_t restarts;
};

#ifdef COUPLED_STATS
/* The owner writes, anyone reads: atomics, relaxed, single writer. */
struct coupled__slot_stats {
	coupled_atomic_u32 attempts;
	coupled_atomic_u32 commits;
	coupled_atomic_u32 aborts[COUPLED_ABORT_REASONS];
	coupled_atomic_u32 retries;
	coupled_atomic_u32 restarts;
};
#endif

/**
 * struct coupled_slot - per-participant state, in the caller's storage
 *
 * All fields are private to the library.
 */
struct coupled_slot {
	/* 1 while the id is a member; written only by membership changes. */
	coupled_atomic_u32 member;
	/* The request of the current call; written by the owner only. */
	coupled_atomic_i32 request;
	/* Pokes sent to this participant; incremented by any poker. */
	coupled_atomic_u32 poke_seq;
	/* The poke_seq value the owner last handled; written by the owner. */
	coupled_atomic_u32 poke_handled;
	/*
	 * Generation of the last decision the owner saw; written by the
	 * owner, and by coupled_join() (the current generation).
	 */
	coupled_atomic_u32 ack;
	/*
	 * 1 while the owner is inside coupled_enter(): the re-entry guard, and
	 * what coupled_leave() waits on (a Dekker pair with @member).
	 */
	coupled_atomic_u32 inside;
#if COUPLED_ADAPTER_HAS_CONTEXT
	/*
	 * The adapter's id of the execution context inside coupled_enter()
	 * for this slot, 0 when none; written by that context only.
	 */
	coupled_atomic_u32 ctx;
#endif
#ifdef COUPLED_STATS
	struct coupled__slot_stats stats;
#endif
	struct coupled_adapter_slot adapter;
};

/**
 * struct coupled_group - one set of participants that act together
 *
 * Lives in the caller's storage; several groups work side by side.  All
 * fields are private to the library.
 */
struct coupled_group {
	/* The packed waiting/ready word (coupled/word.h). */
	coupled_atomic_u32 counts;
	/* Number of members; changes only while prevent is held. */
	coupled_atomic_u32 members;
	/* 1 while a membership change is in progress; also the changers' lock. */
	coupled_atomic_u32 prevent;
	/* Generation of the last decided round, and that round's decision. */
	coupled_atomic_u32 round_gen;
	coupled_atomic_u32 round_outcome;
	coupled_atomic_i32 round_param;
	/* Generation whose exit the closer has opened. */
	coupled_atomic_u32 exit_gate;
	/* The parallel barrier and the two alternating vote slots. */
	coupled_atomic_u32 barrier_count;
	coupled_atomic_u32 barrier_sense;
	coupled_atomic_u32 vote[2];
	/* Set by coupled_group_init() and never written again. */
	uint32_t capacity;
	coupled_reduce_fn reduce;
	struct coupled_slot *slots;
	struct coupled_adapter_group adapter;
};

/**
 * coupled_reduce_min() - the default reduction: the smallest request
 * @acc: the reduction so far
 * @request: the next request
 *
 * With requests as idle-state indices ordered shallow to deep, the minimum is
 * the deepest state every member can enter.
 *
 * Return: the smaller of the two.
 */
static inline int32_t coupled_reduce_min(int32_t acc, int32_t request)
{
	return request < acc ? request : acc;
}

/**
 * coupled_reduce_max() - the largest request
 * @acc: the reduction so far
 * @request: the next request
 *
 * Return: the larger of the two.
 */
static inline int32_t coupled_reduce_max(int32_t acc, int32_t request)
{
	return request > acc ? request : acc;
}

/**
 * coupled_group_init() - initialise a group in caller-provided storage
 * @g: the group
 * @slots: an array of @capacity slots
 * @capacity: number of participant ids, 1..COUPLED_MAX_MEMBERS
 * @initial_members: ids 0..@initial_members-1 start as members
 * @reduce: how requests are reduced; NULL for coupled_reduce_min()
 *
 * Context: before any other call on @g, with no concurrent access to @g or
 * @slots.
 * Return: 0, or COUPLED_EINVAL for a null pointer or
 * @initial_members > @capacity, or COUPLED_ERANGE for a capacity of 0 or
 * above COUPLED_MAX_MEMBERS; on error nothing is written.
 */
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
	coupled_atomic_init(&g->prevent, 0u);
	coupled_atomic_init(&g->round_gen, 0u);
	coupled_atomic_init(&g->round_outcome, 0u);
	coupled_atomic_init(&g->round_param, 0);
	coupled_atomic_init(&g->exit_gate, 0u);
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
		coupled_atomic_init(&s->request, 0);
		coupled_atomic_init(&s->poke_seq, 0u);
		coupled_atomic_init(&s->poke_handled, 0u);
		coupled_atomic_init(&s->ack, 0u);
		coupled_atomic_init(&s->inside, 0u);
#if COUPLED_ADAPTER_HAS_CONTEXT
		coupled_atomic_init(&s->ctx, 0u);
#endif
#ifdef COUPLED_STATS
		{
			uint32_t r;

			coupled_atomic_init(&s->stats.attempts, 0u);
			coupled_atomic_init(&s->stats.commits, 0u);
			for (r = 0; r < COUPLED_ABORT_REASONS; r++)
				coupled_atomic_init(&s->stats.aborts[r], 0u);
			coupled_atomic_init(&s->stats.retries, 0u);
			coupled_atomic_init(&s->stats.restarts, 0u);
		}
#endif
		coupled_adapter_slot_init(&g->adapter, &s->adapter, i);
	}
	return 0;
}

/**
 * coupled_group_set_generation() - for tests: put a group at a chosen round
 *                                  generation
 * @g: the group
 * @generation: the generation of the last decided round
 *
 * The round generation is a 32-bit counter that wraps: a group deciding a
 * million rounds a second wraps it in 72 minutes.  This call lets a test
 * reach any generation at once, without deciding the rounds: @g becomes what
 * it would be after rounds up to @generation had been decided with its
 * current members.  The generation of the last decision, the exit gate and
 * every member's acknowledgement become @generation.  A non-member's
 * acknowledgement is left as it is, as it would be after any number of
 * rounds without that id: 0 for an id that was never a member, the
 * generation of its last round for one that left.  So a test can build
 * what the wrap does to a joiner, a next round whose generation equals the
 * joiner's stale acknowledgement: this call with UINT32_MAX, then
 * coupled_join() of an id that was never a member; or an id leaves after
 * its round G, this call puts the group at G - 1 (2^32 - 1 rounds later),
 * and the id rejoins.
 *
 * Not for production code: a real group only ever moves its generation by
 * deciding rounds.
 *
 * Context: tests only, with the group at rest: nobody inside a call of @g,
 * no membership change in progress, and no concurrent access to @g (as for
 * coupled_group_init(); the caller publishes the group afterwards, e.g. by
 * creating the threads).
 * Return: 0; COUPLED_EINVAL for a null @g; COUPLED_EBUSY if somebody counts
 * as waiting, is inside a call or holds prevent (nothing is written).
 */
static inline int coupled_group_set_generation(struct coupled_group *g,
					       uint32_t generation)
{
	uint32_t i;

	if (!g)
		return COUPLED_EINVAL;
	/*
	 * relaxed, these loads and the stores below: the group is at rest
	 * and not shared concurrently (see Context); the checks only refuse
	 * a call that breaks that rule in a way visible from here.
	 */
	if (coupled_load(&g->counts, COUPLED_RELAXED) ||
	    coupled_load(&g->prevent, COUPLED_RELAXED))
		return COUPLED_EBUSY;
	for (i = 0; i < g->capacity; i++)
		if (coupled_load(&g->slots[i].inside, COUPLED_RELAXED))
			return COUPLED_EBUSY;
	coupled_store(&g->round_gen, generation, COUPLED_RELAXED);
	coupled_store(&g->exit_gate, generation, COUPLED_RELAXED);
	for (i = 0; i < g->capacity; i++)
		if (coupled_load(&g->slots[i].member, COUPLED_RELAXED))
			coupled_store(&g->slots[i].ack, generation,
				      COUPLED_RELAXED);
	return 0;
}

/**
 * coupled_group_adapter() - the group's adapter state
 * @g: the group
 *
 * For adapter-specific configuration (e.g. the pthread wait strategy).
 *
 * Return: a pointer into @g.
 */
static inline struct coupled_adapter_group *
coupled_group_adapter(struct coupled_group *g)
{
	return &g->adapter;
}

/**
 * coupled_participant_adapter() - one participant's adapter state
 * @g: the group
 * @id: a participant id
 *
 * For adapter-specific calls about one participant (e.g. simulated work).
 *
 * Return: a pointer into @g's slots, or NULL for a null @g or @id out of
 * range.
 */
static inline struct coupled_adapter_slot *
coupled_participant_adapter(struct coupled_group *g, uint32_t id)
{
	if (!g || id >= g->capacity)
		return NULL;
	return &g->slots[id].adapter;
}

/**
 * coupled_group_members() - current member count
 * @g: the group
 *
 * Return: the member count (a snapshot while membership changes), or 0 for a
 * null @g.
 */
static inline uint32_t coupled_group_members(struct coupled_group *g)
{
	if (!g)
		return 0;
	/* acquire: pairs with the release store of the count by a change. */
	return coupled_load(&g->members, COUPLED_ACQUIRE);
}

/**
 * coupled_is_member() - is an id currently a member?
 * @g: the group
 * @id: a participant id
 *
 * Return: true if @id is in range and a member (a snapshot).
 */
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

#ifdef COUPLED_STATS
#define COUPLED__STAT_INC(slot, field)                                      \
	/* relaxed: single writer (the owner); readers want a snapshot. */ \
	coupled_store(&(slot)->stats.field,                                 \
		      coupled_load(&(slot)->stats.field, COUPLED_RELAXED) +  \
			      1u,                                           \
		      COUPLED_RELAXED)
#else
#define COUPLED__STAT_INC(slot, field) ((void)0)
#endif

/**
 * coupled_stats_read() - add up the statistics of a group
 * @g: the group
 * @out: receives the sums over all slots
 *
 * Context: any; concurrent participants make it a snapshot, not a cut.
 * Return: 0, COUPLED_EINVAL for null pointers, or COUPLED_EOPNOTSUPP when
 * built without COUPLED_STATS (then @out is zeroed).
 */
static inline int coupled_stats_read(struct coupled_group *g,
				     struct coupled_stats *out)
{
	uint32_t r;

	if (!g || !out)
		return COUPLED_EINVAL;
	out->attempts = 0;
	out->commits = 0;
	for (r = 0; r < COUPLED_ABORT_REASONS; r++)
		out->aborts[r] = 0;
	out->retries = 0;
	out->restarts = 0;
#ifdef COUPLED_STATS
	{
		uint32_t i;

		for (i = 0; i < g->capacity; i++) {
			struct coupled__slot_stats *s = &g->slots[i].stats;

			/* relaxed: counters, no data depends on them. */
			out->attempts += coupled_load(&s->attempts,
						      COUPLED_RELAXED);
			out->commits += coupled_load(&s->commits,
						     COUPLED_RELAXED);
			for (r = 0; r < COUPLED_ABORT_REASONS; r++)
				out->aborts[r] += coupled_load(
					&s->aborts[r], COUPLED_RELAXED);
			out->retries += coupled_load(&s->retries,
						     COUPLED_RELAXED);
			out->restarts += coupled_load(&s->restarts,
						      COUPLED_RELAXED);
		}
	}
	return 0;
#else
	return COUPLED_EOPNOTSUPP;
#endif
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
					const struct coupled_enter_opts *opts,
					bool phase1)
{
	struct coupled_slot *s = &g->slots[self];

	if (coupled_adapter_work_pending(&g->adapter, &s->adapter, self))
		return COUPLED_ABORT_WORK;
	/* relaxed: a hint only; entry re-checks prevent with seq_cst. */
	if (coupled_load(&g->prevent, COUPLED_RELAXED))
		return COUPLED_ABORT_MEMBERSHIP;
	if (opts && opts->should_abort && opts->should_abort(opts->abort_arg, self))
		return COUPLED_ABORT_CALLER;
	if (phase1 && opts && opts->deadline &&
	    coupled_adapter_now(&g->adapter) >= opts->deadline)
		return COUPLED_ABORT_TIMEOUT;
	return 0;
}

/**
 * coupled__decide() - the closer's decision of a round
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
static inline void coupled__decide(struct coupled_group *g, uint32_t members,
				   uint32_t gen)
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
	/* release: pairs with the acquire load in the ready loop. */
	coupled_store(&g->round_gen, gen + 1u, COUPLED_RELEASE);
}

/**
 * coupled__exit() - leave a decided round
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
static inline void coupled__exit(struct coupled_group *g, uint32_t self,
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
 * Return: COUPLED_COMMITTED, a COUPLED_ABORT_* reason or COUPLED_ENOENT.
 */
static inline int coupled__run(struct coupled_group *g, uint32_t self,
			       int32_t request, coupled_action_fn action,
			       void *ctx, const struct coupled_enter_opts *opts)
{
	struct coupled_slot *s = &g->slots[self];
	struct coupled_adapter_group *ag = &g->adapter;
	uint32_t n, w, gen, outcome, token;
	bool poked, closer;
	int reason;

attempt:
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

	poked = false;
	if (coupled_word_waiting(w) == n) {
		/* The last arriver pokes the others and needs no poke itself. */
		COUPLED_HOOK(g, self, COUPLED_HOOK_LAST_ARRIVER);
		coupled__poke_members(g, self);
		poked = true;
	}

waiting:
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
			break;
		COUPLED_HOOK(g, self, COUPLED_HOOK_PHASE1_SLEEP);
		coupled_adapter_wait(ag, &s->adapter, self, token,
				     opts ? opts->deadline : 0);
	}

	/*
	 * relaxed: no round can be decided without our ready increment, so
	 * this is the latest generation and we saw its decision (acquire)
	 * when we took part in it, or it predates our membership.
	 */
	gen = coupled_load(&g->round_gen, COUPLED_RELAXED);
	COUPLED_HOOK(g, self, COUPLED_HOOK_READY);
	closer = coupled_word_arrive_ready(&g->counts) ==
		 coupled_word_all_ready(n);
	if (closer)
		coupled__decide(g, n, gen);

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
				/*
				 * Whoever completes "all waiting" next
				 * arrives after this and pokes us again.
				 */
				poked = false;
				goto waiting;
			}
			/* All ready: the decision is on its way. */
		}
		coupled_adapter_relax(ag);
	}

	gen++;
	/* relaxed: ordered after the acquire load of round_gen above. */
	outcome = coupled_load(&g->round_outcome, COUPLED_RELAXED);
	/* release: pairs with the closer's acquire scan in coupled__exit(). */
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

	coupled__exit(g, self, closer, gen);

	if (outcome != COUPLED__OUTCOME_COMMIT) {
		COUPLED__STAT_INC(s, restarts);
		goto attempt;
	}
	COUPLED__STAT_INC(s, commits);
	return COUPLED_COMMITTED;
}

/**
 * coupled_enter_opts() - enter the shared action together with all members
 * @g: the group
 * @self: the caller's participant id; one execution context per id at a time
 * @request: what the caller asks for (e.g. the deepest idle state it allows),
 *           >= 0
 * @action: run on every member of a committed round, with the reduction of
 *          all requests
 * @ctx: passed to @action
 * @opts: optional deadline and abort check; NULL for none
 *
 * Context: may sleep in the adapter's safe state and spin.  For cpuidle-like
 * use, called with interrupts disabled (see the adapter).  Must not be called
 * from an action.
 *
 * Return: COUPLED_COMMITTED (0) after @action ran in a round every member
 * ran; COUPLED_ABORT_WORK, _MEMBERSHIP, _CALLER or _TIMEOUT if the call
 * gave up (the group is as if it had never been entered); or a negative
 * error with nothing shared touched: COUPLED_EINVAL (null @g or @action,
 * @request < 0), COUPLED_ERANGE (@self out of range), COUPLED_ENOENT
 * (@self not a member), COUPLED_EBUSY (@self already inside),
 * COUPLED_EOPNOTSUPP (a deadline without an adapter clock).
 */
static inline int coupled_enter_opts(struct coupled_group *g, uint32_t self,
				     int32_t request,
				     coupled_action_fn action, void *ctx,
				     const struct coupled_enter_opts *opts)
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

/**
 * coupled_enter() - coupled_enter_opts() without deadline or abort check
 * @g: the group
 * @self: the caller's participant id
 * @request: the caller's request, >= 0
 * @action: the shared action
 * @ctx: passed to @action
 *
 * Return: as coupled_enter_opts().
 */
static inline int coupled_enter(struct coupled_group *g, uint32_t self,
				int32_t request, coupled_action_fn action,
				void *ctx)
{
	return coupled_enter_opts(g, self, request, action, ctx, NULL);
}

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
	 * seq_cst on success: the Dekker pair with coupled__run()'s arrival
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

/**
 * coupled_join() - make an id a member
 * @g: the group
 * @id: the id to add
 *
 * Participants in phase 1 abort with COUPLED_ABORT_MEMBERSHIP; a round that
 * already reached all-ready completes first; no round ever commits with a
 * stale member count.
 *
 * Context: may spin.  Must not be called from inside a call of
 * coupled_enter() on @g by the same execution context (from an action, a
 * should_abort check or the adapter's work check): the change would wait for
 * that call, which counts as waiting, forever.  With an adapter that names
 * execution contexts (COUPLED_ADAPTER_HAS_CONTEXT: pthread, bare-metal ARM
 * A profile) that is refused with COUPLED_EPERM; without one it is not
 * detected and hangs: the spin adapter, and the Linux kernel adapter, where
 * a CPU number names no preemptible caller (it may migrate) and every CPU's
 * idle task has pid 0 (docs/adapters.md).
 * Return: 0; COUPLED_EINVAL for a null @g; COUPLED_ERANGE for @id out of
 * range; COUPLED_EPERM when called from inside a call of @g (see Context);
 * COUPLED_EEXIST if @id is already a member.  Nothing changes on an error.
 */
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
		 * wrap and pass the closer's check in coupled__exit() before
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

/**
 * coupled_leave() - remove an id from the members
 * @g: the group
 * @id: the id to remove
 *
 * As coupled_join().  If @id is in phase 1 it aborts with
 * COUPLED_ABORT_MEMBERSHIP; its later calls return COUPLED_ENOENT.  Returns
 * only once a call of @id that raced with the removal has returned, so that
 * call never counts in a round of the new membership.
 *
 * Context: may spin.  As coupled_join(): must not be called from inside a
 * call of coupled_enter() on @g by the same execution context (in
 * particular not by @id's own context from its should_abort check, nor from
 * an action); refused with COUPLED_EPERM where the adapter names execution
 * contexts, a hang elsewhere.
 * Return: 0; COUPLED_EINVAL for a null @g; COUPLED_ERANGE for @id out of
 * range; COUPLED_EPERM when called from inside a call of @g;
 * COUPLED_ENOENT if @id is not a member.  Nothing changes on an error.
 */
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
		while (coupled_load(&g->barrier_sense, COUPLED_ACQUIRE) == sense)
			coupled_adapter_relax(&g->adapter);
	}
}

/**
 * coupled_barrier() - wait inside an action until every member arrives
 * @round: the round passed to the action
 *
 * Context: inside an action only; every member of the round must call it.
 * Return: 0, or COUPLED_EINVAL for a null or malformed @round.
 */
static inline int coupled_barrier(const struct coupled_round *round)
{
	if (!round || !round->group || round->members == 0)
		return COUPLED_EINVAL;
	coupled__barrier(round->group, round->members);
	return 0;
}

/**
 * coupled_vote() - decide together whether to abort
 * @round: the round passed to the action
 * @want_abort: this member's vote
 *
 * Any member voting to abort makes every member learn "abort": the "abort
 * together" contract a coupled-state driver needs after a failed step.
 *
 * Context: inside an action only; every member of the round must call it.
 * Return: 1 if some member voted to abort, 0 if none did, COUPLED_EINVAL for
 * a null or malformed @round.  Every member gets the same answer.
 */
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

/**
 * coupled_strerror() - a short name for a return code
 * @code: a value returned by this library
 *
 * Return: a static string.
 */
static inline const char *coupled_strerror(int code)
{
	switch (code) {
	case COUPLED_COMMITTED: return "committed";
	case COUPLED_ABORT_WORK: return "abort: work pending";
	case COUPLED_ABORT_MEMBERSHIP: return "abort: membership change";
	case COUPLED_ABORT_CALLER: return "abort: caller";
	case COUPLED_ABORT_TIMEOUT: return "abort: timeout";
	case COUPLED_EPERM: return "not permitted";
	case COUPLED_ENOENT: return "not a member";
	case COUPLED_EBUSY: return "already inside";
	case COUPLED_EEXIST: return "already a member";
	case COUPLED_EINVAL: return "invalid argument";
	case COUPLED_ERANGE: return "out of range";
	case COUPLED_EOPNOTSUPP: return "not supported";
	default: return "unknown";
	}
}

#endif /* COUPLED_COUPLED_H */

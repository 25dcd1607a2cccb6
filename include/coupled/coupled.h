/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/coupled.h - coupled rendezvous: all members of a group enter one
 * shared action together, or none does.
 *
 * The protocol generalizes Linux's coupled cpuidle from "CPUs entering an
 * idle state" to "participants entering a shared action".  A group lives in
 * the caller's storage; each member calls coupled_enter() with a request,
 * and in a committed round every member runs the same action exactly once
 * with the reduction of all requests.  A round commits only when every
 * member is there: work pending on one member, a membership change, the
 * caller's abort check or a deadline make the calls give up instead, with
 * the group as if they had never been made.
 *
 * This file is the whole API: the types, the return codes (coupled/errno.h)
 * and every function a user calls, with its contract.  The bodies follow in
 * the headers included at the end: coupled/protocol.h (the round, and the
 * choice between its two variants, coupled/direct.h and coupled/settled.h,
 * by what the adapter's wake-ups can do; the variant's own state comes
 * before the structs, from coupled/protocol_state.h), membership.h,
 * action.h, group.h
 * (also the test hooks, which are not part of the API) and stats.h;
 * each atomic operation's comment argues its memory order, and
 * docs/design.md the protocol as a whole.  The platform is an
 * adapter chosen at compile time (coupled/adapter.h).
 *
 * Freestanding: no libc, no allocation, no threads; storage is the caller's.
 */
#ifndef COUPLED_COUPLED_H
#define COUPLED_COUPLED_H

#include "types.h"
#include "errno.h"
#include "adapter.h"
#include "atomic.h"
#include "hook.h"
#include "trace.h"

/*
 * The largest member count (and capacity) of a group: both protocols count
 * the members of a round in 16 bits (the arrivals of coupled/direct.h, the
 * waiting and ready halves of coupled/word.h).
 */
#define COUPLED_MAX_MEMBERS 65535u

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
 * Must be associative and commutative; members are folded in roster order,
 * which changes as members join and leave (coupled/membership.h).
 */
typedef int32_t (*coupled_reduce_fn)(int32_t acc, int32_t request);

/**
 * struct coupled_abort_opts - optional abort sources of one coupled_enter()
 * @deadline: absolute coupled_adapter_now() time after which a participant
 *            still waiting for the others gives up with
 *            COUPLED_ABORT_TIMEOUT (settled: only while waiting, not once
 *            ready); 0 for none
 * @should_abort: polled while waiting for the others; true aborts with
 *                COUPLED_ABORT_CALLER where an abort is still possible
 * @abort_arg: first argument of @should_abort
 */
struct coupled_abort_opts {
	uint64_t deadline;
	bool (*should_abort)(void *abort_arg, uint32_t self);
	void *abort_arg;
};

/**
 * struct coupled_stats - counters of one participant or of a whole group
 * @attempts: arrivals, in both protocols: one per increment of the arrival
 *            count (direct) or of the waiting count (settled, so once more
 *            per restart), also an arrival that then sees a membership
 *            change and gives up.  A call that gives up before it arrives
 *            is not counted: one refused with an error, one that sees a
 *            change already in progress, and, in direct only, one whose
 *            abort source fired at its start (polled before the arrival)
 * @commits: calls that returned COUPLED_COMMITTED (both protocols)
 * @aborts: calls that returned a COUPLED_ABORT_* reason, indexed by it
 *          (both protocols); calls that returned an error are in no counter
 * @retries: settled only: back-outs from the ready phase to the waiting
 *           phase of the same attempt.  Always 0 in direct, which has no
 *           ready phase: a member that gives up there withdraws and aborts
 * @restarts: settled only: rounds decided as a restart (its closer found
 *            a settled poke still pending), each then attempted again.  Always 0 in
 *            direct: its rounds only commit
 *
 * Which protocol a build runs: COUPLED_PROTOCOL_NAME (coupled/adapter.h).
 */
struct coupled_stats {
	uint32_t attempts;
	uint32_t commits;
	uint32_t aborts[COUPLED_ABORT_REASONS];
	uint32_t retries;
	uint32_t restarts;
};

#include "stats.h"

/*
 * The selected protocol's own state, the field "variant" of the structs
 * below (coupled/protocol_state.h picks the variant; its state header
 * declares it and says who writes it).
 */
#include "protocol_state.h"

/*
 * Who writes each field of struct coupled_slot and struct coupled_group
 * named here (the memory orders are argued at each access and in
 * docs/design.md); coupled_group_init() writes them all, before the group
 * is shared:
 *   slot.member        membership changes only (while they stop rounds)
 *   slot.roster        membership changes only: the dense member list
 *   slot.roster_pos    membership changes only (the changers' lock)
 *   slot.request       the owner, per attempt (direct: only a member
 *                      without an entry in the word's line)
 *   slot.inside        the owner, around its call: the re-entry guard, and
 *                      what coupled_leave() waits on (a Dekker pair with
 *                      slot.member)
 *   slot.context_id    the execution context inside the slot's call (its
 *                      adapter id, 0 when none)
 *   slot.stats         the owner (coupled/stats.h)
 *   counts             the protocol's word.  direct: arrivals and
 *                      withdrawals (RMWs), membership changes (CAS, setting
 *                      and clearing stop), the completer (one store, while
 *                      the word is frozen).  settled: every member, RMWs
 *                      only (coupled/word.h)
 *   members            membership changes
 *   round_gen, round_param   the round's decider: direct: the completer,
 *                      while the word is frozen; settled: the closer
 *   prevent            membership changes: the changers' lock (settled:
 *                      also what stops rounds; direct: held from before
 *                      stop is set until after it is cleared)
 *   barrier_count, barrier_sense, vote[2]   members in an action
 *   capacity, reduce, slots   coupled_group_init() only
 *   adapter            the adapter (coupled/adapter.h)
 * coupled_group_set_generation() (a test hook, coupled/group.h) also
 * writes round_gen, with the group at rest.
 */

/**
 * struct coupled_slot - per-participant state, in the caller's storage
 *
 * All fields are private to the library (see the list above).
 */
struct coupled_slot {
	coupled_atomic_u32 member;  /* 1 while the id is a member */
	coupled_atomic_u32 roster;  /* the id of the member at this index of
				     * the dense member list (membership.h) */
	uint32_t roster_pos;        /* this id's index there; changers only */
	coupled_atomic_i32 request; /* the request of the current call */
	coupled__variant_slot variant; /* the protocol's own */
	coupled_atomic_u32 inside;     /* 1 while the owner is inside a call */
#if COUPLED_ADAPTER_HAS_CONTEXT
	coupled_atomic_u32 context_id; /* the adapter's id of that context */
#endif
#if COUPLED__HAVE_SLOT_STATS
	struct coupled__slot_stats stats; /* the counters (coupled/stats.h) */
#endif
	struct coupled_adapter_slot adapter;
};

/**
 * struct coupled_group - one set of participants that act together
 *
 * Lives in the caller's storage; several groups work side by side.  All
 * fields are private to the library (see the list above struct
 * coupled_slot).
 */
struct coupled_group {
	coupled_atomic_u32 counts;      /* the protocol's word (its header) */
	coupled_atomic_u32 members;     /* member count; written by changes */
	coupled_atomic_u32 round_gen;   /* generation of the last decision */
	coupled_atomic_i32 round_param; /* that round's reduced request */
	coupled_atomic_u32 prevent;     /* 1 while a membership change runs: the
				     * changers' lock (settled: also what
				     * stops rounds; direct: the word's stop) */
	coupled__variant_group variant; /* the protocol's own */
	coupled_atomic_u32 barrier_count; /* coupled_barrier() arrivals */
	coupled_atomic_u32 barrier_sense; /* coupled_barrier() generation */
	coupled_atomic_u32 vote[2];       /* the two alternating vote slots */
	uint32_t capacity;                /* set once by coupled_group_init() */
	coupled_reduce_fn reduce;
	struct coupled_slot *slots;
	struct coupled_adapter_group adapter;
};

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
				     coupled_reduce_fn reduce);

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
				     int32_t request, coupled_action_fn action,
				     void *ctx,
				     const struct coupled_abort_opts *opts);

/**
 * coupled_enter() - coupled_enter_opts() without deadline or abort check
 * @g: the group
 * @self: the caller's participant id
 * @request: the caller's request, >= 0
 * @action: the shared action
 * @ctx: passed to @action
 *
 * Context: as coupled_enter_opts().
 * Return: as coupled_enter_opts().
 */
static inline int coupled_enter(struct coupled_group *g, uint32_t self,
				int32_t request, coupled_action_fn action,
				void *ctx);

/**
 * coupled_barrier() - wait inside an action until every member arrives
 * @round: the round passed to the action
 *
 * Context: inside an action only; every member of the round must call it.
 * Return: 0, or COUPLED_EINVAL for a null or malformed @round.
 */
static inline int coupled_barrier(const struct coupled_round *round);

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
			       bool want_abort);

/**
 * coupled_join() - make an id a member
 * @g: the group
 * @id: the id to add
 *
 * Participants waiting for a round abort with COUPLED_ABORT_MEMBERSHIP; a
 * round that already committed (direct: its count is complete; settled: it
 * reached all-ready) completes first; no round ever commits with a
 * stale member count.  "Completes": in the settled protocol the change also
 * waits until every member of that round has left it; in the direct one a
 * member may still be running that round's action (with the round's own
 * member count) while the change proceeds, since nobody counts in a round
 * once it committed.
 *
 * Context: may spin.  Must not be called from inside a call of
 * coupled_enter() on @g by the same execution context (from an action, a
 * should_abort check or the adapter's work check): the change would wait for
 * that call, which counts in a round until it returns, forever.  With an adapter that names
 * execution contexts (COUPLED_ADAPTER_HAS_CONTEXT: pthread, bare-metal ARM
 * A profile) that is refused with COUPLED_EPERM; without one it is not
 * detected and hangs: the spin adapter, and the Linux kernel adapter, where
 * a CPU number names no preemptible caller (it may migrate) and every CPU's
 * idle task has pid 0 (docs/adapters.md).
 * Return: 0; COUPLED_EINVAL for a null @g; COUPLED_ERANGE for @id out of
 * range; COUPLED_EPERM when called from inside a call of @g (see Context);
 * COUPLED_EEXIST if @id is already a member.  Nothing changes on an error.
 */
static inline int coupled_join(struct coupled_group *g, uint32_t id);

/**
 * coupled_leave() - remove an id from the members
 * @g: the group
 * @id: the id to remove
 *
 * As coupled_join().  If @id is waiting for a round it aborts with
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
static inline int coupled_leave(struct coupled_group *g, uint32_t id);

/**
 * coupled_group_kick() - make every waiting member poll its abort sources
 * @g: the group
 *
 * Wakes every member on the roster through the adapter, so that a member
 * resting in a call of @g polls its abort sources (should_abort, the
 * deadline, pending work) again at once.  For a caller that changed what
 * some member's should_abort reads: store that first, then kick.  A kick
 * changes nothing shared of the protocol; a member that is not waiting
 * ignores it.  Costs one adapter wake-up per member.
 *
 * Context: any context that may call the adapter's wake-up, also from inside
 * an action; concurrent with calls and membership changes (a member that a
 * concurrent change adds may be missed; a change wakes its members itself).
 * Return: 0, or COUPLED_EINVAL for a null @g.
 */
static inline int coupled_group_kick(struct coupled_group *g);

/**
 * coupled_group_members() - current member count
 * @g: the group
 *
 * Return: the member count (a snapshot while membership changes), or 0 for a
 * null @g.
 */
static inline uint32_t coupled_group_members(struct coupled_group *g);

/**
 * coupled_is_member() - is an id currently a member?
 * @g: the group
 * @id: a participant id
 *
 * Return: true if @id is in range and a member (a snapshot).
 */
static inline bool coupled_is_member(struct coupled_group *g, uint32_t id);

/**
 * coupled_group_adapter() - the group's adapter state
 * @g: the group
 *
 * For adapter-specific configuration (e.g. the pthread wait strategy).
 *
 * Return: a pointer into @g.
 */
static inline struct coupled_adapter_group *
coupled_group_adapter(struct coupled_group *g);

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
coupled_participant_adapter(struct coupled_group *g, uint32_t id);

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
				     struct coupled_stats *out);

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
static inline int32_t coupled_reduce_min(int32_t acc, int32_t request);

/**
 * coupled_reduce_max() - the largest request
 * @acc: the reduction so far
 * @request: the next request
 *
 * Return: the larger of the two.
 */
static inline int32_t coupled_reduce_max(int32_t acc, int32_t request);

/**
 * coupled_strerror() - a short name for a return code
 * @code: a value returned by this library
 *
 * Return: a static string.
 */
static inline const char *coupled_strerror(int code);

/* The bodies of the functions above. */
#include "protocol.h"
#include "group.h"
#include "membership.h"
#include "action.h"

#endif /* COUPLED_COUPLED_H */

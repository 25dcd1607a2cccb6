/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_unit.c - unit tests of the packed word and of the public API's
 * single-threaded behaviour: bad input, error codes, the group left untouched,
 * one-member rounds, the abort sources that one thread can trigger.
 *
 * The same file is compiled as C and, through unit_cxx.cpp, as C++, and
 * for both protocol variants (the adapter's default and one forced with
 * COUPLED_PROTOCOL_SETTLED or COUPLED_PROTOCOL_DIRECT).
 */

/* The variant this build asked for, before coupled/protocol.h decides. */
#if defined(COUPLED_PROTOCOL_SETTLED)
#define TEST_FORCED_PROTOCOL (COUPLED_PROTOCOL_SETTLED ? "settled" : "direct")
#elif defined(COUPLED_PROTOCOL_DIRECT)
#define TEST_FORCED_PROTOCOL (COUPLED_PROTOCOL_DIRECT ? "direct" : "settled")
#endif

/*
 * The hook points run unit_hook() (test_stats_exact() scripts calls with
 * it); it does nothing unless a script armed it for the group.
 */
#include <stdint.h>
struct coupled_group;
static void unit_hook(struct coupled_group *g, uint32_t self, int point);
#define COUPLED_HOOK(group, self, point) \
	unit_hook((group), (self), (int)(point))

#include "coupled/coupled.h"
/* The settled word's helpers, private to settled.h: tested in both builds. */
#include "coupled/word.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(COUPLED_ADAPTER_PTHREAD)
#include <errno.h>
#include <pthread.h>
#include <time.h>
#endif

#include "check.h"
#include "variant.h"

/* ---- the packed word ------------------------------------------------- */

static uint32_t word_value(coupled_atomic_u32 *w)
{
	/* relaxed: single-threaded test. */
	return coupled_load(w, COUPLED_RELAXED);
}

static void test_word_layout(void)
{
	TEST_CASE("word_layout");
	CHECK_EQ(coupled__word_waiting(0x00030005u), 5);
	CHECK_EQ(coupled__word_ready(0x00030005u), 3);
	CHECK_EQ(coupled__word_waiting(0xffffffffu), 0xffff);
	CHECK_EQ(coupled__word_ready(0xffffffffu), 0xffff);
	CHECK_EQ(coupled__word_waiting(0xffff0000u), 0);
	CHECK_EQ(coupled__word_ready(0x0000ffffu), 0);
}

/*
 * The all-ready value is a bitwise OR of the two halves.  The seed's logical
 * "||" gives 1 for every member count; these values catch it.
 */
static void test_word_all_ready(void)
{
	TEST_CASE("word_all_ready");
	CHECK_EQ(coupled__word_all_ready(1), 0x00010001u);
	CHECK_EQ(coupled__word_all_ready(2), 0x00020002u);
	CHECK_EQ(coupled__word_all_ready(3), 0x00030003u);
	CHECK_EQ(coupled__word_all_ready(0x8000u), 0x80008000u);
	CHECK_EQ(coupled__word_all_ready(COUPLED_MAX_MEMBERS), 0xffffffffu);
}

static void test_word_arrive_leave(void)
{
	coupled_atomic_u32 w;

	TEST_CASE("word_arrive_leave");
	coupled_atomic_init(&w, 0u);
	CHECK_EQ(coupled__word_arrive_waiting(&w), 1);
	CHECK_EQ(coupled__word_arrive_waiting(&w), 2);
	CHECK_EQ(coupled__word_arrive_ready(&w), 0x00010002u);
	CHECK(coupled__word_back_out_ready(&w, 3));
	CHECK_EQ(word_value(&w), 2);
	coupled__word_leave_waiting(&w);
	coupled__word_leave_waiting(&w);
	CHECK_EQ(word_value(&w), 0);
}

/* The 16-bit boundaries: a full waiting half never carries into ready. */
static void test_word_boundaries(void)
{
	coupled_atomic_u32 w;
	uint32_t i, v = 0;

	TEST_CASE("word_boundaries");
	coupled_atomic_init(&w, 0u);
	for (i = 0; i < COUPLED_MAX_MEMBERS; i++)
		v = coupled__word_arrive_waiting(&w);
	CHECK_EQ(v, 0x0000ffffu);
	CHECK_EQ(coupled__word_ready(v), 0);
	for (i = 0; i < COUPLED_MAX_MEMBERS - 1; i++)
		v = coupled__word_arrive_ready(&w);
	CHECK_EQ(v, 0xfffeffffu);
	CHECK(v != coupled__word_all_ready(COUPLED_MAX_MEMBERS));
	/* The last ready arrival reaches all-ready exactly. */
	v = coupled__word_arrive_ready(&w);
	CHECK_EQ(v, coupled__word_all_ready(COUPLED_MAX_MEMBERS));
	/* All-ready is absorbing: no back-out. */
	CHECK(!coupled__word_back_out_ready(&w, COUPLED_MAX_MEMBERS));
	CHECK_EQ(word_value(&w), 0xffffffffu);
	/* done leaves both halves at once, down to zero. */
	for (i = 0; i < COUPLED_MAX_MEMBERS; i++)
		coupled__word_done(&w);
	CHECK_EQ(word_value(&w), 0);
}

static void test_word_back_out_guard(void)
{
	coupled_atomic_u32 w;

	TEST_CASE("word_back_out_guard");
	/* 3 members, all waiting, 2 ready: backing out is allowed. */
	coupled_atomic_init(&w, 0x00020003u);
	CHECK(coupled__word_back_out_ready(&w, 3));
	CHECK_EQ(word_value(&w), 0x00010003u);
	/* 3 members all ready: refused, word unchanged. */
	coupled_store(&w, 0x00030003u, COUPLED_RELAXED);
	CHECK(!coupled__word_back_out_ready(&w, 3));
	CHECK_EQ(word_value(&w), 0x00030003u);
	/* After one member's done the word is no longer all-ready. */
	coupled__word_done(&w);
	CHECK_EQ(word_value(&w), 0x00020002u);
}

/* ---- the API, single-threaded --------------------------------------- */

static unsigned action_runs;
static int32_t action_param;
static uint32_t action_members;

static void count_action(const struct coupled_round *r, void *ctx)
{
	(void)ctx;
	action_runs++;
	action_param = r->param;
	action_members = r->members;
}

/* Bytes of a group and its slots, to prove a failed call touched nothing. */
struct snapshot {
	unsigned char group[sizeof(struct coupled_group)];
	unsigned char slots[4 * sizeof(struct coupled_slot)];
};

static void take(struct snapshot *s, struct coupled_group *g,
		 struct coupled_slot *slots)
{
	memcpy(s->group, (void *)g, sizeof(s->group));
	memcpy(s->slots, (void *)slots, sizeof(s->slots));
}

static int same(struct snapshot *s, struct coupled_group *g,
		struct coupled_slot *slots)
{
	return memcmp(s->group, (void *)g, sizeof(s->group)) == 0 &&
	       memcmp(s->slots, (void *)slots, sizeof(s->slots)) == 0;
}

static void test_init_errors(void)
{
	struct coupled_group g;
	struct coupled_slot slots[4];
	unsigned char before[sizeof(g)];

	TEST_CASE("init_errors");
	memset((void *)&g, 0xa5, sizeof(g));
	memcpy(before, (void *)&g, sizeof(g));
	CHECK_EQ(coupled_group_init(NULL, slots, 4, 4, NULL), COUPLED_EINVAL);
	CHECK_EQ(coupled_group_init(&g, NULL, 4, 4, NULL), COUPLED_EINVAL);
	CHECK_EQ(coupled_group_init(&g, slots, 0, 0, NULL), COUPLED_ERANGE);
	CHECK_EQ(coupled_group_init(&g, slots, COUPLED_MAX_MEMBERS + 1u, 1,
				    NULL),
		 COUPLED_ERANGE);
	CHECK_EQ(coupled_group_init(&g, slots, 4, 5, NULL), COUPLED_EINVAL);
	CHECK(memcmp(before, (void *)&g, sizeof(g)) == 0);
	CHECK_EQ(coupled_group_init(&g, slots, 4, 4, NULL), 0);
	CHECK_EQ(coupled_group_members(&g), 4);
	CHECK_EQ(coupled_group_members(NULL), 0);
	CHECK(coupled_is_member(&g, 3));
	CHECK(!coupled_is_member(&g, 4));
	CHECK(!coupled_is_member(NULL, 0));
	CHECK(coupled_participant_adapter(&g, 3) != NULL);
	CHECK(coupled_participant_adapter(&g, 4) == NULL);
}

static void test_enter_membership_errors(void)
{
	struct coupled_group g;
	struct coupled_slot slots[4];
	struct snapshot snap;

	TEST_CASE("enter_errors");
	CHECK_EQ(coupled_group_init(&g, slots, 4, 2, NULL), 0);
	take(&snap, &g, slots);
	CHECK_EQ(coupled_enter(NULL, 0, 1, count_action, NULL), COUPLED_EINVAL);
	CHECK_EQ(coupled_enter(&g, 0, 1, NULL, NULL), COUPLED_EINVAL);
	CHECK_EQ(coupled_enter(&g, 0, -1, count_action, NULL), COUPLED_EINVAL);
	CHECK_EQ(coupled_enter(&g, 4, 1, count_action, NULL), COUPLED_ERANGE);
	CHECK_EQ(coupled_enter(&g, UINT32_MAX, 1, count_action, NULL),
		 COUPLED_ERANGE);
	CHECK_EQ(coupled_enter(&g, 2, 1, count_action, NULL), COUPLED_ENOENT);
	CHECK(same(&snap, &g, slots));
	CHECK_EQ(action_runs, 0);

	/* On the same group, unchanged by the refused enters. */
	TEST_CASE("membership_errors");
	CHECK_EQ(coupled_join(NULL, 0), COUPLED_EINVAL);
	CHECK_EQ(coupled_join(&g, 4), COUPLED_ERANGE);
	CHECK_EQ(coupled_leave(NULL, 0), COUPLED_EINVAL);
	CHECK_EQ(coupled_leave(&g, 4), COUPLED_ERANGE);
	CHECK(same(&snap, &g, slots));
	/* A refused join or leave changes nothing visible. */
	CHECK_EQ(coupled_join(&g, 1), COUPLED_EEXIST);
	CHECK_EQ(coupled_leave(&g, 3), COUPLED_ENOENT);
	CHECK_EQ(coupled_group_members(&g), 2);
	CHECK(same(&snap, &g, slots));
	/* Real changes. */
	CHECK_EQ(coupled_join(&g, 3), 0);
	CHECK_EQ(coupled_group_members(&g), 3);
	CHECK(coupled_is_member(&g, 3));
	CHECK_EQ(coupled_leave(&g, 0), 0);
	CHECK_EQ(coupled_group_members(&g), 2);
	CHECK(!coupled_is_member(&g, 0));
	CHECK_EQ(coupled_enter(&g, 0, 1, count_action, NULL), COUPLED_ENOENT);
}

static void test_single_member_round(void)
{
	struct coupled_group g;
	struct coupled_slot slots[2];
	int i;

	TEST_CASE("single_member_round");
	CHECK_EQ(coupled_group_init(&g, slots, 2, 1, NULL), 0);
	action_runs = 0;
	for (i = 0; i < 5; i++) {
		CHECK_EQ(coupled_enter(&g, 0, 7 + i, count_action, NULL),
			 COUPLED_COMMITTED);
		CHECK_EQ(action_runs, (unsigned)i + 1u);
		CHECK_EQ(action_param, 7 + i);
		CHECK_EQ(action_members, 1);
		CHECK(test_group_at_rest(&g));
	}
}

/*
 * A group without members: the first join must not wait for a round (there
 * is none), and the group can be emptied and filled again.
 */
static void test_empty_group(void)
{
	struct coupled_group g;
	struct coupled_slot slots[4];

	TEST_CASE("empty_group");
	CHECK_EQ(coupled_group_init(&g, slots, 4, 0, NULL), 0);
	CHECK_EQ(coupled_group_members(&g), 0);
	CHECK(test_group_at_rest(&g));
	CHECK_EQ(coupled_enter(&g, 2, 1, count_action, NULL), COUPLED_ENOENT);
	CHECK_EQ(coupled_join(&g, 2), 0);
	CHECK_EQ(coupled_group_members(&g), 1);
	action_runs = 0;
	CHECK_EQ(coupled_enter(&g, 2, 6, count_action, NULL),
		 COUPLED_COMMITTED);
	CHECK_EQ(action_runs, 1);
	CHECK_EQ(action_param, 6);
	CHECK_EQ(coupled_leave(&g, 2), 0);
	CHECK_EQ(coupled_group_members(&g), 0);
	CHECK(test_group_at_rest(&g));
	CHECK_EQ(coupled_join(&g, 3), 0);
	CHECK(test_roster_consistent(&g) == NULL);
}

/* Re-entry from inside the action is refused and changes nothing. */
static struct coupled_group reentry_group;
static int reentry_result;
static uint32_t reentry_word_before, reentry_word_after;

static void reentry_action(const struct coupled_round *r, void *ctx)
{
	(void)ctx;
	reentry_word_before = word_value(&reentry_group.counts);
	reentry_result =
		coupled_enter(r->group, r->self, 1, count_action, NULL);
	reentry_word_after = word_value(&reentry_group.counts);
}

static void test_reentry(void)
{
	struct coupled_slot slots[1];

	TEST_CASE("reentry");
	CHECK_EQ(coupled_group_init(&reentry_group, slots, 1, 1, NULL), 0);
	action_runs = 0;
	CHECK_EQ(coupled_enter(&reentry_group, 0, 1, reentry_action, NULL),
		 COUPLED_COMMITTED);
	CHECK_EQ(reentry_result, COUPLED_EBUSY);
	CHECK_EQ(reentry_word_before, reentry_word_after);
	CHECK_EQ(action_runs, 0);
	/* And the participant can enter again afterwards. */
	CHECK_EQ(coupled_enter(&reentry_group, 0, 1, count_action, NULL),
		 COUPLED_COMMITTED);
	CHECK_EQ(action_runs, 1);
}

static int32_t reduce_sum(int32_t acc, int32_t r)
{
	return acc + r;
}

static void test_reductions(void)
{
	struct coupled_group g;
	struct coupled_slot slots[1];

	TEST_CASE("reductions");
	CHECK_EQ(coupled_reduce_min(3, 1), 1);
	CHECK_EQ(coupled_reduce_min(1, 3), 1);
	CHECK_EQ(coupled_reduce_max(3, 1), 3);
	CHECK_EQ(coupled_reduce_max(1, 3), 3);
	CHECK_EQ(coupled_group_init(&g, slots, 1, 1, reduce_sum), 0);
	CHECK_EQ(coupled_enter(&g, 0, 42, count_action, NULL),
		 COUPLED_COMMITTED);
	CHECK_EQ(action_param, 42);
}

static void test_barrier_vote_errors(void)
{
	struct coupled_round r;

	TEST_CASE("barrier_vote_errors");
	memset((void *)&r, 0, sizeof(r));
	CHECK_EQ(coupled_barrier(NULL), COUPLED_EINVAL);
	CHECK_EQ(coupled_barrier(&r), COUPLED_EINVAL);
	CHECK_EQ(coupled_vote(NULL, true), COUPLED_EINVAL);
	CHECK_EQ(coupled_vote(&r, false), COUPLED_EINVAL);
}

static int vote_results[3];

static void vote_action(const struct coupled_round *r, void *ctx)
{
	(void)ctx;
	/* One member: its own vote decides; the barrier is immediate. */
	CHECK_EQ(coupled_barrier(r), 0);
	vote_results[0] = coupled_vote(r, true);
	vote_results[1] = coupled_vote(r, false);
	vote_results[2] = coupled_vote(r, false);
}

static void test_vote_single(void)
{
	struct coupled_group g;
	struct coupled_slot slots[1];

	TEST_CASE("vote_single");
	CHECK_EQ(coupled_group_init(&g, slots, 1, 1, NULL), 0);
	CHECK_EQ(coupled_enter(&g, 0, 0, vote_action, NULL), COUPLED_COMMITTED);
	CHECK_EQ(vote_results[0], 1);
	CHECK_EQ(vote_results[1], 0);
	CHECK_EQ(vote_results[2], 0);
}

static bool always_abort(void *arg, uint32_t self)
{
	(void)self;
	++*(unsigned *)arg;
	return true;
}

/*
 * One thread alone in a two-member group can never commit; each abort
 * source makes it return its own code with the word back at zero.
 */
static void test_abort_sources_alone(void)
{
	struct coupled_group g;
	struct coupled_slot slots[2];
	struct coupled_abort_opts opts;
	unsigned polls = 0;

	TEST_CASE("abort_sources_alone");
	CHECK_EQ(coupled_group_init(&g, slots, 2, 2, NULL), 0);
	action_runs = 0;

	memset((void *)&opts, 0, sizeof(opts));
	opts.should_abort = always_abort;
	opts.abort_arg = &polls;
	CHECK_EQ(coupled_enter_opts(&g, 0, 1, count_action, NULL, &opts),
		 COUPLED_ABORT_CALLER);
	CHECK(polls >= 1);
	CHECK(test_group_at_rest(&g));

#if COUPLED_ADAPTER_HAS_CLOCK
	memset((void *)&opts, 0, sizeof(opts));
	opts.deadline = coupled_adapter_now(coupled_group_adapter(&g)) +
			2000000u; /* 2 ms */
	CHECK_EQ(coupled_enter_opts(&g, 0, 1, count_action, NULL, &opts),
		 COUPLED_ABORT_TIMEOUT);
	CHECK(coupled_adapter_now(coupled_group_adapter(&g)) >= opts.deadline);
	CHECK(test_group_at_rest(&g));
	/* A deadline already in the past aborts at once. */
	opts.deadline = 1;
	CHECK_EQ(coupled_enter_opts(&g, 1, 1, count_action, NULL, &opts),
		 COUPLED_ABORT_TIMEOUT);
	CHECK(test_group_at_rest(&g));
#else
	memset((void *)&opts, 0, sizeof(opts));
	opts.deadline = 1;
	{
		/* Without a clock a deadline is refused, nothing touched. */
		struct coupled_slot four[4];
		struct coupled_group g4;
		struct snapshot snap;

		CHECK_EQ(coupled_group_init(&g4, four, 4, 2, NULL), 0);
		take(&snap, &g4, four);
		CHECK_EQ(coupled_enter_opts(&g4, 0, 1, count_action, NULL,
					    &opts),
			 COUPLED_EOPNOTSUPP);
		CHECK(same(&snap, &g4, four));
	}
#endif

#ifdef COUPLED_ADAPTER_PTHREAD
	coupled_pthread_raise_work(coupled_group_adapter(&g),
				   coupled_participant_adapter(&g, 0), 0);
	CHECK_EQ(coupled_enter(&g, 0, 1, count_action, NULL),
		 COUPLED_ABORT_WORK);
	CHECK(test_group_at_rest(&g));
	coupled_pthread_clear_work(coupled_participant_adapter(&g, 0));
#endif
	CHECK_EQ(action_runs, 0);
}

static void test_stats(void)
{
	struct coupled_group g;
	struct coupled_slot slots[2];
	struct coupled_stats st;
	struct coupled_abort_opts opts;
	unsigned polls = 0;
	int i;

	TEST_CASE("stats");
	CHECK_EQ(coupled_group_init(&g, slots, 2, 1, NULL), 0);
	CHECK_EQ(coupled_stats_read(NULL, &st), COUPLED_EINVAL);
	CHECK_EQ(coupled_stats_read(&g, NULL), COUPLED_EINVAL);
	for (i = 0; i < 3; i++)
		CHECK_EQ(coupled_enter(&g, 0, 1, count_action, NULL), 0);
	CHECK_EQ(coupled_join(&g, 1), 0);
	memset((void *)&opts, 0, sizeof(opts));
	opts.should_abort = always_abort;
	opts.abort_arg = &polls;
	CHECK_EQ(coupled_enter_opts(&g, 1, 1, count_action, NULL, &opts),
		 COUPLED_ABORT_CALLER);
#ifdef COUPLED_STATS
	CHECK_EQ(coupled_stats_read(&g, &st), 0);
	CHECK_EQ(st.commits, 3);
	/*
	 * The aborted call arrived in settled (it polls in phase 1); in
	 * direct it gave up before its arrival (an abort source that fires
	 * at the start is polled first), so it is no attempt.
	 */
	CHECK_EQ(st.attempts, COUPLED_PROTOCOL_SETTLED ? 4 : 3);
	CHECK_EQ(st.aborts[COUPLED_ABORT_CALLER], 1);
	CHECK_EQ(st.aborts[COUPLED_ABORT_WORK], 0);
	CHECK_EQ(st.retries, 0);
	CHECK_EQ(st.restarts, 0);
#else
	CHECK_EQ(coupled_stats_read(&g, &st), COUPLED_EOPNOTSUPP);
	CHECK_EQ(st.commits, 0);
#endif
}

/* ---- statistics, pinned for each variant ------------------------------ */

/*
 * One thread plays two participants: at a hook point of one call, the
 * script runs another call to its end, or makes the first call's
 * should_abort fire, so every step happens at a fixed point.
 */
enum script_step {
	SCRIPT_OFF,
	SCRIPT_POKE_SELF,     /* at READY of 0: poke 0 (settled: a restart) */
	SCRIPT_NESTED_CALL,   /* at WAIT_SLEEP of 0: run 1's call */
	SCRIPT_ABORT_1_READY, /* (in that call) at READY of 1: abort 1 */
	SCRIPT_ABORT_0,       /* at WAIT_SLEEP of 0: abort 0 */
	SCRIPT_CALL_IN_CHANGE /* at MEMBERSHIP of a changer: run 0's call */
};

static struct coupled_group *script_group;
static enum script_step script_step;
static bool script_abort[2]; /* what participant i's should_abort says */
static int script_nested;    /* what the call run from a hook returned */

static bool script_should_abort(void *arg, uint32_t self)
{
	(void)arg;
	return self < 2 && script_abort[self];
}

static void unit_hook(struct coupled_group *g, uint32_t self, int point)
{
	struct coupled_abort_opts opts;

	if (!g || g != script_group)
		return;
	switch (script_step) {
	case SCRIPT_POKE_SELF:
		if (self == 0 && point == COUPLED_HOOK_READY) {
			script_step = SCRIPT_OFF;
#if COUPLED_PROTOCOL_SETTLED
			/* A poke that 0 has not handled when the round is
			 * decided: the lost-wake check restarts the round. */
			coupled__poke(g, 0);
#endif
		}
		break;
	case SCRIPT_NESTED_CALL:
		if (self == 0 && point == COUPLED_HOOK_WAIT_SLEEP) {
			memset((void *)&opts, 0, sizeof(opts));
			opts.should_abort = script_should_abort;
			script_step = SCRIPT_ABORT_1_READY;
			script_nested = coupled_enter_opts(
				g, 1, 1, count_action, NULL, &opts);
			script_step = SCRIPT_OFF;
			script_abort[0] = true;
			(void)coupled_group_kick(g);
		}
		break;
	case SCRIPT_ABORT_1_READY:
		if (self == 1 && point == COUPLED_HOOK_READY)
			script_abort[1] = true;
		break;
	case SCRIPT_ABORT_0:
		if (self == 0 && point == COUPLED_HOOK_WAIT_SLEEP) {
			script_step = SCRIPT_OFF;
			script_abort[0] = true;
			(void)coupled_group_kick(g);
		}
		break;
	case SCRIPT_CALL_IN_CHANGE:
		if (self == g->capacity && point == COUPLED_HOOK_MEMBERSHIP) {
			script_step = SCRIPT_OFF;
			script_nested =
				coupled_enter(g, 0, 1, count_action, NULL);
		}
		break;
	case SCRIPT_OFF: break;
	}
}

/*
 * What each variant counts (struct coupled_stats), in a script where every
 * counter that can move in that variant moves, and every field must equal
 * an exact number:
 *  1. 0 alone, a poke pending at its ready step: settled restarts the
 *     round once (2 attempts, 1 restart), then commits; direct has no
 *     ready step and commits at once.
 *  2. 1 joins; 0 waits for it, and 1's call runs at 0's rest.  settled:
 *     1 completes "all waiting", goes ready, and its should_abort fires
 *     there: a ready-phase abort; then 0's fires in the waiting phase.
 *     direct: 1's arrival completes the count, both commit.
 *  3. 0 waits for 1, which does not come; 0's should_abort fires: a
 *     phase-1 abort (settled) or a withdrawal (direct).
 *  4. A leave of 1 holds the group (prevent; stop); a call of 0 meanwhile
 *     gives up before it arrives: no attempt.
 *  5. 0's should_abort fires from the start: settled polls it after the
 *     arrival (an attempt), direct before (none).
 *  6. Errors are no abort: 1 is no member, and a bad request.
 */
static void test_stats_exact(void)
{
	struct coupled_group g;
	struct coupled_slot slots[2];
	struct coupled_stats st;
	struct coupled_abort_opts opts;

	TEST_CASE("stats_exact");
	CHECK_EQ(coupled_group_init(&g, slots, 2, 1, NULL), 0);
	memset((void *)&opts, 0, sizeof(opts));
	opts.should_abort = script_should_abort;
	script_group = &g;
	script_abort[0] = script_abort[1] = false;
	action_runs = 0;

	/* 1. */
	script_step = SCRIPT_POKE_SELF;
	CHECK_EQ(coupled_enter(&g, 0, 1, count_action, NULL),
		 COUPLED_COMMITTED);
	/* 2. */
	CHECK_EQ(coupled_join(&g, 1), 0);
	script_step = SCRIPT_NESTED_CALL;
	script_nested = 999;
	CHECK_EQ(coupled_enter_opts(&g, 0, 1, count_action, NULL, &opts),
		 COUPLED_PROTOCOL_SETTLED ? COUPLED_ABORT_CALLER
					  : COUPLED_COMMITTED);
	CHECK_EQ(script_nested, COUPLED_PROTOCOL_SETTLED ? COUPLED_ABORT_CALLER
							 : COUPLED_COMMITTED);
	/* 3. */
	script_abort[0] = script_abort[1] = false;
	script_step = SCRIPT_ABORT_0;
	CHECK_EQ(coupled_enter_opts(&g, 0, 1, count_action, NULL, &opts),
		 COUPLED_ABORT_CALLER);
	/* 4. */
	script_abort[0] = false;
	script_step = SCRIPT_CALL_IN_CHANGE;
	script_nested = 999;
	CHECK_EQ(coupled_leave(&g, 1), 0);
	CHECK_EQ(script_nested, COUPLED_ABORT_MEMBERSHIP);
	/* 5. */
	script_step = SCRIPT_OFF;
	script_abort[0] = true;
	CHECK_EQ(coupled_enter_opts(&g, 0, 1, count_action, NULL, &opts),
		 COUPLED_ABORT_CALLER);
	/* 6. */
	CHECK_EQ(coupled_enter(&g, 1, 1, count_action, NULL), COUPLED_ENOENT);
	CHECK_EQ(coupled_enter(&g, 0, -1, count_action, NULL), COUPLED_EINVAL);
	script_group = NULL;
	CHECK(test_group_at_rest(&g));
	CHECK_EQ(action_runs, COUPLED_PROTOCOL_SETTLED ? 1 : 3);

#ifdef COUPLED_STATS
	CHECK_EQ(coupled_stats_read(&g, &st), 0);
	printf("   attempts %u, commits %u, aborts %u/%u/%u/%u, retries %u, "
	       "restarts %u\n",
	       (unsigned)st.attempts, (unsigned)st.commits,
	       (unsigned)st.aborts[COUPLED_ABORT_WORK],
	       (unsigned)st.aborts[COUPLED_ABORT_MEMBERSHIP],
	       (unsigned)st.aborts[COUPLED_ABORT_CALLER],
	       (unsigned)st.aborts[COUPLED_ABORT_TIMEOUT], (unsigned)st.retries,
	       (unsigned)st.restarts);
#if COUPLED_PROTOCOL_SETTLED
	CHECK_EQ(st.attempts, 2 + 2 + 1 + 1);
	CHECK_EQ(st.commits, 1);
	CHECK_EQ(st.aborts[COUPLED_ABORT_CALLER], 2 + 1 + 1);
	CHECK_EQ(st.restarts, 1);
#else
	CHECK_EQ(st.attempts, 1 + 2 + 1);
	CHECK_EQ(st.commits, 1 + 2);
	CHECK_EQ(st.aborts[COUPLED_ABORT_CALLER], 1 + 1);
	CHECK_EQ(st.restarts, 0);
#endif
	CHECK_EQ(st.aborts[COUPLED_ABORT_WORK], 0);
	CHECK_EQ(st.aborts[COUPLED_ABORT_MEMBERSHIP], 1);
	CHECK_EQ(st.aborts[COUPLED_ABORT_TIMEOUT], 0);
	/* One participant's call runs at a time here: nobody backs out. */
	CHECK_EQ(st.retries, 0);
#else
	CHECK_EQ(coupled_stats_read(&g, &st), COUPLED_EOPNOTSUPP);
#endif
}

/* ---- the 32-bit round generation ------------------------------------- */

static uint32_t wrap_gens[8];
static unsigned wrap_count;
static int wrap_busy;

static void wrap_action(const struct coupled_round *r, void *ctx)
{
	(void)ctx;
	if (wrap_count < 8)
		wrap_gens[wrap_count] = r->generation;
	wrap_count++;
}

static void busy_action(const struct coupled_round *r, void *ctx)
{
	/* Inside a round somebody counts as waiting: refused. */
	wrap_busy = coupled_group_set_generation(r->group, 7);
	(void)ctx;
}

/*
 * At rest: nobody counted, no change in progress; in the settled variant
 * also every member has acknowledged the last decision and the exit gate
 * is open at it (the direct variant keeps no per-member round state).
 */
static void check_acks_at_rest(struct coupled_group *g)
{
#if COUPLED_PROTOCOL_SETTLED
	/* relaxed: single-threaded test. */
	uint32_t gen = coupled_load(&g->round_gen, COUPLED_RELAXED);
	uint32_t i;

	CHECK_EQ(coupled_load(&g->variant.exit_gate, COUPLED_RELAXED), gen);
	for (i = 0; i < g->capacity; i++)
		if (coupled_is_member(g, i))
			CHECK_EQ(coupled_load(&g->slots[i].variant.ack,
					      COUPLED_RELAXED),
				 gen);
#endif
	CHECK(test_group_at_rest(g));
	CHECK(test_roster_consistent(g) == NULL);
}

/* A stale acknowledgement, where the variant keeps one. */
static void check_stale_ack(struct coupled_group *g, uint32_t id, uint32_t want)
{
#if COUPLED_PROTOCOL_SETTLED
	/* relaxed: single-threaded test. */
	CHECK_EQ(coupled_load(&g->slots[id].variant.ack, COUPLED_RELAXED),
		 want);
#else
	(void)g;
	(void)id;
	(void)want;
#endif
}

/* One-member rounds of @g by @id: their generations follow @last. */
static void check_rounds_follow(struct coupled_group *g, uint32_t id,
				uint32_t last, unsigned rounds)
{
	unsigned i;

	wrap_count = 0;
	for (i = 0; i < rounds; i++)
		CHECK_EQ(coupled_enter(g, id, 1, wrap_action, NULL),
			 COUPLED_COMMITTED);
	CHECK_EQ(wrap_count, rounds);
	for (i = 0; i < rounds && i < 8; i++)
		CHECK_EQ(wrap_gens[i], (uint32_t)(last + 1u + i));
}

/*
 * The generation wraps after 2^32 rounds.  coupled_group_set_generation()
 * puts a group there at once; rounds go on across the wrap, and whatever
 * the join history, every member's acknowledgement equals the generation at
 * rest.  A joining id with a stale acknowledgement that equals the next
 * round's generation (0 for an id that was never a member, the value of its
 * last round for a returning one) would otherwise pass the closer's check
 * before it has seen that round's decision.
 */
static void test_generation_wrap(void)
{
	struct coupled_group g;
	struct coupled_slot slots[4]; /* the snapshot's size; 3 are used */
	struct snapshot snap;
	unsigned i;

	TEST_CASE("generation_wrap");
	CHECK_EQ(coupled_group_set_generation(NULL, 1), COUPLED_EINVAL);
	CHECK_EQ(coupled_group_init(&g, slots, 3, 1, NULL), 0);

	/* Refused inside a round, nothing changed. */
	wrap_busy = 0;
	CHECK_EQ(coupled_enter(&g, 0, 1, busy_action, NULL), COUPLED_COMMITTED);
	CHECK_EQ(wrap_busy, COUPLED_EBUSY);
	CHECK_EQ(coupled_load(&g.round_gen, COUPLED_RELAXED), 1);

	/* One member, rounds across the wrap. */
	CHECK_EQ(coupled_group_set_generation(&g, UINT32_MAX - 1u), 0);
	check_acks_at_rest(&g);
	wrap_count = 0;
	for (i = 0; i < 3; i++)
		CHECK_EQ(coupled_enter(&g, 0, 1, wrap_action, NULL),
			 COUPLED_COMMITTED);
	CHECK_EQ(wrap_count, 3);
	CHECK_EQ(wrap_gens[0], UINT32_MAX);
	CHECK_EQ(wrap_gens[1], 0);
	CHECK_EQ(wrap_gens[2], 1);
	check_acks_at_rest(&g);

	/* After 2^32 - 1 rounds: a never-member still acknowledges 0. */
	CHECK_EQ(coupled_group_set_generation(&g, UINT32_MAX), 0);
	check_stale_ack(&g, 1, 0);
	CHECK_EQ(coupled_join(&g, 1), 0);
	check_acks_at_rest(&g);

	/* A returning id: its last round was 5, it rejoins at 4. */
	CHECK_EQ(coupled_group_set_generation(&g, 4), 0);
	CHECK_EQ(coupled_leave(&g, 0), 0);
	CHECK_EQ(coupled_join(&g, 2), 0);
	CHECK_EQ(coupled_group_set_generation(&g, 5), 0);
	CHECK_EQ(coupled_leave(&g, 2), 0);
	CHECK_EQ(coupled_group_set_generation(&g, 4), 0);
	check_stale_ack(&g, 2, 5);
	CHECK_EQ(coupled_join(&g, 2), 0);
	check_acks_at_rest(&g);

	/*
	 * Alone again, the returning id's rounds follow 4 (and in the
	 * direct variant the word's own 15-bit generation, which the call
	 * above left as it was, does not matter); then across the wrap.
	 */
	CHECK_EQ(coupled_leave(&g, 1), 0);
	check_rounds_follow(&g, 2, 4, 3);
	CHECK_EQ(coupled_group_set_generation(&g, UINT32_MAX - 2u), 0);
	check_rounds_follow(&g, 2, UINT32_MAX - 2u, 5);
	check_acks_at_rest(&g);
	CHECK_EQ(coupled_join(&g, 1), 0);
	CHECK_EQ(coupled_group_set_generation(&g, 4), 0);

	/* A call that changes nothing leaves every byte as it was. */
	take(&snap, &g, slots);
	CHECK_EQ(coupled_group_set_generation(&g, 4), 0);
	CHECK(same(&snap, &g, slots));
}

/* ---- misuse: a membership change from inside a call ------------------ */

#if defined(COUPLED_ADAPTER_PTHREAD) && COUPLED_ADAPTER_HAS_CONTEXT
struct misuse {
	struct coupled_group g, other;
	struct coupled_slot slots[4], other_slots[2];
	struct snapshot before;
	int in_action[4]; /* join(2), leave(0), leave(3), join other */
	int in_abort[2];  /* leave(0), join(3) */
	int same_action, same_abort;
	int enter_action, enter_abort, after_leave, after_enter;
	int done;
};

static struct misuse mis;
static pthread_mutex_t mis_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t mis_cond = PTHREAD_COND_INITIALIZER;

static void misuse_action(const struct coupled_round *r, void *ctx)
{
	(void)ctx;
	take(&mis.before, &mis.g, mis.slots);
	mis.in_action[0] = coupled_join(r->group, 2);
	mis.in_action[1] = coupled_leave(r->group, 0);
	mis.in_action[2] = coupled_leave(r->group, 3);
	mis.same_action = same(&mis.before, &mis.g, mis.slots);
	/* Another group is no misuse. */
	mis.in_action[3] = coupled_join(&mis.other, 1);
}

static bool misuse_abort(void *arg, uint32_t self)
{
	(void)arg;
	take(&mis.before, &mis.g, mis.slots);
	mis.in_abort[0] = coupled_leave(&mis.g, self);
	mis.in_abort[1] = coupled_join(&mis.g, 3);
	mis.same_abort = same(&mis.before, &mis.g, mis.slots);
	return true;
}

static void *misuse_main(void *arg)
{
	struct coupled_abort_opts opts;

	(void)arg;
	/* One member: participant 0's rounds commit alone. */
	mis.enter_action = coupled_enter(&mis.g, 0, 1, misuse_action, NULL);
	/* Two members, participant 1 never comes: 0 waits and polls. */
	CHECK_EQ(coupled_join(&mis.g, 1), 0);
	memset((void *)&opts, 0, sizeof(opts));
	opts.should_abort = misuse_abort;
	mis.enter_abort =
		coupled_enter_opts(&mis.g, 0, 1, count_action, NULL, &opts);
	/* Out of the call, the same thread may change the membership. */
	mis.after_leave = coupled_leave(&mis.g, 1);
	mis.after_enter = coupled_enter(&mis.g, 0, 1, count_action, NULL);
	pthread_mutex_lock(&mis_lock);
	mis.done = 1;
	pthread_cond_signal(&mis_cond);
	pthread_mutex_unlock(&mis_lock);
	return NULL;
}

/*
 * coupled_join() and coupled_leave() from inside a call of the same group
 * (the action; should_abort, including a leave of the caller's own id)
 * would wait for the caller itself forever: they must return COUPLED_EPERM
 * at once and change nothing.  The calls run in a helper thread; a hang
 * fails the test after 10 s instead of blocking it.
 */
static void test_misuse(void)
{
	pthread_t t;
	struct timespec limit;
	int i, rc = 0;

	TEST_CASE("misuse_membership_from_inside");
	memset((void *)&mis, 0, sizeof(mis));
	CHECK_EQ(coupled_group_init(&mis.g, mis.slots, 4, 1, NULL), 0);
	CHECK_EQ(coupled_group_init(&mis.other, mis.other_slots, 2, 1, NULL),
		 0);
	CHECK(pthread_create(&t, NULL, misuse_main, NULL) == 0);
	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += 10;
	pthread_mutex_lock(&mis_lock);
	while (!mis.done && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&mis_cond, &mis_lock, &limit);
	pthread_mutex_unlock(&mis_lock);
	if (!mis.done) {
		fprintf(stderr, "misuse: a membership change from inside a "
				"call did not return within 10 s\n");
		exit(1);
	}
	CHECK(pthread_join(t, NULL) == 0);
	CHECK_EQ(mis.enter_action, COUPLED_COMMITTED);
	for (i = 0; i < 3; i++)
		CHECK_EQ(mis.in_action[i], COUPLED_EPERM);
	CHECK(mis.same_action);
	CHECK_EQ(mis.in_action[3], 0);
	CHECK(coupled_is_member(&mis.other, 1));
	CHECK_EQ(mis.enter_abort, COUPLED_ABORT_CALLER);
	CHECK_EQ(mis.in_abort[0], COUPLED_EPERM);
	CHECK_EQ(mis.in_abort[1], COUPLED_EPERM);
	CHECK(mis.same_abort);
	CHECK_EQ(mis.after_leave, 0);
	CHECK_EQ(mis.after_enter, COUPLED_COMMITTED);
	CHECK_EQ(coupled_group_members(&mis.g), 1);
	CHECK(strcmp(coupled_strerror(COUPLED_EPERM), "not permitted") == 0);
}
#else
static void test_misuse(void)
{
	TEST_CASE("misuse_membership_from_inside");
	printf("   skipped: the %s adapter names no execution context "
	       "(COUPLED_ADAPTER_HAS_CONTEXT 0), so the misuse is not "
	       "detected\n",
	       COUPLED_ADAPTER_NAME);
}
#endif

static void test_strerror(void)
{
	TEST_CASE("strerror");
	CHECK(strcmp(coupled_strerror(COUPLED_COMMITTED), "committed") == 0);
	CHECK(strcmp(coupled_strerror(COUPLED_ABORT_TIMEOUT), "abort: "
							      "timeout") == 0);
	CHECK(strcmp(coupled_strerror(COUPLED_EBUSY), "already inside") == 0);
	CHECK(strcmp(coupled_strerror(12345), "unknown") == 0);
}

/* The largest group the word allows initialises and runs. */
static void test_max_capacity(void)
{
	struct coupled_group g;
	struct coupled_slot *slots;

	TEST_CASE("max_capacity");
	slots = (struct coupled_slot *)malloc(COUPLED_MAX_MEMBERS *
					      sizeof(*slots));
	CHECK(slots != NULL);
	CHECK_EQ(coupled_group_init(&g, slots, COUPLED_MAX_MEMBERS, 1, NULL),
		 0);
	CHECK_EQ(coupled_join(&g, COUPLED_MAX_MEMBERS - 1u), 0);
	CHECK_EQ(coupled_leave(&g, 0), 0);
	CHECK_EQ(coupled_enter(&g, COUPLED_MAX_MEMBERS - 1u, 5, count_action,
			       NULL),
		 COUPLED_COMMITTED);
	CHECK_EQ(action_param, 5);
	free(slots);
}

/* ---- the protocol variant ------------------------------------------- */

/*
 * COUPLED_PROTOCOL_NAME names the variant the build asked for; without a
 * request, the adapter's wake-ups pick it: direct where they cannot be lost
 * (the pthread and spin adapters), settled otherwise.
 */
static void test_protocol_name(void)
{
	const char *want;

	TEST_CASE("protocol_name");
#ifdef TEST_FORCED_PROTOCOL
	want = TEST_FORCED_PROTOCOL;
#else
	want = COUPLED_ADAPTER_WAKE_CAN_BE_LOST ? "settled" : "direct";
#if defined(COUPLED_ADAPTER_PTHREAD) ||                                        \
	!(defined(COUPLED_ADAPTER_LINUX) || defined(COUPLED_ADAPTER_HEADER) || \
	  defined(COUPLED_ADAPTER_BAREMETAL_ARM))
	/* The pthread and spin adapters: their wake-ups cannot be lost. */
	want = "direct";
#endif
#endif
	printf("   protocol %s\n", COUPLED_PROTOCOL_NAME);
	CHECK(strcmp(COUPLED_PROTOCOL_NAME, want) == 0);
	CHECK_EQ(COUPLED_PROTOCOL_SETTLED, strcmp(want, "settled") == 0);
}

/*
 * The codes are part of the API: the same values, and the same strings, in
 * both variants (each build checks the fixed values).
 */
static void test_error_codes(void)
{
	TEST_CASE("error_codes");
	CHECK_EQ(COUPLED_COMMITTED, 0);
	CHECK_EQ(COUPLED_ABORT_WORK, 1);
	CHECK_EQ(COUPLED_ABORT_MEMBERSHIP, 2);
	CHECK_EQ(COUPLED_ABORT_CALLER, 3);
	CHECK_EQ(COUPLED_ABORT_TIMEOUT, 4);
	CHECK_EQ(COUPLED_ABORT_REASONS, 5);
	CHECK_EQ(COUPLED_ENOENT, -2);
	CHECK_EQ(COUPLED_EBUSY, -16);
	CHECK_EQ(COUPLED_EEXIST, -17);
	CHECK_EQ(COUPLED_EINVAL, -22);
	CHECK_EQ(COUPLED_ERANGE, -34);
	CHECK(COUPLED_EPERM < 0);
	CHECK(COUPLED_EOPNOTSUPP < 0);
	CHECK(strcmp(coupled_strerror(COUPLED_ENOENT), "unknown") != 0);
	CHECK(strcmp(coupled_strerror(COUPLED_EOPNOTSUPP), "unknown") != 0);
}

/*
 * The roster stays the dense list of the members through any sequence of
 * joins and leaves (a leave moves the last entry into the hole), and a
 * refused change leaves it as it was.  A model of the member flags decides
 * every result.
 */
static void test_roster_random(void)
{
	enum { CAP = 64, OPS = 4000 };
	static struct coupled_slot slots[CAP];
	struct coupled_group g;
	bool model[CAP];
	uint32_t rng = 12345u, n = 5, i, k;

	TEST_CASE("roster_random");
	CHECK_EQ(coupled_group_init(&g, slots, CAP, n, NULL), 0);
	for (i = 0; i < CAP; i++)
		model[i] = i < n;
	CHECK(test_roster_consistent(&g) == NULL);
	for (k = 0; k < OPS; k++) {
		const char *bad;
		int r;

		rng = rng * 1103515245u + 12345u;
		i = (rng >> 16) % CAP;
		if ((rng >> 8) & 1u) {
			r = coupled_join(&g, i);
			CHECK_EQ(r, model[i] ? COUPLED_EEXIST : 0);
			if (!model[i])
				n++;
			model[i] = true;
		} else {
			r = coupled_leave(&g, i);
			CHECK_EQ(r, model[i] ? 0 : COUPLED_ENOENT);
			if (model[i])
				n--;
			model[i] = false;
		}
		CHECK_EQ(coupled_group_members(&g), n);
		bad = test_roster_consistent(&g);
		if (bad) {
			fprintf(stderr, "after op %u (id %u): %s\n",
				(unsigned)k, (unsigned)i, bad);
			exit(1);
		}
		for (i = 0; i < CAP; i++)
			CHECK_EQ(coupled_is_member(&g, i), model[i]);
		CHECK(test_group_at_rest(&g));
		/* With one member left, its rounds run alone. */
		if (n == 1) {
			uint32_t id = coupled_load(&g.slots[0].roster,
						   COUPLED_RELAXED);

			action_runs = 0;
			CHECK_EQ(coupled_enter(&g, id, 3, count_action, NULL),
				 COUPLED_COMMITTED);
			CHECK_EQ(action_runs, 1);
			CHECK_EQ(action_members, 1);
		}
	}
}

int main(void)
{
	printf("adapter: %s, protocol %s, %s\n", COUPLED_ADAPTER_NAME,
	       COUPLED_PROTOCOL_NAME,
#ifdef __cplusplus
	       "C++"
#else
	       "C"
#endif
	);
	test_word_layout();
	test_word_all_ready();
	test_word_arrive_leave();
	test_word_boundaries();
	test_word_back_out_guard();
	test_init_errors();
	test_enter_membership_errors();
	test_single_member_round();
	test_empty_group();
	test_reentry();
	test_reductions();
	test_barrier_vote_errors();
	test_vote_single();
	test_abort_sources_alone();
	test_stats();
	test_stats_exact();
	test_generation_wrap();
	test_misuse();
	test_strerror();
	test_max_capacity();
	test_protocol_name();
	test_error_codes();
	test_roster_random();
	printf("all unit tests passed\n");
	return 0;
}

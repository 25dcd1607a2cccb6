/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_scenario.c - scripted, deterministic interleavings of the protocol.
 *
 * Usage: test_scenario <name>|all [futex|condvar].  Each scenario drives 2-3 participant threads
 * step by step through the core's hook points (stepctl.h) and checks the
 * outcome: return codes, the packed word, who ran the action with which
 * parameter in which round.
 *
 * Built for both protocol variants (coupled/protocol.h).  A scenario that
 * scripts hook points of one variant only exits 77 in the other build
 * after printing "skipped: <why>" (run alone; with "all" it is passed
 * over).  word() is what counts participants in either word (variant.h):
 * both halves of the settled word, the direct word's arrivals.
 */
#include "stepctl.h"

#include <sched.h>
#include <string.h>

#include "variant.h"
/* The settled word's helpers (private to settled.h; both builds compile
 * the settled scenarios). */
#include "coupled/word.h"
#define ORACLE_MAX_MEMBERS 4096u /* the sparse roster's capacity */
#include "oracle.h"

#define A 0
#define B 1
#define C 2
#define BIT(p) (1u << (p))

static struct coupled_group group;
static struct coupled_slot slots[STEPCTL_MAX];

static uint32_t word(void)
{
	/* Only read while the participants are stopped or idle. */
	return test_word_counted(test_group_word(&group));
}

/* Nobody counted, no membership change in progress. */
static bool at_rest(void)
{
	return test_group_at_rest(&group);
}

/* Whether "all" runs every scenario: then a skip passes over one. */
static int running_all;

/* A scenario that means nothing in this variant: say why, exit 77. */
static bool skip(const char *why)
{
	printf("   skipped: %s (%s protocol)\n", why, COUPLED_PROTOCOL_NAME);
	if (!running_all)
		exit(77);
	return true;
}

#if COUPLED_PROTOCOL_SETTLED
#define SETTLED_ONLY(why) ((void)0)
#define DIRECT_ONLY(why)        \
	do {                    \
		if (skip(why))  \
			return; \
	} while (0)
#else
#define SETTLED_ONLY(why)       \
	do {                    \
		if (skip(why))  \
			return; \
	} while (0)
#define DIRECT_ONLY(why) ((void)0)
#endif

static struct coupled_adapter_slot *adapter_of(int i)
{
	return coupled_participant_adapter(&group, (uint32_t)i);
}

static void raise_work(int i)
{
	coupled_pthread_raise_work(coupled_group_adapter(&group), adapter_of(i),
				   (uint32_t)i);
}

static void clear_work(int i)
{
	coupled_pthread_clear_work(adapter_of(i));
}

static int strategy = COUPLED_PTHREAD_FUTEX;

static void setup(uint32_t capacity, uint32_t members, coupled_reduce_fn red)
{
	CHECK_EQ(coupled_group_init(&group, slots, capacity, members, red), 0);
	CHECK_EQ(coupled_pthread_set_strategy(coupled_group_adapter(&group),
					      strategy),
		 0);
	stepctl_init(&group, capacity);
}

/* Every listed participant ran the action @runs times, in one same round. */
/*
 * Participants 0..@n-1 ran the action @runs times each, the last time in one
 * same round, with @param and @members.
 */
static void check_ran(int n, unsigned runs, int32_t param, uint32_t members)
{
	int i;

	for (i = 0; i < n; i++) {
		CHECK_EQ(stepctl_runs(i), runs);
		CHECK_EQ(ctl.gen[i], ctl.gen[0]);
		CHECK_EQ(ctl.param[i], param);
		CHECK_EQ(ctl.members[i], members);
	}
}

/* Participants 0..@n-1 ran the action once, in one same round. */
static void check_same_round(int n, int32_t param, uint32_t members)
{
	check_ran(n, 1, param, members);
}

/* What one participant of a scenario does: its calls, their request. */
struct cast {
	int calls;
	int32_t request;
};

/* The participants of the running scenario: A, B, C in this order. */
static struct stepctl_participant cast_p[STEPCTL_MAX];
static int cast_n;

/*
 * setup(@capacity, @members, @red) and start one participant per entry of
 * @cast (ended by one of no calls): the first is A, then B, then C.
 */
static void start_cast(uint32_t capacity, uint32_t members,
		       coupled_reduce_fn red, const struct cast *cast)
{
	setup(capacity, members, red);
	for (cast_n = 0; cast[cast_n].calls > 0; cast_n++) {
		CHECK(cast_n < STEPCTL_MAX);
		stepctl_start(&cast_p[cast_n], cast_n, cast[cast_n].calls,
			      cast[cast_n].request, NULL);
	}
}

/* START(capacity, members, { calls, request } of A, of B, ...) */
#define START(capacity, members, ...)           \
	start_cast((capacity), (members), NULL, \
		   (const struct cast[]){ __VA_ARGS__, { 0, 0 } })

/* Wait for every participant's thread to end. */
static void join_all(void)
{
	int i;

	for (i = 0; i < cast_n; i++)
		stepctl_join(&cast_p[i]);
}

/* Let participants 0..@n-1 start their next call. */
static void permit_each(int n)
{
	int i;

	for (i = 0; i < n; i++)
		stepctl_permit(i);
}

/*
 * Participants 0..@n-1 commit their last permitted call, in one round with
 * @param and @members; then every participant's thread ends.
 */
static void all_commit(int n, int32_t param, uint32_t members)
{
	int i;

	for (i = 0; i < n; i++)
		CHECK_EQ(stepctl_result(i, ctl.permits[i] - 1),
			 COUPLED_COMMITTED);
	join_all();
	check_same_round(n, param, members);
}

/* Nobody has run the action yet. */
static void nobody_ran(void)
{
	int i;

	for (i = 0; i < cast_n; i++)
		CHECK_EQ(stepctl_runs(i), 0);
}

/* Wake @i as a spurious wake or an abort source would. */
static void wake(int i)
{
	coupled_adapter_wake(coupled_group_adapter(&group), adapter_of(i),
			     (uint32_t)i);
}

/* @i arrives and rests (stopped before its sleep, then let go). */
static void arrive_and_rest(int i)
{
	stepctl_run_to(i, COUPLED_HOOK_WAIT_SLEEP);
	stepctl_release(i, COUPLED_HOOK_WAIT_SLEEP);
}

/* @i, spinning ready, gets work and stops before its back-out. */
static void head_for_back_out(int i)
{
	raise_work(i);
	stepctl_step(i, COUPLED_HOOK_READY_SPIN, COUPLED_HOOK_BACK_OUT);
}

/* Stop @i at the points where a member waits to leave a decided round. */
static void hold_leaving(int i)
{
	stepctl_break(i, COUPLED_HOOK_GATE_WAIT, 1);
	stepctl_break(i, COUPLED_HOOK_EXIT_WAIT, 1);
}

/*
 * The membership changer: one thread at a time, which joins or leaves one
 * id.  Its fields are written before the thread starts and read after it
 * was joined.
 */
static pthread_t change_thread;
static int change_join;
static uint32_t change_id;
static int change_result;

static void *change_main(void *arg)
{
	(void)arg;
	change_result = change_join ? coupled_join(&group, change_id)
				    : coupled_leave(&group, change_id);
	return NULL;
}

/* Start a join (@join) or leave of @id that stops at @point. */
static void start_change(int join, uint32_t id, int point)
{
	stepctl_break(STEPCTL_CHANGER, point, 1);
	change_join = join;
	change_id = id;
	change_result = 999;
	CHECK(pthread_create(&change_thread, NULL, change_main, NULL) == 0);
}

/* Wait for the change to end; it must have succeeded. */
static void end_change(void)
{
	CHECK(pthread_join(change_thread, NULL) == 0);
	CHECK_EQ(change_result, 0);
}

/*
 * A, from its first call, goes ready and stops in its ready spin; B stops
 * before it counts as ready.
 */
static void ready_spin_and_ready(void)
{
	stepctl_break(A, COUPLED_HOOK_READY_SPIN, 1);
	stepctl_break(B, COUPLED_HOOK_READY, 1);
	permit_each(2);
	stepctl_expect(A, COUPLED_HOOK_READY_SPIN);
	stepctl_expect(B, COUPLED_HOOK_READY);
	CHECK_EQ(word(), 0x00010002u);
}

/* A and B rest; C arrives last and stops at @point. */
static void two_rest_then_c(int point)
{
	arrive_and_rest(A);
	arrive_and_rest(B);
	stepctl_run_to(C, point);
}

static uint32_t slot_stat_retries(int i)
{
	/* relaxed: read after the participant's thread was joined. */
	return coupled_load(&slots[i].stats.retries, COUPLED_RELAXED);
}

static uint32_t slot_stat_restarts(int i)
{
	/* relaxed: read after the participant's thread was joined. */
	return coupled_load(&slots[i].stats.restarts, COUPLED_RELAXED);
}

/*
 * Three members commit together with reduction @red (NULL: the minimum)
 * of the requests 3, @b_request, 2, which must give @param.
 */
static void three_commit(coupled_reduce_fn red, int32_t b_request,
			 int32_t param)
{
	start_cast(3, 3, red,
		   (const struct cast[]){
			   { 1, 3 }, { 1, b_request }, { 1, 2 }, { 0, 0 } });
	permit_each(3);
	all_commit(3, param, 3);
	CHECK(at_rest());
}

/* Three members commit together; the minimum request is the parameter. */
static void scenario_all_commit(void)
{
	three_commit(NULL, 1, 1);
}

/* A selectable reduction: the maximum. */
static void scenario_max_wins(void)
{
	three_commit(coupled_reduce_max, 9, 9);
}

/*
 * A waits alone in phase 1 and gets work: it aborts, the word is as if it
 * never entered and nobody ran the action.  Then A retries with B: commit.
 */
static void scenario_abort_waiting(void)
{
	START(2, 2, { 2, 4 }, { 1, 2 });
	stepctl_run_to(A, COUPLED_HOOK_WAIT_SLEEP);
	CHECK_EQ(word(), 0x00000001u);
	raise_work(A);
	stepctl_release(A, COUPLED_HOOK_WAIT_SLEEP);
	CHECK_EQ(stepctl_result(A, 0), COUPLED_ABORT_WORK);
	CHECK(at_rest());
	nobody_ran();

	clear_work(A);
	permit_each(2);
	all_commit(2, 2, 2);
	CHECK(at_rest());
}

/*
 * Both are waiting; A is ready, B not yet.  A gets work and backs out of
 * ready: it aborts and leaves B waiting alone.  B then counts ready, sees
 * that not everyone waits, backs out to phase 1 (a retry) and nobody
 * commits.  When A comes back, both commit.
 */
static void scenario_abort_phase2(void)
{
	SETTLED_ONLY("scripts the ready phase and its back-out, which the "
		     "direct "
		     "protocol does not have");
	START(2, 2, { 2, 1 }, { 1, 3 });
	ready_spin_and_ready();

	raise_work(A);
	stepctl_release(A, COUPLED_HOOK_READY_SPIN);
	CHECK_EQ(stepctl_result(A, 0), COUPLED_ABORT_WORK);
	CHECK_EQ(word(), 0x00000001u);

	stepctl_step(B, COUPLED_HOOK_READY, COUPLED_HOOK_WAIT_SLEEP);
	CHECK_EQ(word(), 0x00000001u);
	nobody_ran();

	clear_work(A);
	stepctl_release(B, COUPLED_HOOK_WAIT_SLEEP);
	stepctl_permit(A);
	all_commit(2, 1, 2);
	CHECK(slot_stat_retries(B) >= 1);
	CHECK(at_rest());
}

/*
 * A participant that sees every member waiting must still wait for its poke
 * (the race Linux fixed after the seed): B has counted itself as the last
 * arriver but not yet poked; A, woken spuriously, must go back to sleep
 * instead of going ready.
 */
static void scenario_wait_for_poke(void)
{
	int at;

	SETTLED_ONLY("the poke handshake before going ready; direct members "
		     "wait "
		     "only for the generation to move");
	START(2, 2, { 1, 5 }, { 1, 5 });
	stepctl_run_to(A, COUPLED_HOOK_WAIT_SLEEP);
	stepctl_resume(A); /* A now rests in the safe state */

	stepctl_run_to(B, COUPLED_HOOK_LAST_ARRIVER);
	CHECK_EQ(word(), 0x00000002u);

	/* A spurious wake, not a poke. */
	stepctl_break(A, COUPLED_HOOK_READY, 1);
	wake(A);
	at = stepctl_wait_at(A, BIT(COUPLED_HOOK_WAIT_SLEEP) |
					BIT(COUPLED_HOOK_READY));
	printf("   after a spurious wake, A stopped at %s\n",
	       stepctl_point_names[at]);
	CHECK_EQ(at, COUPLED_HOOK_WAIT_SLEEP);
	CHECK_EQ(word(), 0x00000002u);

	stepctl_break(A, COUPLED_HOOK_READY, 0);
	stepctl_release(A, COUPLED_HOOK_WAIT_SLEEP);
	stepctl_release(B, COUPLED_HOOK_LAST_ARRIVER);
	all_commit(2, 5, 2);
}

/*
 * The lost-wake check.  C is the last arriver and pokes A and B.  B aborts
 * from the ready phase and comes back as the new last arriver, poking A
 * again, while A has already handled its pokes and is on its way to ready.
 * The round reaches all-ready with A's second poke unhandled: the closer
 * must decide a restart, everyone backs out together, and the next attempt
 * commits.  Nobody runs the action in the restarted round.
 */
static void scenario_lost_poke_restart(void)
{
	int i;

	SETTLED_ONLY("a round restarted for an unhandled poke; the direct "
		     "protocol"
		     " never restarts");
	START(3, 3, { 1, 2 }, { 2, 3 }, { 1, 1 });

	/* A and B arrive first and rest. */
	for (i = A; i <= B; i++) {
		stepctl_break(i, COUPLED_HOOK_READY, 1);
		arrive_and_rest(i);
	}
	/* C arrives last and pokes; A and B wake and stop before ready. */
	stepctl_permit(C);
	stepctl_expect(A, COUPLED_HOOK_READY);
	stepctl_expect(B, COUPLED_HOOK_READY);

	/* B gets work and aborts from the ready phase. */
	raise_work(B);
	stepctl_resume(B); /* its READY breakpoint stays for the next call */
	CHECK_EQ(stepctl_result(B, 0), COUPLED_ABORT_WORK);
	clear_work(B);

	/* B comes back as the last arriver and pokes A again. */
	stepctl_permit(B);
	stepctl_expect(B, COUPLED_HOOK_READY);
	CHECK_EQ(coupled__word_waiting(word()), 3);

	/* A goes ready with that poke pending; then B completes the word. */
	stepctl_release(A, COUPLED_HOOK_READY);
	stepctl_release(B, COUPLED_HOOK_READY);

	all_commit(3, 1, 3);
	for (i = 0; i < 3; i++) {
		printf("   participant %d restarts: %u\n", i,
		       (unsigned)slot_stat_restarts(i));
		CHECK_EQ(slot_stat_restarts(i), 1);
	}
	CHECK(at_rest());
}

/*
 * Irrevocable commit.  B counted itself ready, then got work and decided to
 * back out: it stops just before the back-out.  A completes the word, decides
 * the round and acknowledges it.  B's back-out must now be refused, and B
 * must commit with A, work or not.  (The hazard in the Linux exit: a slow
 * participant backs out of a round the others committed.)
 */
static void scenario_irrevocable_commit(void)
{
	SETTLED_ONLY("a back-out of the ready phase; its direct analogue is "
		     "withdraw_after_complete");
	START(2, 2, { 1, 2 }, { 1, 1 });

	stepctl_break(A, COUPLED_HOOK_READY, 1);
	arrive_and_rest(A);

	stepctl_run_to(B, COUPLED_HOOK_READY_SPIN);
	stepctl_expect(A, COUPLED_HOOK_READY);
	CHECK_EQ(word(), 0x00010002u);

	/* B gets work and heads for the back-out. */
	head_for_back_out(B);

	/* A completes the word and decides the round. */
	stepctl_step(A, COUPLED_HOOK_READY, COUPLED_HOOK_DECIDED);
	CHECK_EQ(word(), coupled__word_all_ready(2));

	/*
	 * B's back-out comes too late: it must commit.  (A cannot leave the
	 * round before B acknowledged it, so the order of the two releases
	 * does not matter.)
	 */
	stepctl_step(B, COUPLED_HOOK_BACK_OUT, COUPLED_HOOK_DECIDED);
	CHECK_EQ(word(), coupled__word_all_ready(2));
	stepctl_release(B, COUPLED_HOOK_DECIDED);
	stepctl_release(A, COUPLED_HOOK_DECIDED);
	all_commit(2, 1, 2);
	clear_work(B);
	CHECK(at_rest());
}

/*
 * Of three members, @r1 and @r2 rest in phase 1; @last arrives last, pokes
 * them and stops in its ready loop (READY_SPIN), counted as ready; the two
 * others wake and stop before counting as ready (READY).
 */
static void last_goes_ready(int r1, int r2, int last)
{
	stepctl_break(r1, COUPLED_HOOK_READY, 1);
	arrive_and_rest(r1);
	stepctl_break(r2, COUPLED_HOOK_READY, 1);
	arrive_and_rest(r2);
	stepctl_run_to(last, COUPLED_HOOK_READY_SPIN);
	stepctl_expect(r1, COUPLED_HOOK_READY);
	stepctl_expect(r2, COUPLED_HOOK_READY);
	CHECK_EQ(word(), 0x00010003u);
}

/*
 * The slow member: B heads for a back-out while the round is being decided,
 * and its CAS comes only after the others could have left.  They must not:
 * the closer (A) waits for every acknowledgement and C for the exit gate,
 * so B's back-out fails and all three commit.  (If a broken exit let A or C
 * through, they stop at EXIT_WAIT having left both halves of the word; B
 * is released only then, and its back-out succeeds: one member aborts while
 * the others ran the action, which the checks below catch.)
 */
static void scenario_late_back_out(void)
{
	const unsigned leaving = (1u << COUPLED_HOOK_GATE_WAIT) |
				 (1u << COUPLED_HOOK_EXIT_WAIT);
	int at_a, at_c;

	SETTLED_ONLY("the exit gate and acknowledgements; the direct analogue "
		     "is "
		     "withdraw_after_complete");
	START(3, 3, { 1, 4 }, { 1, 5 }, { 1, 6 });

	/* A and C rest in phase 1; B arrives last and pokes them. */
	last_goes_ready(A, C, B);

	/* B gets work: it saw no decision yet and heads for the back-out. */
	head_for_back_out(B);

	/* C becomes ready, A completes the word and decides. */
	stepctl_break(C, COUPLED_HOOK_DECIDED, 1);
	stepctl_release(C, COUPLED_HOOK_READY);
	hold_leaving(A);
	stepctl_release(A, COUPLED_HOOK_READY);
	stepctl_expect(C, COUPLED_HOOK_DECIDED);
	CHECK_EQ(word(), coupled__word_all_ready(3));

	/* A and C run the action and try to leave; B has not acknowledged. */
	hold_leaving(C);
	stepctl_release(C, COUPLED_HOOK_DECIDED);
	at_a = stepctl_wait_at(A, leaving);
	at_c = stepctl_wait_at(C, leaving);
	printf("   participant 0 stopped at %s, participant 2 at %s\n",
	       stepctl_point_names[at_a], stepctl_point_names[at_c]);

	/* Only now B's back-out runs; then everyone goes on. */
	stepctl_release(B, COUPLED_HOOK_BACK_OUT);
	stepctl_free(A);
	stepctl_free(C);
	all_commit(3, 4, 3);
	CHECK_EQ(at_a, COUPLED_HOOK_GATE_WAIT);
	CHECK_EQ(at_c, COUPLED_HOOK_GATE_WAIT);
	clear_work(B);
	CHECK(at_rest());
}

/*
 * A membership change while A waits: A aborts with the membership code, the
 * changer sees nobody waiting before it changes anything, and the next round
 * has the new member count.
 */
static void membership_while_waiting(int join)
{
	int n_after = join ? 3 : 2;

	START(3, join ? 2 : 3, { 2, 3 }, { 1, 2 }, { 1, 1 });
	stepctl_run_to(A, COUPLED_HOOK_WAIT_SLEEP);
	start_change(join, C, COUPLED_HOOK_MEMBERSHIP);

	stepctl_release(A, COUPLED_HOOK_WAIT_SLEEP);
	CHECK_EQ(stepctl_result(A, 0), COUPLED_ABORT_MEMBERSHIP);
	stepctl_expect(STEPCTL_CHANGER, COUPLED_HOOK_MEMBERSHIP);
	CHECK_EQ(word(), 0);
	CHECK(test_group_stopped(&group));
	stepctl_release(STEPCTL_CHANGER, COUPLED_HOOK_MEMBERSHIP);
	end_change();
	CHECK_EQ(coupled_group_members(&group), n_after);
	CHECK_EQ(coupled_is_member(&group, C), join);

	permit_each(3);
	if (!join)
		CHECK_EQ(stepctl_result(C, 0), COUPLED_ENOENT);
	all_commit(n_after, join ? 1 : 2, (uint32_t)n_after);
	if (!join)
		CHECK_EQ(stepctl_runs(C), 0);
}

static void scenario_join_while_waiting(void)
{
	membership_while_waiting(1);
}

static void scenario_leave_while_waiting(void)
{
	membership_while_waiting(0);
}

/*
 * A call racing with its own removal: C has passed the membership check and
 * is about to count as waiting when another thread removes C.  The leave
 * must wait for C's call to end (C then aborts on prevent), and the next
 * round has 2 members and a clean word.  Without the wait, C's late arrival
 * after the change would be a stray waiting count that can take the last
 * arriver's role from a real member (nobody is poked, the group sleeps) or
 * unlock the all-ready guard.  The leaver never reaches LEAVE_DRAIN then,
 * and the expectation below fails.
 */
static void scenario_leave_racing_entry(void)
{
	START(3, 3, { 1, 3 }, { 1, 2 }, { 1, 1 });
	stepctl_run_to(C, COUPLED_HOOK_ARRIVE);

	start_change(0, C, COUPLED_HOOK_LEAVE_DRAIN);
	/* The leaver has removed C and now waits for C's call to end. */
	stepctl_expect(STEPCTL_CHANGER, COUPLED_HOOK_LEAVE_DRAIN);
	CHECK(!coupled_is_member(&group, C));
	stepctl_release(STEPCTL_CHANGER, COUPLED_HOOK_LEAVE_DRAIN);

	stepctl_release(C, COUPLED_HOOK_ARRIVE);
	CHECK_EQ(stepctl_result(C, 0), COUPLED_ABORT_MEMBERSHIP);
	end_change();
	CHECK(at_rest());
	CHECK_EQ(coupled_group_members(&group), 2);

	permit_each(2);
	all_commit(2, 2, 2);
	CHECK_EQ(stepctl_runs(C), 0);
	CHECK(at_rest());
}

static uint32_t slot_stat_attempts(int i)
{
	/* relaxed: read after the participant's call returned. */
	return coupled_load(&slots[i].stats.attempts, COUPLED_RELAXED);
}

/*
 * COUPLED_STATS' attempts count every arrival in phase 1, also one that then
 * sees a membership change: A passes the early check of prevent and stops
 * just before it counts as waiting; a leave of B takes prevent meanwhile
 * (nobody waits yet, so it goes through); A's arrival then sees prevent and
 * aborts.  That call arrived once: attempts 1, one membership abort.
 */
static void scenario_attempts_count(void)
{
	START(2, 2, { 1, 3 });
	stepctl_run_to(A, COUPLED_HOOK_ARRIVE);

	start_change(0, B, COUPLED_HOOK_MEMBERSHIP);
	stepctl_expect(STEPCTL_CHANGER, COUPLED_HOOK_MEMBERSHIP);

	stepctl_release(A, COUPLED_HOOK_ARRIVE);
	CHECK_EQ(stepctl_result(A, 0), COUPLED_ABORT_MEMBERSHIP);
	join_all();
	printf("   attempts %u, membership aborts %u\n",
	       (unsigned)slot_stat_attempts(A),
	       (unsigned)coupled_load(
		       &slots[A].stats.aborts[COUPLED_ABORT_MEMBERSHIP],
		       COUPLED_RELAXED));
	CHECK_EQ(slot_stat_attempts(A), 1);
	CHECK_EQ(coupled_load(&slots[A].stats.aborts[COUPLED_ABORT_MEMBERSHIP],
			      COUPLED_RELAXED),
		 1);
	stepctl_release(STEPCTL_CHANGER, COUPLED_HOOK_MEMBERSHIP);
	end_change();
	CHECK(at_rest());
}

/*
 * Inside the action: barriers and votes.  In every round one member chosen
 * by the generation votes to abort the first vote; nobody the second.  All
 * members must learn the same outcomes, and the barrier must hold everyone
 * until all arrived.
 */
#define VOTE_ROUNDS 200
static pthread_mutex_t vote_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned vote_arrivals[VOTE_ROUNDS + 1];
static int vote_seen[3][VOTE_ROUNDS + 1][2];

static void vote_action(const struct coupled_round *r, void *arg)
{
	uint32_t gen = r->generation;
	int first, second;
	unsigned seen;

	(void)arg;
	CHECK(gen <= VOTE_ROUNDS);
	pthread_mutex_lock(&vote_lock);
	vote_arrivals[gen]++;
	pthread_mutex_unlock(&vote_lock);
	CHECK_EQ(coupled_barrier(r), 0);
	pthread_mutex_lock(&vote_lock);
	seen = vote_arrivals[gen];
	pthread_mutex_unlock(&vote_lock);
	/* The barrier let nobody through before all had arrived. */
	CHECK_EQ(seen, r->members);

	first = coupled_vote(r, r->self == gen % r->members);
	second = coupled_vote(r, false);
	vote_seen[r->self][gen][0] = first;
	vote_seen[r->self][gen][1] = second;
}

static void *vote_main(void *arg)
{
	uint32_t id = (uint32_t)(uintptr_t)arg;
	int k;

	for (k = 0; k < VOTE_ROUNDS; k++)
		CHECK_EQ(coupled_enter(&group, id, 1, vote_action, NULL),
			 COUPLED_COMMITTED);
	return NULL;
}

static void scenario_vote_abort(void)
{
	pthread_t t[3];
	uint32_t i, gen;

	setup(3, 3, NULL);
	for (i = 0; i < 3; i++)
		CHECK(pthread_create(&t[i], NULL, vote_main,
				     (void *)(uintptr_t)i) == 0);
	for (i = 0; i < 3; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	for (gen = 1; gen <= VOTE_ROUNDS; gen++) {
		for (i = 0; i < 3; i++) {
			CHECK_EQ(vote_seen[i][gen][0], 1);
			CHECK_EQ(vote_seen[i][gen][1], 0);
		}
	}
	printf("   %d rounds, every member saw abort then proceed\n",
	       VOTE_ROUNDS);
}

/*
 * Generation wrap.  The round generation is a 32-bit counter; the closer
 * lets a round's members leave only when every member's acknowledgement
 * equals the round's generation.  An id that joins keeps the
 * acknowledgement of its last round (0 if it never took part), so after
 * 2^32 rounds the next generation can equal that stale value, which must
 * not pass for an acknowledgement.
 *
 * The group starts at the last generation before the wrap
 * (coupled_group_set_generation()), so the scripted round is generation 0:
 *   first join: C was never a member (acknowledgement 0) and joins;
 *   rejoin:     C takes part in a round across the wrap (generation 0),
 *               leaves, the group is put 2^32 - 1 rounds later (UINT32_MAX
 *               again) and C rejoins with its acknowledgement 0.
 * Then C is the slow member of a round that A closes, stopped in turn at
 * every hook point from the ready loop on (the word is all-ready from the
 * moment A counts as ready).  Stopped in its ready loop before it saw the
 * decision (READY_SPIN, or BACK_OUT when work made it head for a back-out),
 * C has not acknowledged: the closer must keep waiting at GATE_WAIT for as
 * long as C is stopped.  If C's stale value passed, A would open the gate,
 * leave the word and wait at EXIT_WAIT; C's back-out would then succeed and
 * C would abort from a round that A and B committed with 3 members.  Every
 * run must end with all three committed in round 0.
 */

enum wrap_history { WRAP_FIRST_JOIN, WRAP_REJOIN };

/*
 * Start A, B, C (requests 4, 5, 6; @calls calls each) in a group at the
 * last generation before the wrap; after the @history, C joins.  The
 * scripted run stops C at @point.
 */
static void wrap_start(enum wrap_history history, int point, int calls)
{
	int i;

	printf("   C stopped at %s\n", stepctl_point_names[point]);
	start_cast(
		3, history == WRAP_REJOIN ? 3 : 2, NULL,
		(const struct cast[]){
			{ calls, 4 }, { calls, 5 }, { calls, 6 }, { 0, 0 } });
	CHECK_EQ(coupled_group_set_generation(&group, UINT32_MAX), 0);
	if (history == WRAP_REJOIN) {
		/* A round across the wrap with C, then C leaves. */
		permit_each(3);
		for (i = A; i <= C; i++)
			CHECK_EQ(stepctl_result(i, 0), COUPLED_COMMITTED);
		CHECK_EQ(ctl.gen[C], 0);
		CHECK_EQ(coupled_leave(&group, C), 0);
		/* 2^32 - 1 rounds of A and B later. */
		CHECK_EQ(coupled_group_set_generation(&group, UINT32_MAX), 0);
	}
#if COUPLED_PROTOCOL_SETTLED
	/* relaxed: C is idle. */
	CHECK_EQ(coupled_load(&slots[C].variant.ack, COUPLED_RELAXED), 0);
#endif
	CHECK_EQ(coupled_join(&group, C), 0);
}

/*
 * Let everyone go on: call @k of each commits, and each has run the
 * action @runs times, the last in round 0 with the minimum request and 3
 * members.
 */
static void wrap_end(int k, unsigned runs)
{
	int i;

	for (i = A; i <= C; i++)
		stepctl_free(i);
	for (i = A; i <= C; i++)
		CHECK_EQ(stepctl_result(i, k), COUPLED_COMMITTED);
	check_ran(3, runs, 4, 3);
	CHECK_EQ(ctl.gen[A], 0);
}

#if COUPLED_PROTOCOL_SETTLED
static const int wrap_points[] = {
	COUPLED_HOOK_READY_SPIN, COUPLED_HOOK_BACK_OUT, COUPLED_HOOK_DECIDED,
	COUPLED_HOOK_GATE_WAIT,  COUPLED_HOOK_DONE,     COUPLED_HOOK_EXIT_WAIT,
	COUPLED_HOOK_EXITED,
};

/* At rest every member has acknowledged the last decision. */
static void check_acks_at_rest(void)
{
	/* relaxed: read while every participant is idle. */
	uint32_t gen = coupled_load(&group.round_gen, COUPLED_RELAXED);
	int i;

	CHECK_EQ(coupled_load(&group.variant.exit_gate, COUPLED_RELAXED), gen);
	for (i = A; i <= C; i++)
		if (coupled_is_member(&group, (uint32_t)i))
			CHECK_EQ(coupled_load(&slots[i].variant.ack,
					      COUPLED_RELAXED),
				 gen);
}

/*
 * Let @i, stopped at READY, count as ready and spin on; returns once it
 * does, so that the next participant released from READY is the closer.
 */
static void go_ready(int i)
{
	stepctl_step(i, COUPLED_HOOK_READY, COUPLED_HOOK_READY_SPIN);
	stepctl_release(i, COUPLED_HOOK_READY_SPIN);
}

/* B goes ready; then A completes the word: A is the closer. */
static void b_ready_a_closes(void)
{
	go_ready(B);
	stepctl_release(A, COUPLED_HOOK_READY);
}

/* B goes ready and A closes the round; both stop at @hold on their way. */
static void a_b_held_at(int hold)
{
	stepctl_break(A, hold, 1);
	stepctl_break(B, hold, 1);
	b_ready_a_closes();
	stepctl_expect(A, hold);
	stepctl_expect(B, hold);
}

static void wrap_slow_member(enum wrap_history history, int point)
{
	const unsigned leaving = BIT(COUPLED_HOOK_GATE_WAIT) |
				 BIT(COUPLED_HOOK_EXIT_WAIT);
	const int calls = history == WRAP_REJOIN ? 2 : 1;
	const int k = calls - 1; /* the scripted call */
	int i, at;

	wrap_start(history, point, calls);

	/* A and B rest in phase 1; C arrives last, pokes them, goes ready. */
	last_goes_ready(A, B, C);

	if (point == COUPLED_HOOK_BACK_OUT) {
		/* Work: C saw no decision yet and heads for the back-out. */
		head_for_back_out(C);
	} else if (point != COUPLED_HOOK_READY_SPIN) {
		/* C spins until the decision, then goes on to the point. */
		stepctl_break(C, point, 1);
		stepctl_release(C, COUPLED_HOOK_READY_SPIN);
	}

	/* B goes ready; then A completes the word: A is the closer. */
	switch (point) {
	case COUPLED_HOOK_READY_SPIN:
	case COUPLED_HOOK_BACK_OUT:
		/* B acknowledges and waits; only C's acknowledgement lacks. */
		stepctl_break(B, COUPLED_HOOK_DECIDED, 1);
		hold_leaving(A);
		b_ready_a_closes();
		stepctl_expect(B, COUPLED_HOOK_DECIDED);
		CHECK_EQ(word(), coupled__word_all_ready(3));
		/* A must wait for C, turn after turn, while C is stopped. */
		for (i = 0; i < 3; i++) {
			at = stepctl_wait_at(A, leaving);
			printf("   closer A stopped at %s\n",
			       stepctl_point_names[at]);
			CHECK_EQ(at, COUPLED_HOOK_GATE_WAIT);
			stepctl_resume(A);
		}
		CHECK_EQ(word(), coupled__word_all_ready(3));
		break;
	case COUPLED_HOOK_DECIDED:
	case COUPLED_HOOK_DONE:
		/* C acknowledged: A opens the gate, A and B leave the word and
		 * wait for C, which is still ready. */
		a_b_held_at(COUPLED_HOOK_EXIT_WAIT);
		stepctl_expect(C, point);
		break;
	case COUPLED_HOOK_GATE_WAIT:
		/* The closer is held before its exit, so the gate is closed
		 * when C gets there. */
		stepctl_break(A, COUPLED_HOOK_DECIDED, 1);
		b_ready_a_closes();
		stepctl_expect(A, COUPLED_HOOK_DECIDED);
		stepctl_expect(C, COUPLED_HOOK_GATE_WAIT);
		stepctl_step(A, COUPLED_HOOK_DECIDED, COUPLED_HOOK_EXIT_WAIT);
		break;
	case COUPLED_HOOK_EXIT_WAIT:
		/* A and B are held before their done: C, done first, waits. */
		a_b_held_at(COUPLED_HOOK_DONE);
		stepctl_expect(C, COUPLED_HOOK_EXIT_WAIT);
		break;
	default: /* EXITED: A and B return while C is stopped. */
		b_ready_a_closes();
		stepctl_expect(C, COUPLED_HOOK_EXITED);
		CHECK_EQ(stepctl_result(A, k), COUPLED_COMMITTED);
		CHECK_EQ(stepctl_result(B, k), COUPLED_COMMITTED);
		break;
	}

	wrap_end(k, (unsigned)calls);
	join_all();
	if (point == COUPLED_HOOK_BACK_OUT)
		clear_work(C);
	CHECK(at_rest());
	check_acks_at_rest();
}

#else /* the direct protocol */

/*
 * Generation wrap, direct protocol.  There are no acknowledgements; what
 * the wrap can break is the generation: the 32-bit one the completer hands
 * to the action, and the word's own 15-bit field that a waiter watches to
 * learn that its round committed (coupled_group_set_generation() leaves
 * that field as it was).  The same two histories as in the settled build
 * (C joins for the first time, or rejoins after a round across the wrap);
 * then C takes each direct role in the scripted round, stopped at:
 *   COMPLETE      C arrives last and completes; stopped there, the word
 *                 must stay frozen (3 arrivals) and nobody has run the
 *                 action;
 *   WITHDRAW      C rests, its abort fires and it stops before its
 *                 withdrawal; B then completes the round, which must
 *                 refuse the withdrawal: C commits;
 *   WAIT_SLEEP  C rests and is stopped before it sleeps while B
 *                 completes; C must see the generation move;
 *   DECIDED, EXITED  C completes and is stopped after the commit: A and B
 *                 return meanwhile (nobody waits on the way out).
 * Every run ends with all three committed in round 0 with the minimum
 * request and 3 members, and two more rounds follow as 1 and 2: the
 * generations are consecutive across the wrap.
 */
static const int wrap_points[] = {
	COUPLED_HOOK_COMPLETE, COUPLED_HOOK_WITHDRAW, COUPLED_HOOK_WAIT_SLEEP,
	COUPLED_HOOK_DECIDED,  COUPLED_HOOK_EXITED,
};

static void check_acks_at_rest(void)
{
	CHECK(at_rest());
}

static void wrap_slow_member(enum wrap_history history, int point)
{
	const int first = history == WRAP_REJOIN ? 1 : 0;
	const int calls = first + 3; /* the scripted call, then two rounds */
	int i, r;

	wrap_start(history, point, calls);

	switch (point) {
	case COUPLED_HOOK_WITHDRAW:
		/* A and C rest; C's abort fires; B completes the round. */
		arrive_and_rest(A);
		arrive_and_rest(C);
		stepctl_set_abort(C, 1);
		stepctl_break(C, COUPLED_HOOK_WITHDRAW, 1);
		wake(C);
		stepctl_expect(C, COUPLED_HOOK_WITHDRAW);
		stepctl_permit(B);
		break;
	case COUPLED_HOOK_WAIT_SLEEP:
		/* A rests; C is held before its sleep; B completes. */
		arrive_and_rest(A);
		stepctl_run_to(C, COUPLED_HOOK_WAIT_SLEEP);
		stepctl_permit(B);
		break;
	default:
		/* A and B rest; C arrives last and completes. */
		two_rest_then_c(point);
		break;
	}
	if (point == COUPLED_HOOK_COMPLETE) {
		/* Frozen: complete, nobody has run the action. */
		CHECK_EQ(word(), 3);
		CHECK(!test_group_stopped(&group));
		for (i = A; i <= C; i++)
			CHECK_EQ(stepctl_runs(i), (unsigned)first);
	} else {
		CHECK_EQ(stepctl_result(A, first), COUPLED_COMMITTED);
		CHECK_EQ(stepctl_result(B, first), COUPLED_COMMITTED);
	}
	stepctl_set_abort(C, 0);
	wrap_end(first, (unsigned)first + 1u);
	/* Two more rounds: generations 1 and 2. */
	for (r = 1; r <= 2; r++) {
		permit_each(3);
		for (i = A; i <= C; i++)
			CHECK_EQ(stepctl_result(i, first + r),
				 COUPLED_COMMITTED);
		for (i = A; i <= C; i++)
			CHECK_EQ(ctl.gen[i], (uint32_t)r);
	}
	join_all();
	CHECK(at_rest());
	check_acks_at_rest();
}

#endif /* COUPLED_PROTOCOL_SETTLED */

static void wrap_all_points(enum wrap_history history)
{
	size_t j;

	for (j = 0; j < sizeof(wrap_points) / sizeof(wrap_points[0]); j++)
		wrap_slow_member(history, wrap_points[j]);
}

static void scenario_wrap_first_join(void)
{
	wrap_all_points(WRAP_FIRST_JOIN);
}

static void scenario_wrap_rejoin(void)
{
	wrap_all_points(WRAP_REJOIN);
}

/*
 * A withdrawal and the round without it.  Of three members, A and B rest;
 * A's abort check fires and A withdraws.  C then arrives: with A's arrival
 * taken back, C's is not the last one, so C must rest too and nobody runs
 * the action.  Only when A comes back does the round commit, with all
 * three.  (If a withdrawal left its arrival counted, C would complete a
 * round that A never joined: C would return instead of resting.)
 */
static void scenario_withdraw_then_commit(void)
{
	START(3, 3, { 2, 5 }, { 1, 3 }, { 1, 4 });

	arrive_and_rest(A);
	arrive_and_rest(B);
	CHECK_EQ(word(), 2);

	stepctl_set_abort(A, 1);
	wake(A);
	CHECK_EQ(stepctl_result(A, 0), COUPLED_ABORT_CALLER);
	CHECK_EQ(word(), 1);

	/* C arrives: not the last one, it rests. */
	stepctl_run_to(C, COUPLED_HOOK_WAIT_SLEEP);
	CHECK_EQ(word(), 2);
	nobody_ran();
	stepctl_release(C, COUPLED_HOOK_WAIT_SLEEP);

	/* A comes back: now the round commits, with everyone. */
	stepctl_set_abort(A, 0);
	stepctl_permit(A);
	all_commit(3, 3, 3);
	/* The only round: nothing committed while A was away. */
	CHECK_EQ(ctl.gen[A], 1);
	CHECK(at_rest());
}

/*
 * A sparse roster: capacity 4096, four members with scattered ids, reached
 * by joins and leaves that permute the roster (a middle id leaves, the
 * last entry moves into its hole).  Each member makes SPARSE_ROUNDS calls
 * with requests from 1 to 8; every slot of a non-member holds request 0,
 * so a reduction that read any id but the members' (ids 0..n-1, the
 * whole capacity, a stale roster entry) would give 0.  The oracle checks
 * every round: run once by each of the four, the minimum of their
 * requests, four members.
 */
#define SPARSE_CAPACITY 4096u
#define SPARSE_ROUNDS 300
static struct coupled_group sparse_group;
static struct coupled_slot sparse_slots[SPARSE_CAPACITY];
static struct oracle_round sparse_log[SPARSE_ROUNDS + 2];
static const uint32_t sparse_ids[4] = { 4095, 17, 3, 1000 };

struct sparse_thread {
	uint32_t id;
	int32_t request;
};

static void sparse_action(const struct coupled_round *r, void *arg)
{
	struct sparse_thread *t = (struct sparse_thread *)arg;
	struct oracle_failure f;

	CHECK(r->generation >= 1 && r->generation <= SPARSE_ROUNDS);
	if (oracle_record(&sparse_log[r->generation], r, t->request, NULL,
			  &f) != 0) {
		fprintf(stderr, "round %u: %s (%ld, %ld)\n",
			(unsigned)r->generation, f.what, f.a, f.b);
		exit(1);
	}
}

static int sparse_done; /* threads finished, under stepctl_m */

static void *sparse_main(void *arg)
{
	struct sparse_thread *t = (struct sparse_thread *)arg;
	int k;

	for (k = 0; k < SPARSE_ROUNDS; k++) {
		t->request =
			(int32_t)(1u + (t->id * 7u + (uint32_t)k * 5u) % 8u);
		CHECK_EQ(coupled_enter(&sparse_group, t->id, t->request,
				       sparse_action, t),
			 COUPLED_COMMITTED);
	}
	pthread_mutex_lock(&stepctl_m);
	sparse_done++;
	pthread_cond_broadcast(&stepctl_c);
	pthread_mutex_unlock(&stepctl_m);
	return NULL;
}

static void scenario_sparse_roster(void)
{
	static const uint32_t joined[5] = { 4095, 17, 2048, 1000, 3 };
	struct sparse_thread t[4];
	pthread_t th[4];
	struct timespec limit;
	uint32_t k, g;

	CHECK_EQ(coupled_group_init(&sparse_group, sparse_slots,
				    SPARSE_CAPACITY, 0, NULL),
		 0);
	CHECK_EQ(coupled_pthread_set_strategy(
			 coupled_group_adapter(&sparse_group), strategy),
		 0);
	/* Roster 4095 17 2048 1000 3; 2048 leaves, 3 moves into its hole. */
	for (k = 0; k < 5; k++)
		CHECK_EQ(coupled_join(&sparse_group, joined[k]), 0);
	CHECK_EQ(coupled_leave(&sparse_group, 2048), 0);
	CHECK_EQ(coupled_group_members(&sparse_group), 4);
	CHECK(test_roster_consistent(&sparse_group) == NULL);
	for (k = 0; k < 4; k++)
		/* relaxed: no thread runs yet. */
		CHECK_EQ(coupled_load(&sparse_slots[k].roster, COUPLED_RELAXED),
			 sparse_ids[k]);
	for (g = 0; g < SPARSE_ROUNDS + 2; g++)
		oracle_init(&sparse_log[g]);
	for (k = 0; k < 4; k++) {
		t[k].id = sparse_ids[k];
		CHECK(pthread_create(&th[k], NULL, sparse_main, &t[k]) == 0);
	}
	/* Bounded: a member nobody wakes fails the scenario, not a hang. */
	stepctl_deadline(&limit);
	pthread_mutex_lock(&stepctl_m);
	while (sparse_done < 4)
		stepctl_cond_wait(&limit, "the end of the rounds", -1);
	pthread_mutex_unlock(&stepctl_m);
	for (k = 0; k < 4; k++)
		CHECK(pthread_join(th[k], NULL) == 0);
	for (g = 1; g <= SPARSE_ROUNDS; g++) {
		struct oracle_failure f;

		if (oracle_check(&sparse_log[g], coupled_reduce_min, &f) != 0) {
			fprintf(stderr, "round %u: %s (%ld, %ld)\n",
				(unsigned)g, f.what, f.a, f.b);
			exit(1);
		}
		CHECK_EQ(oracle_actions(&sparse_log[g]), 4);
		for (k = 0; k < 4; k++)
			CHECK(oracle_ran(&sparse_log[g], sparse_ids[k]));
	}
	CHECK_EQ(oracle_actions(&sparse_log[SPARSE_ROUNDS + 1]), 0);
	CHECK(test_group_at_rest(&sparse_group));
	CHECK(test_roster_consistent(&sparse_group) == NULL);
	printf("   %d rounds of ids 4095 17 3 1000 in a group of %u\n",
	       SPARSE_ROUNDS, (unsigned)SPARSE_CAPACITY);
}

/*
 * Irrevocable commit, direct protocol (the analogue of late_back_out).  A
 * and B rest; C arrives last, completes the count and is held at COMPLETE,
 * before it reduces and publishes: the word is frozen with 3 arrivals.
 * B's abort check fires now; B stops before its withdrawal, then tries it:
 * the withdrawal must be refused, and B must stay (it goes back to waiting,
 * WAIT_SLEEP), commit and run the action with the same parameter as the
 * others.  (With a withdrawal that ignored the complete count, B would
 * return COUPLED_ABORT_CALLER from a round the others commit.)
 */
static void scenario_withdraw_after_complete(void)
{
	DIRECT_ONLY("the completer's COMPLETE point and the withdrawal CAS "
		    "are the direct protocol's; settled: irrevocable_commit, "
		    "late_back_out");
	START(3, 3, { 1, 4 }, { 1, 2 }, { 1, 6 });
	two_rest_then_c(COUPLED_HOOK_COMPLETE);
	CHECK_EQ(word(), 3);

	/* B's abort fires while the round is frozen. */
	stepctl_set_abort(B, 1);
	stepctl_break(B, COUPLED_HOOK_WITHDRAW, 1);
	stepctl_break(B, COUPLED_HOOK_WAIT_SLEEP, 1);
	wake(B);
	stepctl_expect(B, COUPLED_HOOK_WITHDRAW);
	stepctl_release(B, COUPLED_HOOK_WITHDRAW);
	/* Refused: B waits on for the generation; it did not return. */
	stepctl_expect(B, COUPLED_HOOK_WAIT_SLEEP);
	CHECK_EQ(word(), 3);
	nobody_ran();

	stepctl_free(C);
	stepctl_free(B);
	all_commit(3, 2, 3);
	/* relaxed: B's thread was joined. */
	CHECK_EQ(coupled_load(&slots[B].stats.aborts[COUPLED_ABORT_CALLER],
			      COUPLED_RELAXED),
		 0);
	stepctl_set_abort(B, 0);
	CHECK(at_rest());
}

/*
 * A membership change against a committed round, direct protocol.  A and
 * B rest; C completes the count and is held at COMPLETE.  A changer starts
 * (@join: coupled_join() of D; else coupled_leave() of A): it must not set
 * stop while the count is complete.  The controller watches the word for
 * STOP_WINDOW_MS while C is held - a window to see the flaw, not a
 * synchronisation: correct code shows nothing in it whatever the timing.
 * Released, C publishes the round, which commits with the old member count
 * (3); only then does the change take stop (held at MEMBERSHIP: stop set,
 * no arrival) and complete.  (A change that set stop in the frozen word
 * would show it in the window, and C's store of the next generation would
 * wipe it: the flag would be clear at MEMBERSHIP.)
 */
#define STOP_WINDOW_MS 100

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void stop_while_complete(int join)
{
	double end;
	int i;

	printf("   the change: %s\n", join ? "join D" : "leave A");
	START(4, 3, { 1, 4 }, { 1, 2 }, { 1, 6 });
	two_rest_then_c(COUPLED_HOOK_COMPLETE);

	start_change(join, join ? 3u : (uint32_t)A, COUPLED_HOOK_MEMBERSHIP);
	end = now_ms() + STOP_WINDOW_MS;
	while (now_ms() < end) {
		CHECK(!test_group_stopped(&group));
		CHECK_EQ(word(), 3);
		sched_yield();
	}
	nobody_ran();

	stepctl_free(C);
	for (i = A; i <= C; i++)
		CHECK_EQ(stepctl_result(i, 0), COUPLED_COMMITTED);
	stepctl_expect(STEPCTL_CHANGER, COUPLED_HOOK_MEMBERSHIP);
	CHECK(test_group_stopped(&group));
	CHECK_EQ(word(), 0);
	stepctl_release(STEPCTL_CHANGER, COUPLED_HOOK_MEMBERSHIP);
	end_change();
	join_all();
	check_same_round(3, 2, 3);
	CHECK_EQ(coupled_group_members(&group), join ? 4 : 2);
	CHECK_EQ(coupled_is_member(&group, change_id), join);
	CHECK(test_roster_consistent(&group) == NULL);
	CHECK(at_rest());
}

static void scenario_stop_while_complete(void)
{
	DIRECT_ONLY("the completer's COMPLETE point and the stop flag are the "
		    "direct protocol's; settled: join_while_waiting, "
		    "leave_while_waiting");
	stop_while_complete(1);
	stop_while_complete(0);
}

/*
 * A call whose abort source already fires when it starts gives up even
 * when it would be the last to arrive.  A rests; B calls with work pending,
 * then with its caller abort set, then with a deadline already past: each
 * call must return its reason, nobody runs the action and the group is at
 * rest (the direct protocol polls before the arrival, whose completing
 * increment would commit at once; the settled one polls in phase 1, before
 * the ready phase).  Then B commits with A in one round.
 */
/* B's next call gives up at once with @reason, as its call @k. */
static void gives_up(int k, int reason)
{
	stepctl_permit(B);
	CHECK_EQ(stepctl_result(B, k), reason);
	nobody_ran();
}

static void scenario_abort_last_arriver(void)
{
	START(2, 2, { 1, 4 }, { 4, 2 });

	arrive_and_rest(A);
	raise_work(B);
	gives_up(0, COUPLED_ABORT_WORK);
	clear_work(B);

	stepctl_set_abort(B, 1);
	gives_up(1, COUPLED_ABORT_CALLER);
	stepctl_set_abort(B, 0);

	/* 1 ns after the clock's origin: past for any monotonic clock. */
	stepctl_set_deadline(B, 1);
	gives_up(2, COUPLED_ABORT_TIMEOUT);
	stepctl_set_deadline(B, 0);

	stepctl_permit(B);
	all_commit(2, 2, 2);
	CHECK(at_rest());
}

/*
 * A change runs between another member's completion of a round and an
 * arrival's reads of the membership, direct protocol.  A rests; B arrives
 * second and is held at ARRIVED (counted, before it reads the member
 * count); C completes the round.  A and C run the action and return, and C
 * leaves: the member count is now 2, and B's arrival value (one arrival
 * before it) plus one equals it.  Released, B must see that its round
 * committed (the generation moved) and take part in it with the others'
 * parameter and 3 members, not complete a second round of the new count.
 */
static void scenario_change_after_completion(void)
{
	DIRECT_ONLY("the ARRIVED point is the direct protocol's; settled: "
		    "leave_while_waiting");
	START(3, 3, { 1, 4 }, { 1, 2 }, { 1, 6 });

	arrive_and_rest(A);
	stepctl_run_to(B, COUPLED_HOOK_ARRIVED);
	stepctl_permit(C);
	CHECK_EQ(stepctl_result(C, 0), COUPLED_COMMITTED);
	CHECK_EQ(stepctl_result(A, 0), COUPLED_COMMITTED);
	CHECK_EQ(coupled_leave(&group, C), 0);

	stepctl_release(B, COUPLED_HOOK_ARRIVED);
	all_commit(3, 2, 3);
	CHECK(at_rest());
}

/*
 * Settled: the deadline counts in phase 1 only.  A has a deadline a minute
 * ahead and goes ready; B is held before its ready increment.  While A is
 * held in its ready spin, its deadline is moved into the past (the clock
 * crossing it there).  Let go for one turn, A must poll and stay ready, not
 * back out with COUPLED_ABORT_TIMEOUT: it stops at the ready spin again,
 * the word unchanged.  Then B goes ready and both commit in one round.
 */
static void scenario_deadline_in_ready(void)
{
	uint64_t now;

	SETTLED_ONLY("the ready phase, where a deadline no longer counts; a "
		     "direct member's deadline counts until its withdrawal is "
		     "refused");
	START(2, 2, { 1, 5 }, { 1, 3 });
	now = coupled_adapter_now(coupled_group_adapter(&group));
	stepctl_set_deadline(A, now + 60000000000u); /* a minute ahead */
	ready_spin_and_ready();

	stepctl_move_deadline(A, 1);
	stepctl_resume(A);
	stepctl_expect(A, COUPLED_HOOK_READY_SPIN);
	CHECK_EQ(word(), 0x00010002u);
	nobody_ran();

	stepctl_release(A, COUPLED_HOOK_READY_SPIN);
	stepctl_release(B, COUPLED_HOOK_READY);
	all_commit(2, 3, 2);
	CHECK(at_rest());
}

struct scenario {
	const char *name;
	void (*fn)(void);
};

static const struct scenario scenarios[] = {
#define SCENARIO(name) { #name, scenario_##name },
#include "scenarios.def"
#undef SCENARIO
};

/*
 * Run the scenario of @table (@n of them) that argv[1] names, or all of
 * them; argv[2] picks the wait strategy.  Return: the exit status.
 */
static int run_scenarios(const struct scenario *table, size_t n, int argc,
			 char **argv)
{
	size_t i;

	if (argc >= 3 && strcmp(argv[2], "condvar") == 0)
		strategy = COUPLED_PTHREAD_CONDVAR;
	running_all = argc < 2 || strcmp(argv[1], "all") == 0;
	for (i = 0; i < n; i++) {
		if (running_all || strcmp(argv[1], table[i].name) == 0) {
			printf("-- %s (%s, %s protocol)\n", table[i].name,
			       coupled_pthread_strategy_name(strategy),
			       COUPLED_PROTOCOL_NAME);
			table[i].fn();
			if (!running_all)
				return 0;
		}
	}
	if (!running_all) {
		fprintf(stderr, "unknown scenario %s\n", argv[1]);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	return run_scenarios(scenarios,
			     sizeof(scenarios) / sizeof(scenarios[0]), argc,
			     argv);
}

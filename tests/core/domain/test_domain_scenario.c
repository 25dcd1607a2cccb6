/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_domain_scenario.c - scripted interleavings of coupled domains.
 *
 * Usage: test_domain_scenario <name> [futex|condvar].  A tree of two
 * clusters A and B of two cores each (two levels: the clusters are the
 * leaves, under the system root); cores 0, 1 are A's, 2, 3 B's.  Each core
 * is a thread that makes the calls the controller permits.  The hook points
 * (as in stepctl.h, but per core and level: a hook names the group of a
 * level and the core's id there) stop a core where the script says; every
 * wait of the controller is bounded (LIMIT_S), so a core that waits
 * forever fails the scenario instead of hanging it.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct coupled_group;
static void dom_hook(struct coupled_group *g, uint32_t self, int point);
#define COUPLED_HOOK(group, self, point) dom_hook((group), (self), (int)(point))

#include "coupled/domain.h"

#include "check.h"
#include "tree.h"

#define LIMIT_S 20
#define CORES 4
#define LEVELS 2
#define CALLS 4
#define A0 0
#define A1 1
#define B0 2
#define B1 3
#define ROOT 1

static struct domain_tree t;
static int strategy = COUPLED_PTHREAD_FUTEX;
static struct coupled_group *grp[CORES][LEVELS];
static uint32_t gid[CORES][LEVELS];

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static struct {
	unsigned brk[CORES][LEVELS]; /* breakpoints: bits of hook points */
	int at[CORES], at_level[CORES];
	unsigned hits[CORES][LEVELS][32];
	int permits[CORES], done[CORES];
	int ret[CORES][CALLS];
	struct coupled_domain_round res[CORES][CALLS];
	unsigned actions[CORES];
	int32_t req[CORES][LEVELS];
	uint64_t deadline[CORES][LEVELS];
	int gate_armed, gate_open, gate_at; /* B0's work check */
	int gate_work;
} ctl;

static void deadline_of(struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += LIMIT_S;
}

static void wait_cv(const struct timespec *limit, const char *what, int who)
{
	if (pthread_cond_timedwait(&cv, &m, limit) == ETIMEDOUT) {
		fprintf(stderr, "timed out waiting for %s of core %d\n", what,
			who);
		exit(1);
	}
}

static void dom_hook(struct coupled_group *g, uint32_t self, int point)
{
	int c, k;

	pthread_mutex_lock(&m);
	for (c = 0; c < CORES; c++)
		for (k = 0; k < LEVELS; k++)
			if (grp[c][k] == g && gid[c][k] == self)
				goto found;
	pthread_mutex_unlock(&m);
	return;
found:
	ctl.hits[c][k][point]++;
	if (ctl.brk[c][k] & (1u << point)) {
		struct timespec limit;

		deadline_of(&limit);
		ctl.at[c] = point;
		ctl.at_level[c] = k;
		pthread_cond_broadcast(&cv);
		while (ctl.at[c] != -1)
			wait_cv(&limit, "resume", c);
	}
	pthread_mutex_unlock(&m);
}

static void set_brk(int c, int level, int point, int on)
{
	pthread_mutex_lock(&m);
	if (on)
		ctl.brk[c][level] |= 1u << point;
	else
		ctl.brk[c][level] &= ~(1u << point);
	pthread_mutex_unlock(&m);
}

/* Wait until core @c stops at @point of @level. */
static void expect(int c, int level, int point)
{
	struct timespec limit;

	deadline_of(&limit);
	pthread_mutex_lock(&m);
	while (ctl.at[c] != point || ctl.at_level[c] != level) {
		if (ctl.done[c] >= ctl.permits[c]) {
			fprintf(stderr,
				"core %d returned instead of stopping "
				"at point %d of level %d\n",
				c, point, level);
			exit(1);
		}
		wait_cv(&limit, "a breakpoint", c);
	}
	pthread_mutex_unlock(&m);
	printf("   core %d stopped at point %d of level %d\n", c, point, level);
}

/* Clear @point of @level for @c and resume it. */
static void release(int c, int level, int point)
{
	set_brk(c, level, point, 0);
	pthread_mutex_lock(&m);
	CHECK(ctl.at[c] == point && ctl.at_level[c] == level);
	ctl.at[c] = -1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
}

static void permit(int c)
{
	pthread_mutex_lock(&m);
	ctl.permits[c]++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
}

/* Wait for call @k of core @c to return; return its result. */
static int result(int c, int k)
{
	struct timespec limit;
	int r;

	deadline_of(&limit);
	pthread_mutex_lock(&m);
	while (ctl.done[c] <= k)
		wait_cv(&limit, "a call's result", c);
	r = ctl.ret[c][k];
	pthread_mutex_unlock(&m);
	printf("   core %d call %d: %s\n", c, k, coupled_strerror(r));
	return r;
}

/* The outcome of level @level in call @k of core @c (after result()). */
static const struct coupled_domain_level *lvl(int c, int k, int level)
{
	return &ctl.res[c][k].level[level];
}

/*
 * Wait until core @c rests at @level: with futex, until its adapter slot
 * there says it sleeps in futex(2) (only a wake ends that sleep); with
 * condvar, once it passed PHASE1_SLEEP there (the breakpoint is set).
 */
static void expect_rest(int c, int level)
{
	if (strategy == COUPLED_PTHREAD_FUTEX) {
		struct coupled_adapter_slot *as = coupled_participant_adapter(
			grp[c][level], gid[c][level]);
		struct timespec limit, now;

		clock_gettime(CLOCK_MONOTONIC, &limit);
		limit.tv_sec += LIMIT_S;
		expect(c, level, COUPLED_HOOK_PHASE1_SLEEP);
		release(c, level, COUPLED_HOOK_PHASE1_SLEEP);
		/* relaxed: only waits for the flag, decides nothing. */
		while (!coupled_load(&as->sleeping, COUPLED_RELAXED)) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			CHECK(now.tv_sec < limit.tv_sec);
			sched_yield();
		}
	} else {
		expect(c, level, COUPLED_HOOK_PHASE1_SLEEP);
		release(c, level, COUPLED_HOOK_PHASE1_SLEEP);
	}
}

static void action(const struct coupled_domain_round *r, void *ctx)
{
	int c = (int)(intptr_t)ctx;

	pthread_mutex_lock(&m);
	ctl.res[c][ctl.done[c]] = *r;
	ctl.actions[c]++;
	pthread_mutex_unlock(&m);
}

static void *core_main(void *arg)
{
	int c = (int)(intptr_t)arg, k;

	for (k = 0; k < CALLS; k++) {
		struct coupled_abort_opts opts[LEVELS];
		int32_t req[LEVELS];
		struct timespec limit;
		int r, j;

		deadline_of(&limit);
		pthread_mutex_lock(&m);
		while (ctl.permits[c] <= k) {
			if (ctl.permits[c] < 0) {
				pthread_mutex_unlock(&m);
				return NULL;
			}
			wait_cv(&limit, "a permit", c);
		}
		memset(opts, 0, sizeof(opts));
		for (j = 0; j < LEVELS; j++) {
			req[j] = ctl.req[c][j];
			opts[j].deadline = ctl.deadline[c][j];
		}
		pthread_mutex_unlock(&m);
		r = coupled_domain_enter_opts(t.leaf[c], t.id[c], req, action,
					      (void *)(intptr_t)c, opts);
		pthread_mutex_lock(&m);
		ctl.ret[c][k] = r;
		ctl.done[c] = k + 1;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

/*
 * B's work check: B0's first check stops here (B0 is inside its call, a
 * candidate of the root) until the controller opens the gate; then it
 * says what gate_work says.
 */
static bool gate_check(void *arg, uint32_t self)
{
	struct timespec limit;
	bool work;

	(void)arg;
	if (self != t.id[B0])
		return false;
	deadline_of(&limit);
	pthread_mutex_lock(&m);
	if (ctl.gate_armed) {
		ctl.gate_at = 1;
		pthread_cond_broadcast(&cv);
		while (!ctl.gate_open)
			wait_cv(&limit, "the gate", B0);
		ctl.gate_armed = 0;
	}
	work = ctl.gate_work != 0;
	pthread_mutex_unlock(&m);
	return work;
}

static pthread_t th[CORES];

static void setup(void)
{
	static const uint32_t cl[2] = { 2, 2 };
	int c;

	tree_build(&t, 2, cl, 0, strategy);
	for (c = 0; c < CORES; c++) {
		struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
		uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], k;

		CHECK_EQ(tree_path(&t, (uint32_t)c, node, id), LEVELS);
		for (k = 0; k < LEVELS; k++) {
			grp[c][k] = node[k]->group;
			gid[c][k] = id[k];
		}
		ctl.at[c] = -1;
	}
	coupled_pthread_set_work_check(coupled_group_adapter(t.leaf[B0]->group),
				       gate_check, NULL);
	for (c = 0; c < CORES; c++)
		CHECK_EQ(pthread_create(&th[c], NULL, core_main,
					(void *)(intptr_t)c),
			 0);
}

static void finish(void)
{
	int c;
	uint32_t n;

	pthread_mutex_lock(&m);
	for (c = 0; c < CORES; c++) {
		CHECK_EQ(ctl.done[c], ctl.permits[c]);
		ctl.permits[c] = -1;
	}
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
	for (c = 0; c < CORES; c++)
		CHECK_EQ(pthread_join(th[c], NULL), 0);
	for (n = 0; n < t.nodes; n++) {
		/* relaxed: every thread joined. */
		CHECK_EQ(coupled_load(&t.node[n].candidates, COUPLED_RELAXED),
			 0);
		CHECK_EQ(coupled_load(&t.node[n].waiting, COUPLED_RELAXED), 0);
	}
}

static void set_req(int c, int32_t leaf, int32_t root)
{
	pthread_mutex_lock(&m);
	ctl.req[c][0] = leaf;
	ctl.req[c][ROOT] = root;
	pthread_mutex_unlock(&m);
}

static void raise_work(int c)
{
	coupled_pthread_raise_work(
		coupled_group_adapter(grp[c][0]),
		coupled_participant_adapter(grp[c][0], gid[c][0]), gid[c][0]);
}

static void clear_work(int c)
{
	coupled_pthread_clear_work(
		coupled_participant_adapter(grp[c][0], gid[c][0]));
}

/* Cores @a and @b committed one level-0 round, the root not. */
static void check_leaf_alone(int a, int ka, int b, int kb, int32_t param)
{
	CHECK(lvl(a, ka, 0)->committed && lvl(b, kb, 0)->committed);
	CHECK_EQ(lvl(a, ka, 0)->generation, lvl(b, kb, 0)->generation);
	CHECK_EQ(lvl(a, ka, 0)->param, param);
	CHECK_EQ(lvl(b, kb, 0)->param, param);
	CHECK_EQ(lvl(a, ka, 0)->members, 2);
	CHECK(!lvl(a, ka, ROOT)->committed && !lvl(b, kb, ROOT)->committed);
	CHECK_EQ(ctl.res[a][ka].depth, 1);
	CHECK_EQ(ctl.res[b][kb].depth, 1);
}

/*
 * (a) Cluster A's cores wait at the root (every core is a candidate: B1
 * rests in B, B0 is inside its call, stopped in its first work check).
 * B0 then finds work pending and aborts: it gives the root up and kicks
 * it.  A0 (resting there) must give the root up at once, and A1, the last
 * of A to come, gives it up without waiting: A commits level 0 alone with
 * COUPLED_DOMAIN_CANNOT at the root.
 */
static void scenario_cannot_while_other_aborts(void)
{
	setup();
	set_req(A0, 3, 1);
	set_req(A1, 5, 2);
	set_req(B0, 1, 1);
	set_req(B1, 1, 1);
	set_brk(B1, 0, COUPLED_HOOK_PHASE1_SLEEP, 1);
	permit(B1);
	expect_rest(B1, 0);
	pthread_mutex_lock(&m);
	ctl.gate_armed = 1;
	ctl.gate_work = 1;
	pthread_mutex_unlock(&m);
	permit(B0);
	{
		struct timespec limit;

		deadline_of(&limit);
		pthread_mutex_lock(&m);
		while (!ctl.gate_at)
			wait_cv(&limit, "the gate", B0);
		pthread_mutex_unlock(&m);
	}
	set_brk(A0, ROOT, COUPLED_HOOK_PHASE1_SLEEP, 1);
	set_brk(A1, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	permit(A0);
	permit(A1);
	expect(A1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect_rest(A0, ROOT);
	set_brk(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP, 1);
	/* B0 finds its work: it aborts and gives the root up. */
	pthread_mutex_lock(&m);
	ctl.gate_open = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
	CHECK_EQ(result(B0, 0), COUPLED_ABORT_WORK);
	CHECK_EQ(ctl.actions[B0], 0);
	/* A0 must give the root up before A1 comes. */
	expect(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP);
	release(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP);
	release(A1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	CHECK_EQ(result(A0, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(A1, 0), COUPLED_COMMITTED);
	check_leaf_alone(A0, 0, A1, 0, 3);
	CHECK_EQ(lvl(A0, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	CHECK_EQ(lvl(A1, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	/* A1 never rested at the root. */
	CHECK_EQ(ctl.hits[A1][ROOT][COUPLED_HOOK_PHASE1_SLEEP], 0);
	/* B0 without work: B commits alone, A is not a candidate. */
	pthread_mutex_lock(&m);
	ctl.gate_work = 0;
	pthread_mutex_unlock(&m);
	permit(B0);
	CHECK_EQ(result(B0, 1), COUPLED_COMMITTED);
	CHECK_EQ(result(B1, 0), COUPLED_COMMITTED);
	check_leaf_alone(B0, 1, B1, 0, 1);
	CHECK_EQ(lvl(B0, 1, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	CHECK_EQ(lvl(B1, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	finish();
}

/*
 * (b) Both clusters commit their level 0 round (each with its own
 * reduction), all four cores are then held before the root and let go:
 * they commit the root in one round with the reduction of their root
 * requests.
 */
static void scenario_system_after_cluster(void)
{
	int c;

	setup();
	set_req(A0, 5, 7);
	set_req(A1, 3, 6);
	set_req(B0, 4, 2);
	set_req(B1, 6, 9);
	for (c = 0; c < CORES; c++) {
		set_brk(c, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
		permit(c);
	}
	for (c = 0; c < CORES; c++)
		expect(c, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	for (c = 0; c < CORES; c++)
		release(c, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	for (c = 0; c < CORES; c++) {
		CHECK_EQ(result(c, 0), COUPLED_COMMITTED);
		CHECK_EQ(ctl.actions[c], 1);
		CHECK_EQ(ctl.res[c][0].depth, 2);
		CHECK(lvl(c, 0, 0)->committed);
		CHECK_EQ(lvl(c, 0, 0)->param, c < B0 ? 3 : 4);
		CHECK_EQ(lvl(c, 0, 0)->members, 2);
		CHECK_EQ(lvl(c, 0, 0)->generation, 1);
		CHECK(lvl(c, 0, ROOT)->committed);
		CHECK_EQ(lvl(c, 0, ROOT)->outcome, COUPLED_COMMITTED);
		CHECK_EQ(lvl(c, 0, ROOT)->param, 2);
		CHECK_EQ(lvl(c, 0, ROOT)->members, 4);
		CHECK_EQ(lvl(c, 0, ROOT)->generation, 1);
	}
	finish();
}

/*
 * (c) A deadline at the root only, for A0.  B's cores committed B and are
 * held before they try the root (DOMAIN_TRY): every core is a candidate,
 * so A1 rests at the root (no deadline of its own) and A0 waits there
 * until its deadline passes.  A0 gives the root up (TIMEOUT), A1 must give
 * it up too (CANNOT), and A commits level 0 alone; B then finds the root
 * given up as well.
 */
static void scenario_root_deadline(void)
{
	int c;

	setup();
	for (c = 0; c < CORES; c++)
		set_req(c, 2, 2);
	set_brk(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	set_brk(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	permit(B0);
	permit(B1);
	expect(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	set_brk(A0, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	set_brk(A1, ROOT, COUPLED_HOOK_PHASE1_SLEEP, 1);
	pthread_mutex_lock(&m);
	ctl.deadline[A0][ROOT] =
		coupled_adapter_now(coupled_group_adapter(grp[A0][ROOT])) +
		100000000u; /* 100 ms */
	pthread_mutex_unlock(&m);
	permit(A0);
	permit(A1);
	expect(A0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect_rest(A1, ROOT);
	release(A0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	CHECK_EQ(result(A0, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(A1, 0), COUPLED_COMMITTED);
	check_leaf_alone(A0, 0, A1, 0, 2);
	CHECK_EQ(lvl(A0, 0, ROOT)->outcome, COUPLED_ABORT_TIMEOUT);
	CHECK_EQ(lvl(A1, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	release(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	release(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	CHECK_EQ(result(B0, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(B1, 0), COUPLED_COMMITTED);
	check_leaf_alone(B0, 0, B1, 0, 2);
	CHECK_EQ(lvl(B0, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	CHECK_EQ(lvl(B1, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	finish();
}

/*
 * (d) A's round committed; A1 waits at the root (stopped at PHASE1_SLEEP
 * there), A0 gets work before it tries the root and gives it up.  In the
 * direct variant A0's call returns and A0 calls again at once: it is a
 * candidate of the root again before A1 looks, so only the abandoned mark
 * of A's round tells A1 to give the root up.  A1 does (CANNOT), calls again, and A's second
 * round joins B's cores (held before the root all along): all four commit
 * the root in one round.
 */
static void scenario_abandon_and_retry(void)
{
	int c;

	setup();
	for (c = 0; c < CORES; c++)
		set_req(c, 4, 3);
	set_req(B1, 4, 1);
	set_brk(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	set_brk(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	permit(B0);
	permit(B1);
	expect(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	set_brk(A0, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	set_brk(A1, ROOT, COUPLED_HOOK_PHASE1_SLEEP, 1);
	permit(A0);
	permit(A1);
	expect(A0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect(A1, ROOT, COUPLED_HOOK_PHASE1_SLEEP);
	/* A0 gets work and gives the root up; A1 stays stopped. */
	raise_work(A0);
	set_brk(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP, 1);
	release(A0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP);
	release(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP);
#if !COUPLED_PROTOCOL_SETTLED
	/*
	 * Direct: A0's call returns while A1 is still in A's round; A0 calls
	 * again and rests in A, a candidate of the root again.  (Settled: A0
	 * leaves the round only after A1 did, so A1 sees A0's candidacy gone
	 * as well as the abandoned mark.)
	 */
	CHECK_EQ(result(A0, 0), COUPLED_COMMITTED);
	clear_work(A0);
	set_brk(A0, 0, COUPLED_HOOK_PHASE1_SLEEP, 1);
	permit(A0);
	expect(A0, 0, COUPLED_HOOK_PHASE1_SLEEP);
	release(A0, 0, COUPLED_HOOK_PHASE1_SLEEP);
	/* relaxed: A0 and A1 are both in their calls, nobody gave up. */
	CHECK_EQ(coupled_load(&t.node[0].candidates, COUPLED_RELAXED), 4);
#endif
	release(A1, ROOT, COUPLED_HOOK_PHASE1_SLEEP);
	CHECK_EQ(result(A1, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(A0, 0), COUPLED_COMMITTED);
	CHECK_EQ(lvl(A0, 0, ROOT)->outcome, COUPLED_ABORT_WORK);
	check_leaf_alone(A0, 0, A1, 0, 4);
	CHECK_EQ(lvl(A1, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
#if COUPLED_PROTOCOL_SETTLED
	clear_work(A0);
	permit(A0);
#endif
	/* Both retry: A's second round, then the root with B. */
	set_brk(A0, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	set_brk(A1, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	permit(A1);
	expect(A0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect(A1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	for (c = 0; c < CORES; c++)
		release(c, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	CHECK_EQ(result(A0, 1), COUPLED_COMMITTED);
	CHECK_EQ(result(A1, 1), COUPLED_COMMITTED);
	CHECK_EQ(result(B0, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(B1, 0), COUPLED_COMMITTED);
	for (c = 0; c < CORES; c++) {
		int k = c < B0 ? 1 : 0;

		CHECK_EQ(lvl(c, k, 0)->generation, c < B0 ? 2 : 1);
		CHECK(lvl(c, k, ROOT)->committed);
		CHECK_EQ(lvl(c, k, ROOT)->generation, 1);
		CHECK_EQ(lvl(c, k, ROOT)->param, 1);
		CHECK_EQ(lvl(c, k, ROOT)->members, 4);
	}
	finish();
}

/*
 * (e) A0 refuses the root (a negative request), A1 waits there with a
 * deadline far beyond the scenario's limit (so only the candidacy of B's
 * cores, held before the root, would keep it: a deadline skips the
 * candidates test).  A0 marks A's round abandoned at the root while A1
 * rests: the RMW of the root's candidates that publishes the mark must
 * also kick A1, which gives the root up (CANNOT) long before its
 * deadline; without that A1 sleeps on and the scenario times out.
 */
static void scenario_refuse_with_deadline(void)
{
	int c;

	setup();
	for (c = 0; c < CORES; c++)
		set_req(c, 2, 2);
	set_req(A0, 3, -1);
	set_brk(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	set_brk(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	permit(B0);
	permit(B1);
	expect(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	pthread_mutex_lock(&m);
	ctl.deadline[A1][ROOT] =
		coupled_adapter_now(coupled_group_adapter(grp[A1][ROOT])) +
		(uint64_t)(3 * LIMIT_S) * 1000000000u;
	pthread_mutex_unlock(&m);
	set_brk(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP, 1);
	set_brk(A1, ROOT, COUPLED_HOOK_PHASE1_SLEEP, 1);
	permit(A0);
	permit(A1);
	expect(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP);
	expect_rest(A1, ROOT);
	release(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP);
	CHECK_EQ(result(A0, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(A1, 0), COUPLED_COMMITTED);
	check_leaf_alone(A0, 0, A1, 0, 2);
	CHECK_EQ(lvl(A0, 0, ROOT)->outcome, COUPLED_DOMAIN_REFUSED);
	CHECK_EQ(lvl(A1, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	release(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	release(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	CHECK_EQ(result(B0, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(B1, 0), COUPLED_COMMITTED);
	check_leaf_alone(B0, 0, B1, 0, 2);
	CHECK_EQ(lvl(B0, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	CHECK_EQ(lvl(B1, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	finish();
}

static const struct {
	const char *name;
	void (*fn)(void);
} scenarios[] = {
	{ "cannot_while_other_aborts", scenario_cannot_while_other_aborts },
	{ "system_after_cluster", scenario_system_after_cluster },
	{ "root_deadline", scenario_root_deadline },
	{ "abandon_and_retry", scenario_abandon_and_retry },
	{ "refuse_with_deadline", scenario_refuse_with_deadline },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s <scenario> [futex|condvar]\n",
			argv[0]);
		return 2;
	}
	if (argc >= 3 && strcmp(argv[2], "condvar") == 0)
		strategy = COUPLED_PTHREAD_CONDVAR;
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		if (strcmp(argv[1], scenarios[i].name) == 0) {
			printf("-- %s (%s, %s protocol)\n", scenarios[i].name,
			       coupled_pthread_strategy_name(strategy),
			       COUPLED_PROTOCOL_NAME);
			scenarios[i].fn();
			printf("passed\n");
			return 0;
		}
	}
	fprintf(stderr, "unknown scenario %s\n", argv[1]);
	return 2;
}

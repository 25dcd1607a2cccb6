/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_domain_scenario.c - scripted interleavings of coupled domains.
 *
 * Usage: test_domain_scenario <name> [futex|condvar]; the names are those of
 * domain_scenarios.def.  Three trees:
 *  - two levels: two clusters A and B of two cores each (the clusters are
 *    the leaves, under the system root); cores 0, 1 are A's, 2, 3 B's;
 *  - three levels: two clusters of two pairs of two cores (the pairs are
 *    the leaves); cores 0..3 are cluster 0's (pairs 0-1, 2-3), 4..7
 *    cluster 1's;
 *  - the PSCI shape, three levels: the system over clusters A (cores 0, 1)
 *    and B (2, 3), each core its own leaf.
 * Each core is a thread that makes the calls the controller permits; one
 * more thread, the changer, makes the membership calls it permits
 * (coupled_domain_join() or _leave() of one core).  A core's action may
 * also meet the other cores' actions and change a core's membership from
 * inside its call (ctl.meet_n, ctl.act_leave).  The hook points (as in
 * stepctl.h, but per thread and level: a hook names the group of a level)
 * stop a thread where the script says.  No hook point lies between two
 * levels of a membership change, so the group calls that
 * coupled_domain_join() and _leave() make are wrapped here: after each
 * successful one the changer passes the test's own points JOINED or LEFT of
 * that level.  Every wait of the controller is bounded (LIMIT_S; PROMPT_S
 * for "at once"), so a thread that waits forever fails the scenario
 * instead of hanging it.
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

#include "coupled/coupled.h"

/* The group calls of the domain's membership changes, wrapped (see above). */
static int changer_join(struct coupled_group *g, uint32_t id);
static int changer_leave(struct coupled_group *g, uint32_t id);
#define coupled_join(g, id) changer_join((g), (id))
#define coupled_leave(g, id) changer_leave((g), (id))
#include "coupled/domain.h"
#undef coupled_join
#undef coupled_leave

#include "check.h"
#include "tree.h"

#ifdef STEPCTL_LIMIT_S
#define LIMIT_S STEPCTL_LIMIT_S
#else
#define LIMIT_S 20
#endif
/*
 * The bound of a wait for something that must happen at once: a core woken
 * or kicked out of a level whose own deadline (if any) is DEADLINE_FAR_S
 * away.
 */
#define PROMPT_S 4
#define DEADLINE_FAR_S 30
/* A root deadline that keeps cores at the root while the script runs. */
#define DEADLINE_FEW_S 5
#define CORES 4 /* the two-level tree */
#define MAX_CORES 8
#define MAX_LEVELS 3
#define CALLS 4
#define A0 0
#define A1 1
#define B0 2
#define B1 3
#define ROOT 1       /* of the two-level tree */
#define CLU 1        /* the clusters of the PSCI tree */
#define SYS 2        /* its system */
#define CH MAX_CORES /* the changer's index in the per-thread arrays */
#define THREADS (MAX_CORES + 1)
#define POINTS 32
/* The changer's own points, after each group call it makes. */
#define TP_JOINED 30 /* it joined that level's group */
#define TP_LEFT 31   /* it left that level's group */

_Static_assert(COUPLED_HOOK_DOMAIN_DRAIN < TP_JOINED, "the test's points "
						      "follow the library's");

static struct domain_tree t;
static int strategy = COUPLED_PTHREAD_FUTEX;
static struct coupled_group *grp[MAX_CORES][MAX_LEVELS];
static uint32_t gid[MAX_CORES][MAX_LEVELS];
/* Which thread runs: a core's number, CH for the changer, -1 otherwise. */
static _Thread_local int me = -1;

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static struct {
	unsigned brk[THREADS][MAX_LEVELS]; /* breakpoints: bits of points */
	int at[THREADS], at_level[THREADS];
	unsigned hits[THREADS][MAX_LEVELS][POINTS];
	int permits[THREADS], done[THREADS];
	int ret[THREADS][CALLS];
	struct coupled_domain_round res[MAX_CORES][CALLS];
	unsigned actions[MAX_CORES];
	int32_t req[MAX_CORES][MAX_LEVELS];
	uint64_t deadline[MAX_CORES][MAX_LEVELS];
	int work[MAX_CORES];                /* what the work check says */
	int gate_armed, gate_open, gate_at; /* B0's work check */
	int gate_work;
	int ch_join; /* the changer joins (1) or leaves (0) core ch_core */
	int ch_core;
	int meet, meet_n;         /* actions met; how many must meet */
	int act_leave[MAX_CORES]; /* 1 + the core a core's action leaves */
	int act_ret[MAX_CORES];   /* what that leave returned */
	int act_done[MAX_CORES];  /* and that it returned */
} ctl;

/* Wake every waiter of the controller's condition; drop its mutex. */
static void broadcast_unlock(void)
{
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
}

static void deadline_in(struct timespec *ts, int seconds)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += seconds;
}

static void deadline_of(struct timespec *ts)
{
	deadline_in(ts, LIMIT_S);
}

static const char *who_name(int who)
{
	static const char *const names[THREADS] = {
		"core 0", "core 1", "core 2", "core 3",     "core 4",
		"core 5", "core 6", "core 7", "the changer"
	};

	return who >= 0 && who < THREADS ? names[who] : "?";
}

static void wait_cv(const struct timespec *limit, const char *what, int who)
{
	if (pthread_cond_timedwait(&cv, &m, limit) == ETIMEDOUT) {
		fprintf(stderr, "timed out waiting for %s of %s\n", what,
			who_name(who));
		exit(1);
	}
}

/*
 * Take the controller's mutex once *@count exceeds @k (@what of thread
 * @who: the bounded wait's subject); return with the mutex held.
 */
static void lock_when_above(const int *count, int k, const char *what, int who)
{
	struct timespec limit;

	deadline_of(&limit);
	pthread_mutex_lock(&m);
	while (*count <= k)
		wait_cv(&limit, what, who);
}

/*
 * With the mutex held: @who stops at @point of @level (which the hit
 * counts too) until the controller resumes it.
 */
static void hold(int who, int level, int point)
{
	struct timespec limit;

	deadline_of(&limit);
	ctl.at[who] = point;
	ctl.at_level[who] = level;
	pthread_cond_broadcast(&cv);
	while (ctl.at[who] != -1)
		wait_cv(&limit, "resume", who);
}

static void dom_hook(struct coupled_group *g, uint32_t self, int point)
{
	int who = me, core, level = 0;
	uint32_t k;

	(void)self;
	if (who < 0)
		return;
	core = who == CH ? ctl.ch_core : who;
	for (k = 0; k < t.levels; k++)
		if (grp[core][k] == g)
			level = (int)k;
	pthread_mutex_lock(&m);
	ctl.hits[who][level][point]++;
	if (ctl.brk[who][level] & (1u << point))
		hold(who, level, point);
	else
		pthread_cond_broadcast(&cv); /* for the hit */
	pthread_mutex_unlock(&m);
}

static int changer_join(struct coupled_group *g, uint32_t id)
{
	int r = coupled_join(g, id);

	if (!r)
		dom_hook(g, id, TP_JOINED);
	return r;
}

static int changer_leave(struct coupled_group *g, uint32_t id)
{
	int r = coupled_leave(g, id);

	if (!r)
		dom_hook(g, id, TP_LEFT);
	return r;
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

/*
 * Wait until thread @c stops at @point of @level, or its permitted calls
 * have all returned.  Return: 1 if it stopped there, 0 if it returned.
 */
static int stop_or_return(int c, int level, int point)
{
	struct timespec limit;
	int stopped;

	deadline_of(&limit);
	pthread_mutex_lock(&m);
	while ((ctl.at[c] != point || ctl.at_level[c] != level) &&
	       ctl.done[c] < ctl.permits[c])
		wait_cv(&limit, "a breakpoint or a return", c);
	stopped = ctl.at[c] == point && ctl.at_level[c] == level;
	pthread_mutex_unlock(&m);
	if (stopped)
		printf("   %s stopped at point %d of level %d\n", who_name(c),
		       point, level);
	else
		printf("   %s returned before point %d of level %d\n",
		       who_name(c), point, level);
	return stopped;
}

/* Wait until thread @c stops at @point of @level. */
static void expect(int c, int level, int point)
{
	if (!stop_or_return(c, level, point)) {
		fprintf(stderr,
			"%s returned instead of stopping at point %d of "
			"level %d\n",
			who_name(c), point, level);
		exit(1);
	}
}

/* Clear @point of @level for @c and resume it. */
static void release(int c, int level, int point)
{
	set_brk(c, level, point, 0);
	pthread_mutex_lock(&m);
	CHECK(ctl.at[c] == point && ctl.at_level[c] == level);
	ctl.at[c] = -1;
	broadcast_unlock();
}

static void permit(int c)
{
	pthread_mutex_lock(&m);
	ctl.permits[c]++;
	broadcast_unlock();
}

/* Wait for call @k of thread @c to return; return its result. */
static int result(int c, int k)
{
	int r;

	lock_when_above(&ctl.done[c], k, "a call's result", c);
	r = ctl.ret[c][k];
	pthread_mutex_unlock(&m);
	if (c == CH)
		printf("   the changer call %d: returned %d\n", k, r);
	else
		printf("   %s call %d: %s\n", who_name(c), k,
		       coupled_strerror(r));
	return r;
}

/*
 * Wait up to @seconds until core @c has run @n actions (its action runs
 * inside its call, before the call can return).
 */
static void wait_actions(int c, unsigned n, int seconds, const char *what)
{
	struct timespec limit;

	deadline_in(&limit, seconds);
	pthread_mutex_lock(&m);
	while (ctl.actions[c] < n) {
		if (pthread_cond_timedwait(&cv, &m, &limit) == ETIMEDOUT) {
			fprintf(stderr,
				"%s: %s did not run its action within %d s\n",
				what, who_name(c), seconds);
			exit(1);
		}
	}
	pthread_mutex_unlock(&m);
	printf("   %s ran its action\n", who_name(c));
}

/* The outcome of level @level in call @k of core @c (after result()). */
static const struct coupled_domain_level *lvl(int c, int k, int level)
{
	return &ctl.res[c][k].level[level];
}

/*
 * Wait until core @c rests at @level: with futex, until its adapter slot
 * there says it sleeps in futex(2) (only a wake ends that sleep); with
 * condvar, once it passed WAIT_SLEEP there (the breakpoint is set).
 */
static void expect_rest(int c, int level)
{
	if (strategy == COUPLED_PTHREAD_FUTEX) {
		struct coupled_adapter_slot *as = coupled_participant_adapter(
			grp[c][level], gid[c][level]);
		struct timespec limit, now;

		clock_gettime(CLOCK_MONOTONIC, &limit);
		limit.tv_sec += LIMIT_S;
		expect(c, level, COUPLED_HOOK_WAIT_SLEEP);
		release(c, level, COUPLED_HOOK_WAIT_SLEEP);
		/* relaxed: only waits for the flag, decides nothing. */
		while (!coupled_load(&as->sleeping, COUPLED_RELAXED)) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			CHECK(now.tv_sec < limit.tv_sec);
			sched_yield();
		}
	} else {
		expect(c, level, COUPLED_HOOK_WAIT_SLEEP);
		release(c, level, COUPLED_HOOK_WAIT_SLEEP);
	}
}

/*
 * Records the outcome; then, if the script says so, waits (bounded) until
 * ctl.meet_n actions met, and leaves core ctl.act_leave[c] - 1 from inside
 * the call.
 */
static void action(const struct coupled_domain_round *r, void *ctx)
{
	int c = (int)(intptr_t)ctx, target, ret;
	struct timespec limit;

	pthread_mutex_lock(&m);
	ctl.res[c][ctl.done[c]] = *r;
	ctl.actions[c]++;
	if (ctl.meet_n) {
		deadline_of(&limit);
		ctl.meet++;
		pthread_cond_broadcast(&cv);
		while (ctl.meet < ctl.meet_n)
			wait_cv(&limit, "the others' actions", c);
	}
	target = ctl.act_leave[c] - 1;
	ctl.act_leave[c] = 0;
	broadcast_unlock();
	if (target < 0)
		return;
	ret = coupled_domain_leave(t.leaf[target], t.id[target]);
	pthread_mutex_lock(&m);
	ctl.act_ret[c] = ret;
	ctl.act_done[c] = 1;
	broadcast_unlock();
}

/*
 * Wait for the permit of call @k of thread @c; false once told to stop.
 * Bounded by twice LIMIT_S: a thread that the script never lets call (an
 * offline core) waits here for the whole scenario, and a step of the
 * controller that hangs must be the one reported, not this wait.
 */
static bool wait_permit(int c, int k)
{
	struct timespec limit;

	deadline_in(&limit, 2 * LIMIT_S);
	pthread_mutex_lock(&m);
	while (ctl.permits[c] <= k) {
		if (ctl.permits[c] < 0) {
			pthread_mutex_unlock(&m);
			return false;
		}
		wait_cv(&limit, "a permit", c);
	}
	pthread_mutex_unlock(&m);
	return true;
}

static void record(int c, int k, int r)
{
	pthread_mutex_lock(&m);
	ctl.ret[c][k] = r;
	ctl.done[c] = k + 1;
	broadcast_unlock();
}

static void *core_main(void *arg)
{
	int c = (int)(intptr_t)arg, k;

	me = c;
	for (k = 0; k < CALLS; k++) {
		struct coupled_abort_opts opts[MAX_LEVELS];
		int32_t req[MAX_LEVELS];
		uint32_t j;
		int r;

		if (!wait_permit(c, k))
			return NULL;
		memset(opts, 0, sizeof(opts));
		pthread_mutex_lock(&m);
		for (j = 0; j < t.levels; j++) {
			req[j] = ctl.req[c][j];
			opts[j].deadline = ctl.deadline[c][j];
		}
		pthread_mutex_unlock(&m);
		r = coupled_domain_enter_opts(t.leaf[c], t.id[c], req, action,
					      (void *)(intptr_t)c, opts);
		record(c, k, r);
	}
	return NULL;
}

/* The changer: each permitted call joins or leaves core ch_core. */
static void *changer_main(void *arg)
{
	int k;

	(void)arg;
	me = CH;
	for (k = 0; k < CALLS; k++) {
		int c, r;

		if (!wait_permit(CH, k))
			return NULL;
		pthread_mutex_lock(&m);
		c = ctl.ch_core;
		pthread_mutex_unlock(&m);
		r = ctl.ch_join ? coupled_domain_join(t.leaf[c], t.id[c])
				: coupled_domain_leave(t.leaf[c], t.id[c]);
		record(CH, k, r);
	}
	return NULL;
}

/*
 * The work check of every leaf: what ctl.work says for the core; and B0's
 * gate in the two-level tree: B0's first check stops here (B0 is inside its
 * call, a candidate of the root) until the controller opens the gate; then
 * it says what gate_work says.
 */
static bool work_check(void *arg, uint32_t self)
{
	struct coupled_domain *leaf = (struct coupled_domain *)arg;
	struct timespec limit;
	bool work = false;
	uint32_t c;

	for (c = 0; c < t.cores; c++)
		if (t.leaf[c] == leaf && t.id[c] == self)
			break;
	CHECK(c < t.cores);
	deadline_of(&limit);
	pthread_mutex_lock(&m);
	if (t.levels == 2 && c == B0) {
		if (ctl.gate_armed) {
			ctl.gate_at = 1;
			pthread_cond_broadcast(&cv);
			while (!ctl.gate_open)
				wait_cv(&limit, "the gate", B0);
			ctl.gate_armed = 0;
		}
		work = ctl.gate_work != 0;
	}
	if (ctl.work[c])
		work = true;
	pthread_mutex_unlock(&m);
	return work;
}

static pthread_t th[THREADS];

/* Build the tree (@leaf_max as tree_build()) and start its threads. */
static void setup_tree(uint32_t clusters, const uint32_t *cl, uint32_t leaf_max)
{
	uint32_t c, k;

	tree_build(&t, clusters, cl, leaf_max, strategy);
	CHECK(t.cores <= MAX_CORES && t.levels <= MAX_LEVELS);
	for (c = 0; c < t.cores; c++) {
		struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
		uint32_t id[COUPLED_DOMAIN_MAX_LEVELS];

		CHECK_EQ(tree_path(&t, c, node, id), t.levels);
		for (k = 0; k < t.levels; k++) {
			grp[c][k] = node[k]->group;
			gid[c][k] = id[k];
		}
		if (t.id[c] == 0)
			coupled_pthread_set_work_check(
				coupled_group_adapter(t.leaf[c]->group),
				work_check, t.leaf[c]);
	}
	for (c = 0; c < THREADS; c++)
		ctl.at[c] = -1;
	for (c = 0; c < t.cores; c++)
		CHECK_EQ(pthread_create(&th[c], NULL, core_main,
					(void *)(intptr_t)c),
			 0);
	CHECK_EQ(pthread_create(&th[CH], NULL, changer_main, NULL), 0);
}

/* The PSCI tree: clusters A (cores 0, 1) and B (2, 3), a leaf per core. */
static void setup_psci(void)
{
	static const uint32_t cl[2] = { 2, 2 };

	setup_tree(2, cl, 1);
	CHECK_EQ(t.levels, 3);
	CHECK_EQ(t.cores, 4);
}

/* The two-level tree: clusters A (cores 0, 1) and B (2, 3). */
static void setup(void)
{
	static const uint32_t cl[2] = { 2, 2 };

	setup_tree(2, cl, 0);
}

/* The three-level tree: two clusters of two pairs. */
static void setup3(void)
{
	static const uint32_t cl[2] = { 4, 4 };

	setup_tree(2, cl, 2);
	CHECK_EQ(t.levels, 3);
}

static void finish(void)
{
	uint32_t n;
	int c;

	pthread_mutex_lock(&m);
	for (c = 0; c < THREADS; c++) {
		if (c < CH && c >= (int)t.cores)
			continue;
		CHECK_EQ(ctl.done[c], ctl.permits[c]);
		ctl.permits[c] = -1;
	}
	broadcast_unlock();
	for (c = 0; c < THREADS; c++)
		if (c == CH || c < (int)t.cores)
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

/* The two-level tree, every core with the requests @leaf and @root. */
static void setup_req(int32_t leaf, int32_t root)
{
	int c;

	setup();
	for (c = 0; c < CORES; c++)
		set_req(c, leaf, root);
}

/* Every level of core @c gets request @r (three-level tree). */
static void set_req_all(int c, int32_t r)
{
	uint32_t k;

	pthread_mutex_lock(&m);
	for (k = 0; k < t.levels; k++)
		ctl.req[c][k] = r;
	pthread_mutex_unlock(&m);
}

/* Core @c's deadline at @level: @seconds from now. */
static void set_deadline_ns(int c, int level, uint64_t ns)
{
	pthread_mutex_lock(&m);
	ctl.deadline[c][level] =
		coupled_adapter_now(coupled_group_adapter(grp[c][level])) + ns;
	pthread_mutex_unlock(&m);
}

static void set_deadline(int c, int level, int seconds)
{
	set_deadline_ns(c, level, (uint64_t)seconds * 1000000000u);
}

static void set_work(int c, int on)
{
	pthread_mutex_lock(&m);
	ctl.work[c] = on;
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

/* Core @c's membership of each level's group, one bit per level. */
static uint32_t member_bits(int c)
{
	uint32_t k, bits = 0;

	for (k = 0; k < t.levels; k++)
		if (coupled_is_member(grp[c][k], gid[c][k]))
			bits |= 1u << k;
	return bits;
}

/* Before any call: take core @c out of every level (the core is offline). */
static void offline(int c)
{
	CHECK_EQ(coupled_domain_leave(t.leaf[c], t.id[c]), 0);
	CHECK_EQ(member_bits(c), 0);
}

/* The changer's (first) call joins (@join) or leaves core @c. */
static void start_changer(int join, int c)
{
	pthread_mutex_lock(&m);
	ctl.ch_join = join;
	ctl.ch_core = c;
	pthread_mutex_unlock(&m);
	permit(CH);
}

/* With the mutex held: how often thread @who passed @point, every level. */
static unsigned hits_all(int who, int point)
{
	unsigned n = 0;
	uint32_t k;

	for (k = 0; k < t.levels; k++)
		n += ctl.hits[who][k][point];
	return n;
}

/*
 * With the mutex held: the changer's call began its change (no call of the
 * tree in progress: DOMAIN_CHANGE) or returned.
 */
static bool changer_went_on_locked(void)
{
	return hits_all(CH, COUPLED_HOOK_DOMAIN_CHANGE) ||
	       ctl.done[CH] >= ctl.permits[CH];
}

/*
 * The changer was just started: wait until it waits for calls of the tree
 * (it passed DOMAIN_DRAIN, a turn of that wait) or went on.  Return: true
 * if it waits.
 */
static bool changer_drains(void)
{
	struct timespec limit;
	bool drains;

	deadline_of(&limit);
	pthread_mutex_lock(&m);
	while (!hits_all(CH, COUPLED_HOOK_DOMAIN_DRAIN) &&
	       !changer_went_on_locked())
		wait_cv(&limit, "the drain or the change", CH);
	drains = !changer_went_on_locked();
	pthread_mutex_unlock(&m);
	printf("   the changer %s\n",
	       drains ? "waits for the tree's calls" : "went on at once");
	return drains;
}

/* The changer's turns of its wait for the calls so far. */
static unsigned drain_turns(void)
{
	unsigned n;

	pthread_mutex_lock(&m);
	n = hits_all(CH, COUPLED_HOOK_DOMAIN_DRAIN);
	pthread_mutex_unlock(&m);
	return n;
}

/*
 * A call of the tree is still in progress, the others that the script let
 * go have ended (@base: drain_turns() once their end was seen): wait until
 * the changer's wait for the calls takes two more turns, or it went on.  A
 * changer that no longer waits takes one more turn at most (one whose load
 * of the count came before the last call's end), so two mean it waits.
 * Return: true if it went on.
 */
static bool changer_went_on(unsigned base)
{
	struct timespec limit;
	bool on;

	deadline_of(&limit);
	pthread_mutex_lock(&m);
	while (hits_all(CH, COUPLED_HOOK_DOMAIN_DRAIN) < base + 2 &&
	       !changer_went_on_locked())
		wait_cv(&limit, "a turn of the drain or the change", CH);
	on = changer_went_on_locked();
	pthread_mutex_unlock(&m);
	printf("   the changer %s\n",
	       on ? "went on" : "still waits for the tree's calls");
	return on;
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
 * Calls @ka of core @a and @kb of core @b commit their cluster's round
 * alone (check_leaf_alone()), and learn @out_a and @out_b at the root.
 */
static void leaf_commits_alone(int a, int ka, int b, int kb, int32_t param,
			       int out_a, int out_b)
{
	CHECK_EQ(result(a, ka), COUPLED_COMMITTED);
	CHECK_EQ(result(b, kb), COUPLED_COMMITTED);
	check_leaf_alone(a, ka, b, kb, param);
	CHECK_EQ(lvl(a, ka, ROOT)->outcome, out_a);
	CHECK_EQ(lvl(b, kb, ROOT)->outcome, out_b);
}

/* Cores @a and @b make their next calls, to stop at @pa, @pb of the root. */
static void pair_calls(int a, int pa, int b, int pb)
{
	set_brk(a, ROOT, pa, 1);
	set_brk(b, ROOT, pb, 1);
	permit(a);
	permit(b);
}

/* B's cores commit B and stop before they try the root (DOMAIN_TRY). */
static void b_before_root(void)
{
	pair_calls(B0, COUPLED_HOOK_DOMAIN_TRY, B1, COUPLED_HOOK_DOMAIN_TRY);
	expect(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
}

/* B's cores, let go, find the root given up: B commits alone (@param). */
static void b_gives_root_up(int32_t param)
{
	release(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	release(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	leaf_commits_alone(B0, 0, B1, 0, param, COUPLED_DOMAIN_CANNOT,
			   COUPLED_DOMAIN_CANNOT);
}

/*
 * A0 stops at @point of the root and A1 rests there (A's level-0 round
 * has the parameter 2); B's cores are held before the root.  A0 goes on and gives
 * the root up with @outcome: A1 must give it up too (CANNOT), A commits
 * level 0 alone, and B then finds the root given up as well.
 */
static void a0_gives_root_up(int point, int outcome)
{
	expect(A0, ROOT, point);
	expect_rest(A1, ROOT);
	release(A0, ROOT, point);
	leaf_commits_alone(A0, 0, A1, 0, 2, outcome, COUPLED_DOMAIN_CANNOT);
	b_gives_root_up(2);
	finish();
}

/*
 * Every core but @skip (-1: none) makes its next call, stops before it
 * tries the root, and once all of them are there, goes on.
 */
static void all_try_root(int skip)
{
	int c;

	for (c = 0; c < CORES; c++) {
		if (c == skip)
			continue;
		set_brk(c, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
		permit(c);
	}
	for (c = 0; c < CORES; c++)
		if (c != skip)
			expect(c, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	for (c = 0; c < CORES; c++)
		if (c != skip)
			release(c, ROOT, COUPLED_HOOK_DOMAIN_TRY);
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
	set_brk(B1, 0, COUPLED_HOOK_WAIT_SLEEP, 1);
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
	pair_calls(A0, COUPLED_HOOK_WAIT_SLEEP, A1, COUPLED_HOOK_DOMAIN_TRY);
	expect(A1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect_rest(A0, ROOT);
	set_brk(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP, 1);
	/* B0 finds its work: it aborts and gives the root up. */
	pthread_mutex_lock(&m);
	ctl.gate_open = 1;
	broadcast_unlock();
	CHECK_EQ(result(B0, 0), COUPLED_ABORT_WORK);
	CHECK_EQ(ctl.actions[B0], 0);
	/* A0 must give the root up before A1 comes. */
	expect(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP);
	release(A0, ROOT, COUPLED_HOOK_DOMAIN_GIVE_UP);
	release(A1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	leaf_commits_alone(A0, 0, A1, 0, 3, COUPLED_DOMAIN_CANNOT,
			   COUPLED_DOMAIN_CANNOT);
	/* A1 never rested at the root. */
	CHECK_EQ(ctl.hits[A1][ROOT][COUPLED_HOOK_WAIT_SLEEP], 0);
	/* B0 without work: B commits alone, A is not a candidate. */
	pthread_mutex_lock(&m);
	ctl.gate_work = 0;
	pthread_mutex_unlock(&m);
	permit(B0);
	leaf_commits_alone(B0, 1, B1, 0, 1, COUPLED_DOMAIN_CANNOT,
			   COUPLED_DOMAIN_CANNOT);
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
	all_try_root(-1);
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
	setup_req(2, 2);
	b_before_root();
	set_deadline_ns(A0, ROOT, 100000000u); /* 100 ms */
	pair_calls(A0, COUPLED_HOOK_DOMAIN_TRY, A1, COUPLED_HOOK_WAIT_SLEEP);
	a0_gives_root_up(COUPLED_HOOK_DOMAIN_TRY, COUPLED_ABORT_TIMEOUT);
}

/*
 * (d) A's round committed; A1 waits at the root (stopped at WAIT_SLEEP
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

	setup_req(4, 3);
	set_req(B1, 4, 1);
	b_before_root();
	pair_calls(A0, COUPLED_HOOK_DOMAIN_TRY, A1, COUPLED_HOOK_WAIT_SLEEP);
	expect(A0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	expect(A1, ROOT, COUPLED_HOOK_WAIT_SLEEP);
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
	set_brk(A0, 0, COUPLED_HOOK_WAIT_SLEEP, 1);
	permit(A0);
	expect(A0, 0, COUPLED_HOOK_WAIT_SLEEP);
	release(A0, 0, COUPLED_HOOK_WAIT_SLEEP);
	/* relaxed: A0 and A1 are both in their calls, nobody gave up. */
	CHECK_EQ(coupled_load(&t.node[0].candidates, COUPLED_RELAXED), 4);
#endif
	release(A1, ROOT, COUPLED_HOOK_WAIT_SLEEP);
	leaf_commits_alone(A0, 0, A1, 0, 4, COUPLED_ABORT_WORK,
			   COUPLED_DOMAIN_CANNOT);
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
	for (c = 0; c < CORES; c++) {
		int k = c < B0 ? 1 : 0;

		CHECK_EQ(result(c, k), COUPLED_COMMITTED);
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
	setup_req(2, 2);
	set_req(A0, 3, -1);
	b_before_root();
	set_deadline(A1, ROOT, 3 * LIMIT_S);
	pair_calls(A0, COUPLED_HOOK_DOMAIN_GIVE_UP, A1,
		   COUPLED_HOOK_WAIT_SLEEP);
	a0_gives_root_up(COUPLED_HOOK_DOMAIN_GIVE_UP, COUPLED_DOMAIN_REFUSED);
}

/*
 * The domain's promise over the calls @call[c] of the cores (-1: none, or
 * a call that did not commit its leaf): two cores of one committed round
 * learn the same outcome for every level above it, and a committed round of
 * N members is reported by exactly N of these calls (all or none) when
 * @complete says every core of such a round is among them.
 */
static void check_one_outcome(const int *call, bool complete)
{
	uint32_t a, b, k, j;

	for (a = 0; a < t.cores; a++) {
		const struct coupled_domain_round *ra;

		if (call[a] < 0 || ctl.ret[a][call[a]] != COUPLED_COMMITTED)
			continue;
		ra = &ctl.res[a][call[a]];
		for (k = 0; k < ra->depth; k++) {
			uint32_t seen = 0;
			struct coupled_domain *na[COUPLED_DOMAIN_MAX_LEVELS];
			uint32_t ia[COUPLED_DOMAIN_MAX_LEVELS];

			(void)tree_path(&t, a, na, ia);
			for (b = 0; b < t.cores; b++) {
				const struct coupled_domain_round *rb;
				struct coupled_domain
					*nb[COUPLED_DOMAIN_MAX_LEVELS];
				uint32_t ib[COUPLED_DOMAIN_MAX_LEVELS];

				if (call[b] < 0 ||
				    ctl.ret[b][call[b]] != COUPLED_COMMITTED)
					continue;
				rb = &ctl.res[b][call[b]];
				(void)tree_path(&t, b, nb, ib);
				if (na[k] != nb[k] || !rb->level[k].committed ||
				    rb->level[k].generation !=
					    ra->level[k].generation)
					continue;
				seen++;
				if (b > a)
					printf("   cores %u and %u: one "
					       "level-%u "
					       "round (depths %u, %u)\n",
					       a, b, k, ra->depth, rb->depth);
				for (j = k + 1; j < t.levels; j++) {
					CHECK_EQ(ra->level[j].committed,
						 rb->level[j].committed);
					if (ra->level[j].committed)
						CHECK_EQ(
							ra->level[j].generation,
							rb->level[j].generation);
				}
			}
			if (complete)
				CHECK_EQ(seen, ra->level[k].members);
		}
	}
}

/*
 * After the changer took A1 out of every level (@a1_member 0) or put it
 * in every level (1), the members among the cores make a second call,
 * all commit the root in one round of them, and learn one outcome.
 */
static void root_after_change(int a1_member)
{
	int second[CORES] = { 1, 1, 1, 1 };
	int skip = a1_member ? -1 : A1;
	int c, k;

	for (k = 0; k < (int)t.levels; k++)
		CHECK_EQ(coupled_is_member(grp[A1][k], gid[A1][k]), a1_member);
	if (!a1_member)
		second[A1] = -1;
	all_try_root(skip);
	for (c = 0; c < CORES; c++) {
		if (c == skip)
			continue;
		CHECK_EQ(result(c, 1), COUPLED_COMMITTED);
		CHECK_EQ(ctl.res[c][1].depth, 2);
		CHECK_EQ(lvl(c, 1, ROOT)->members, a1_member ? 4 : 3);
	}
	check_one_outcome(second, true);
	finish();
}

/*
 * (f) Leave inside a committed cluster round.  Every core's requests allow
 * the root, with a root deadline (so the only things that make a core give
 * the root up are the tree's gate and a round-mate's give-up); all four
 * commit their cluster round and stop before they try the root
 * (DOMAIN_TRY).  The changer then takes A1 out of every level: it closes
 * the tree's gate and waits for every call of the tree (its DOMAIN_DRAIN
 * is the root's), changing nothing yet.  A0, then B0, then B1 go on: A0
 * and B0 see the gate and give the root up (COUPLED_ABORT_MEMBERSHIP), B1
 * finds B's round given up by B0 (COUPLED_DOMAIN_CANNOT).  Their calls
 * end (A0's in the direct protocol; settled's waits for A1 to leave A's
 * round) while A1's is in progress: the changer must still wait.  A1 goes
 * on last and finds A's round given up by A0 (CANNOT).
 * A0 and A1 ran one cluster round: they must learn the same outcome for
 * the root.  A second call of A0, B0 and B1 then commits the root without
 * A1.
 */
static void scenario_leave_before_root_try(void)
{
	static const int first[CORES] = { 0, 0, 0, 0 };
	static const int root_out[CORES] = { COUPLED_ABORT_MEMBERSHIP,
					     COUPLED_DOMAIN_CANNOT,
					     COUPLED_ABORT_MEMBERSHIP,
					     COUPLED_DOMAIN_CANNOT };
	int c;

	setup();
	for (c = 0; c < CORES; c++) {
		set_req(c, 2, 2);
		set_deadline(c, ROOT, DEADLINE_FEW_S);
		set_brk(c, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
		permit(c);
	}
	for (c = 0; c < CORES; c++)
		expect(c, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	start_changer(0, A1);
	/* Every core is in its call: the changer waits, at the root. */
	CHECK(changer_drains());
	pthread_mutex_lock(&m);
	CHECK(ctl.hits[CH][ROOT][COUPLED_HOOK_DOMAIN_DRAIN] > 0);
	CHECK_EQ(hits_all(CH, TP_LEFT), 0);
	pthread_mutex_unlock(&m);
	CHECK_EQ(member_bits(A1), 3);
	release(A0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	wait_actions(A0, 1, LIMIT_S, "A0 after the root try");
	release(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	wait_actions(B0, 1, LIMIT_S, "B0 after the root try");
	release(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	CHECK_EQ(result(B0, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(B1, 0), COUPLED_COMMITTED);
#if !COUPLED_PROTOCOL_SETTLED
	CHECK_EQ(result(A0, 0), COUPLED_COMMITTED);
#endif
	/* A1's call is in progress: the change cannot have begun. */
	CHECK(!changer_went_on(drain_turns()));
	CHECK_EQ(member_bits(A1), 3);
	release(A1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	for (c = 0; c < CORES; c++)
		CHECK_EQ(result(c, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(CH, 0), 0);
	for (c = 0; c < CORES; c++)
		printf("   core %d: depth %u, root %s\n", c,
		       ctl.res[c][0].depth,
		       coupled_strerror(lvl(c, 0, ROOT)->outcome));
	/* One cluster round: the same outcome at the root. */
	CHECK_EQ(lvl(A0, 0, 0)->generation, lvl(A1, 0, 0)->generation);
	CHECK_EQ(ctl.res[A0][0].depth, ctl.res[A1][0].depth);
	check_one_outcome(first, true);
	/* Why each gave the root up: the gate, or a round-mate's give-up. */
	for (c = 0; c < CORES; c++) {
		CHECK_EQ(ctl.res[c][0].depth, 1);
		CHECK_EQ(lvl(c, 0, ROOT)->outcome, root_out[c]);
	}
	/* A1 is out of every level; the others commit the root without it. */
	root_after_change(0);
}

/*
 * (g) Join around a cluster round: the mirror window.  A1 starts out of
 * every level; B's cores commit B and stop before the root (every core's
 * requests allow the root; A's cores have a root deadline, B's wait there
 * only while every core under it is a candidate).  The changer joins A1:
 * B's calls are in progress, so it waits at the tree's gate (its
 * DOMAIN_DRAIN is the root's) and joins nothing.  B0 goes on and gives the
 * root up for the gate (COUPLED_ABORT_MEMBERSHIP), B1 because B0 did
 * (COUPLED_DOMAIN_CANNOT).  The changer then joins A's group and stops
 * there (JOINED at level 0): A1 is a member of A and not of the root.  A0
 * and A1 call in that window: the tree's gate turns both calls away
 * (COUPLED_ABORT_MEMBERSHIP) before any round, so no round sees the
 * half-made change and A's cores have one outcome (none).  Once the
 * changer returned, all four commit the root, A1 a member of every level.
 */
static void scenario_join_during_leaf_round(void)
{
	static const int first[CORES] = { 0, 0, 0, 0 };
	int c;

	setup();
	offline(A1);
	for (c = 0; c < CORES; c++) {
		set_req(c, 2, 2);
		set_brk(c, ROOT, COUPLED_HOOK_DOMAIN_TRY, 1);
	}
	set_deadline(A0, ROOT, DEADLINE_FEW_S);
	set_deadline(A1, ROOT, DEADLINE_FEW_S);
	b_before_root();
	set_brk(CH, 0, TP_JOINED, 1);
	start_changer(1, A1);
	/* B's calls are in progress: the changer waits, at the root. */
	CHECK(changer_drains());
	pthread_mutex_lock(&m);
	CHECK(ctl.hits[CH][ROOT][COUPLED_HOOK_DOMAIN_DRAIN] > 0);
	CHECK_EQ(hits_all(CH, TP_JOINED), 0);
	pthread_mutex_unlock(&m);
	CHECK_EQ(member_bits(A1), 0);
	release(B0, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	wait_actions(B0, 1, LIMIT_S, "B0 after the root try");
	release(B1, ROOT, COUPLED_HOOK_DOMAIN_TRY);
	CHECK_EQ(result(B0, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(B1, 0), COUPLED_COMMITTED);
	/* No call in progress: the change runs, held between two levels. */
	expect(CH, 0, TP_JOINED);
	CHECK_EQ(member_bits(A1), 1);
	permit(A0);
	permit(A1);
	CHECK_EQ(result(A0, 0), COUPLED_ABORT_MEMBERSHIP);
	CHECK_EQ(result(A1, 0), COUPLED_ABORT_MEMBERSHIP);
	pthread_mutex_lock(&m);
	CHECK_EQ(ctl.actions[A0] + ctl.actions[A1], 0);
	/* Turned away at the gate: neither arrived in A's round. */
	CHECK_EQ(ctl.hits[A0][0][COUPLED_HOOK_ARRIVE], 0);
	CHECK_EQ(ctl.hits[A1][0][COUPLED_HOOK_ARRIVE], 0);
	pthread_mutex_unlock(&m);
	release(CH, 0, TP_JOINED);
	CHECK_EQ(result(CH, 0), 0);
	for (c = B0; c < CORES; c++)
		printf("   core %d: depth %u, root %s\n", c,
		       ctl.res[c][0].depth,
		       coupled_strerror(lvl(c, 0, ROOT)->outcome));
	/* A's cores: one cluster round (the same outcome above) or none. */
	CHECK_EQ(ctl.ret[A0][0] == COUPLED_COMMITTED,
		 ctl.ret[A1][0] == COUPLED_COMMITTED);
	check_one_outcome(first, true);
	CHECK_EQ(ctl.res[B0][0].depth, 1);
	CHECK_EQ(ctl.res[B1][0].depth, 1);
	CHECK_EQ(lvl(B0, 0, ROOT)->outcome, COUPLED_ABORT_MEMBERSHIP);
	CHECK_EQ(lvl(B1, 0, ROOT)->outcome, COUPLED_DOMAIN_CANNOT);
	/* A1 is a member of every level: all four commit the root. */
	root_after_change(1);
}

/*
 * Three levels: every core's requests allow every level, and every core
 * commits its pair and stops before its cluster (DOMAIN_TRY at level 1).
 * From here on every core is a candidate of every level until the script
 * lets it give one up.
 */
static void all_in_calls(void)
{
	int c;

	for (c = 0; c < (int)t.cores; c++) {
		set_req_all(c, 1);
		set_brk(c, 1, COUPLED_HOOK_DOMAIN_TRY, 1);
		permit(c);
	}
	for (c = 0; c < (int)t.cores; c++)
		expect(c, 1, COUPLED_HOOK_DOMAIN_TRY);
}

/*
 * (h) Three levels.  Core 0 rests at the root (its deadline there is
 * DEADLINE_FAR_S away); the other seven cores committed their pair and
 * cluster rounds (all_in_calls(), then on) and stop before the root, so every core is a candidate.
 * Work turns up for core 0 through its leaf's work check, which wakes
 * nobody, and coupled_domain_wake() is called for it: core 0 must leave
 * the root at once (well within PROMPT_S) with COUPLED_ABORT_WORK there.
 * A wake that misses the core's root slot leaves it asleep until its
 * deadline, and the wait for its action fails.
 */
static void scenario_wake_above_leaf(void)
{
	const int top = 2;
	int c;

	setup3();
	all_in_calls();
	set_deadline(0, top, DEADLINE_FAR_S);
	set_brk(0, top, COUPLED_HOOK_WAIT_SLEEP, 1);
	for (c = 1; c < (int)t.cores; c++)
		set_brk(c, top, COUPLED_HOOK_DOMAIN_TRY, 1);
	for (c = 0; c < (int)t.cores; c++)
		release(c, 1, COUPLED_HOOK_DOMAIN_TRY);
	for (c = 1; c < (int)t.cores; c++)
		expect(c, top, COUPLED_HOOK_DOMAIN_TRY);
	expect_rest(0, top);
	set_work(0, 1);
	CHECK_EQ(coupled_domain_wake(t.leaf[0], t.id[0]), 0);
	wait_actions(0, 1, PROMPT_S, "core 0 woken at the root");
	set_work(0, 0);
	for (c = 1; c < (int)t.cores; c++)
		release(c, top, COUPLED_HOOK_DOMAIN_TRY);
	for (c = 0; c < (int)t.cores; c++) {
		CHECK_EQ(result(c, 0), COUPLED_COMMITTED);
		CHECK_EQ(ctl.res[c][0].depth, 2);
		CHECK_EQ(lvl(c, 0, 1)->members, 4);
		CHECK(!lvl(c, 0, top)->committed);
		CHECK_EQ(lvl(c, 0, top)->outcome,
			 c ? COUPLED_DOMAIN_CANNOT : COUPLED_ABORT_WORK);
	}
	finish();
}

/*
 * (i) Three levels.  Cores 0 and 2 (cluster 0, one of each pair) rest at
 * the root, which has no deadline: they wait only while every core is a
 * candidate.  Cores 1 and 3 stop before the root; cluster 1's cores
 * committed their pairs and stop before their cluster.  Core 4 then finds
 * work and gives its cluster up (COUPLED_ABORT_WORK), and with it the root
 * two levels above its leaf: that give-up must kick the root's waiters,
 * which see a core under the root no longer a candidate and leave at once
 * (COUPLED_DOMAIN_CANNOT).  Kicking only the level given up first leaves
 * them asleep, and the wait for their actions fails.
 */
static void scenario_give_up_kicks_two_up(void)
{
	const int top = 2;
	int c;

	setup3();
	all_in_calls();
	set_brk(0, top, COUPLED_HOOK_WAIT_SLEEP, 1);
	set_brk(2, top, COUPLED_HOOK_WAIT_SLEEP, 1);
	set_brk(1, top, COUPLED_HOOK_DOMAIN_TRY, 1);
	set_brk(3, top, COUPLED_HOOK_DOMAIN_TRY, 1);
	for (c = 0; c < 4; c++)
		release(c, 1, COUPLED_HOOK_DOMAIN_TRY);
	expect(1, top, COUPLED_HOOK_DOMAIN_TRY);
	expect(3, top, COUPLED_HOOK_DOMAIN_TRY);
	expect_rest(0, top);
	expect_rest(2, top);
	set_work(4, 1);
	release(4, 1, COUPLED_HOOK_DOMAIN_TRY);
	wait_actions(4, 1, LIMIT_S, "core 4 after giving its cluster up");
	wait_actions(0, 1, PROMPT_S, "core 0 kicked at the root");
	wait_actions(2, 1, PROMPT_S, "core 2 kicked at the root");
	set_work(4, 0);
	release(1, top, COUPLED_HOOK_DOMAIN_TRY);
	release(3, top, COUPLED_HOOK_DOMAIN_TRY);
	for (c = 5; c < 8; c++)
		release(c, 1, COUPLED_HOOK_DOMAIN_TRY);
	for (c = 0; c < (int)t.cores; c++)
		CHECK_EQ(result(c, 0), COUPLED_COMMITTED);
	for (c = 0; c < 4; c++) {
		CHECK_EQ(ctl.res[c][0].depth, 2);
		CHECK_EQ(lvl(c, 0, top)->outcome, COUPLED_DOMAIN_CANNOT);
	}
	for (c = 4; c < 8; c++) {
		CHECK_EQ(ctl.res[c][0].depth, 1);
		CHECK_EQ(lvl(c, 0, 1)->outcome,
			 c == 4 ? COUPLED_ABORT_WORK : COUPLED_DOMAIN_CANNOT);
		CHECK_EQ(lvl(c, 0, top)->outcome, COUPLED_DOMAIN_NOT_TRIED);
	}
	finish();
}

/*
 * (j) The PSCI tree, a hot-unplug between a cluster round and the system's
 * (issue: "split outcome on hot-unplug").  Cluster B is offline.  Cores 0
 * and 1 commit their leaves and cluster A's round; core 0 stops before it
 * tries the system (DOMAIN_TRY), core 1 right before its arrival there
 * (ARRIVE: in the direct protocol after its poll of the abort sources, and
 * the arrival that completes the count commits at once).  The changer
 * then takes core 0 out of every level.  Core 0 goes on: it sees the
 * tree's gate and gives the system up (COUPLED_ABORT_MEMBERSHIP).  Core
 * 1's call is still in progress, so the changer must still wait (a gate
 * that waits only for core 0's calls goes on here; the script lets its
 * leave end, and core 1's arrival then commits the system alone: core 0
 * depth 2, core 1 depth 3).  Core 1 goes on last and finds cluster A's round given
 * up by core 0 (COUPLED_DOMAIN_CANNOT).  Cores 0 and 1 ran one cluster
 * round: they must learn the same outcome for the system.  Core 1 then
 * commits every level alone.
 */
static void scenario_unplug_in_cluster_round(void)
{
	static const int first[CORES] = { 0, 0, -1, -1 };
	bool went_on;
	int c;

	setup_psci();
	offline(2);
	offline(3);
	for (c = 0; c < 2; c++) {
		set_req_all(c, 1);
		set_brk(c, CLU, COUPLED_HOOK_DOMAIN_TRY, 1);
		permit(c);
	}
	/* Both in their calls, so both are candidates of cluster A. */
	expect(0, CLU, COUPLED_HOOK_DOMAIN_TRY);
	expect(1, CLU, COUPLED_HOOK_DOMAIN_TRY);
	set_brk(0, SYS, COUPLED_HOOK_DOMAIN_TRY, 1);
	set_brk(1, SYS, COUPLED_HOOK_ARRIVE, 1);
	release(0, CLU, COUPLED_HOOK_DOMAIN_TRY);
	release(1, CLU, COUPLED_HOOK_DOMAIN_TRY);
	expect(0, SYS, COUPLED_HOOK_DOMAIN_TRY);
	expect(1, SYS, COUPLED_HOOK_ARRIVE);
	start_changer(0, 0);
	CHECK(changer_drains());
	release(0, SYS, COUPLED_HOOK_DOMAIN_TRY);
	wait_actions(0, 1, LIMIT_S, "core 0 after the system try");
#if !COUPLED_PROTOCOL_SETTLED
	/* Direct: core 0's call returns while core 1 is in A's round. */
	CHECK_EQ(result(0, 0), COUPLED_COMMITTED);
#endif
	went_on = changer_went_on(drain_turns());
	if (went_on) {
		/*
		 * A gate that did not wait for core 1's call: let its leave
		 * end before core 1 arrives, as a preemption of core 1 would.
		 */
		(void)result(CH, 0);
	}
	release(1, SYS, COUPLED_HOOK_ARRIVE);
	CHECK_EQ(result(0, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(1, 0), COUPLED_COMMITTED);
	for (c = 0; c < 2; c++)
		printf("   core %d: depth %u, system %s\n", c,
		       ctl.res[c][0].depth,
		       coupled_strerror(lvl(c, 0, SYS)->outcome));
	/* One cluster round: the same outcome for the system. */
	CHECK(lvl(0, 0, CLU)->committed);
	CHECK_EQ(lvl(0, 0, CLU)->members, 2);
	CHECK_EQ(lvl(0, 0, CLU)->generation, lvl(1, 0, CLU)->generation);
	CHECK_EQ(ctl.res[0][0].depth, ctl.res[1][0].depth);
	check_one_outcome(first, true);
	/* Core 0 saw the gate; core 1 saw core 0's give-up. */
	CHECK_EQ(ctl.res[0][0].depth, 2);
	CHECK_EQ(lvl(0, 0, SYS)->outcome, COUPLED_ABORT_MEMBERSHIP);
	CHECK_EQ(lvl(1, 0, SYS)->outcome, COUPLED_DOMAIN_CANNOT);
	if (went_on) {
		fprintf(stderr, "the changer went on while core 1's call was "
				"in progress\n");
		exit(1);
	}
	CHECK_EQ(result(CH, 0), 0);
	CHECK_EQ(member_bits(0), 0);
	CHECK_EQ(member_bits(1), 7);
	/* Core 1 is the only member left: it commits every level alone. */
	permit(1);
	CHECK_EQ(result(1, 1), COUPLED_COMMITTED);
	CHECK_EQ(ctl.res[1][1].depth, 3);
	CHECK_EQ(lvl(1, 1, CLU)->members, 1);
	CHECK_EQ(lvl(1, 1, SYS)->members, 1);
	finish();
}

/*
 * (k) The PSCI tree, a hotplug between a cluster round and the system's
 * (issue: "two calls without deadlines wait for each other forever").
 * Only core 0 is online.  It commits its leaf and cluster A alone and
 * stops before it tries the system.  The changer joins core 1 (a gate
 * that does not wait for core 0's call lets it end at once, and the script
 * waits for that); core 1 calls (if it gets into cluster A's next round, it waits there for core
 * 0, a candidate while its call runs); core 0 goes on to the system, where
 * no level has a deadline.  A join made while core 0's call is in progress
 * makes core 0 wait there for core 1 and core 1 for core 0, for ever.
 * Every call must return (a hang fails the scenario after LIMIT_S), and
 * the join completes: core 0 gives the system up for the gate
 * (COUPLED_ABORT_MEMBERSHIP), core 1's call is turned away by it, and then
 * both commit every level together.
 */
static void scenario_hotplug_before_system_try(void)
{
	static const int second[CORES] = { 1, 1, -1, -1 };
	int c;

	setup_psci();
	for (c = 1; c < CORES; c++)
		offline(c);
	set_req_all(0, 1);
	set_req_all(1, 1);
	set_brk(0, SYS, COUPLED_HOOK_DOMAIN_TRY, 1);
	permit(0);
	expect(0, SYS, COUPLED_HOOK_DOMAIN_TRY);
	start_changer(1, 1);
	if (!changer_drains()) {
		struct timespec limit;

		/*
		 * The changer went on while core 0's call is in progress (a
		 * gate that does not wait for it): core 1 calls once the join
		 * returned, which must be at once (nobody calls under core
		 * 1's leaf).
		 */
		deadline_in(&limit, PROMPT_S);
		pthread_mutex_lock(&m);
		while (ctl.done[CH] < 1) {
			if (pthread_cond_timedwait(&cv, &m, &limit) ==
			    ETIMEDOUT) {
				fprintf(stderr,
					"the join went on while core "
					"0's call is in progress, and "
					"did not end within %d s\n",
					PROMPT_S);
				exit(1);
			}
		}
		pthread_mutex_unlock(&m);
	}
	set_brk(1, CLU, COUPLED_HOOK_WAIT_SLEEP, 1);
	permit(1);
	if (stop_or_return(1, CLU, COUPLED_HOOK_WAIT_SLEEP))
		release(1, CLU, COUPLED_HOOK_WAIT_SLEEP);
	else
		set_brk(1, CLU, COUPLED_HOOK_WAIT_SLEEP, 0);
	release(0, SYS, COUPLED_HOOK_DOMAIN_TRY);
	printf("   every call must return within %d s\n", LIMIT_S);
	CHECK_EQ(result(0, 0), COUPLED_COMMITTED);
	CHECK_EQ(result(1, 0), COUPLED_ABORT_MEMBERSHIP);
	CHECK_EQ(result(CH, 0), 0);
	CHECK_EQ(ctl.res[0][0].depth, 2);
	CHECK_EQ(lvl(0, 0, CLU)->members, 1);
	CHECK_EQ(lvl(0, 0, SYS)->outcome, COUPLED_ABORT_MEMBERSHIP);
	pthread_mutex_lock(&m);
	CHECK_EQ(ctl.actions[1], 0);
	pthread_mutex_unlock(&m);
	CHECK_EQ(member_bits(1), 7);
	/* Deadlines above the leaf: each waits there for the other. */
	for (c = 0; c < 2; c++) {
		set_deadline(c, CLU, DEADLINE_FAR_S);
		set_deadline(c, SYS, DEADLINE_FAR_S);
		permit(c);
	}
	for (c = 0; c < 2; c++) {
		CHECK_EQ(result(c, 1), COUPLED_COMMITTED);
		CHECK_EQ(ctl.res[c][1].depth, 3);
		CHECK_EQ(lvl(c, 1, CLU)->members, 2);
		CHECK_EQ(lvl(c, 1, SYS)->members, 2);
	}
	check_one_outcome(second, true);
	finish();
}

/*
 * (l) The PSCI tree, two changes made crosswise from inside actions
 * (issue: "crosswise changes deadlock").  Every core's requests allow its
 * leaf and cluster and refuse the system; all four commit their leaves and
 * clusters, and their actions (inside both rounds) meet.  Then core 0
 * leaves core 3 (cluster B) and core 2 leaves core 1 (cluster A), each
 * from inside its call, while the calls of cores 1 and 3 are in progress
 * too.  Neither change is on the changer's own path but for the root, and
 * each would wait for the other's call: both must be refused at once with
 * COUPLED_EPERM (a change from inside a domain call of the tree), nothing
 * hangs (a hang fails after LIMIT_S), no membership changed and the gate
 * is open again.
 */
static void scenario_crosswise_changes_in_actions(void)
{
	static const int first[CORES] = { 0, 0, 0, 0 };
	uint32_t n;
	int c;

	setup_psci();
	for (c = 0; c < CORES; c++) {
		set_req_all(c, 1);
		pthread_mutex_lock(&m);
		ctl.req[c][SYS] = -1;
		pthread_mutex_unlock(&m);
		set_brk(c, CLU, COUPLED_HOOK_DOMAIN_TRY, 1);
		permit(c);
	}
	for (c = 0; c < CORES; c++)
		expect(c, CLU, COUPLED_HOOK_DOMAIN_TRY);
	pthread_mutex_lock(&m);
	ctl.meet_n = CORES;
	ctl.act_leave[0] = 1 + 3;
	ctl.act_leave[2] = 1 + 1;
	pthread_mutex_unlock(&m);
	for (c = 0; c < CORES; c++)
		release(c, CLU, COUPLED_HOOK_DOMAIN_TRY);
	lock_when_above(&ctl.act_done[0], 0, "the leave from its action", 0);
	pthread_mutex_unlock(&m);
	lock_when_above(&ctl.act_done[2], 0, "the leave from its action", 2);
	pthread_mutex_unlock(&m);
	printf("   core 0 left core 3: %d; core 2 left core 1: %d\n",
	       ctl.act_ret[0], ctl.act_ret[2]);
	for (c = 0; c < CORES; c++) {
		CHECK_EQ(result(c, 0), COUPLED_COMMITTED);
		CHECK_EQ(ctl.res[c][0].depth, 2);
		CHECK_EQ(lvl(c, 0, CLU)->members, 2);
		CHECK_EQ(lvl(c, 0, SYS)->outcome, COUPLED_DOMAIN_REFUSED);
	}
	CHECK_EQ(ctl.act_ret[0], COUPLED_EPERM);
	CHECK_EQ(ctl.act_ret[2], COUPLED_EPERM);
	for (c = 0; c < CORES; c++)
		CHECK_EQ(member_bits(c), 7);
	check_one_outcome(first, true);
	for (n = 0; n < t.nodes; n++) {
		/* relaxed: every call returned (result() above). */
		CHECK_EQ(coupled_load(&t.node[n].changing, COUPLED_RELAXED), 0);
		CHECK_EQ(coupled_load(&t.node[n].calls, COUPLED_RELAXED), 0);
	}
	finish();
}

static const struct {
	const char *name;
	void (*fn)(void);
} scenarios[] = {
#define DOMAIN_SCENARIO(name) { #name, scenario_##name },
#include "domain_scenarios.def"
#undef DOMAIN_SCENARIO
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

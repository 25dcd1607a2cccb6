/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_domain_unit.c - unit tests of coupled/domain.h: set-up errors, the
 * id blocks of the tree, argument errors of a call (nothing touched), a
 * tree of one core per node where every level commits at once, refusals,
 * join and leave over all levels with their rollback, changes refused from
 * inside a call (the core's own path, and another subtree's), and
 * coupled_group_kick().
 *
 * Built with the pthread adapter for both protocol variants, and with the
 * spin adapter (no clock: a deadline is refused with COUPLED_EOPNOTSUPP).
 */
#include "coupled/domain.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#ifdef COUPLED_ADAPTER_PTHREAD
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#endif

#include "check.h"
#include "tree.h"
#include "variant.h"

static struct domain_tree t;

/* ---- set-up ----------------------------------------------------------- */

static void test_init_errors(void)
{
	static struct coupled_group g[COUPLED_DOMAIN_MAX_LEVELS + 2];
	static struct coupled_slot s[COUPLED_DOMAIN_MAX_LEVELS + 2][4];
	static struct coupled_domain d[COUPLED_DOMAIN_MAX_LEVELS + 2];
	struct coupled_domain before, probe;
	uint32_t k;

	TEST_CASE("init: null, a block that does not fit, too deep");
	for (k = 0; k < COUPLED_DOMAIN_MAX_LEVELS + 2; k++)
		CHECK_EQ(coupled_group_init(&g[k], s[k], 4, 4, NULL), 0);
	CHECK_EQ(coupled_domain_init(NULL, &g[0], NULL), COUPLED_EINVAL);
	CHECK_EQ(coupled_domain_init(&d[0], NULL, NULL), COUPLED_EINVAL);
	CHECK_EQ(coupled_domain_init(&d[0], &g[0], NULL), 0);
	CHECK_EQ(d[0].path_levels, 1);
	CHECK(d[0].parent == NULL);

	/* A block of 4 fills the root of 4; the next one does not fit. */
	{
		static struct coupled_group small;
		static struct coupled_slot ss[3];

		CHECK_EQ(coupled_group_init(&small, ss, 3, 3, NULL), 0);
		CHECK_EQ(coupled_domain_init(&d[1], &small, &d[0]), 0);
		CHECK_EQ(d[1].base, 0);
		CHECK_EQ(d[0].assigned, 3);
		/* 3 + 4 > 4: ERANGE, nothing written (node nor parent). */
		memset(&probe, 0x5a, sizeof(probe));
		before = probe;
		CHECK_EQ(coupled_domain_init(&probe, &g[1], &d[0]),
			 COUPLED_ERANGE);
		CHECK(memcmp(&probe, &before, sizeof(probe)) == 0);
		CHECK_EQ(d[0].assigned, 3);
		/* A child wider than its parent. */
		{
			static struct coupled_group wide;
			static struct coupled_slot ws[5];

			CHECK_EQ(coupled_group_init(&wide, ws, 5, 5, NULL), 0);
			CHECK_EQ(coupled_domain_init(&probe, &wide, &d[1]),
				 COUPLED_ERANGE);
			CHECK_EQ(d[1].assigned, 0);
		}
	}

	/* A chain of groups of 4, each child filling its parent. */
	CHECK_EQ(coupled_domain_init(&d[0], &g[0], NULL), 0);
	for (k = 1; k < COUPLED_DOMAIN_MAX_LEVELS; k++) {
		CHECK_EQ(coupled_domain_init(&d[k], &g[k], &d[k - 1]), 0);
		CHECK_EQ(d[k].path_levels, k + 1);
		CHECK_EQ(d[k].base, 0);
	}
	memset(&probe, 0x5a, sizeof(probe));
	before = probe;
	CHECK_EQ(coupled_domain_init(&probe, &g[k], &d[k - 1]), COUPLED_ERANGE);
	CHECK(memcmp(&probe, &before, sizeof(probe)) == 0);
	CHECK_EQ(d[k - 1].assigned, 0);
}

static void test_id_blocks(void)
{
	static const uint32_t cl[2] = { 3, 4 };
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], core, k, n;

	TEST_CASE("id blocks: a child's core k is id base + k in the parent");
	tree_build(&t, 2, cl, 2, 0);
	/* root, cluster 0 (leaves 2 + 1), cluster 1 (leaves 2 + 2). */
	CHECK_EQ(t.nodes, 7);
	CHECK_EQ(t.node[1].base, 0);
	CHECK_EQ(t.node[2].base, 0);
	CHECK_EQ(t.node[3].base, 2);
	CHECK_EQ(t.node[4].base, 3);
	CHECK_EQ(t.node[5].base, 0);
	CHECK_EQ(t.node[6].base, 2);
	CHECK_EQ(t.node[0].assigned, 7);
	CHECK_EQ(t.node[1].assigned, 3);
	CHECK_EQ(t.node[4].assigned, 4);
	for (core = 0; core < t.cores; core++) {
		n = tree_path(&t, core, node, id);
		CHECK_EQ(n, 3);
		CHECK_EQ(id[2], core);
		CHECK(node[2] == &t.node[0]);
		CHECK_EQ(id[1], core - (t.cluster[core] ? 3 : 0));
		/*
		 * Functional: leaving takes exactly these ids out of every
		 * level, joining puts them back.
		 */
		CHECK_EQ(coupled_domain_leave(t.leaf[core], t.id[core]), 0);
		for (k = 0; k < n; k++) {
			uint32_t j;

			CHECK_EQ(coupled_group_members(node[k]->group),
				 node[k]->group->capacity - 1);
			for (j = 0; j < node[k]->group->capacity; j++)
				CHECK_EQ(coupled_is_member(node[k]->group, j),
					 j != id[k]);
		}
		CHECK_EQ(coupled_domain_join(t.leaf[core], t.id[core]), 0);
		for (k = 0; k < n; k++)
			CHECK_EQ(coupled_group_members(node[k]->group),
				 node[k]->group->capacity);
	}
}

/* ---- calls ------------------------------------------------------------- */

static struct coupled_domain_round seen;
static unsigned actions;

static void record(const struct coupled_domain_round *r, void *ctx)
{
	uint32_t k;

	(void)ctx;
	seen = *r;
	actions++;
	/* Inside the round of every committed level: a one-core barrier. */
	for (k = 0; k < r->depth; k++)
		CHECK_EQ(coupled_barrier(r->level[k].round), 0);
}

static void action_none(const struct coupled_domain_round *r, void *ctx)
{
	(void)r;
	(void)ctx;
	CHECK(0);
}

/* Nothing of the tree moved: every group at rest, no counter set. */
static void check_untouched(void)
{
	uint32_t n;

	for (n = 0; n < t.nodes; n++) {
		struct coupled_stats st;

		CHECK(test_group_at_rest(&t.group[n]));
		/* relaxed: single-threaded here. */
		CHECK_EQ(coupled_load(&t.node[n].candidates, COUPLED_RELAXED),
			 0);
		CHECK_EQ(coupled_load(&t.node[n].waiting, COUPLED_RELAXED), 0);
		CHECK_EQ(coupled_load(&t.node[n].calls, COUPLED_RELAXED), 0);
		CHECK_EQ(coupled_load(&t.node[n].changing, COUPLED_RELAXED), 0);
		if (coupled_stats_read(&t.group[n], &st) == 0)
			CHECK_EQ(st.attempts, 0);
	}
}

static void test_enter_errors(void)
{
	static const uint32_t cl[1] = { 1 };
	int32_t req[3] = { 1, 1, 1 };
	struct coupled_abort_opts opts[3];

	TEST_CASE("enter: EINVAL, ERANGE, EOPNOTSUPP, nothing touched");
	tree_build(&t, 1, cl, 1, 0);
	CHECK_EQ(coupled_domain_enter(NULL, 0, req, action_none, NULL),
		 COUPLED_EINVAL);
	CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, NULL, action_none, NULL),
		 COUPLED_EINVAL);
	CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req, NULL, NULL),
		 COUPLED_EINVAL);
	req[0] = -1;
	CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req, action_none, NULL),
		 COUPLED_EINVAL);
	req[0] = 1;
	CHECK_EQ(coupled_domain_enter(t.leaf[0], 1, req, action_none, NULL),
		 COUPLED_ERANGE);
	memset(opts, 0, sizeof(opts));
	opts[2].deadline = 1;
#if COUPLED_ADAPTER_HAS_CLOCK
	printf("   (EOPNOTSUPP: the adapter has a clock; the spin build "
	       "checks it)\n");
#else
	CHECK_EQ(coupled_domain_enter_opts(t.leaf[0], 0, req, action_none, NULL,
					   opts),
		 COUPLED_EOPNOTSUPP);
#endif
	check_untouched();
	CHECK_EQ(actions, 0);
}

/*
 * A call that finds its leaf's gate closed (a membership change of a core
 * under the leaf runs) gives up at once and touches nothing.  The gate is
 * closed by hand here; the scenarios close it with a real change.
 */
#ifdef COUPLED_ADAPTER_PTHREAD
static unsigned work_polls;

/* The leaf's work check: counts how often a round of the leaf polled it. */
static bool count_work_polls(void *arg, uint32_t self)
{
	(void)arg;
	(void)self;
	work_polls++;
	return false;
}
#endif

static void test_gate_closed(void)
{
	static const uint32_t cl[1] = { 1 };
	int32_t req[3] = { 1, 1, 1 };

	TEST_CASE("enter: a closed tree gate gives ABORT_MEMBERSHIP, "
		  "untouched");
	tree_build(&t, 1, cl, 1, 0);
	actions = 0;
#ifdef COUPLED_ADAPTER_PTHREAD
	/* A call that reaches the leaf's round polls its work at least once. */
	work_polls = 0;
	coupled_pthread_set_work_check(coupled_group_adapter(t.leaf[0]->group),
				       count_work_polls, NULL);
#endif
	/*
	 * relaxed: single-threaded; stands for a changer's gate, which is
	 * the root's (node 0), whichever core changes.
	 */
	coupled_store(&t.node[0].changing, 1u, COUPLED_RELAXED);
	CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req, action_none, NULL),
		 COUPLED_ABORT_MEMBERSHIP);
	CHECK_EQ(coupled_load(&t.node[0].calls, COUPLED_RELAXED), 0);
	coupled_store(&t.node[0].changing, 0u, COUPLED_RELAXED);
#ifdef COUPLED_ADAPTER_PTHREAD
	CHECK_EQ(work_polls, 0);
#endif
	check_untouched();
	CHECK_EQ(actions, 0);
	/* Open again: the same call commits every level. */
	CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req, record, NULL),
		 COUPLED_COMMITTED);
	CHECK_EQ(seen.depth, 3);
	CHECK_EQ(coupled_load(&t.node[0].calls, COUPLED_RELAXED), 0);
#ifdef COUPLED_ADAPTER_PTHREAD
	CHECK(work_polls > 0);
	coupled_pthread_set_work_check(coupled_group_adapter(t.leaf[0]->group),
				       NULL, NULL);
#endif
}

static void test_alone(void)
{
	static const uint32_t cl[1] = { 1 };
	int32_t req[3] = { 4, 2, 7 };
	uint32_t k, call;

	TEST_CASE("one core per node: every level commits at once");
	tree_build(&t, 1, cl, 1, 0);
	CHECK_EQ(t.levels, 3);
	for (call = 1; call <= 3; call++) {
		req[0] = (int32_t)(4 + call);
		actions = 0;
		CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req, record, NULL),
			 COUPLED_COMMITTED);
		CHECK_EQ(actions, 1);
		CHECK_EQ(seen.core, 0);
		CHECK_EQ(seen.levels, 3);
		CHECK_EQ(seen.depth, 3);
		for (k = 0; k < 3; k++) {
			CHECK(seen.level[k].committed);
			CHECK_EQ(seen.level[k].outcome, COUPLED_COMMITTED);
			CHECK_EQ(seen.level[k].param, req[k]);
			CHECK_EQ(seen.level[k].generation, call);
			CHECK_EQ(seen.level[k].members, 1);
		}
	}
	for (k = 0; k < t.nodes; k++) {
		CHECK(test_group_at_rest(&t.group[k]));
		/* relaxed: single-threaded. */
		CHECK_EQ(coupled_load(&t.node[k].candidates, COUPLED_RELAXED),
			 0);
	}
}

static void test_refusal(void)
{
	static const uint32_t cl[1] = { 1 };
	int32_t req[3];
	uint32_t k;

	TEST_CASE("refusal: REFUSED at that level, NOT_TRIED above");
	tree_build(&t, 1, cl, 1, 0);
	req[0] = 3;
	req[1] = -1;
	req[2] = 5;
	CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req, record, NULL),
		 COUPLED_COMMITTED);
	CHECK_EQ(seen.depth, 1);
	CHECK(seen.level[0].committed);
	CHECK_EQ(seen.level[0].param, 3);
	CHECK(!seen.level[1].committed);
	CHECK_EQ(seen.level[1].outcome, COUPLED_DOMAIN_REFUSED);
	CHECK(seen.level[1].round == NULL);
	CHECK(!seen.level[2].committed);
	CHECK_EQ(seen.level[2].outcome, COUPLED_DOMAIN_NOT_TRIED);

	req[1] = 6;
	req[2] = -3;
	CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req, record, NULL),
		 COUPLED_COMMITTED);
	CHECK_EQ(seen.depth, 2);
	CHECK(seen.level[1].committed);
	CHECK_EQ(seen.level[1].param, 6);
	/* The cluster's first round: the refused call made none. */
	CHECK_EQ(seen.level[1].generation, 1);
	CHECK_EQ(seen.level[0].generation, 2);
	CHECK_EQ(seen.level[2].outcome, COUPLED_DOMAIN_REFUSED);
	CHECK(!seen.level[2].committed);
	/* The root never had a round: a third call commits its first. */
	req[2] = 1;
	CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req, record, NULL),
		 COUPLED_COMMITTED);
	CHECK_EQ(seen.depth, 3);
	for (k = 0; k < 3; k++)
		CHECK_EQ(seen.level[k].generation, 3 - k);
}

/* ---- membership --------------------------------------------------------- */

/* Members of each level's group on @core's path, packed one per bit. */
static uint32_t membership(uint32_t core)
{
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], n, k, bits = 0;

	n = tree_path(&t, core, node, id);
	for (k = 0; k < n; k++)
		if (coupled_is_member(node[k]->group, id[k]))
			bits |= 1u << k;
	return bits;
}

static uint32_t member_counts(void)
{
	uint32_t n, sum = 0;

	for (n = 0; n < t.nodes; n++)
		sum = sum * 8 + coupled_group_members(&t.group[n]);
	return sum;
}

#if defined(COUPLED_ADAPTER_PTHREAD) && COUPLED_ADAPTER_HAS_CONTEXT
static int inner_leave, inner_join;
static uint32_t inner_members;

static void leave_inside(const struct coupled_domain_round *r, void *ctx)
{
	(void)ctx;
	seen = *r;
	inner_leave = coupled_domain_leave(t.leaf[0], 0);
	inner_join = coupled_domain_join(t.leaf[0], 0);
	inner_members = membership(0);
}

/*
 * The action of core 0 of a tree with two one-core clusters: it changes
 * core 1, of the other cluster (no node of core 0's call is on core 1's
 * path but the root, whose round core 0 refused).
 */
static void change_other(const struct coupled_domain_round *r, void *ctx)
{
	(void)ctx;
	seen = *r;
	inner_leave = coupled_domain_leave(t.leaf[1], t.id[1]);
	inner_join = coupled_domain_join(t.leaf[1], t.id[1]);
	inner_members = membership(1);
}
#endif

/*
 * Core 1's join (@join) or leave fails with @err part way up and is rolled
 * back: its membership stays @bits, before and after, and no node's member
 * count moved.
 */
static void check_rolled_back(bool join, int err, uint32_t bits)
{
	uint32_t counts;

	CHECK_EQ(membership(1), bits);
	counts = member_counts();
	CHECK_EQ(join ? coupled_domain_join(t.leaf[1], t.id[1])
		      : coupled_domain_leave(t.leaf[1], t.id[1]),
		 err);
	CHECK_EQ(membership(1), bits);
	CHECK_EQ(member_counts(), counts);
}

static void test_join_leave(void)
{
	static const uint32_t cl[2] = { 2, 2 };
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], counts;

	TEST_CASE("join/leave over all levels, errors and rollback");
	tree_build(&t, 2, cl, 1, 0);
	(void)tree_path(&t, 1, node, id);
	counts = member_counts();
	CHECK_EQ(membership(1), 7);
	CHECK_EQ(coupled_domain_join(NULL, 0), COUPLED_EINVAL);
	CHECK_EQ(coupled_domain_leave(NULL, 0), COUPLED_EINVAL);
	CHECK_EQ(coupled_domain_join(t.leaf[1], 1), COUPLED_ERANGE);
	CHECK_EQ(coupled_domain_leave(t.leaf[1], 1), COUPLED_ERANGE);
	/* Already a member of its leaf: EEXIST, nothing changed. */
	CHECK_EQ(coupled_domain_join(t.leaf[1], t.id[1]), COUPLED_EEXIST);
	CHECK_EQ(member_counts(), counts);
	CHECK_EQ(membership(1), 7);

	CHECK_EQ(coupled_domain_leave(t.leaf[1], t.id[1]), 0);
	CHECK_EQ(membership(1), 0);
	CHECK_EQ(coupled_domain_leave(t.leaf[1], t.id[1]), COUPLED_ENOENT);
	CHECK_EQ(membership(1), 0);
	CHECK_EQ(coupled_domain_join(t.leaf[1], t.id[1]), 0);
	CHECK_EQ(membership(1), 7);
	CHECK_EQ(member_counts(), counts);

	/*
	 * Join rolled back: a member of the root only; the leaf and the
	 * cluster join, the root refuses (EEXIST), both are left again.
	 */
	CHECK_EQ(coupled_leave(node[0]->group, id[0]), 0);
	CHECK_EQ(coupled_leave(node[1]->group, id[1]), 0);
	check_rolled_back(true, COUPLED_EEXIST, 4);
	/*
	 * Leave rolled back: the root leaves, the cluster refuses (ENOENT:
	 * not a member there), the root is joined again.
	 */
	CHECK_EQ(coupled_join(node[0]->group, id[0]), 0);
	check_rolled_back(false, COUPLED_ENOENT, 5);
	CHECK_EQ(coupled_join(node[1]->group, id[1]), 0);
	CHECK_EQ(membership(1), 7);

#if defined(COUPLED_ADAPTER_PTHREAD) && COUPLED_ADAPTER_HAS_CONTEXT
	{
		static const uint32_t one[1] = { 1 };
		int32_t req[3] = { 1, -1, -1 };

		/*
		 * From inside its own call, only the leaf committed: leave and
		 * join are refused with EPERM before anything changes (the
		 * change would wait for this very call to return).
		 */
		tree_build(&t, 1, one, 1, 0);
		counts = member_counts();
		CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req, leave_inside,
					      NULL),
			 COUPLED_COMMITTED);
		CHECK_EQ(seen.depth, 1);
		CHECK_EQ(inner_leave, COUPLED_EPERM);
		CHECK_EQ(inner_join, COUPLED_EPERM);
		CHECK_EQ(inner_members, 7);
		CHECK_EQ(member_counts(), counts);
		/* Every level committed: the root refuses at once. */
		req[1] = 1;
		req[2] = 1;
		CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req, leave_inside,
					      NULL),
			 COUPLED_COMMITTED);
		CHECK_EQ(seen.depth, 3);
		CHECK_EQ(inner_leave, COUPLED_EPERM);
		CHECK_EQ(inner_members, 7);
		CHECK_EQ(member_counts(), counts);
	}
	{
		static const uint32_t two[2] = { 1, 1 };
		int32_t req[3] = { 1, 1, -1 };
		uint32_t levels;

		/*
		 * From inside a call of another subtree: core 0, in the
		 * action of its leaf's round (then of its cluster's too),
		 * changes core 1 of the other cluster.  The change would wait
		 * for core 0's call, which holds the tree's gate open like
		 * any call of the tree: EPERM, nothing changed.  (A gate of
		 * the changed core's path alone let it through and changed
		 * core 1 under core 0's call.)
		 */
		tree_build(&t, 2, two, 1, 0);
		counts = member_counts();
		for (levels = 1; levels <= 2; levels++) {
			req[1] = levels == 2 ? 1 : -1;
			inner_leave = inner_join = 0;
			CHECK_EQ(coupled_domain_enter(t.leaf[0], 0, req,
						      change_other, NULL),
				 COUPLED_COMMITTED);
			CHECK_EQ(seen.depth, levels);
			CHECK_EQ(inner_leave, COUPLED_EPERM);
			CHECK_EQ(inner_join, COUPLED_EPERM);
			CHECK_EQ(inner_members, 7);
			CHECK_EQ(membership(1), 7);
			CHECK_EQ(member_counts(), counts);
		}
		/* Outside any call, the same change is made. */
		CHECK_EQ(coupled_domain_leave(t.leaf[1], t.id[1]), 0);
		CHECK_EQ(membership(1), 0);
		CHECK_EQ(coupled_domain_join(t.leaf[1], t.id[1]), 0);
		CHECK_EQ(membership(1), 7);
	}
#else
	printf("   (EPERM from inside a call: the adapter names no "
	       "contexts)\n");
#endif
}

/* ---- coupled_group_kick() ------------------------------------------------ */

#ifdef COUPLED_ADAPTER_PTHREAD
static struct coupled_group kg;
static struct coupled_slot ks[2];
static atomic_int kick_flag, kick_ret = -1000;

static bool kick_abort(void *arg, uint32_t self)
{
	(void)arg;
	(void)self;
	/* seq_cst: read after the kick's wake; the flag was stored before. */
	return atomic_load(&kick_flag) != 0;
}

static void kick_action(const struct coupled_round *r, void *ctx)
{
	(void)r;
	(void)ctx;
	CHECK(0);
}

static void *kick_waiter(void *arg)
{
	struct coupled_abort_opts o;

	(void)arg;
	memset(&o, 0, sizeof(o));
	o.should_abort = kick_abort;
	atomic_store(&kick_ret,
		     coupled_enter_opts(&kg, 0, 1, kick_action, NULL, &o));
	return NULL;
}
#endif

static void test_kick(void)
{
	TEST_CASE("kick: EINVAL on NULL; wakes a resting member");
	CHECK_EQ(coupled_group_kick(NULL), COUPLED_EINVAL);
#ifdef COUPLED_ADAPTER_PTHREAD
	{
		pthread_t th;
		struct timespec limit;
		int r;

		CHECK_EQ(coupled_group_init(&kg, ks, 2, 2, NULL), 0);
		CHECK_EQ(coupled_group_kick(&kg), 0); /* nobody waits */
		CHECK_EQ(
			coupled_pthread_set_strategy(coupled_group_adapter(&kg),
						     COUPLED_PTHREAD_FUTEX),
			0);
		CHECK_EQ(pthread_create(&th, NULL, kick_waiter, NULL), 0);
		/*
		 * Wait until member 0 sleeps in futex(2) with no deadline
		 * (its adapter slot says so): only a wake can end that.
		 */
		clock_gettime(CLOCK_MONOTONIC, &limit);
		limit.tv_sec += 30;
		for (;;) {
			struct timespec now;

			/* relaxed: only waits for the flag, decides nothing. */
			if (coupled_load(&ks[0].adapter.sleeping,
					 COUPLED_RELAXED))
				break;
			clock_gettime(CLOCK_MONOTONIC, &now);
			CHECK(now.tv_sec < limit.tv_sec);
			sched_yield();
		}
		atomic_store(&kick_flag, 1);
		CHECK_EQ(coupled_group_kick(&kg), 0);
		/* Bounded wait for the call to return. */
		for (;;) {
			struct timespec now;

			r = atomic_load(&kick_ret);
			if (r != -1000)
				break;
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec >= limit.tv_sec) {
				fprintf(stderr, "the kicked member never "
						"returned\n");
				exit(1);
			}
			sched_yield();
		}
		CHECK_EQ(r, COUPLED_ABORT_CALLER);
		CHECK_EQ(pthread_join(th, NULL), 0);
		CHECK(test_group_at_rest(&kg));
	}
#endif
}

int main(void)
{
	printf("domain unit tests (%s protocol, %s adapter)\n",
	       COUPLED_PROTOCOL_NAME, COUPLED_ADAPTER_NAME);
	test_init_errors();
	test_id_blocks();
	test_enter_errors();
	test_gate_closed();
	test_alone();
	test_refusal();
	test_join_leave();
	test_kick();
	printf("all domain unit tests passed\n");
	return 0;
}

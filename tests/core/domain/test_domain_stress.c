/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_domain_stress.c - threads as the cores of a domain tree, random
 * requests, aborts, work, refusals and deadlines per level, every committed
 * round of every node checked.
 *
 * Usage: test_domain_stress --clusters N,N,... [--leaf L]
 *                           [--strategy spin|futex|condvar] [--calls C]
 *                           [--seed S] [--churn]
 *
 * A root, one cluster per number of --clusters with that many cores; with
 * --leaf L > 0 each cluster is cut into leaves of at most L cores (three
 * levels), with --leaf 0 the clusters are the leaves (two levels).  Each
 * thread makes C calls of coupled_domain_enter_opts() on its core, then
 * leaves the domain (coupled_domain_leave()), so that the cores still
 * calling never wait for it.  Each call: a random request per level, a
 * refusal (negative request) of a level above the leaf with probability
 * 1/32, a caller abort of some level with probability 1/32 (after a random
 * number of polls), work raised on the core's own leaf slot from inside a
 * poll of a random level with probability 1/32 (cleared after the call),
 * and a deadline at the root with probability 1/32.  With --churn core 0
 * leaves the domain and joins it again between two calls, about one call
 * in 16.
 *
 * The per-level oracle: every committed round of every node (node,
 * generation) was reported by as many distinct cores as the round had
 * members, each once, all with the same parameter, equal to the minimum of
 * their requests for that level, and the same members; while no core has
 * left yet, members is every core under the node; cores of one committed
 * level-k round report the same depth (the same committed flags for every
 * level >= k).  Every call's outcome vector is well formed (levels below
 * depth committed, the first one above a reason, the rest NOT_TRIED or
 * REFUSED as the requests say), and each thread ran the action once per
 * COMMITTED call.  The run ends: every thread makes its calls (a level
 * that keeps a core waiting forever hangs it, and ctest's timeout fails
 * it).  Prints the committed rounds per level.
 */
#include "coupled/domain.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "tree.h"

#define LEVELS_MAX 3
#define DEPTH_NONE 0xffu

struct rec {
	uint32_t mask;    /* the cores that reported the round */
	uint32_t count;   /* how many */
	uint32_t members; /* the round's members, as the first report said */
	int32_t param;    /* the round's parameter */
	int32_t minreq;   /* the minimum of the reporters' requests */
	uint32_t depth;   /* the first reporter's committed depth */
};

struct worker {
	pthread_t thread;
	uint32_t core;
	uint64_t rng;
	int32_t req[LEVELS_MAX];
	int abort_level, work_level; /* -1: none this call */
	unsigned abort_polls, work_polls;
	int work_raised;
	unsigned long calls, commits, actions;
	unsigned long outcome[LEVELS_MAX][16];
};

static struct domain_tree t;
static struct worker workers[TREE_MAX_CORES];
static struct rec *recs[TREE_MAX_NODES];
static uint32_t rec_size[TREE_MAX_NODES];
static pthread_mutex_t oracle_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long calls_per_thread = 1000;
static int strategy = COUPLED_PTHREAD_FUTEX, churn;
static atomic_uint departed; /* leaves started so far */

static uint32_t rnd(struct worker *w, uint32_t bound)
{
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return (uint32_t)(w->rng >> 16) % bound;
}

static uint32_t node_index(const struct coupled_domain *d)
{
	return (uint32_t)(d - t.node);
}

static struct coupled_group *leaf_group(struct worker *w)
{
	return t.leaf[w->core]->group;
}

/* The core's adapter slot in its leaf (never NULL: the id is in range). */
static struct coupled_adapter_slot *own_slot(struct worker *w)
{
	return &leaf_group(w)->slots[t.id[w->core]].adapter;
}

/* The caller's should_abort of each level: fires or raises work. */
static bool level_abort(void *arg, uint32_t self)
{
	struct worker *w = (struct worker *)arg;

	(void)self;
	if (w->work_level >= 0 && !w->work_raised && !w->work_polls--) {
		coupled_pthread_raise_work(coupled_group_adapter(leaf_group(w)),
					   own_slot(w), t.id[w->core]);
		w->work_raised = 1;
	}
	if (w->abort_level >= 0 && !w->abort_polls)
		return true;
	if (w->abort_level >= 0)
		w->abort_polls--;
	return false;
}

/*
 * The level's should_abort: a worker pointer whose per-level fields say
 * what fires.  Each level gets its own opts entry, but the worker's state
 * is one; the level whose poll counts is the one chosen for the call.
 */
struct level_arg {
	struct worker *w;
	int level;
};

static bool level_should_abort(void *arg, uint32_t self)
{
	struct level_arg *a = (struct level_arg *)arg;
	struct worker *w = a->w;

	if (a->level != w->abort_level && a->level != w->work_level)
		return false;
	if (a->level != w->abort_level) {
		/* Only the work fires here. */
		int saved = w->abort_level;
		bool r;

		w->abort_level = -1;
		r = level_abort(w, self);
		w->abort_level = saved;
		return r;
	}
	if (a->level != w->work_level) {
		int saved = w->work_level;
		bool r;

		w->work_level = -1;
		r = level_abort(w, self);
		w->work_level = saved;
		return r;
	}
	return level_abort(w, self);
}

static void action(const struct coupled_domain_round *r, void *ctx)
{
	struct worker *w = (struct worker *)ctx;
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], k, n;
	/* seq_cst: see the header: a leave started before the commit. */
	unsigned left = atomic_load(&departed);

	w->actions++;
	n = tree_path(&t, w->core, node, id);
	CHECK_EQ(r->levels, n);
	CHECK_EQ(r->core, t.id[w->core]);
	CHECK(r->depth >= 1 && r->depth <= n);
	pthread_mutex_lock(&oracle_lock);
	for (k = 0; k < r->depth; k++) {
		const struct coupled_domain_level *l = &r->level[k];
		uint32_t x = node_index(node[k]);
		struct rec *rc;

		CHECK(l->committed && l->round);
		CHECK_EQ(l->outcome, COUPLED_COMMITTED);
		CHECK(l->generation >= 1 && l->generation < rec_size[x]);
		if (!left)
			CHECK_EQ(l->members, node[k]->group->capacity);
		rc = &recs[x][l->generation];
		if (!rc->count) {
			rc->members = l->members;
			rc->param = l->param;
			rc->minreq = w->req[k];
			rc->depth = r->depth;
		}
		CHECK_EQ(rc->members, l->members);
		CHECK_EQ(rc->param, l->param);
		CHECK_EQ(rc->depth, r->depth);
		CHECK(!(rc->mask & (1u << id[n - 1])));
		rc->mask |= 1u << id[n - 1];
		rc->count++;
		if (w->req[k] < rc->minreq)
			rc->minreq = w->req[k];
	}
	pthread_mutex_unlock(&oracle_lock);
	/* Well formed above the depth. */
	for (k = r->depth; k < n; k++)
		CHECK(!r->level[k].committed && !r->level[k].round);
}

/* The outcome vector of a call that returned COMMITTED. */
static void check_outcomes(struct worker *w, const int32_t *req,
			   const struct coupled_domain_round *r)
{
	uint32_t k;

	for (k = 0; k < r->levels; k++) {
		int o = r->level[k].outcome;

		CHECK(o >= 0 && o < 16);
		w->outcome[k][o]++;
		if (k < r->depth)
			continue;
		if (k == r->depth) {
			CHECK(o != COUPLED_COMMITTED &&
			      o != COUPLED_DOMAIN_NOT_TRIED);
			if (req[k] < 0)
				CHECK_EQ(o, COUPLED_DOMAIN_REFUSED);
			else
				CHECK(o != COUPLED_DOMAIN_REFUSED);
		} else {
			CHECK_EQ(o, COUPLED_DOMAIN_NOT_TRIED);
		}
	}
}

static void churn_once(struct worker *w)
{
	atomic_fetch_add(&departed, 1u);
	CHECK_EQ(coupled_domain_leave(t.leaf[w->core], t.id[w->core]), 0);
	CHECK_EQ(coupled_domain_join(t.leaf[w->core], t.id[w->core]), 0);
}

struct call_ctx {
	struct worker *w;
	struct coupled_domain_round r;
};

static void call_action(const struct coupled_domain_round *r, void *ctx)
{
	struct call_ctx *cc = (struct call_ctx *)ctx;

	action(r, cc->w);
	cc->r = *r;
}

static void *worker_main(void *arg)
{
	struct worker *w = (struct worker *)arg;
	struct level_arg la[LEVELS_MAX];
	uint32_t k, levels = t.levels;
	unsigned long i;

	for (k = 0; k < levels; k++) {
		la[k].w = w;
		la[k].level = (int)k;
	}
	for (i = 0; i < calls_per_thread; i++) {
		struct coupled_abort_opts opts[LEVELS_MAX];
		struct call_ctx cc;
		unsigned long before = w->actions;
		int ret;

		memset(opts, 0, sizeof(opts));
		for (k = 0; k < levels; k++) {
			w->req[k] = (int32_t)rnd(w, 8);
			if (k && !rnd(w, 32))
				w->req[k] = -1;
			opts[k].should_abort = level_should_abort;
			opts[k].abort_arg = &la[k];
		}
		w->abort_level = rnd(w, 32) ? -1 : (int)rnd(w, levels);
		w->abort_polls = rnd(w, 64);
		w->work_level = rnd(w, 32) ? -1 : (int)rnd(w, levels);
		w->work_polls = rnd(w, 64);
		w->work_raised = 0;
		if (!rnd(w, 32))
			opts[levels - 1].deadline =
				coupled_adapter_now(
					coupled_group_adapter(leaf_group(w))) +
				rnd(w, 200000);
		cc.w = w;
		ret = coupled_domain_enter_opts(t.leaf[w->core], t.id[w->core],
						w->req, call_action, &cc, opts);
		w->calls++;
		if (w->work_raised)
			coupled_pthread_clear_work(own_slot(w));
		if (ret == COUPLED_COMMITTED) {
			w->commits++;
			CHECK_EQ(w->actions, before + 1);
			check_outcomes(w, w->req, &cc.r);
		} else {
			CHECK_EQ(w->actions, before);
			CHECK(ret > 0 && ret < COUPLED_ABORT_REASONS);
		}
		if (churn && w->core == 0 && !rnd(w, 16))
			churn_once(w);
	}
	/* Done: out of every level, so that nobody waits for this core. */
	atomic_fetch_add(&departed, 1u);
	CHECK_EQ(coupled_domain_leave(t.leaf[w->core], t.id[w->core]), 0);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: test_domain_stress --clusters N,N,... "
			"[--leaf L] [--strategy spin|futex|condvar] "
			"[--calls C] [--seed S] [--churn]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint32_t cl[TREE_MAX_CORES], nclusters = 0, leaf = 0, c, n, k;
	unsigned long seed = 1, per_level[LEVELS_MAX] = { 0 };
	unsigned long rounds_full[LEVELS_MAX] = { 0 };
	struct timespec t0, t1;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--clusters") && i + 1 < argc) {
			char *p = argv[++i];

			while (*p && nclusters < TREE_MAX_CORES) {
				cl[nclusters++] = (uint32_t)strtoul(p, &p, 10);
				if (*p == ',')
					p++;
			}
		} else if (!strcmp(argv[i], "--leaf") && i + 1 < argc) {
			leaf = (uint32_t)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--calls") && i + 1 < argc) {
			calls_per_thread = strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--strategy") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "spin"))
				strategy = COUPLED_PTHREAD_SPIN;
			else if (!strcmp(argv[i], "futex"))
				strategy = COUPLED_PTHREAD_FUTEX;
			else if (!strcmp(argv[i], "condvar"))
				strategy = COUPLED_PTHREAD_CONDVAR;
			else
				usage();
		} else if (!strcmp(argv[i], "--churn")) {
			churn = 1;
		} else {
			usage();
		}
	}
	if (!nclusters)
		usage();
	tree_build(&t, nclusters, cl, leaf, strategy);
	CHECK(t.levels <= LEVELS_MAX);
	for (n = 0; n < t.nodes; n++) {
		rec_size[n] =
			(uint32_t)(t.group[n].capacity * calls_per_thread) + 2;
		recs[n] = (struct rec *)calloc(rec_size[n], sizeof(struct rec));
		CHECK(recs[n] != NULL);
	}
	printf("domain stress: %u cores, %u clusters, %u levels, %s, %lu "
	       "calls per core, %s protocol%s\n",
	       t.cores, nclusters, t.levels,
	       coupled_pthread_strategy_name(strategy), calls_per_thread,
	       COUPLED_PROTOCOL_NAME, churn ? ", churn" : "");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (c = 0; c < t.cores; c++) {
		workers[c].core = c;
		workers[c].rng = seed * 0x9e3779b97f4a7c15ull + c + 1;
		CHECK_EQ(pthread_create(&workers[c].thread, NULL, worker_main,
					&workers[c]),
			 0);
	}
	for (c = 0; c < t.cores; c++)
		CHECK_EQ(pthread_join(workers[c].thread, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	/* The oracle: every recorded round complete and consistent. */
	for (n = 0; n < t.nodes; n++) {
		uint32_t level = t.node[n].depth, g;

		for (g = 1; g < rec_size[n]; g++) {
			struct rec *rc = &recs[n][g];
			uint32_t lv = t.levels - level; /* root: depth 1 */

			if (!rc->count)
				continue;
			if (rc->count != rc->members) {
				fprintf(stderr,
					"node %u round %u: %u of %u members "
					"reported it\n",
					n, g, rc->count, rc->members);
				return 1;
			}
			CHECK_EQ(rc->param, rc->minreq);
			per_level[lv]++;
			if (rc->members == t.group[n].capacity)
				rounds_full[lv]++;
		}
		/* Nobody left inside a call. */
		/* relaxed: every thread joined. */
		CHECK_EQ(coupled_load(&t.node[n].candidates, COUPLED_RELAXED),
			 0);
		CHECK_EQ(coupled_load(&t.node[n].waiting, COUPLED_RELAXED), 0);
	}
	for (c = 0; c < t.cores; c++) {
		CHECK_EQ(workers[c].calls, calls_per_thread);
		CHECK_EQ(workers[c].actions, workers[c].commits);
	}
	printf("%.2f s; committed rounds per level (leaf first):",
	       (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (k = 0; k < t.levels; k++)
		printf(" L%u %lu (%lu with every core)", k, per_level[k],
		       rounds_full[k]);
	printf("\noutcomes per level of committed calls:\n");
	for (k = 0; k < t.levels; k++) {
		unsigned long sum[16] = { 0 };
		int o;

		for (c = 0; c < t.cores; c++)
			for (o = 0; o < 16; o++)
				sum[o] += workers[c].outcome[k][o];
		printf("  L%u:", k);
		for (o = 0; o < 16; o++)
			if (sum[o])
				printf(" %s %lu", coupled_strerror(o), sum[o]);
		printf("\n");
	}
	/* The top level must have committed sometimes, or nothing ran. */
	CHECK(per_level[t.levels - 1] > 0);
	for (n = 0; n < t.nodes; n++)
		free(recs[n]);
	return 0;
}

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_domain_stress.c - threads as the cores of a domain tree, random
 * requests, aborts, work, refusals and deadlines per level, membership
 * changes between and inside the cores' calls, every committed round of
 * every node checked.
 *
 * Usage: test_domain_stress --clusters N,N,... [--leaf L]
 *                           [--strategy spin|futex|condvar] [--calls C]
 *                           [--seed S] [--churn | --changer]
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
 * and a deadline at the root with probability 1/32.
 *
 * Membership changes: with --churn core 0 leaves the domain and joins it
 * again between two of its own calls, about one call in 16.  With
 * --changer a thread that is none of the cores takes a random core out of
 * the domain (coupled_domain_leave()) and puts it back
 * (coupled_domain_join()) over and over, after random pauses, while every
 * core keeps calling: the change lands while cores are inside their calls,
 * at any point of them (waiting at a level, committed at one and trying
 * the next).  The calls of a core that is out return COUPLED_ENOENT or
 * COUPLED_ABORT_MEMBERSHIP.
 *
 * The per-level oracle (tests/common/domain_oracle.h), inside every
 * action: the call's outcome vector is well formed and the action runs
 * once per committed call; every committed round of every node was
 * reported by exactly the node's members, each once, with one generation
 * and one parameter, the minimum of their requests; and its cores learned
 * the same outcome for every level above (no split: the same depth, the
 * same round of the level above).  After the run no round is left half
 * reported, and each thread ran the action once per COMMITTED call.  The
 * run ends: every thread makes its calls (a level that keeps a core
 * waiting forever hangs it, and ctest's timeout fails it).  Prints the
 * committed rounds per level (the leaf rounds first) and the changes.
 */
#include <stdatomic.h>

/*
 * The hook: with --changer a core sometimes pauses right before it tries a
 * level above its committed leaf round, as a preemption there would, and
 * the changer aims at that moment (stress_hook() below).
 */
static void stress_hook(int point);
#define COUPLED_HOOK(group, self, point) \
	((void)(group), (void)(self), stress_hook(point))

#include "coupled/domain.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "domain_oracle.h"
#include "tree.h"

#define LEVELS_MAX 3
#define RING 4u      /* records per node, indexed by generation */
#define OUT_OTHER 15 /* outcome counter of a negative (error) outcome */

struct worker {
	pthread_t thread;
	uint32_t core;
	uint64_t rng;
	int32_t req[LEVELS_MAX];
	int abort_level, work_level; /* -1: none this call */
	unsigned abort_polls, work_polls;
	int work_raised;
	struct domain_oracle_call call;
	unsigned long calls, commits, actions, out;
	atomic_uint above; /* the changer's aim: the core paused at the try
			    * of a level above its committed leaf round */
	unsigned long outcome[LEVELS_MAX][16];
};

static struct domain_tree t;
static struct worker workers[TREE_MAX_CORES];
static struct domain_oracle_level recs[TREE_MAX_NODES][RING];
static unsigned long calls_per_thread = 1000;
static int strategy = COUPLED_PTHREAD_FUTEX, churn, changer;
static atomic_uint finished;     /* threads done with their calls */
static atomic_uint changer_done; /* the changer made its last change */
static unsigned long changes;    /* the changer's leave+join pairs */

static uint32_t rnd(struct worker *w, uint32_t bound)
{
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return (uint32_t)(w->rng >> 16) % bound;
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

/* level_abort() with one of @w's two levels (@level) turned off. */
static bool level_abort_without(struct worker *w, uint32_t self, int *level)
{
	int saved = *level;
	bool r;

	*level = -1;
	r = level_abort(w, self);
	*level = saved;
	return r;
}

static bool level_should_abort(void *arg, uint32_t self)
{
	struct level_arg *a = (struct level_arg *)arg;
	struct worker *w = a->w;

	if (a->level != w->abort_level && a->level != w->work_level)
		return false;
	if (a->level != w->abort_level) /* only the work fires here */
		return level_abort_without(w, self, &w->abort_level);
	if (a->level != w->work_level) /* only the abort fires here */
		return level_abort_without(w, self, &w->work_level);
	return level_abort(w, self);
}

/* A failed check of the oracle: say which and stop the run. */
static void oracle_failed(const char *where, uint32_t a, uint32_t b,
			  const struct oracle_failure *f)
{
	fprintf(stderr, "domain stress: FAIL %s %u level %u: %s (%ld, %ld)\n",
		where, a, b, f->what, f->a, f->b);
	fflush(stderr);
	exit(1);
}

static void action(const struct coupled_domain_round *r, void *ctx)
{
	struct worker *w = (struct worker *)ctx;
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], k, n;
	struct oracle_failure f;

	w->actions++;
	n = tree_path(&t, w->core, node, id);
	CHECK_EQ(r->levels, n);
	CHECK_EQ(r->core, t.id[w->core]);
	if (domain_oracle_shape(&w->call, r, w->req, &f))
		oracle_failed("core", w->core, r->depth, &f);
	for (k = 0; k < r->depth; k++) {
		uint32_t x = domain_tree_index(&t, node[k]);

		/*
		 * While no core has left (no change, no thread done), a round
		 * has every core under its node.  seq_cst: a thread counts
		 * itself done before its leave, which precedes any round
		 * without it.
		 */
		if (!churn && !changer && !atomic_load(&finished))
			CHECK_EQ(r->level[k].members, t.ncores[x]);

		/* Checked by the report that completes the round. */
		if (domain_oracle_report(
			    &recs[x][r->level[k].generation % RING], r, k,
			    w->req[k], coupled_reduce_min, &f) < 0)
			oracle_failed("node", x, k, &f);
	}
}

/* The outcome vector of a call that returned COMMITTED. */
static void check_outcomes(struct worker *w, const int32_t *req,
			   const struct coupled_domain_round *r)
{
	uint32_t k;

	for (k = 0; k < r->levels; k++) {
		int o = r->level[k].outcome;

		w->outcome[k][o >= 0 && o < OUT_OTHER ? o : OUT_OTHER]++;
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

static _Thread_local struct worker *self_worker; /* the thread's core */

static atomic_uint aim_core;    /* 1 + the core the changer aims at, or 0 */
static atomic_uint aim_leaving; /* the changer is taking it out now */

/*
 * At the try of a level above the leaf: the cores of the aimed core's leaf
 * stop there for a while (yields, as a preemption would: until the aimed
 * core is out of the root's group), the aimed core a few yields more, and
 * it says so.  Pacing only: nothing waits for it, the pause is bounded.
 */
static void stress_hook(int point)
{
	struct worker *w = self_worker;
	/* relaxed: a hint, never what anything waits for. */
	uint32_t aim = atomic_load_explicit(&aim_core, memory_order_relaxed);
	uint32_t n, m;

	if (!changer || !w || point != COUPLED_HOOK_DOMAIN_TRY || !aim ||
	    t.leaf[aim - 1u] != t.leaf[w->core])
		return;
	if (aim == w->core + 1u)
		/* relaxed: as above. */
		atomic_store_explicit(&w->above, 1u, memory_order_relaxed);
	/*
	 * Every core of the aimed core's leaf: until the change took the
	 * aimed core out of the root, or a few yields after the change began
	 * (a change that waits for this call first), or a while; the aimed
	 * core a little longer.
	 */
	for (n = 0, m = 0;
	     n < 256u && m < 16u && coupled_is_member(&t.group[0], aim - 1u);
	     n++) {
		/* relaxed: as above. */
		if (atomic_load_explicit(&aim_leaving, memory_order_relaxed))
			m++;
		sched_yield();
	}
	if (aim != w->core + 1u)
		return;
	for (n = rnd(w, 16) + 1u; n; n--)
		sched_yield();
	/* relaxed: as above. */
	atomic_store_explicit(&w->above, 0u, memory_order_relaxed);
}

static void churn_once(struct worker *w)
{
	CHECK_EQ(coupled_domain_leave(t.leaf[w->core], t.id[w->core]), 0);
	CHECK_EQ(coupled_domain_join(t.leaf[w->core], t.id[w->core]), 0);
}

static uint64_t changer_rng;

static uint32_t changer_rnd(uint32_t bound)
{
	changer_rng ^= changer_rng << 13;
	changer_rng ^= changer_rng >> 7;
	changer_rng ^= changer_rng << 17;
	return (uint32_t)(changer_rng >> 16) % bound;
}

/*
 * A random pause of the changer (pacing only: the change is correct at
 * any moment, and the oracle decides): a short busy pause, so that the
 * changes land at any point of the cores' calls.
 */
static void changer_pause(void)
{
	volatile uint32_t spin = changer_rnd(4000);

	while (spin)
		spin = spin - 1u;
}

/*
 * The changer: not a core.  Takes a random core out of every level and
 * puts it back, while the cores call, until the first thread is done.
 */
static void *changer_main(void *arg)
{
	(void)arg;
	/* acquire: a plain flag; any order of the last change will do. */
	while (!atomic_load_explicit(&finished, memory_order_acquire)) {
		uint32_t c = changer_rnd(t.cores),
			 aim = changer_rnd(2) ? 1u : 0;

		changer_pause();
		/*
		 * Half the time aim at the widest window: the core committed
		 * its leaf round and stops before the level above (bounded:
		 * pacing only).  relaxed, all three: hints, see stress_hook().
		 */
		if (aim) {
			atomic_store_explicit(&aim_core, c + 1u,
					      memory_order_relaxed);
			while (aim++ < 200000u &&
			       !atomic_load_explicit(&workers[c].above,
						     memory_order_relaxed))
				;
		}
		/* relaxed, both: hints, see stress_hook(). */
		atomic_store_explicit(&aim_leaving, 1u, memory_order_relaxed);
		CHECK_EQ(coupled_domain_leave(t.leaf[c], t.id[c]), 0);
		atomic_store_explicit(&aim_core, 0u, memory_order_relaxed);
		atomic_store_explicit(&aim_leaving, 0u, memory_order_relaxed);
		changer_pause();
		CHECK_EQ(coupled_domain_join(t.leaf[c], t.id[c]), 0);
		changes++;
		/* The whole domain for a while: rounds of every core. */
		for (aim = changer_rnd(4); aim; aim--)
			sched_yield();
	}
	/* release: the last change before the threads' final leaves. */
	atomic_store_explicit(&changer_done, 1u, memory_order_release);
	return NULL;
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
	struct oracle_failure f;
	unsigned long i;

	self_worker = w;
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
		domain_oracle_call_begin(&w->call);
		ret = coupled_domain_enter_opts(t.leaf[w->core], t.id[w->core],
						w->req, call_action, &cc, opts);
		w->calls++;
		if (w->work_raised)
			coupled_pthread_clear_work(own_slot(w));
		if (domain_oracle_call_end(&w->call, ret, &f))
			oracle_failed("core", w->core, 0, &f);
		if (ret == COUPLED_COMMITTED) {
			w->commits++;
			CHECK_EQ(w->actions, before + 1);
			check_outcomes(w, w->req, &cc.r);
		} else if (changer && (ret == COUPLED_ENOENT ||
				       ret == COUPLED_ABORT_MEMBERSHIP)) {
			/*
			 * Out of the domain, or a change under way: let the
			 * others run (the changer among them), as a core
			 * would do its work before its next idle call.
			 */
			w->out += ret == COUPLED_ENOENT;
			CHECK_EQ(w->actions, before);
			sched_yield();
		} else {
			CHECK_EQ(w->actions, before);
			CHECK(ret > 0 && ret < COUPLED_ABORT_REASONS);
		}
		if (churn && w->core == 0 && !rnd(w, 16))
			churn_once(w);
	}
	/* Done: out of every level, so that nobody waits for this core. */
	atomic_fetch_add(&finished, 1u);
	/* acquire: the changer's last change happens before our leave. */
	while (changer &&
	       !atomic_load_explicit(&changer_done, memory_order_acquire))
		sched_yield();
	CHECK_EQ(coupled_domain_leave(t.leaf[w->core], t.id[w->core]), 0);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: test_domain_stress --clusters N,N,... "
			"[--leaf L] [--strategy spin|futex|condvar] "
			"[--calls C] [--seed S] [--churn | --changer]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint32_t cl[TREE_MAX_CORES], nclusters = 0, leaf = 0, c, n, k;
	unsigned long seed = 1, per_level[LEVELS_MAX] = { 0 }, out = 0;
	struct oracle_failure f;
	pthread_t changer_thread;
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
		} else if (!strcmp(argv[i], "--changer")) {
			changer = 1;
		} else {
			usage();
		}
	}
	if (!nclusters || (churn && changer))
		usage();
	tree_build(&t, nclusters, cl, leaf, strategy);
	CHECK(t.levels <= LEVELS_MAX);
	for (n = 0; n < t.nodes; n++)
		for (i = 0; i < (int)RING; i++)
			domain_oracle_init(&recs[n][i]);
	changer_rng = seed * 0x2545f4914f6cdd1dull + 1;
	printf("domain stress: %u cores, %u clusters, %u levels, %s, %lu "
	       "calls per core, %s protocol%s\n",
	       t.cores, nclusters, t.levels,
	       coupled_pthread_strategy_name(strategy), calls_per_thread,
	       COUPLED_PROTOCOL_NAME,
	       churn     ? ", churn"
	       : changer ? ", changer"
			 : "");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (c = 0; c < t.cores; c++) {
		workers[c].core = c;
		workers[c].rng = seed * 0x9e3779b97f4a7c15ull + c + 1;
		CHECK_EQ(pthread_create(&workers[c].thread, NULL, worker_main,
					&workers[c]),
			 0);
	}
	if (changer)
		CHECK_EQ(pthread_create(&changer_thread, NULL, changer_main,
					NULL),
			 0);
	for (c = 0; c < t.cores; c++)
		CHECK_EQ(pthread_join(workers[c].thread, NULL), 0);
	if (changer)
		CHECK_EQ(pthread_join(changer_thread, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	/* The oracle: no round left half reported; the rounds per level. */
	for (n = 0; n < t.nodes; n++) {
		for (i = 0; i < (int)RING; i++) {
			if (domain_oracle_leftover(&recs[n][i], &f))
				oracle_failed("node", n, t.level[n], &f);
			per_level[t.level[n]] +=
				domain_oracle_rounds(&recs[n][i]);
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
		out += workers[c].out;
	}
	printf("%.2f s; committed rounds per level (leaf first):",
	       (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (k = 0; k < t.levels; k++)
		printf(" L%u %lu", k, per_level[k]);
	printf("\nleaf rounds %lu, split outcomes 0, changes %lu, calls "
	       "while out %lu\n",
	       per_level[0], changes, out);
	printf("outcomes per level of committed calls:\n");
	for (k = 0; k < t.levels; k++) {
		unsigned long sum[16] = { 0 };
		int o;

		for (c = 0; c < t.cores; c++)
			for (o = 0; o < 16; o++)
				sum[o] += workers[c].outcome[k][o];
		printf("  L%u:", k);
		for (o = 0; o < 16; o++)
			if (sum[o])
				printf(" %s %lu",
				       o == OUT_OTHER ? "error"
						      : coupled_strerror(o),
				       sum[o]);
		printf("\n");
	}
	/* The top level must have committed sometimes, or nothing ran. */
	CHECK(per_level[t.levels - 1] > 0);
	/* With the changer: changes happened (else nothing was tested). */
	CHECK(!changer || changes > 0);
	return 0;
}

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled_domains_demo.c - two clusters of cores that power down per
 * cluster, and the whole system when both clusters are down together.
 *
 * Usage: coupled_domains_demo [--cores N] [--seconds S]
 *                             [--strategy spin|futex|condvar] [--seed X]
 *
 * A coupled domain (coupled/domain.h) of two levels: the system (the root,
 * all 2N cores) over two clusters A and B (the leaves, N cores each,
 * 1..16, default 2).  One thread per core.  Each loops: a busy period of
 * random length (0..2 ms of simulated work), then an idle period (0..3 ms,
 * ended by the core's own timer).  While idle, the core calls
 * coupled_domain_enter_opts() again and again with two requests: the
 * deepest cluster state it allows (C1..C3) and the deepest system state
 * (S1..S2), or -1 (now and then) to refuse the system level.  Both levels
 * take the minimum.  The end of the idle period is the deadline of both
 * levels: a core whose timer fires gives up (COUPLED_ABORT_TIMEOUT).
 *
 * A separate "interrupt" thread raises simulated work on random cores; a
 * core with work pending aborts (COUPLED_ABORT_WORK) at the cluster level,
 * or gives the system level up and goes down with its cluster only.
 *
 * A call's action runs once, inside the deepest level that committed:
 *   - cluster only: the cluster's cores agree on the state (barrier, check)
 *     and stay down a short while (a few tens of microseconds: the idle
 *     governor looks again soon);
 *   - system: all 2N cores agree on the system state first (barrier over
 *     the root's round), then each cluster on its own state, and stay down
 *     longer; a last barrier brings them up together.
 * The system level is opportunistic: a cluster tries it, inside its own
 * committed round, only while every core of the other cluster is idle too,
 * and gives it up at once otherwise (COUPLED_DOMAIN_CANNOT).  A cluster
 * down alone has given the system up until it comes back and asks again,
 * so the system goes down only when both clusters commit at about the same
 * time: expect far fewer system rounds than cluster rounds (and none in
 * some short runs).
 *
 * Checked while running, per level: every core of a committed round saw the
 * same generation and state, the state is the minimum of the requests of
 * that level's cores, generations grow, the cores of one cluster round all
 * learned the same outcome for the system level.  Checked at the end: every
 * core of a cluster counted the same number of cluster rounds and of
 * cluster-only rounds, every core the same number of system rounds, each
 * cluster's rounds are its cluster-only rounds plus the system rounds, and
 * the library's statistics agree.  Exit status 0 if all holds, 1 if a check
 * failed, 2 for a bad command line.
 */
#define DEMO_NAME "coupled_domains_demo"
#include "../common/demo_util.h"
#include "coupled/domain.h"

#define CLUSTERS 2
#define MAX_PER_CLUSTER 16
#define MAX_CORES (CLUSTERS * MAX_PER_CLUSTER)
#define LEVELS 2                /* 0: cluster, 1: system */
#define CLUSTER_DEEPEST 3       /* C1..C3 */
#define SYSTEM_DEEPEST 2        /* S1..S2 */
#define BUSY_MAX_NS 2000000u    /* a busy period: 0..2 ms */
#define IDLE_MAX_NS 3000000u    /* an idle period: 0..3 ms */
#define IRQ_GAP_MAX_NS 4000000u /* between two interrupts: 0..4 ms */
#define CLUSTER_RES_NS 20000u   /* cluster only: 20 us per depth */
#define SYSTEM_RES_NS 150000u   /* system: 150 us per depth */
#define REFUSE_PER_MILLE 100    /* a core refuses the system: 10% */
#define OUTCOMES 11             /* outcome codes 0..10 (errno.h) */

/* condvar: its slower wake-ups let both clusters commit together more often
 * than futex (dozens of system rounds a second here, against a few). */
static const struct demo_cli cli = { "--cores",
				     "cores per cluster (2 clusters)",
				     MAX_PER_CLUSTER, 2,
				     COUPLED_PTHREAD_CONDVAR };

/* One core.  Counters are atomics: the main thread reads some while the
 * core runs (progress), all of them after the join. */
struct core {
	pthread_t thread;
	uint32_t id;      /* 0..2N-1, the core's id in the system's group */
	uint32_t cluster; /* 0 (A) or 1 (B) */
	uint32_t index;   /* the core's id in its cluster's group */
	uint64_t rng;
	/* The core's own thread only (the action runs in it). */
	uint32_t last_gen[LEVELS];
	bool have_gen[LEVELS];
	/* Statistics. */
	atomic_uint_fast64_t calls;
	atomic_uint_fast64_t actions;
	atomic_uint_fast64_t cluster_rounds;   /* cluster level committed */
	atomic_uint_fast64_t cluster_only;     /* ... and the system did not */
	atomic_uint_fast64_t system_rounds;    /* system level committed */
	atomic_uint_fast64_t leaf[OUTCOMES];   /* the call's return value */
	atomic_uint_fast64_t system[OUTCOMES]; /* the system level's outcome,
						* calls whose cluster committed */
};

static struct {
	uint32_t per_cluster;
	uint32_t ncores;
	struct coupled_group system_group;
	struct coupled_slot system_slots[MAX_CORES];
	struct coupled_domain system;
	struct coupled_group cluster_group[CLUSTERS];
	struct coupled_slot cluster_slots[CLUSTERS][MAX_PER_CLUSTER];
	struct coupled_domain cluster[CLUSTERS];
	struct core cores[MAX_CORES];

	/* Per core (system id), for the checks inside the action. */
	atomic_int request[LEVELS][MAX_CORES];
	atomic_uint_fast64_t seen[LEVELS][MAX_CORES]; /* generation, state */
	atomic_int system_seen[MAX_CORES]; /* system committed in this round */
	atomic_uint pending_irqs[MAX_CORES];

	/* Counted by core 0 of each committed round. */
	atomic_uint_fast64_t cluster_rounds[CLUSTERS];
	atomic_uint_fast64_t cluster_only[CLUSTERS];
	atomic_uint_fast64_t cluster_depth[CLUSTERS][CLUSTER_DEEPEST + 1];
	atomic_uint_fast64_t system_rounds;
	atomic_uint_fast64_t system_depth[SYSTEM_DEEPEST + 1];
	atomic_uint_fast64_t irqs;
} demo;

/* ---- small helpers ---------------------------------------------------- */

static uint64_t now_ns(void)
{
	return coupled_adapter_now(coupled_group_adapter(&demo.system_group));
}

/* Count an outcome code (errno.h: 0..10); anything else is a failure. */
static void count(atomic_uint_fast64_t *by_code, int code, const char *what,
		  uint32_t id)
{
	if (code >= 0 && code < OUTCOMES)
		add(&by_code[code], 1);
	else
		fail("core %u: %s %d (%s)", id, what, code,
		     coupled_strerror(code));
}

static uint64_t pack(uint32_t generation, int32_t param)
{
	return (uint64_t)generation << 32 | (uint32_t)param;
}

static char cluster_name(uint32_t c)
{
	return (char)('A' + c);
}

/* ---- the idle states -------------------------------------------------- */

/*
 * check_level() - after the barrier of level @k's round: every core of the
 * round saw what this one saw, and the state is its cores' minimum request.
 * The round's cores are system ids @first..@first+@n-1.  Their slots are
 * stable: each is rewritten only in the level's next round, which needs
 * this core, still inside this one.
 */
static void check_level(const struct core *c, uint32_t k, uint32_t first,
			uint32_t n, uint64_t mine, int32_t param)
{
	int32_t min_request = INT32_MAX;
	uint32_t i;

	for (i = first; i < first + n; i++) {
		uint64_t theirs = atomic_load_explicit(&demo.seen[k][i],
						       memory_order_relaxed);
		int32_t req = atomic_load_explicit(&demo.request[k][i],
						   memory_order_relaxed);

		if (theirs != mine)
			fail("%s level: core %u saw (gen %u, state %d), core "
			     "%u saw (gen %u, state %d)",
			     k ? "system" : "cluster", c->id,
			     (uint32_t)(mine >> 32), (int)(int32_t)mine, i,
			     (uint32_t)(theirs >> 32), (int)(int32_t)theirs);
		if (req < min_request)
			min_request = req;
	}
	if (min_request != param)
		fail("%s level: core %u: state %d but the deepest all allow is "
		     "%d",
		     k ? "system" : "cluster", c->id, (int)param,
		     (int)min_request);
}

static void check_generation(struct core *c, uint32_t k, uint32_t generation)
{
	if (c->have_gen[k] && (int32_t)(generation - c->last_gen[k]) <= 0)
		fail("core %u: level %u generation %u after %u", c->id, k,
		     generation, c->last_gen[k]);
	c->last_gen[k] = generation;
	c->have_gen[k] = true;
}

static void idle_state(const struct coupled_domain_round *r, void *ctx)
{
	struct core *c = ctx;
	const struct coupled_domain_level *cl = &r->level[0];
	const struct coupled_domain_level *sl = &r->level[1];
	const struct coupled_domain_level *deepest = sl->committed ? sl : cl;
	uint32_t first = c->cluster * demo.per_cluster, i;
	uint64_t mine = pack(cl->generation, cl->param);
	uint64_t res, h;
	int sys = sl->committed ? 1 : 0;

	add(&c->actions, 1);
	if (r->levels != LEVELS || r->core != c->index || !cl->committed ||
	    r->depth != (sl->committed ? 2u : 1u) ||
	    cl->members != demo.per_cluster ||
	    (sl->committed && sl->members != demo.ncores) ||
	    (!sl->committed && sl->outcome == COUPLED_COMMITTED))
		fail("core %u: inconsistent round (levels %u, depth %u, "
		     "members %u/%u, system outcome %d)",
		     c->id, r->levels, r->depth, cl->members, sl->members,
		     sl->outcome);
	check_generation(c, 0, cl->generation);
	count(c->system, sl->outcome, "system level outcome", c->id);

	/* Publish what this core saw; the barriers order it before the
	 * other cores' reads. */
	atomic_store_explicit(&demo.seen[0][c->id], mine, memory_order_relaxed);
	atomic_store_explicit(&demo.system_seen[c->id], sys,
			      memory_order_relaxed);
	if (sl->committed) {
		uint64_t s = pack(sl->generation, sl->param);

		check_generation(c, 1, sl->generation);
		atomic_store_explicit(&demo.seen[1][c->id], s,
				      memory_order_relaxed);
		/* Every core of the system is down. */
		(void)coupled_barrier(sl->round);
		check_level(c, 1, 0, demo.ncores, s, sl->param);
		if (sl->round->self == 0) {
			add(&demo.system_rounds, 1);
			if (sl->param >= 1 && sl->param <= SYSTEM_DEEPEST)
				add(&demo.system_depth[sl->param], 1);
		}
	}

	/* Every core of the cluster is down. */
	(void)coupled_barrier(cl->round);
	check_level(c, 0, first, demo.per_cluster, mine, cl->param);
	for (i = first; i < first + demo.per_cluster; i++) {
		int theirs = atomic_load_explicit(&demo.system_seen[i],
						  memory_order_relaxed);

		if (theirs != sys)
			fail("cluster %c: core %u learned system %s, core %u "
			     "%s",
			     cluster_name(c->cluster), c->id,
			     sys ? "committed" : "not committed", i,
			     theirs ? "committed" : "not committed");
	}
	if (cl->round->self == 0) {
		add(&demo.cluster_rounds[c->cluster], 1);
		if (!sl->committed)
			add(&demo.cluster_only[c->cluster], 1);
		if (cl->param >= 1 && cl->param <= CLUSTER_DEEPEST)
			add(&demo.cluster_depth[c->cluster][cl->param], 1);
	}
	add(&c->cluster_rounds, 1);
	if (sl->committed)
		add(&c->system_rounds, 1);
	else
		add(&c->cluster_only, 1);

	/* Down: as long as the deepest level's round says (the same on all
	 * its cores), then up together. */
	h = pack(deepest->generation, deepest->param);
	res = (sl->committed ? SYSTEM_RES_NS : CLUSTER_RES_NS) *
	      (uint64_t)deepest->param;
	sleep_ns(res / 2 + rand_below(&h, res / 2 + 1));
	(void)coupled_barrier(deepest->round);
}

/* ---- cores and the interrupt source ----------------------------------- */

static bool should_abort(void *arg, uint32_t core)
{
	(void)arg;
	(void)core;
	return atomic_load_explicit(&demo_stop, memory_order_relaxed);
}

/* The "interrupt handler": acknowledge every interrupt raised so far. */
static void handle_irqs(struct core *c)
{
	struct coupled_adapter_slot *as = coupled_participant_adapter(
		&demo.cluster_group[c->cluster], c->index);
	unsigned int n = atomic_exchange_explicit(&demo.pending_irqs[c->id], 0u,
						  memory_order_relaxed);

	while (n--)
		coupled_pthread_clear_work(as);
}

static int32_t pick_cluster_request(struct core *c)
{
	uint64_t r = rand_below(&c->rng, 10);

	return r < 1 ? 1 : r < 4 ? 2 : 3; /* C1 10%, C2 30%, C3 60% */
}

static int32_t pick_system_request(struct core *c)
{
	if (rand_below(&c->rng, 1000) < REFUSE_PER_MILLE)
		return -1; /* this core refuses the system level now */
	return rand_below(&c->rng, 10) < 4 ? 1 : 2; /* S1 40%, S2 60% */
}

static void *core_main(void *arg)
{
	struct core *c = arg;
	struct coupled_domain *leaf = &demo.cluster[c->cluster];
	struct coupled_abort_opts opts[LEVELS];
	int32_t requests[LEVELS];

	memset(opts, 0, sizeof(opts));
	opts[0].should_abort = should_abort;
	opts[1].should_abort = should_abort;

	while (!atomic_load_explicit(&demo_stop, memory_order_relaxed)) {
		uint64_t idle_end;

		sleep_ns(rand_below(&c->rng, BUSY_MAX_NS + 1u));
		idle_end = now_ns() + rand_below(&c->rng, IDLE_MAX_NS + 1u);
		/* The core's timer ends the idle period: the deadline of
		 * both levels. */
		opts[0].deadline = opts[1].deadline = idle_end;

		/* Idle: ask again after every wake-up, until work comes or
		 * the timer fires. */
		while (!atomic_load_explicit(&demo_stop,
					     memory_order_relaxed)) {
			int ret;
			uint32_t k;

			requests[0] = pick_cluster_request(c);
			requests[1] = pick_system_request(c);
			for (k = 0; k < LEVELS; k++)
				atomic_store_explicit(&demo.request[k][c->id],
						      requests[k],
						      memory_order_relaxed);
			ret = coupled_domain_enter_opts(
				leaf, c->index, requests, idle_state, c, opts);
			add(&c->calls, 1);
			count(c->leaf, ret, "coupled_domain_enter_opts()",
			      c->id);
			if (ret != COUPLED_COMMITTED)
				break;
			if (now_ns() >= idle_end)
				break;
		}
		handle_irqs(c);
	}
	return NULL;
}

static void *irq_main(void *arg)
{
	struct irq_source *src = arg;

	while (!atomic_load_explicit(&demo_stop, memory_order_relaxed)) {
		uint32_t id, cl, idx;

		sleep_ns(rand_below(&src->rng, IRQ_GAP_MAX_NS + 1u));
		id = (uint32_t)rand_below(&src->rng, demo.ncores);
		cl = id / demo.per_cluster;
		idx = id % demo.per_cluster;
		/* Raise first, count second: the core never clears work
		 * that was not raised yet. */
		coupled_pthread_raise_work(
			coupled_group_adapter(&demo.cluster_group[cl]),
			coupled_participant_adapter(&demo.cluster_group[cl],
						    idx),
			idx);
		atomic_fetch_add_explicit(&demo.pending_irqs[id], 1u,
					  memory_order_relaxed);
		/*
		 * The raise wakes the core where it rests in its cluster's
		 * group; if it waits for the system's round, it rests in the
		 * system's group: a kick makes it look at its work there.
		 */
		(void)coupled_group_kick(&demo.system_group);
		add(&demo.irqs, 1);
	}
	return NULL;
}

/* ---- command line ----------------------------------------------------- */

/* ---- set-up, summary, end checks -------------------------------------- */

static int setup(const struct demo_config *cfg)
{
	uint32_t c, i;
	int ret;

	ret = coupled_group_init(&demo.system_group, demo.system_slots,
				 demo.ncores, demo.ncores, coupled_reduce_min);
	if (!ret)
		ret = coupled_domain_init(&demo.system, &demo.system_group,
					  NULL);
	if (!ret)
		ret = coupled_pthread_set_strategy(
			coupled_group_adapter(&demo.system_group),
			cfg->strategy);
	/* The clusters in the order of their blocks of system ids. */
	for (c = 0; !ret && c < CLUSTERS; c++) {
		ret = coupled_group_init(&demo.cluster_group[c],
					 demo.cluster_slots[c],
					 demo.per_cluster, demo.per_cluster,
					 coupled_reduce_min);
		if (!ret)
			ret = coupled_domain_init(&demo.cluster[c],
						  &demo.cluster_group[c],
						  &demo.system);
		if (!ret)
			ret = coupled_pthread_set_strategy(
				coupled_group_adapter(&demo.cluster_group[c]),
				cfg->strategy);
	}
	if (ret) {
		fprintf(stderr, "coupled_domains_demo: set-up: %s\n",
			coupled_strerror(ret));
		return 1;
	}

	atomic_init(&demo_stop, false);
	atomic_init(&demo_failed, false);
	atomic_init(&demo.system_rounds, 0);
	atomic_init(&demo.irqs, 0);
	for (i = 0; i <= SYSTEM_DEEPEST; i++)
		atomic_init(&demo.system_depth[i], 0);
	for (c = 0; c < CLUSTERS; c++) {
		atomic_init(&demo.cluster_rounds[c], 0);
		atomic_init(&demo.cluster_only[c], 0);
		for (i = 0; i <= CLUSTER_DEEPEST; i++)
			atomic_init(&demo.cluster_depth[c][i], 0);
	}
	for (i = 0; i < demo.ncores; i++) {
		struct core *co = &demo.cores[i];
		uint32_t k;

		co->id = i;
		co->cluster = i / demo.per_cluster;
		co->index = i % demo.per_cluster;
		for (k = 0; k < LEVELS; k++) {
			co->have_gen[k] = false;
			co->last_gen[k] = 0;
			atomic_init(&demo.request[k][i], 1);
			atomic_init(&demo.seen[k][i], 0);
		}
		atomic_init(&co->calls, 0);
		atomic_init(&co->actions, 0);
		atomic_init(&co->cluster_rounds, 0);
		atomic_init(&co->cluster_only, 0);
		atomic_init(&co->system_rounds, 0);
		for (k = 0; k < OUTCOMES; k++) {
			atomic_init(&co->leaf[k], 0);
			atomic_init(&co->system[k], 0);
		}
		atomic_init(&demo.system_seen[i], 0);
		atomic_init(&demo.pending_irqs[i], 0u);
	}
	return 0;
}

static void summary(const struct demo_config *cfg, double elapsed)
{
	uint64_t leaf[OUTCOMES] = { 0 }, sys[OUTCOMES] = { 0 };
	uint32_t c, i;
	int k;

	for (i = 0; i < demo.ncores; i++)
		for (k = 0; k < OUTCOMES; k++) {
			leaf[k] += get(&demo.cores[i].leaf[k]);
			sys[k] += get(&demo.cores[i].system[k]);
		}

	printf("\n=== summary: %u clusters x %u cores, %s, %.1f s, seed %llu "
	       "===\n",
	       CLUSTERS, cfg->count,
	       coupled_pthread_strategy_name(cfg->strategy), elapsed,
	       (unsigned long long)cfg->seed);
	for (c = 0; c < CLUSTERS; c++) {
		printf("cluster %c: %llu rounds: %llu cluster only, %llu with "
		       "the system; states",
		       cluster_name(c),
		       (unsigned long long)get(&demo.cluster_rounds[c]),
		       (unsigned long long)get(&demo.cluster_only[c]),
		       (unsigned long long)(get(&demo.cluster_rounds[c]) -
					    get(&demo.cluster_only[c])));
		for (k = 1; k <= CLUSTER_DEEPEST; k++)
			printf(" C%d %llu", k,
			       (unsigned long long)get(
				       &demo.cluster_depth[c][k]));
		printf("\n");
	}
	printf("system: %llu rounds (%.0f/s); states",
	       (unsigned long long)get(&demo.system_rounds),
	       elapsed > 0 ? (double)get(&demo.system_rounds) / elapsed : 0.0);
	for (k = 1; k <= SYSTEM_DEEPEST; k++)
		printf(" S%d %llu", k,
		       (unsigned long long)get(&demo.system_depth[k]));
	printf("\n");
	printf("cluster level, calls of all cores (what coupled_domain_enter "
	       "returned):\n");
	for (k = 0; k < OUTCOMES; k++)
		if (leaf[k] || k <= COUPLED_ABORT_TIMEOUT)
			printf("  %-30s %llu\n", coupled_strerror(k),
			       (unsigned long long)leaf[k]);
	printf("system level, calls of all cores whose cluster committed:\n");
	for (k = 0; k < OUTCOMES; k++)
		if (sys[k] || k == COUPLED_DOMAIN_REFUSED ||
		    k == COUPLED_DOMAIN_CANNOT || k <= COUPLED_ABORT_TIMEOUT)
			printf("  %-30s %llu\n", coupled_strerror(k),
			       (unsigned long long)sys[k]);
	printf("simulated interrupts raised: %llu\n",
	       (unsigned long long)get(&demo.irqs));
	if (demo.ncores > 16) {
		printf("(per-core table left out for more than 16 cores)\n");
		return;
	}
	printf("core cluster    calls  cluster  cl-only   system  refused  "
	       "cannot\n");
	for (i = 0; i < demo.ncores; i++) {
		struct core *co = &demo.cores[i];

		printf("%4u %7c %8llu %8llu %8llu %8llu %8llu %7llu\n", i,
		       cluster_name(co->cluster),
		       (unsigned long long)get(&co->calls),
		       (unsigned long long)get(&co->cluster_rounds),
		       (unsigned long long)get(&co->cluster_only),
		       (unsigned long long)get(&co->system_rounds),
		       (unsigned long long)get(
			       &co->system[COUPLED_DOMAIN_REFUSED]),
		       (unsigned long long)get(
			       &co->system[COUPLED_DOMAIN_CANNOT]));
	}
}

/* expect() - one end check: prints and counts a mismatch. */
static int expect(uint64_t got, uint64_t want, const char *what, uint32_t id)
{
	if (got == want)
		return 0;
	fprintf(stderr,
		"coupled_domains_demo: CHECK FAILED: %s: %llu (core %u), "
		"expected %llu\n",
		what, (unsigned long long)got, id, (unsigned long long)want);
	return 1;
}

static int check_end(void)
{
	uint64_t sys = get(&demo.system_rounds);
	struct coupled_stats st;
	uint32_t c, i;
	int bad = 0;

	for (c = 0; c < CLUSTERS; c++) {
		uint64_t rounds = get(&demo.cluster_rounds[c]);
		uint64_t only = get(&demo.cluster_only[c]);

		/* Every system round holds one round of each cluster. */
		bad |= expect(rounds - only, sys,
			      "cluster rounds with the system", c);
		coupled_stats_read(&demo.cluster_group[c], &st);
		bad |= expect(st.commits, rounds * demo.per_cluster,
			      "cluster library commits", c);
	}
	coupled_stats_read(&demo.system_group, &st);
	bad |= expect(st.commits, sys * demo.ncores, "system library commits",
		      0);
	for (i = 0; i < demo.ncores; i++) {
		struct core *co = &demo.cores[i];

		/* The membership never changes: every core of a cluster is
		 * in every round of it, every core in every system round. */
		c = co->cluster;
		bad |= expect(get(&co->cluster_rounds),
			      get(&demo.cluster_rounds[c]),
			      "cluster rounds of a core", i);
		bad |= expect(get(&co->cluster_only),
			      get(&demo.cluster_only[c]),
			      "cluster-only rounds of a core", i);
		bad |= expect(get(&co->system_rounds), sys,
			      "system rounds of a core", i);
		bad |= expect(get(&co->actions), get(&co->leaf[0]),
			      "actions of a core (= committed calls)", i);
		bad |= expect(get(&co->leaf[0]), get(&co->cluster_rounds),
			      "committed calls of a core", i);
		bad |= expect(get(&co->system[0]), sys,
			      "system commits learned by a core", i);
	}
	return bad;
}

/* progress() - the line printed once a second. */
static void progress(double elapsed)
{
	printf("[%5.1f s] cluster rounds A %llu B %llu, system rounds %llu\n",
	       elapsed, (unsigned long long)get(&demo.cluster_rounds[0]),
	       (unsigned long long)get(&demo.cluster_rounds[1]),
	       (unsigned long long)get(&demo.system_rounds));
}

int main(int argc, char **argv)
{
	struct demo_config cfg;
	struct irq_source irq;
	uint64_t start, end, seed;
	uint32_t i;

	demo_command_line(argc, argv, &cli, &cfg);
	demo.per_cluster = cfg.count;
	demo.ncores = CLUSTERS * cfg.count;
	if (setup(&cfg))
		return 1;
	printf("coupled_domains_demo: %u clusters x %u cores, strategy %s, "
	       "%.1f s, seed %llu\n",
	       CLUSTERS, cfg.count, coupled_pthread_strategy_name(cfg.strategy),
	       cfg.seconds, (unsigned long long)cfg.seed);
	fflush(stdout);
	seed = cfg.seed;
	for (i = 0; i < demo.ncores; i++)
		demo.cores[i].rng = splitmix64(&seed);
	irq.rng = splitmix64(&seed);

	start = now_ns();
	for (i = 0; i < demo.ncores; i++)
		if (demo_spawn(&demo.cores[i].thread, core_main,
			       &demo.cores[i]))
			return 1;
	if (demo_pace(now_ns, start, cfg.seconds, &irq, irq_main, progress))
		return 1;
	/* Cores resting in a call look at the stop flag now. */
	(void)coupled_group_kick(&demo.system_group);
	for (i = 0; i < CLUSTERS; i++)
		(void)coupled_group_kick(&demo.cluster_group[i]);

	pthread_join(irq.thread, NULL);
	for (i = 0; i < demo.ncores; i++)
		pthread_join(demo.cores[i].thread, NULL);
	end = now_ns();

	summary(&cfg, (double)(end - start) / 1e9);
	return demo_result(check_end(), "per level: every round checked, same "
					"generation "
					"and state on every core, state = "
					"deepest all allow; "
					"every core of a cluster counted the "
					"same cluster "
					"rounds, every core the same system "
					"rounds");
}

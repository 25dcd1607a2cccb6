// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * coupled_domain_test.c - coupled domains (coupled/domain.h) in a kernel.
 *
 * The online CPUs 0..n-1 form a domain tree of `clusters` clusters of
 * consecutive CPUs under one system: with levels=3 (the default) each CPU
 * is a leaf of its own (level 0), its cluster is level 1 and the system
 * level 2; with levels=2 the cluster is the leaf (level 0) and the system
 * level 1.  Every group has one id per CPU under its node and pokes that
 * CPU; the safe state halts until the next interrupt, as in coupled_torture.
 *
 * One kthread bound to each CPU makes domain calls over and over, each with
 * interrupts disabled as cpuidle would, with a random request per level, at
 * refuse_pct a refusal (a negative request) of a random level above the
 * leaf, and per level at abort_pct a caller abort that fires after a random
 * number of polls and at deadline_pct a deadline a random few microseconds
 * ahead.  need_resched() adds the adapter's own aborts.
 *
 * The oracle, inside every action (the action runs once per committed call,
 * inside every committed level's round):
 *  - the call's shape: levels 0..depth-1 committed, the first level above
 *    them refused exactly when the request refused it, otherwise given up
 *    for a reason the call had (cannot, work, its armed abort, its
 *    deadline), the levels above it not tried; a committed level reports
 *    its round (generation, parameter, all the CPUs under the node);
 *  - per committed level, in a record per node and generation (oracle.h):
 *    every CPU under the node ran the round's action once, all saw the same
 *    parameter, the minimum of their requests for that level, and each
 *    CPU's generations of the node strictly increase (no round twice);
 *  - round-mates agree: after the level-k round's barrier each CPU compares
 *    the outcome of every level >= k (committed or not, and if committed
 *    the generation and parameter) with every other CPU under the node.
 * At the end, per level, the entries of all CPUs equal the rounds counted
 * (once per round) times the CPUs under each node, every CPU's actions equal
 * its committed calls, every node committed, and every CPU leaves every
 * level (coupled_domain_leave()) so that each group ends empty.
 *
 * Output: one line per CPU with its entries per level, one line per level
 * with its rounds and the outcomes of the CPUs' calls there, and
 *   coupled_domain_test: verdict PASS levels=3 cpus=4 clusters=2
 *   rounds=cpu:...,cluster:...,system:... calls=... protocol=settled
 *   errors=0 ms=...
 * The run ends when the system level committed `rounds` rounds.
 *
 * Parameters: rounds, levels, clusters, abort_pct, refuse_pct, deadline_pct,
 * timeout_s (watchdog), start_gen (every group's first generation, by
 * default 500 before the 32-bit wrap), wrong_reduce (test of the test: the
 * system group reduces with max while the checks expect min; must FAIL).
 */
#include <linux/bitops.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "coupled/domain.h"
#include "oracle.h"

static unsigned long rounds = 2000;
module_param(rounds, ulong, 0444);
MODULE_PARM_DESC(rounds, "system rounds to commit (default 2000)");
static unsigned int levels = 3;
module_param(levels, uint, 0444);
MODULE_PARM_DESC(levels, "3: cpu, cluster, system; 2: cluster, system");
static unsigned int clusters = 2;
module_param(clusters, uint, 0444);
MODULE_PARM_DESC(clusters, "clusters of consecutive CPUs (divides the CPUs)");
static unsigned int abort_pct = 3;
module_param(abort_pct, uint, 0444);
MODULE_PARM_DESC(abort_pct, "percent of calls with a caller abort, per level");
static unsigned int refuse_pct = 5;
module_param(refuse_pct, uint, 0444);
MODULE_PARM_DESC(refuse_pct, "percent of calls refusing a level above 0");
static unsigned int deadline_pct = 1;
module_param(deadline_pct, uint, 0444);
MODULE_PARM_DESC(deadline_pct, "percent of calls with a deadline, per level");
static unsigned int timeout_s = 120;
module_param(timeout_s, uint, 0444);
MODULE_PARM_DESC(timeout_s, "watchdog: give up (FAIL) after this many seconds");
static unsigned int start_gen = 4294966795u; /* U32_MAX - 500 */
module_param(start_gen, uint, 0444);
MODULE_PARM_DESC(start_gen, "every group's first generation (default: 500 "
			    "before the wrap)");
static bool wrong_reduce;
module_param(wrong_reduce, bool, 0444);
MODULE_PARM_DESC(wrong_reduce, "test of the test: the system reduces with "
			       "max (must FAIL)");

#define MAX_CPUS 32u  /* the checks collect ids in a 32-bit mask */
#define MAX_LEVELS 3u /* cpu, cluster, system */
#define RING 4u       /* round records per node, indexed by generation */
#define REQUESTS 8u   /* requests are 0..REQUESTS-1 */

/* What a call learned about one level, counted per CPU and level. */
enum outcome {
	OUT_COMMITTED,
	OUT_WORK,
	OUT_MEMBERSHIP,
	OUT_CALLER,
	OUT_TIMEOUT,
	OUT_REFUSED,
	OUT_CANNOT,
	OUT_NOT_TRIED,
	OUT_OTHER,
	OUTCOMES
};

/**
 * struct tnode - one node of the tree and its oracle state
 * @d: the domain node
 * @g: its group: one id per CPU under the node
 * @slots: @g's slots
 * @ring: round records, indexed by generation
 * @level: 0 for a leaf
 * @first: the first CPU under the node (the CPU of id 0)
 * @ncpus: CPUs under the node
 * @rounds: committed rounds, counted once each (by id 0)
 */
struct tnode {
	struct coupled_domain d;
	struct coupled_group g;
	struct coupled_slot *slots;
	struct oracle_round ring[RING];
	unsigned int level;
	unsigned int first;
	unsigned int ncpus;
	atomic_long_t rounds;
};

/**
 * struct abort_src - one level's caller abort of the current call
 * @armed: fires in this call
 * @polls: polls left before it fires
 */
struct abort_src {
	bool armed;
	unsigned int polls;
};

/**
 * struct snap - what a CPU's current action saw, level by level
 * @committed: the level committed
 * @gen: its generation, if committed
 * @param: its parameter, if committed
 *
 * Written by its CPU before the first barrier of the action, read by the
 * round-mates between the barriers (the barriers order it), never written
 * while a mate may read it (the mates read before their last barriers).
 */
struct snap {
	bool committed[MAX_LEVELS];
	u32 gen[MAX_LEVELS];
	s32 param[MAX_LEVELS];
};

/**
 * struct worker - one CPU's state (its kthread's only)
 * @rng: random numbers
 * @node: the CPU's node per level, leaf first
 * @cpu: the CPU
 * @leaf_id: its id in the leaf's group
 * @req: the current call's requests
 * @ab: the current call's caller aborts
 * @opts: the current call's abort sources
 * @last_gen: the last generation seen per level
 * @snap: what the current action saw (read by the round-mates)
 * @task: the kthread
 * @calls: domain calls made
 * @commits: calls that returned COUPLED_COMMITTED
 * @actions: actions run
 * @out: per level, the outcomes of the calls
 */
struct worker {
	struct rnd_state rng;
	struct tnode *node[MAX_LEVELS];
	unsigned int cpu;
	unsigned int leaf_id;
	int32_t req[MAX_LEVELS];
	struct abort_src ab[MAX_LEVELS];
	struct coupled_abort_opts opts[MAX_LEVELS];
	u32 last_gen[MAX_LEVELS];
	struct snap snap;
	struct task_struct *task;
	unsigned long calls, commits, actions;
	unsigned long out[MAX_LEVELS][OUTCOMES];
};

static struct tnode *nodes;
static unsigned int nr_nodes;
static struct worker *workers;
static unsigned int nr_cpus, nr_levels;
static unsigned long level_rounds[MAX_LEVELS]; /* report()'s sums */
static atomic_t errors = ATOMIC_INIT(0);
static atomic_t done = ATOMIC_INIT(0);
static DECLARE_COMPLETION(finished);

static const char *const level_names[2][MAX_LEVELS] = {
	{ "cluster", "system", "" },
	{ "cpu", "cluster", "system" },
};

/**
 * level_name() - a level's name in this tree
 * @k: the level
 *
 * Return: "cpu", "cluster" or "system".
 */
static const char *level_name(unsigned int k)
{
	return level_names[nr_levels == 3][k];
}

/**
 * fail() - record a failed check
 * @what: a static description
 * @a: first value to print
 * @b: second value to print
 *
 * Context: any (may run with interrupts disabled); prints only the first
 * few failures.
 */
static void fail(const char *what, long a, long b)
{
	if (atomic_inc_return(&errors) <= 5)
		pr_err("coupled_domain_test: check failed: %s (%ld, %ld)\n",
		       what, a, b);
}

/**
 * finish() - stop the run once, and wake the module's init
 *
 * Context: any.
 */
static void finish(void)
{
	if (!atomic_xchg(&done, 1))
		complete(&finished);
}

/**
 * outcome_index() - the counter of an outcome
 * @outcome: a struct coupled_domain_level outcome or a call's result
 *
 * Return: its enum outcome.
 */
static enum outcome outcome_index(int outcome)
{
	switch (outcome) {
	case COUPLED_COMMITTED: return OUT_COMMITTED;
	case COUPLED_ABORT_WORK: return OUT_WORK;
	case COUPLED_ABORT_MEMBERSHIP: return OUT_MEMBERSHIP;
	case COUPLED_ABORT_CALLER: return OUT_CALLER;
	case COUPLED_ABORT_TIMEOUT: return OUT_TIMEOUT;
	case COUPLED_DOMAIN_REFUSED: return OUT_REFUSED;
	case COUPLED_DOMAIN_CANNOT: return OUT_CANNOT;
	case COUPLED_DOMAIN_NOT_TRIED: return OUT_NOT_TRIED;
	default: return OUT_OTHER;
	}
}

/**
 * record_of() - the record of a node's round
 * @t: the node
 * @generation: the round's generation
 *
 * Return: the record.
 */
static struct oracle_round *record_of(struct tnode *t, u32 generation)
{
	return &t->ring[generation % RING];
}

/**
 * check_shape() - the outcomes of a committed call, level by level
 * @w: the calling CPU
 * @r: what the call learned
 */
static void check_shape(struct worker *w, const struct coupled_domain_round *r)
{
	unsigned int k, top = 0, d = r->depth;

	while (top + 1 < nr_levels && w->req[top + 1] >= 0)
		top++;
	if (d > top + 1)
		fail("a refused level committed", d, top);
	for (k = 0; k < nr_levels; k++) {
		const struct coupled_domain_level *l = &r->level[k];
		int o = l->outcome;

		if (l->committed != (k < d)) {
			fail("committed levels are not 0..depth-1", k, d);
			continue;
		}
		if (l->committed) {
			if (o != COUPLED_COMMITTED || !l->round ||
			    l->members != w->node[k]->ncpus ||
			    l->round->members != l->members ||
			    l->round->generation != l->generation ||
			    l->round->param != l->param)
				fail("a committed level's report", k, o);
		} else if (k > d) {
			if (o != COUPLED_DOMAIN_NOT_TRIED)
				fail("a level above the first given up tried",
				     k, o);
		} else if (k > top) {
			if (o != COUPLED_DOMAIN_REFUSED)
				fail("a refused level not reported refused", k,
				     o);
		} else if (!(o == COUPLED_DOMAIN_CANNOT ||
			     o == COUPLED_ABORT_WORK ||
			     (o == COUPLED_ABORT_CALLER &&
			      (w->ab[k].armed || atomic_read(&done))) ||
			     (o == COUPLED_ABORT_TIMEOUT &&
			      w->opts[k].deadline))) {
			fail("a level given up for no reason of the call", k,
			     o);
		}
	}
}

/**
 * check_level() - a committed level-@k round, after its barrier
 * @w: the calling CPU
 * @r: what the call learned
 * @k: the level
 *
 * Every CPU under the node recorded itself and wrote its snapshot before
 * the barrier.
 */
static void check_level(struct worker *w, const struct coupled_domain_round *r,
			unsigned int k)
{
	struct tnode *t = w->node[k];
	struct oracle_round *rec = record_of(t, r->level[k].generation);
	struct oracle_failure f;
	unsigned int i, j;
	u32 mask = 0;

	if (oracle_check(rec, coupled_reduce_min, &f))
		fail(f.what, f.a, f.b);
	for (i = 0; i < t->ncpus; i++)
		if (oracle_ran(rec, i))
			mask |= BIT(i);
	if (mask != (u32)(BIT_ULL(t->ncpus) - 1))
		fail("a round not run by every CPU under its node", k, mask);
	/* The round-mates agree on this level and every level above. */
	for (i = t->first; i < t->first + t->ncpus; i++) {
		const struct snap *s = &workers[i].snap;

		if (i == w->cpu)
			continue;
		for (j = k; j < nr_levels; j++) {
			if (s->committed[j] != w->snap.committed[j]) {
				fail("round-mates disagree whether a level "
				     "committed",
				     j, i);
				break;
			}
			if (s->committed[j] &&
			    (s->gen[j] != w->snap.gen[j] ||
			     s->param[j] != w->snap.param[j])) {
				fail("round-mates disagree on a level's round",
				     j, i);
				break;
			}
		}
	}
}

/**
 * domain_action() - the action of every domain call: check every level
 * @r: what the call learned
 * @ctx: the calling CPU's struct worker
 *
 * Context: interrupts disabled; inside the round of every committed level.
 * Every CPU of a committed level-k round makes the same barrier calls on
 * it: one after recording (levels bottom-up), one after its reads (levels
 * top-down).
 */
static void domain_action(const struct coupled_domain_round *r, void *ctx)
{
	struct worker *w = ctx;
	struct oracle_failure f;
	unsigned int k, d = r->depth;

	w->actions++;
	if (r->levels != nr_levels || d < 1 || d > nr_levels ||
	    r->core != w->leaf_id) {
		fail("the call's levels, depth or core", r->levels, d);
		return;
	}
	check_shape(w, r);
	for (k = 0; k < nr_levels; k++) {
		const struct coupled_domain_level *l = &r->level[k];

		w->out[k][outcome_index(l->outcome)]++;
		w->snap.committed[k] = l->committed;
		w->snap.gen[k] = l->committed ? l->generation : 0;
		w->snap.param[k] = l->committed ? l->param : 0;
	}
	for (k = 0; k < d; k++) {
		const struct coupled_domain_level *l = &r->level[k];

		/* Serial-number order: generations wrap at 2^32. */
		if ((s32)(l->generation - w->last_gen[k]) <= 0)
			fail("generation not increasing", k, l->generation);
		w->last_gen[k] = l->generation;
		if (oracle_record(record_of(w->node[k], l->generation),
				  l->round, w->req[k], NULL, &f))
			fail(f.what, f.a, f.b);
	}
	for (k = 0; k < d; k++) {
		/* Its acq_rel arrival publishes the records and snapshots. */
		coupled_barrier(r->level[k].round);
		check_level(w, r, k);
	}
	for (k = d; k--;) {
		const struct coupled_domain_level *l = &r->level[k];
		struct tnode *t = w->node[k];

		/* After it nobody reads this round's record or our snapshot. */
		coupled_barrier(l->round);
		if (l->round->self != 0)
			continue;
		oracle_reset(record_of(t, l->generation));
		/* Fully ordered; read after the kthreads stopped. */
		if (atomic_long_inc_return(&t->rounds) >= (long)rounds &&
		    k == nr_levels - 1)
			finish();
	}
}

/**
 * domain_should_abort() - a level's caller abort armed for this call
 * @arg: the level's struct abort_src
 * @self: the caller's id (unused)
 *
 * Return: true once the armed number of polls ran out, or when the run ends.
 */
static bool domain_should_abort(void *arg, uint32_t self)
{
	struct abort_src *a = arg;

	(void)self;
	/* Relaxed: a stop hint; a late look only polls once more. */
	if (atomic_read(&done))
		return true;
	if (!a->armed)
		return false;
	if (a->polls) {
		a->polls--;
		return false;
	}
	return true;
}

/**
 * domain_safe_state() - the safe state: halt until the next interrupt
 * @arg: unused
 *
 * Context: interrupts disabled on entry and on return; "sti; hlt" takes a
 * pending poke IPI at once (see coupled_torture.c).
 */
static void domain_safe_state(void *arg)
{
	(void)arg;
	safe_halt();
	local_irq_disable();
}

/**
 * domain_call() - one domain call of this CPU with random requests and
 *                 abort sources
 * @w: the CPU's worker
 *
 * Context: the CPU's kthread; interrupts disabled around the call.
 */
static void domain_call(struct worker *w)
{
	unsigned int k;
	int rc;

	for (k = 0; k < nr_levels; k++) {
		w->req[k] = (int32_t)(prandom_u32_state(&w->rng) % REQUESTS);
		w->ab[k].armed = prandom_u32_state(&w->rng) % 100 < abort_pct;
		w->ab[k].polls = prandom_u32_state(&w->rng) % 64;
		w->opts[k].deadline = 0;
		if (prandom_u32_state(&w->rng) % 100 < deadline_pct)
			w->opts[k].deadline =
				ktime_get_mono_fast_ns() +
				prandom_u32_state(&w->rng) % 50000;
	}
	if (prandom_u32_state(&w->rng) % 100 < refuse_pct)
		w->req[1 + prandom_u32_state(&w->rng) % (nr_levels - 1)] = -1;
	local_irq_disable();
	rc = coupled_domain_enter_opts(&w->node[0]->d, w->leaf_id, w->req,
				       domain_action, w, w->opts);
	local_irq_enable();
	w->calls++;
	if (rc == COUPLED_COMMITTED) {
		w->commits++;
		return;
	}
	if (rc != COUPLED_ABORT_WORK && rc != COUPLED_ABORT_TIMEOUT &&
	    rc != COUPLED_ABORT_CALLER)
		fail("unexpected result of a call", rc, w->cpu);
	w->out[0][outcome_index(rc)]++;
	for (k = 1; k < nr_levels; k++)
		w->out[k][OUT_NOT_TRIED]++;
}

/**
 * domain_thread() - one CPU's calls until the run ends
 * @arg: the CPU's struct worker
 *
 * Context: kthread bound to the CPU.
 * Return: 0.
 */
static int domain_thread(void *arg)
{
	struct worker *w = arg;

	while (!kthread_should_stop()) {
		if (atomic_read(&done)) {
			/* Wait for kthread_stop(), which wakes us. */
			set_current_state(TASK_INTERRUPTIBLE);
			if (!kthread_should_stop())
				schedule();
			__set_current_state(TASK_RUNNING);
			continue;
		}
		domain_call(w);
		cond_resched();
	}
	return 0;
}

/**
 * node_init() - set up one node and its group
 * @t: the node
 * @level: its level (0: a leaf)
 * @first: its first CPU
 * @ncpus: CPUs under it
 * @parent: its parent, set up already, or NULL for the root
 *
 * Return: 0 or a negative errno.
 */
static int node_init(struct tnode *t, unsigned int level, unsigned int first,
		     unsigned int ncpus, struct tnode *parent)
{
	bool top = level == nr_levels - 1;
	unsigned int i;

	t->level = level;
	t->first = first;
	t->ncpus = ncpus;
	atomic_long_set(&t->rounds, 0);
	for (i = 0; i < RING; i++)
		oracle_init(&t->ring[i]);
	t->slots = kcalloc(ncpus, sizeof(*t->slots), GFP_KERNEL);
	if (!t->slots)
		return -ENOMEM;
	if (coupled_group_init(&t->g, t->slots, ncpus, 0,
			       wrong_reduce && top ? coupled_reduce_max : NULL))
		return -EINVAL;
	coupled_linux_set_safe_state(coupled_group_adapter(&t->g),
				     domain_safe_state, NULL);
	for (i = 0; i < ncpus; i++)
		if (coupled_linux_set_cpu(coupled_participant_adapter(&t->g, i),
					  first + i))
			return -EINVAL;
	if (coupled_group_set_generation(&t->g, start_gen))
		return -EINVAL;
	if (coupled_domain_init(&t->d, &t->g, parent ? &parent->d : NULL))
		return -EINVAL;
	return 0;
}

/**
 * tree_init() - the tree: system, clusters, then (levels=3) one leaf per CPU
 *
 * Return: 0 or a negative errno.
 */
static int tree_init(void)
{
	unsigned int csize = nr_cpus / clusters, c, k;
	struct tnode *sys, *cl, *cpu_leaf;
	int ret;

	nr_nodes = 1 + clusters + (nr_levels == 3 ? nr_cpus : 0);
	nodes = kcalloc(nr_nodes, sizeof(*nodes), GFP_KERNEL);
	if (!nodes)
		return -ENOMEM;
	sys = &nodes[0];
	cl = &nodes[1];
	cpu_leaf = &nodes[1 + clusters];
	ret = node_init(sys, nr_levels - 1, 0, nr_cpus, NULL);
	for (c = 0; !ret && c < clusters; c++)
		ret = node_init(&cl[c], nr_levels - 2, c * csize, csize, sys);
	for (c = 0; !ret && nr_levels == 3 && c < nr_cpus; c++)
		ret = node_init(&cpu_leaf[c], 0, c, 1, &cl[c / csize]);
	if (ret)
		return ret;
	for (c = 0; c < nr_cpus; c++) {
		struct worker *w = &workers[c];

		w->cpu = c;
		w->leaf_id = nr_levels == 3 ? 0 : c % csize;
		if (nr_levels == 3)
			w->node[0] = &cpu_leaf[c];
		w->node[nr_levels - 2] = &cl[c / csize];
		w->node[nr_levels - 1] = sys;
		prandom_seed_state(&w->rng, 0xd0a1ULL + c);
		for (k = 0; k < nr_levels; k++) {
			w->last_gen[k] = start_gen;
			w->opts[k].should_abort = domain_should_abort;
			w->opts[k].abort_arg = &w->ab[k];
		}
	}
	return 0;
}

/**
 * tree_free() - free the groups' slots once their IPIs are done
 *
 * Context: process context, nobody in a call any more.
 */
static void tree_free(void)
{
	unsigned int n, i;

	for (n = 0; nodes && n < nr_nodes; n++) {
		struct tnode *t = &nodes[n];

		/* Every poke IPI has run before the slots go away. */
		for (i = 0; t->slots && i < t->ncpus; i++)
			coupled_linux_slot_quiesce(
				coupled_participant_adapter(&t->g, i));
		kfree(t->slots);
	}
	kfree(nodes);
	kfree(workers);
	nodes = NULL;
	workers = NULL;
}

/**
 * report() - per-CPU and per-level counts, and the end-of-run checks
 *
 * Context: after every kthread stopped.
 */
static void report(void)
{
	unsigned long entries[MAX_LEVELS] = { 0 }, want[MAX_LEVELS] = { 0 };
	unsigned long sum[MAX_LEVELS][OUTCOMES] = { { 0 } };
	unsigned int c, k, n, o;

	for (c = 0; c < nr_cpus; c++) {
		struct worker *w = &workers[c];

		if (w->actions != w->commits)
			fail("actions != committed calls", w->actions,
			     w->commits);
		for (k = 0; k < nr_levels; k++)
			for (o = 0; o < OUTCOMES; o++)
				sum[k][o] += w->out[k][o];
		pr_info("coupled_domain_test: cpu%u calls=%lu commits=%lu "
			"entries %s=%lu %s=%lu %s=%lu\n",
			c, w->calls, w->commits, level_name(0),
			w->out[0][OUT_COMMITTED], level_name(1),
			w->out[1][OUT_COMMITTED],
			nr_levels > 2 ? level_name(2) : "-",
			nr_levels > 2 ? w->out[2][OUT_COMMITTED] : 0);
	}
	for (n = 0; n < nr_nodes; n++) {
		struct tnode *t = &nodes[n];
		long got = atomic_long_read(&t->rounds);

		want[t->level] += (unsigned long)got * t->ncpus;
		if (!got)
			fail("a node never committed", t->level, t->first);
		if (coupled_group_members(&t->g))
			fail("members left after every CPU left",
			     coupled_group_members(&t->g), n);
	}
	for (k = 0; k < nr_levels; k++) {
		unsigned long rounds_k = 0;

		entries[k] = sum[k][OUT_COMMITTED];
		if (entries[k] != want[k])
			fail("entries != rounds x CPUs under the node",
			     entries[k], want[k]);
		for (n = 0; n < nr_nodes; n++)
			if (nodes[n].level == k)
				rounds_k += atomic_long_read(&nodes[n].rounds);
		level_rounds[k] = rounds_k;
		pr_info("coupled_domain_test: level %u (%s) rounds=%lu "
			"entries=%lu refused=%lu cannot=%lu caller=%lu "
			"work=%lu timeout=%lu not_tried=%lu other=%lu\n",
			k, level_name(k), rounds_k, entries[k],
			sum[k][OUT_REFUSED], sum[k][OUT_CANNOT],
			sum[k][OUT_CALLER], sum[k][OUT_WORK],
			sum[k][OUT_TIMEOUT], sum[k][OUT_NOT_TRIED],
			sum[k][OUT_MEMBERSHIP] + sum[k][OUT_OTHER]);
	}
}

/**
 * coupled_domain_test_init() - run the whole test and print the verdict
 *
 * Context: insmod; blocks (interruptibly) until the run ends.
 * Return: 0 once the verdict is printed (PASS or FAIL), or a negative errno
 * if the test could not be set up.
 */
static int __init coupled_domain_test_init(void)
{
	unsigned long start = jiffies, calls = 0;
	unsigned int c, n, k;
	char buf[64];
	size_t len = 0;
	long left;
	int ret = -EINVAL;

	nr_cpus = num_online_cpus();
	nr_levels = levels;
	if (nr_cpus > MAX_CPUS || nr_cpus > nr_cpu_ids || !clusters ||
	    nr_cpus % clusters || (levels != 2 && levels != 3) || !rounds)
		goto setup;
	for (c = 0; c < nr_cpus; c++)
		if (!cpu_online(c))
			goto setup;
	workers = kcalloc(nr_cpus, sizeof(*workers), GFP_KERNEL);
	ret = workers ? tree_init() : -ENOMEM;
	if (ret)
		goto setup;
	for (c = 0; c < nr_cpus; c++) {
		int rc = coupled_domain_join(&workers[c].node[0]->d,
					     workers[c].leaf_id);

		if (rc) {
			fail("join refused", rc, c);
			ret = -EINVAL;
			goto setup;
		}
	}
	for (n = 0; n < nr_nodes; n++)
		if (coupled_group_members(&nodes[n].g) != nodes[n].ncpus)
			fail("a node's members after the joins", n,
			     coupled_group_members(&nodes[n].g));
	/* The kthreads' creation publishes the tree to them. */
	for (c = 0; c < nr_cpus; c++) {
		struct task_struct *t = kthread_create_on_cpu(
			domain_thread, &workers[c], c, "coupled_domain/%u");

		if (IS_ERR(t)) {
			fail("cannot start a kthread", PTR_ERR(t), c);
			break;
		}
		workers[c].task = t;
	}
	for (c = 0; c < nr_cpus; c++)
		if (workers[c].task)
			wake_up_process(workers[c].task);

	left = wait_for_completion_interruptible_timeout(&finished,
							 timeout_s * HZ);
	if (left <= 0)
		fail("watchdog: the system level did not reach its rounds",
		     left, atomic_long_read(&nodes[0].rounds));
	finish();
	for (c = 0; c < nr_cpus; c++)
		if (workers[c].task)
			kthread_stop(workers[c].task);
	for (c = 0; c < nr_cpus; c++) {
		int rc = coupled_domain_leave(&workers[c].node[0]->d,
					      workers[c].leaf_id);

		if (rc)
			fail("leave refused", rc, c);
		calls += workers[c].calls;
	}
	report();
	for (k = nr_levels; k--;)
		len += scnprintf(buf + len, sizeof(buf) - len, "%s%s:%lu",
				 k == nr_levels - 1 ? "" : ",", level_name(k),
				 level_rounds[k]);
	pr_info("coupled_domain_test: verdict %s levels=%u cpus=%u "
		"clusters=%u rounds=%s calls=%lu protocol=%s errors=%d "
		"ms=%u%s\n",
		atomic_read(&errors) ? "FAIL" : "PASS", nr_levels, nr_cpus,
		clusters, buf, calls, COUPLED_PROTOCOL_NAME,
		atomic_read(&errors), jiffies_to_msecs(jiffies - start),
		wrong_reduce ? " (wrong_reduce)" : "");
	return 0;

setup:
	pr_err("coupled_domain_test: verdict FAIL setup error %d (cpus %u, "
	       "clusters %u, levels %u)\n",
	       ret, nr_cpus, clusters, levels);
	tree_free();
	return ret;
}

/**
 * coupled_domain_test_exit() - free the tree
 *
 * Context: rmmod.
 */
static void __exit coupled_domain_test_exit(void)
{
	tree_free();
}

module_init(coupled_domain_test_init);
module_exit(coupled_domain_test_exit);
MODULE_DESCRIPTION("coupled domains: cpu, cluster and system levels");
MODULE_LICENSE("Dual MIT/GPL");

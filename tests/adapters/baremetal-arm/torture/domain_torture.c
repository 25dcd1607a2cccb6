/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * domain_torture.c - the bare-metal torture of coupled domains
 * (coupled/domain.h): 4 cores in 2 clusters of 2, a 3-level tree.
 *
 *                 system (level 2): cores 0..3
 *                /                          \
 *     cluster 0 (level 1): 0..1     cluster 1 (level 1): 0..1 = 2..3
 *       /        \                    /        \
 *   leaf (0)   leaf (0)           leaf (0)   leaf (0)        (level 0)
 *
 * Every core is alone in its 1-core leaf, so every call that is not
 * aborted commits level 0 and then tries its cluster and the system, which
 * commit only when the cores under them happen to be in their calls at the
 * same time.  The clusters come from the cores' MPIDR affinity (Aff1) when
 * the machine gives two clusters of two (QEMU -smp 4,clusters=2,cores=2 on
 * a version that maps clusters to Aff1), else from the core index (cores
 * 0-1 and 2-3); the verdict says which (topology=mpidr|index).
 *
 * Each call, at random: a request per level (0..7), a refusal of the
 * cluster or the system level (a negative request there), pending work
 * (the leaf's work hook) and the caller's should_abort at the leaf, the
 * cluster and the system, each armed to fire after a random number of
 * polls.  Each core calls until TORTURE_LEAF_ROUNDS leaf rounds committed
 * in all.
 *
 * Membership changes during the rounds, and never by the changed core's
 * own hand: between two of its own calls (so inside no domain call of the
 * tree), about one call in TORTURE_CHANGE_EVERY, any core, in the domain
 * or out of it (a core that hot-plugs others), takes the changers' token
 * and changes another core chosen at random: coupled_domain_leave() if it
 * is in (while fewer than TORTURE_MAX_OUT are out), coupled_domain_join()
 * if it is out.  The changed core and the others keep calling, so the
 * change lands wherever their calls are: in a leaf round, waiting at a
 * cluster or the system, between a lower round's commit and the try above
 * it.  With a core of the other cluster out, the changer can be the only
 * core that a system round lacks: the window of a split (a cluster round
 * whose cores learn different outcomes for the system).  To widen that
 * window under single-threaded TCG, a core yields, one time in two,
 * before it tries a level above its leaf and before its arrival there
 * (the library's test hooks DOMAIN_TRY and ARRIVE).  A core's calls while
 * it is out return COUPLED_ENOENT (during a change,
 * COUPLED_ABORT_MEMBERSHIP), and it yields before the next.  From inside
 * the action, about one in TORTURE_EPERM_EVERY, the core also asks to
 * change a random core (itself included): that must be refused with
 * COUPLED_EPERM (the adapters name execution contexts).
 *
 * The oracle, on the target, per level (tests/common/domain_oracle.h, the
 * one of the hosted stress test and the kernel's domain test):
 *  - inside the action: the call's outcome vector is well formed and the
 *    action runs once per committed call; the first level that did not
 *    commit says why (REFUSED exactly when the core's request refused it,
 *    else CANNOT, work, the caller or a membership change); generations of
 *    each level grow;
 *  - every committed round of every node (the leaves, the clusters, the
 *    system) was reported by exactly its members, each once, all with the
 *    same generation and parameter, which is the minimum of their
 *    requests, and all with the same outcome of every level above (no
 *    split): the report that completes a round checks it;
 *  - a change asked for from inside a domain call returns COUPLED_EPERM;
 *  - after the run: no round left half reported; the cores' entries of
 *    each node equal the library's count of its commits; every core left
 *    and rejoined at least TORTURE_MIN_CHANGES times, every core made
 *    changes of others, and the EPERM check ran;
 *  - termination: a core that sees no leaf round commit anywhere for
 *    TORTURE_WATCHDOG_S seconds, while it waits in a call or between its
 *    calls, fails the run (a level that cannot commit kept cores waiting,
 *    or a change never ends), and core 0 fails it likewise if a core never
 *    finishes.
 *
 * Core 0 prints "domain_torture: PASS ... leaf=N cluster=N system=N ..."
 * or "domain_torture: FAIL ..." and exits through the board (semihosting:
 * the exit status is the verdict).  Built with -DCOUPLED_ARM_WFE_ONLY=1 the
 * groups run the direct protocol, otherwise the settled one (WFE both).
 * The tree is the shared builder's (tests/common/domain_tree.h).  A port
 * that defines TORTURE_DOMAIN_WAKE (the RISC-V board's) sets each group's
 * wait strategy with torture_setup_domain_wake() and the hart of each id;
 * the verdict then names it and counts the phase-1 waits (sleeps=), which
 * must not be 0.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "board.h"

/* The library's test hooks (coupled/hook.h): torture_hook(), below. */
static void torture_hook(const void *group, uint32_t self, int point);
#define COUPLED_HOOK(group, self, point) torture_hook((group), (self), (point))

#include "coupled/coupled.h"
#include "coupled/domain.h"

#define DOMAIN_TREE_MAX_CORES 4u
#define DOMAIN_TREE_MAX_NODES 7u
#define DOMAIN_ORACLE_MAX_MEMBERS 32u
#include "domain_oracle.h"
#include "domain_tree.h"
#ifdef BOARD_TORTURE_PORT
/* Another architecture's adapter calls (torture.c says more). */
#include BOARD_TORTURE_PORT
#else
#define TORTURE_YIELD() COUPLED_ARM_YIELD()
#define torture_set_work_hook coupled_arm_set_work_hook
#endif
#include "../../baremetal-common/torture_common.h"

#ifndef TORTURE_LEAF_ROUNDS
#define TORTURE_LEAF_ROUNDS 100000u
#endif
/* Every group starts this many rounds before the 32-bit generation wrap. */
#ifndef TORTURE_BEFORE_WRAP
#define TORTURE_BEFORE_WRAP 64u
#endif
#ifndef TORTURE_WATCHDOG_S
#define TORTURE_WATCHDOG_S 20u
#endif
#ifndef TORTURE_SEED
#define TORTURE_SEED 0u
#endif
/* A core's calls per attempt to make the next membership change, about. */
#ifndef TORTURE_CHANGE_EVERY
#define TORTURE_CHANGE_EVERY 48u
#endif
/* The most cores out of the domain at a time. */
#ifndef TORTURE_MAX_OUT
#define TORTURE_MAX_OUT 2u
#endif
/* The leaves and the joins each core must have had, each. */
#ifndef TORTURE_MIN_CHANGES
#define TORTURE_MIN_CHANGES 100u
#endif
/* A core's actions per change asked for from inside one; 0: none. */
#ifndef TORTURE_EPERM_EVERY
#define TORTURE_EPERM_EVERY 64u
#endif

#define NCORES 4u
#define NCLUSTERS 2u
#define LEVELS 3u
#define OUTCOMES 11 /* COUPLED_COMMITTED .. COUPLED_DOMAIN_NOT_TRIED */
#define RING 4u     /* oracle records per node, indexed by generation */

/* An abort armed for one call: fires once its poll count has run out. */
struct armed {
	bool on;
	uint32_t polls;
};

struct core {
	uint32_t cpu;     /* board index */
	uint32_t cluster; /* 0 or 1 */
	uint32_t pos;     /* position in the cluster, 0 or 1 */
	uint32_t global;  /* cluster * 2 + pos: the tree's core number */
	uint64_t mpidr;
	uint64_t rng;
	int32_t requests[LEVELS];
	struct armed work;
	struct armed caller[LEVELS];
	struct domain_oracle_call call;
	/* Watchdog: the last leaf count seen and when. */
	uint32_t seen_done;
	uint64_t seen_at;
	/* Written by this core only; read by core 0 after the finish. */
	uint32_t calls;
	uint32_t commits[LEVELS];
	uint32_t outcomes[LEVELS][OUTCOMES];
	uint32_t leaf_aborts[COUPLED_ABORT_REASONS];
	uint32_t out;     /* calls while out of the domain */
	uint32_t changes; /* changes of other cores made by this one */
	uint32_t eperm;   /* changes asked for inside the action, refused */
	bool have_gen[LEVELS];
	uint32_t last_gen[LEVELS];
} __attribute__((aligned(64)));

static struct domain_tree tree;
static struct domain_oracle_level rec[DOMAIN_TREE_MAX_NODES][RING];
static struct core cores[NCORES];
static uint32_t cpu_of[NCORES]; /* global core number -> board index */
static atomic_uint leaf_done;   /* committed leaf rounds, all cores */
static atomic_uint arrived, started, finished;
static uint32_t ncpus;
/*
 * The changers' token: its holder alone reads and writes the membership
 * state and the counts below (acquire on taking it, release on giving it
 * back).
 */
static atomic_flag change_token = ATOMIC_FLAG_INIT;
static bool is_out[NCORES];       /* per core (global number): out now */
static uint32_t nout;             /* cores out now */
static uint32_t left_n[NCORES];   /* leaves per core */
static uint32_t joined_n[NCORES]; /* joins per core */
static uint64_t seed, freq;
static const char *topology = "index";

/*
 * The hooks: a yield, one time in two, before a core tries a level above
 * its leaf and before its arrival at one, where single-threaded TCG would
 * otherwise rarely switch cores; there a change can land between a lower
 * round's commit and the try above it, or between direct's poll of its
 * abort sources and its arrival.
 */
static atomic_uint hook_draws;
#ifdef TORTURE_DOMAIN_WAKE
static atomic_uint wait_sleeps; /* waits in the port's strategy */
#endif

static void torture_hook(const void *group, uint32_t self, int point)
{
	uint32_t n;

	(void)self;
#ifdef TORTURE_DOMAIN_WAKE
	if (point == COUPLED_HOOK_WAIT_SLEEP) {
		/* relaxed: a count read after the finish's acquire. */
		atomic_fetch_add_explicit(&wait_sleeps, 1u,
					  memory_order_relaxed);
		return;
	}
#endif
	if (point == COUPLED_HOOK_ARRIVE) {
		for (n = 0; n < tree.nodes; n++)
			if ((const void *)&tree.group[n] == group)
				break;
		if (n == tree.nodes || tree.level[n] == 0u)
			return;
	} else if (point != COUPLED_HOOK_DOMAIN_TRY) {
		return;
	}
	/* relaxed: only a stream of draws, shared by the cores. */
	n = atomic_fetch_add_explicit(&hook_draws, 1u, memory_order_relaxed);
	if ((n * 2654435761u) >> 31)
		TORTURE_YIELD();
}

static __attribute__((noreturn)) void fail(uint32_t cpu, const char *what,
					   uint64_t a, uint64_t b)
{
	torture_fail("domain_torture", cpu, what, a, b, seed);
}

static uint32_t rnd(struct core *c, uint32_t bound)
{
	return torture_rnd(&c->rng, bound);
}

static uint64_t read_mpidr(void)
{
	uint64_t v;
#if defined(__riscv)
	/* mhartid: no cluster field, so the clusters go by index. */
	__asm__ __volatile__("csrr %0, mhartid" : "=r"(v));
#elif defined(__aarch64__)
	__asm__ __volatile__("mrs %0, mpidr_el1" : "=r"(v));
#else
	uint32_t w;

	__asm__ __volatile__("mrc p15, 0, %0, c0, c0, 5" : "=r"(w));
	v = w;
#endif
	return v;
}

/*
 * The watchdog, run from every poll of a waiting core: fail once no leaf
 * round committed anywhere for TORTURE_WATCHDOG_S seconds.
 */
static void watchdog(struct core *c)
{
	/* relaxed: a progress count; any recent value will do. */
	uint32_t done = atomic_load_explicit(&leaf_done, memory_order_relaxed);
	uint64_t now = board_counter();

	if (done != c->seen_done) {
		c->seen_done = done;
		c->seen_at = now;
	} else if (now - c->seen_at > freq * TORTURE_WATCHDOG_S) {
		fail(c->cpu,
		     "no leaf round committed for the watchdog's time"
		     " (a core waits forever)",
		     done, TORTURE_WATCHDOG_S);
	}
}

static bool fires(struct armed *a)
{
	if (!a->on)
		return false;
	if (a->polls == 0)
		return true;
	a->polls--;
	return false;
}

/* The leaf's work hook (polled at every level): armed pending work. */
static bool work_pending(void *arg, uint32_t self)
{
	struct core *c = (struct core *)arg;

	(void)self;
	watchdog(c);
	/*
	 * Let the other cores run here, 3 polls in 4: single-threaded TCG
	 * switches cores only at a WFE or YIELD (or every 100 ms), and a core
	 * alone in its leaf never waits there, so without this a core would
	 * run thousands of calls while the others of its cluster sit between
	 * two calls, and no level above the leaf would ever commit.  (Firmware
	 * reading its interrupt controller takes time too.)
	 */
	if (rnd(c, 4) != 0)
		TORTURE_YIELD();
	return fires(&c->work);
}

/* The caller's should_abort of one level: arg is its struct armed. */
static bool caller_abort(void *arg, uint32_t self)
{
	(void)self;
	return fires((struct armed *)arg);
}

static bool outcome_is_abort(int o)
{
	return o == COUPLED_DOMAIN_CANNOT || o == COUPLED_ABORT_WORK ||
	       o == COUPLED_ABORT_CALLER || o == COUPLED_ABORT_MEMBERSHIP;
}

static __attribute__((noreturn)) void
oracle_fail(struct core *c, const struct oracle_failure *f, uint32_t k)
{
	fail(c->cpu, f->what, ((uint64_t)k << 32) | (uint32_t)f->a,
	     (uint64_t)f->b);
}

#if TORTURE_EPERM_EVERY
/*
 * From inside the action: a change of any core of the tree, the caller
 * included, must be refused (it would wait for this very call).
 */
static void change_inside(struct core *c)
{
	uint32_t t = rnd(c, NCORES);
	int rc;

	if (rnd(c, 2))
		rc = coupled_domain_leave(tree.leaf[t], tree.id[t]);
	else
		rc = coupled_domain_join(tree.leaf[t], tree.id[t]);
	if (rc != COUPLED_EPERM)
		fail(c->cpu,
		     "a change from inside a domain call was not refused"
		     " with COUPLED_EPERM",
		     (uint64_t)(int64_t)rc, t);
	c->eperm++;
}
#endif

/* The action: check the levels of this call, report the committed ones. */
static void action(const struct coupled_domain_round *r, void *ctx)
{
	struct core *c = (struct core *)ctx;
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], k;
	struct oracle_failure f;

	if (domain_tree_path(&tree, c->global, node, id) != LEVELS ||
	    r->levels != LEVELS || r->core != 0u)
		fail(c->cpu, "bad round", r->levels, r->core);
	if (domain_oracle_shape(&c->call, r, c->requests, &f))
		oracle_fail(c, &f, r->depth);
	for (k = 0; k < LEVELS; k++) {
		const struct coupled_domain_level *l = &r->level[k];
		int o = l->outcome;

		if (o < 0 || o >= OUTCOMES)
			fail(c->cpu, "level outcome out of range", k,
			     (uint64_t)(int64_t)o);
		c->outcomes[k][o]++;
		if (k < r->depth) {
			if (c->have_gen[k] &&
			    (int32_t)(l->generation - c->last_gen[k]) <= 0)
				fail(c->cpu, "a level's generation went back",
				     k, l->generation);
			c->have_gen[k] = true;
			c->last_gen[k] = l->generation;
			c->commits[k]++;
		} else if (k == r->depth && o != COUPLED_DOMAIN_REFUSED &&
			   !outcome_is_abort(o)) {
			fail(c->cpu, "a level failed for no reason", k,
			     (uint64_t)(int64_t)o);
		}
	}
	if (r->level[0].param != c->requests[0])
		fail(c->cpu, "leaf parameter != the request", r->level[0].param,
		     (uint64_t)(int64_t)c->requests[0]);
	for (k = 0; k < r->depth; k++) {
		uint32_t n = domain_tree_index(&tree, node[k]);

		if (domain_oracle_report(&rec[n][r->level[k].generation % RING],
					 r, k, c->requests[k],
					 coupled_reduce_min, &f) < 0)
			oracle_fail(c, &f, k);
	}
#if TORTURE_EPERM_EVERY
	if (rnd(c, TORTURE_EPERM_EVERY) == 0)
		change_inside(c);
#endif
	/* relaxed: a count; read for the stop and by the watchdog. */
	atomic_fetch_add_explicit(&leaf_done, 1u, memory_order_relaxed);
}

/*
 * Between two of the caller's own calls, whether the caller is in the
 * domain or out of it: if no other core is changing, take another core,
 * chosen at random, out of every level, or put it back if it is out.  At
 * most TORTURE_MAX_OUT cores are out at a time.
 */
static void change(struct core *c)
{
	uint32_t t = rnd(c, NCORES - 1u);
	int rc;

	t += t >= c->global; /* any core but the caller */
	/* acquire: pairs with the last holder's release; the state is ours. */
	if (atomic_flag_test_and_set_explicit(&change_token,
					      memory_order_acquire))
		return;
	if (is_out[t] || nout < TORTURE_MAX_OUT) {
		if (is_out[t]) {
			rc = coupled_domain_join(tree.leaf[t], tree.id[t]);
			joined_n[t]++;
			nout--;
		} else {
			rc = coupled_domain_leave(tree.leaf[t], tree.id[t]);
			left_n[t]++;
			nout++;
		}
		if (rc != 0)
			fail(c->cpu, "a membership change refused",
			     (uint64_t)(int64_t)rc, t);
		is_out[t] = !is_out[t];
		c->changes++;
	}
	/* release: the state and the counts, for the next holder. */
	atomic_flag_clear_explicit(&change_token, memory_order_release);
}

static void run(struct core *c)
{
	struct coupled_abort_opts opts[LEVELS];
	struct oracle_failure f;
	uint32_t k;
	int rc;

	for (k = 0; k < LEVELS; k++) {
		opts[k].deadline = 0;
		opts[k].should_abort = caller_abort;
		opts[k].abort_arg = &c->caller[k];
	}
	/* relaxed: the stop needs no order, only an eventual value. */
	while (atomic_load_explicit(&leaf_done, memory_order_relaxed) <
	       TORTURE_LEAF_ROUNDS) {
		for (k = 0; k < LEVELS; k++) {
			c->requests[k] = (int32_t)rnd(c, 8);
			/* Refusals above the leaf, 1 call in 8 per level. */
			if (k && rnd(c, 8) == 0)
				c->requests[k] = -1;
			/* The leaf's own check rarely, the others more. */
			c->caller[k].on = rnd(c, k ? 16 : 64) == 0;
			c->caller[k].polls = rnd(c, 64);
		}
		c->work.on = rnd(c, 32) == 0;
		c->work.polls = rnd(c, 64);
		c->calls++;
		domain_oracle_call_begin(&c->call);
		rc = coupled_domain_enter_opts(tree.leaf[c->global], 0,
					       c->requests, action, c, opts);
		if (domain_oracle_call_end(&c->call, rc, &f))
			oracle_fail(c, &f, 0);
		if (rc == COUPLED_ENOENT) {
			c->out++; /* out of the domain for now */
			TORTURE_YIELD();
		} else if (rc < 0 || rc >= COUPLED_ABORT_REASONS) {
			fail(c->cpu, "domain call returned an error",
			     (uint64_t)(int64_t)rc, 0);
		} else if (rc != COUPLED_COMMITTED) {
			c->leaf_aborts[rc]++;
			TORTURE_YIELD(); /* as firmware would do its work */
		}
		if (rnd(c, TORTURE_CHANGE_EVERY) == 0)
			change(c);
		/* A change that never ends stops every leaf round. */
		watchdog(c);
	}
}

/* The shared builder's set-up of each group: generation, leaf work hook. */
static int group_setup(struct domain_tree *t, uint32_t n, void *arg)
{
	struct coupled_group *g = &t->group[n];
	int rc;

	(void)arg;
	rc = coupled_group_set_generation(g, 0u - TORTURE_BEFORE_WRAP);
	if (!rc && t->level[n] == 0u)
		rc = torture_set_work_hook(coupled_group_adapter(g),
					   work_pending,
					   &cores[cpu_of[t->first[n]]]);
#ifdef TORTURE_DOMAIN_WAKE
	/* The port's wait strategy; id i of the node is board core cpu_of[]. */
	if (!rc)
		rc = torture_setup_domain_wake(g, t->ncores[n],
					       &cpu_of[t->first[n]]);
#endif
	return rc;
}

/*
 * The clusters: by MPIDR Aff1 if the cores show exactly two values of it,
 * two cores each; else by index.
 */
static void map_topology(void)
{
	uint32_t i, j, n0 = 0;
	uint64_t a0 = (cores[0].mpidr >> 8) & 0xffu, a;

	for (i = 0; i < NCORES; i++)
		if (((cores[i].mpidr >> 8) & 0xffu) == a0)
			n0++;
	if (n0 == 2u) {
		topology = "mpidr";
		for (i = 0; i < NCORES; i++) {
			a = (cores[i].mpidr >> 8) & 0xffu;
			cores[i].cluster = a == a0 ? 0u : 1u;
		}
	} else {
		for (i = 0; i < NCORES; i++)
			cores[i].cluster = i / 2u;
	}
	for (i = 0; i < NCORES; i++) {
		cores[i].pos = 0;
		for (j = 0; j < i; j++)
			if (cores[j].cluster == cores[i].cluster)
				cores[i].pos++;
	}
}

/*
 * The tree: 2 clusters of 2 cores, a 1-core leaf per core; the tree's core
 * numbers are cluster * 2 + position, the board's follow the topology.
 */
static void build_tree(void)
{
	static const uint32_t per_cluster[NCLUSTERS] = { 2u, 2u };
	uint32_t i, n, j;
	int rc;

	for (i = 0; i < NCORES; i++) {
		cores[i].global = cores[i].cluster * 2u + cores[i].pos;
		cpu_of[cores[i].global] = i;
	}
	rc = domain_tree_build(&tree, NCLUSTERS, per_cluster, 1u, true,
			       group_setup, (void *)0);
	if (rc != 0)
		fail(0, "tree build", (uint64_t)(int64_t)rc, 0);
	for (n = 0; n < tree.nodes; n++)
		for (j = 0; j < RING; j++)
			domain_oracle_init(&rec[n][j]);
}

static uint32_t stats_commits(struct coupled_group *g)
{
	struct coupled_stats st;

	if (coupled_stats_read(g, &st) != 0)
		fail(0, "stats", 0, 0);
	/* The direct protocol has no ready phase to back out of. */
	if (!COUPLED_PROTOCOL_SETTLED && (st.retries || st.restarts))
		fail(0, "retries or restarts in the direct protocol",
		     st.retries, st.restarts);
	return st.commits;
}

/* The outcomes of a level that did not commit, as the report names them. */
static const struct {
	const char *key;
	int outcome;
} outcome_keys[] = {
	{ "refused", COUPLED_DOMAIN_REFUSED },
	{ "cannot", COUPLED_DOMAIN_CANNOT },
	{ "work", COUPLED_ABORT_WORK },
	{ "caller", COUPLED_ABORT_CALLER },
	{ "membership", COUPLED_ABORT_MEMBERSHIP },
	{ "not_tried", COUPLED_DOMAIN_NOT_TRIED },
};

static void report(uint64_t ticks)
{
	uint32_t i, k, o, n, j, leaf = 0, calls = 0, out = 0;
	uint32_t rounds[LEVELS], entries[DOMAIN_TREE_MAX_NODES];
	uint32_t lib_rounds[LEVELS];
	/* static: no memset from the compiler (clang's ARMv7 __aeabi_memclr). */
	static uint32_t tot[LEVELS][OUTCOMES];
	uint32_t leaf_ab = 0, aborts, eperm = 0, leaves = 0, joins = 0;
	struct oracle_failure f;

	/*
	 * Every core's counters: the acquire of every core's finish
	 * increment (app_main) ordered all their writes before us.
	 * Per node, the entries of its cores (a core enters a node's round
	 * once per commit of it) must be the library's count of its commits.
	 */
	for (k = 0; k < LEVELS; k++)
		rounds[k] = lib_rounds[k] = 0;
	for (n = 0; n < tree.nodes; n++) {
		entries[n] = 0;
		for (i = tree.first[n]; i < tree.first[n] + tree.ncores[n]; i++)
			entries[n] += cores[cpu_of[i]].commits[tree.level[n]];
		if (stats_commits(&tree.group[n]) != entries[n])
			fail(0, "a node's entries != library commits", n,
			     entries[n]);
		lib_rounds[tree.level[n]] += entries[n];
		for (j = 0; j < RING; j++) {
			if (domain_oracle_leftover(&rec[n][j], &f))
				fail(0, f.what, n, (uint64_t)f.a);
			rounds[tree.level[n]] +=
				domain_oracle_rounds(&rec[n][j]);
		}
	}
	for (i = 0; i < NCORES; i++) {
		struct core *c = &cores[i];

		leaf += c->commits[0];
		calls += c->calls;
		out += c->out;
		for (k = 0; k < LEVELS; k++)
			for (o = 0; o < OUTCOMES; o++)
				tot[k][o] += c->outcomes[k][o];
		for (o = 0; o < COUPLED_ABORT_REASONS; o++)
			leaf_ab += c->leaf_aborts[o];
		eperm += c->eperm;
		/*
		 * The token's last release, then the finish's, ordered the
		 * changers' counts before this read.
		 */
		leaves += left_n[i];
		joins += joined_n[i];
		/* Not vacuous: every core left, rejoined, changed others. */
		if (left_n[i] < TORTURE_MIN_CHANGES ||
		    joined_n[i] < TORTURE_MIN_CHANGES)
			fail(0, "a core left or rejoined too few times",
			     ((uint64_t)i << 32) | left_n[i], joined_n[i]);
		if (!cores[cpu_of[i]].changes)
			fail(0, "a core never changed another", i, 0);
	}
	if (leaf != atomic_load_explicit(&leaf_done, memory_order_relaxed) ||
	    leaf < TORTURE_LEAF_ROUNDS || rounds[0] != leaf)
		fail(0, "leaf rounds", leaf, rounds[0]);
	if (leaf + leaf_ab + out != calls)
		fail(0, "calls != commits + aborts + calls while out", calls,
		     leaf + leaf_ab + out);
	/* Not vacuous: both upper levels committed and were given up. */
	if (!rounds[1] || !rounds[2])
		fail(0, "an upper level never committed", rounds[1], rounds[2]);
#if TORTURE_EPERM_EVERY
	if (!eperm)
		fail(0, "no change was asked for from inside a call", 0, 0);
#endif
#ifdef TORTURE_DOMAIN_WAKE
	/* Not vacuous: the port's wait and wake carried rounds. */
	if (!atomic_load_explicit(&wait_sleeps, memory_order_relaxed))
		fail(0, "no core ever waited in the port's strategy", 0, 0);
#endif
	aborts = leaf_ab;
	for (k = 1; k < LEVELS; k++)
		aborts += tot[k][COUPLED_DOMAIN_CANNOT] +
			  tot[k][COUPLED_ABORT_WORK] +
			  tot[k][COUPLED_ABORT_CALLER] +
			  tot[k][COUPLED_ABORT_MEMBERSHIP];
	print_begin();
	board_puts("domain_torture: PASS arch=");
	board_puts(TORTURE_ARCH);
	board_puts(" atomics=");
	board_puts(TORTURE_ATOMICS);
	board_puts(" protocol=");
	board_puts(COUPLED_PROTOCOL_NAME);
	put_kv("cpus", ncpus);
	board_puts(" topology=");
	board_puts(topology);
	put_kv("leaf", leaf);
	put_kv("cluster", rounds[1]);
	put_kv("system", rounds[2]);
	put_kv("cluster_entries", lib_rounds[1]);
	put_kv("system_entries", lib_rounds[2]);
	put_kv("aborts", aborts);
	put_kv("leaf_aborts", leaf_ab);
	put_kv("calls", calls);
	put_kv("leaves", leaves);
	put_kv("joins", joins);
	board_puts(" per_core=");
	for (i = 0; i < NCORES; i++) {
		board_puts(i ? "," : "");
		board_put_u64(left_n[i]);
		board_puts("/");
		board_put_u64(joined_n[i]);
		board_puts("/");
		board_put_u64(cores[cpu_of[i]].changes);
	}
	put_kv("calls_out", out);
	put_kv("eperm", eperm);
	for (k = 1; k < LEVELS; k++) {
		board_puts(k == 1 ? " cluster_outcomes=" : " system_outcomes=");
		for (j = 0; j < sizeof(outcome_keys) / sizeof(outcome_keys[0]);
		     j++) {
			board_puts(j ? "," : "");
			board_puts(outcome_keys[j].key);
			board_puts(":");
			board_put_u64(tot[k][outcome_keys[j].outcome]);
		}
	}
	put_kv("ticks", ticks);
	put_kv("freq", freq);
	put_kv("seed", seed);
#ifdef TORTURE_DOMAIN_WAKE
	board_puts(" strategy=" TORTURE_DOMAIN_WAKE);
	put_kv("sleeps",
	       atomic_load_explicit(&wait_sleeps, memory_order_relaxed));
#endif
	board_puts("\n");
	print_end();
}

void app_main(uint32_t cpu)
{
	struct core *c = &cores[cpu];
	uint64_t t0;
	uint32_t i;

	if (cpu >= NCORES)
		return; /* cannot happen: BOARD_MAX_CPUS is 4 */
	c->cpu = cpu;
	c->mpidr = read_mpidr();
	/* release: publishes this core's MPIDR to core 0. */
	atomic_fetch_add_explicit(&arrived, 1u, memory_order_release);
	board_sev();
	if (cpu == 0) {
		ncpus = board_cpu_count();
		if (ncpus != NCORES)
			fail(0, "needs 4 cores", ncpus, NCORES);
		/* acquire: pairs with every core's release increment. */
		while (atomic_load_explicit(&arrived, memory_order_acquire) <
		       ncpus)
			board_wfe();
		seed = TORTURE_SEED ? TORTURE_SEED : board_counter();
		freq = board_counter_freq();
		map_topology();
		build_tree();
		print_begin();
		board_puts("domain_torture: start protocol=");
		board_puts(COUPLED_PROTOCOL_NAME);
		board_puts(" topology=");
		board_puts(topology);
		for (i = 0; i < NCORES; i++) {
			board_puts(" cpu");
			board_put_u64(i);
			board_puts("=mpidr:");
			board_put_hex(cores[i].mpidr);
			board_puts("/cluster:");
			board_put_u64(cores[i].cluster);
		}
		put_kv("leaf_rounds", TORTURE_LEAF_ROUNDS);
		print_start_end(seed);
	}
	/* Core 0 publishes the tree, the mapping and the seed. */
	torture_start(&started, cpu == 0, board_sev, board_wfe);
	c->rng = torture_rng_seed(seed, cpu);
	t0 = board_counter();
	c->seen_at = t0;
	run(c);

	/* release: publishes this core's counters to core 0. */
	atomic_fetch_add_explicit(&finished, 1u, memory_order_release);
	board_sev();
	if (cpu != 0)
		return;
	/* acquire: pairs with every core's release increment. */
	while (atomic_load_explicit(&finished, memory_order_acquire) < ncpus) {
		watchdog(c); /* a core that never finishes fails the run */
		board_wfe();
	}
	report(board_counter() - t0);
	board_exit(0);
}

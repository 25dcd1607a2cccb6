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
 * polls.  Each call runs until TORTURE_LEAF_ROUNDS leaf rounds committed
 * in all.
 *
 * The oracle, on the target, per level:
 *  - inside the action: the levels 0..depth-1 committed, each with its
 *    round, the member count of its node (1, 2, 4) and its parameter; the
 *    first level that did not commit says why (REFUSED exactly when the
 *    core's request refused it, else CANNOT, work or the caller), every
 *    level above it NOT_TRIED; generations of each level grow;
 *  - every committed cluster and system round (node, generation) is
 *    reported by every core under the node exactly once, all with the same
 *    generation and parameter, which is the minimum of their requests, and
 *    all with the same outcome (committed or not) of every level above:
 *    each core folds its report into the node's record; the core whose
 *    report completes the count checks the record and clears it (the
 *    node's next round commits only after every core of this one left the
 *    action, so the record is never shared by two rounds unless a core is
 *    missing from one, which the next round's check then sees);
 *  - after the run: each core's count of committed rounds of a level
 *    equals its node's round count (and the library's own count); no
 *    record is left half-filled;
 *  - termination: a core that sees no leaf round commit anywhere for
 *    TORTURE_WATCHDOG_S seconds while it waits fails the run (a level that
 *    cannot commit kept cores waiting), and core 0 fails it likewise if a
 *    core never finishes.
 *
 * Core 0 prints "domain_torture: PASS ... leaf=N cluster=N system=N ..."
 * or "domain_torture: FAIL ..." and exits through the board (semihosting:
 * the exit status is the verdict).  Built with -DCOUPLED_ARM_WFE_ONLY=1 the
 * groups run the direct protocol, otherwise the settled one (WFE both).
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "coupled/coupled.h"
#include "coupled/domain.h"

#ifdef BOARD_TORTURE_PORT
/* Another architecture's adapter calls (torture.c says more). */
#include BOARD_TORTURE_PORT
#else
#define TORTURE_YIELD() COUPLED_ARM_YIELD()
#define torture_set_work_hook coupled_arm_set_work_hook
#endif

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
#ifndef TORTURE_ARCH /* another architecture's board.h names its own */
#if defined(__aarch64__)
#define TORTURE_ARCH "aarch64"
#else
#define TORTURE_ARCH "armv7-a"
#endif
#if defined(__ARM_FEATURE_ATOMICS)
#define TORTURE_ATOMICS "lse"
#else
#define TORTURE_ATOMICS "exclusives"
#endif
#endif

#define NCORES 4u
#define NCLUSTERS 2u
#define LEVELS 3u
#define OUTCOMES 11 /* COUPLED_COMMITTED .. COUPLED_DOMAIN_NOT_TRIED */

/* An abort armed for one call: fires once its poll count has run out. */
struct armed {
	bool on;
	uint32_t polls;
};

struct core {
	uint32_t cpu;     /* board index */
	uint32_t cluster; /* 0 or 1 */
	uint32_t pos;     /* position in the cluster, 0 or 1 */
	uint64_t mpidr;
	uint64_t rng;
	int32_t requests[LEVELS];
	struct armed work;
	struct armed caller[LEVELS];
	/* Watchdog: the last leaf count seen and when. */
	uint32_t seen_done;
	uint64_t seen_at;
	/* Written by this core only; read by core 0 after the finish. */
	uint32_t calls;
	uint32_t call_actions; /* actions run in the current call */
	uint32_t commits[LEVELS];
	uint32_t outcomes[LEVELS][OUTCOMES];
	uint32_t leaf_aborts[COUPLED_ABORT_REASONS];
	bool have_gen[LEVELS];
	uint32_t last_gen[LEVELS];
} __attribute__((aligned(64)));

/*
 * One node's record of the round in flight: bit sets and AND/OR folds, so
 * that equality is and == or and no CAS loop is needed.
 */
struct record {
	atomic_uint count; /* reports so far */
	atomic_uint ran;   /* bit: the core (id in the node) reported */
	atomic_uint gen_and, gen_or;
	atomic_uint param_and, param_or;
	atomic_uint requests;            /* bit r: some core requested r */
	atomic_uint above_and, above_or; /* committed levels above, as bits */
	atomic_uint rounds;              /* rounds checked complete */
};

static struct coupled_group leaf_group[NCORES];
static struct coupled_slot leaf_slot[NCORES][1];
static struct coupled_domain leaf_node[NCORES];
static struct coupled_group cluster_group[NCLUSTERS];
static struct coupled_slot cluster_slot[NCLUSTERS][2];
static struct coupled_domain cluster_node[NCLUSTERS];
static struct coupled_group system_group;
static struct coupled_slot system_slot[NCORES];
static struct coupled_domain system_node;

static struct record cluster_rec[NCLUSTERS], system_rec;
static struct core cores[NCORES];
static atomic_uint leaf_done; /* committed leaf rounds, all cores */
static atomic_uint arrived, started, finished;
static atomic_flag print_lock = ATOMIC_FLAG_INIT;
static uint32_t ncpus;
static uint64_t seed, freq;
static const char *topology = "index";

static void print_begin(void)
{
	/* acquire: pairs with print_end()'s release; the UART is ours. */
	while (atomic_flag_test_and_set_explicit(&print_lock,
						 memory_order_acquire))
		TORTURE_YIELD();
}

static void print_end(void)
{
	/* release: our output is done before the next holder's. */
	atomic_flag_clear_explicit(&print_lock, memory_order_release);
}

static void put_kv(const char *key, uint64_t v)
{
	board_puts(" ");
	board_puts(key);
	board_puts("=");
	board_put_u64(v);
}

static __attribute__((noreturn)) void fail(uint32_t cpu, const char *what,
					   uint64_t a, uint64_t b)
{
	print_begin();
	board_puts("domain_torture: FAIL protocol=");
	board_puts(COUPLED_PROTOCOL_NAME);
	board_puts(" cpu ");
	board_put_u64(cpu);
	board_puts(": ");
	board_puts(what);
	put_kv("a", a);
	put_kv("b", b);
	put_kv("seed", seed);
	board_puts("\n");
	board_exit(1);
}

static uint32_t rnd(struct core *c, uint32_t bound)
{
	/* xorshift64*: a private generator per core. */
	c->rng ^= c->rng >> 12;
	c->rng ^= c->rng << 25;
	c->rng ^= c->rng >> 27;
	return (uint32_t)((c->rng * 2685821657736338717ull) >> 33) % bound;
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

static struct record *record_of(const struct core *c, uint32_t k)
{
	return k == 1 ? &cluster_rec[c->cluster] : &system_rec;
}

static void record_clear(struct record *rec)
{
	/*
	 * relaxed, every store: the clearing core is the last reporter of
	 * the round; the node's next round commits only after it left the
	 * action (the group's release/acquire), which orders these stores
	 * before the next round's reports.
	 */
	atomic_store_explicit(&rec->ran, 0u, memory_order_relaxed);
	atomic_store_explicit(&rec->gen_and, 0xffffffffu, memory_order_relaxed);
	atomic_store_explicit(&rec->gen_or, 0u, memory_order_relaxed);
	atomic_store_explicit(&rec->param_and, 0xffffffffu,
			      memory_order_relaxed);
	atomic_store_explicit(&rec->param_or, 0u, memory_order_relaxed);
	atomic_store_explicit(&rec->requests, 0u, memory_order_relaxed);
	atomic_store_explicit(&rec->above_and, 0xffffffffu,
			      memory_order_relaxed);
	atomic_store_explicit(&rec->above_or, 0u, memory_order_relaxed);
	atomic_store_explicit(&rec->count, 0u, memory_order_relaxed);
}

/*
 * One core's report of a committed level-k round (k >= 1); the report that
 * completes the count checks the round and clears the record.
 */
static void report_level(struct core *c, const struct coupled_domain_round *r,
			 uint32_t k)
{
	const struct coupled_domain_level *l = &r->level[k];
	struct record *rec = record_of(c, k);
	uint32_t want = k == 1 ? 2u : 4u, self = l->round->self;
	uint32_t above = 0, j, n, bit, g_and, g_or, p_and, p_or, a_and, a_or;
	uint32_t reqs, min;

	for (j = k + 1; j < r->levels; j++)
		if (r->level[j].committed)
			above |= 1u << j;
	if (self >= want)
		fail(c->cpu, "member id beyond the node", k, self);
	/* relaxed: atomicity alone makes the bit exact. */
	bit = atomic_fetch_or_explicit(&rec->ran, 1u << self,
				       memory_order_relaxed);
	if (bit & (1u << self))
		fail(c->cpu,
		     "reported a round twice (or a round lacked a core)", k,
		     l->generation);
	/* relaxed, the folds: the count's acq_rel orders them (below). */
	atomic_fetch_and_explicit(&rec->gen_and, l->generation,
				  memory_order_relaxed);
	atomic_fetch_or_explicit(&rec->gen_or, l->generation,
				 memory_order_relaxed);
	atomic_fetch_and_explicit(&rec->param_and, (uint32_t)l->param,
				  memory_order_relaxed);
	atomic_fetch_or_explicit(&rec->param_or, (uint32_t)l->param,
				 memory_order_relaxed);
	atomic_fetch_or_explicit(&rec->requests, 1u << c->requests[k],
				 memory_order_relaxed);
	atomic_fetch_and_explicit(&rec->above_and, above, memory_order_relaxed);
	atomic_fetch_or_explicit(&rec->above_or, above, memory_order_relaxed);
	/*
	 * acq_rel: each reporter's release orders its folds before its
	 * increment; the completer's acquire orders all of them before its
	 * checks.
	 */
	n = atomic_fetch_add_explicit(&rec->count, 1u, memory_order_acq_rel) +
	    1u;
	if (n > want)
		fail(c->cpu, "more reports than cores under the node", k, n);
	if (n < want)
		return;
	/* relaxed, the loads: ordered by the acquire above. */
	if (atomic_load_explicit(&rec->ran, memory_order_relaxed) !=
	    (1u << want) - 1u)
		fail(c->cpu, "a core of the node did not report the round", k,
		     atomic_load_explicit(&rec->ran, memory_order_relaxed));
	g_and = atomic_load_explicit(&rec->gen_and, memory_order_relaxed);
	g_or = atomic_load_explicit(&rec->gen_or, memory_order_relaxed);
	if (g_and != g_or)
		fail(c->cpu, "cores of one round saw different generations",
		     g_and, g_or);
	p_and = atomic_load_explicit(&rec->param_and, memory_order_relaxed);
	p_or = atomic_load_explicit(&rec->param_or, memory_order_relaxed);
	if (p_and != p_or)
		fail(c->cpu, "cores of one round saw different parameters",
		     p_and, p_or);
	reqs = atomic_load_explicit(&rec->requests, memory_order_relaxed);
	for (min = 0; min < 32u && !(reqs & (1u << min)); min++)
		;
	if (p_and != min)
		fail(c->cpu, "parameter != the minimum of the requests", p_and,
		     min);
	a_and = atomic_load_explicit(&rec->above_and, memory_order_relaxed);
	a_or = atomic_load_explicit(&rec->above_or, memory_order_relaxed);
	if (a_and != a_or)
		fail(c->cpu, "cores of one round disagree on a level above",
		     (uint64_t)k << 32 | a_and, a_or);
	/* relaxed: read by core 0 after the finish. */
	atomic_fetch_add_explicit(&rec->rounds, 1u, memory_order_relaxed);
	record_clear(rec);
}

static bool outcome_is_abort(int o)
{
	return o == COUPLED_DOMAIN_CANNOT || o == COUPLED_ABORT_WORK ||
	       o == COUPLED_ABORT_CALLER;
}

/* The action: check the levels of this call, report the committed ones. */
static void action(const struct coupled_domain_round *r, void *ctx)
{
	struct core *c = (struct core *)ctx;
	static const uint32_t members[LEVELS] = { 1u, 2u, 4u };
	uint32_t k;

	if (++c->call_actions != 1u)
		fail(c->cpu, "the action ran twice in one call", c->calls,
		     c->call_actions);
	if (r->core != 0u || r->levels != LEVELS || r->depth < 1u ||
	    r->depth > LEVELS)
		fail(c->cpu, "bad round", r->levels, r->depth);
	for (k = 0; k < LEVELS; k++) {
		const struct coupled_domain_level *l = &r->level[k];
		int o = l->outcome;

		if (o < 0 || o >= OUTCOMES)
			fail(c->cpu, "level outcome out of range", k,
			     (uint64_t)(int64_t)o);
		c->outcomes[k][o]++;
		if (k < r->depth) {
			if (!l->committed || o != COUPLED_COMMITTED ||
			    !l->round)
				fail(c->cpu,
				     "a level below depth not committed", k,
				     (uint64_t)(int64_t)o);
			if (l->members != members[k] ||
			    l->round->members != members[k] ||
			    l->param != l->round->param ||
			    l->generation != l->round->generation)
				fail(c->cpu, "a level's round disagrees", k,
				     l->members);
			if (c->requests[k] < 0)
				fail(c->cpu, "a refused level committed", k,
				     (uint64_t)(int64_t)c->requests[k]);
			if (c->have_gen[k] &&
			    (int32_t)(l->generation - c->last_gen[k]) <= 0)
				fail(c->cpu, "a level's generation went back",
				     k, l->generation);
			c->have_gen[k] = true;
			c->last_gen[k] = l->generation;
			c->commits[k]++;
			continue;
		}
		if (l->committed || l->round)
			fail(c->cpu, "a level above depth committed", k,
			     r->depth);
		if (k > r->depth) {
			if (o != COUPLED_DOMAIN_NOT_TRIED)
				fail(c->cpu,
				     "a level above the first failure "
				     "was tried",
				     k, (uint64_t)(int64_t)o);
		} else if (c->requests[k] < 0) {
			if (o != COUPLED_DOMAIN_REFUSED)
				fail(c->cpu, "a refused level not REFUSED", k,
				     (uint64_t)(int64_t)o);
		} else if (!outcome_is_abort(o)) {
			fail(c->cpu, "a level failed for no reason", k,
			     (uint64_t)(int64_t)o);
		}
	}
	if (r->level[0].param != c->requests[0])
		fail(c->cpu, "leaf parameter != the request", r->level[0].param,
		     (uint64_t)(int64_t)c->requests[0]);
	for (k = r->depth; k-- > 1u;)
		report_level(c, r, k);
	/* relaxed: a count; read for the stop and by the watchdog. */
	atomic_fetch_add_explicit(&leaf_done, 1u, memory_order_relaxed);
}

static void run(struct core *c)
{
	struct coupled_abort_opts opts[LEVELS];
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
		c->call_actions = 0;
		rc = coupled_domain_enter_opts(&leaf_node[c->cpu], 0,
					       c->requests, action, c, opts);
		if (rc < 0 || rc >= COUPLED_ABORT_REASONS)
			fail(c->cpu, "domain call returned an error",
			     (uint64_t)(int64_t)rc, 0);
		if (c->call_actions != (rc == COUPLED_COMMITTED ? 1u : 0u))
			fail(c->cpu, "action count != the call's commit",
			     c->call_actions, (uint64_t)(int64_t)rc);
		if (rc != COUPLED_COMMITTED) {
			c->leaf_aborts[rc]++;
			TORTURE_YIELD(); /* as firmware would do its work */
		}
	}
}

static void group_init(struct coupled_group *g, struct coupled_slot *s,
		       uint32_t n, struct coupled_domain *d,
		       struct coupled_domain *parent)
{
	if (coupled_group_init(g, s, n, n, NULL) != 0)
		fail(0, "group init", n, 0);
	if (coupled_group_set_generation(g, 0u - TORTURE_BEFORE_WRAP) != 0)
		fail(0, "set generation", n, 0);
	if (coupled_domain_init(d, g, parent) != 0)
		fail(0, "domain init", n, 0);
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

static void build_tree(void)
{
	uint32_t cl, p, i;

	group_init(&system_group, system_slot, NCORES, &system_node, NULL);
	for (cl = 0; cl < NCLUSTERS; cl++) {
		group_init(&cluster_group[cl], cluster_slot[cl], 2u,
			   &cluster_node[cl], &system_node);
		record_clear(&cluster_rec[cl]);
	}
	record_clear(&system_rec);
	/* Leaves in the order of their ids in the cluster. */
	for (cl = 0; cl < NCLUSTERS; cl++)
		for (p = 0; p < 2u; p++)
			for (i = 0; i < NCORES; i++) {
				if (cores[i].cluster != cl || cores[i].pos != p)
					continue;
				group_init(&leaf_group[i], leaf_slot[i], 1u,
					   &leaf_node[i], &cluster_node[cl]);
				if (torture_set_work_hook(
					    coupled_group_adapter(
						    &leaf_group[i]),
					    work_pending, &cores[i]) != 0)
					fail(0, "work hook", i, 0);
			}
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

static void report(uint64_t ticks)
{
	uint32_t i, k, o, cl, leaf = 0, calls = 0, rounds[NCLUSTERS + 1];
	/* static: no memset from the compiler (clang's ARMv7 __aeabi_memclr). */
	static uint32_t tot[LEVELS][OUTCOMES];
	uint32_t leaf_ab = 0, aborts;

	/*
	 * relaxed, every load: the acquire of every core's finish increment
	 * (app_main) ordered all their writes before us.
	 */
	for (cl = 0; cl < NCLUSTERS; cl++) {
		rounds[cl] = atomic_load_explicit(&cluster_rec[cl].rounds,
						  memory_order_relaxed);
		if (atomic_load_explicit(&cluster_rec[cl].count,
					 memory_order_relaxed))
			fail(0, "a cluster round reported by too few cores", cl,
			     atomic_load_explicit(&cluster_rec[cl].count,
						  memory_order_relaxed));
		/* The library counts a commit per member (2 per round). */
		if (stats_commits(&cluster_group[cl]) != 2u * rounds[cl])
			fail(0, "cluster rounds != library commits",
			     stats_commits(&cluster_group[cl]), rounds[cl]);
	}
	rounds[NCLUSTERS] =
		atomic_load_explicit(&system_rec.rounds, memory_order_relaxed);
	if (atomic_load_explicit(&system_rec.count, memory_order_relaxed))
		fail(0, "a system round reported by too few cores", 0,
		     atomic_load_explicit(&system_rec.count,
					  memory_order_relaxed));
	if (stats_commits(&system_group) != 4u * rounds[NCLUSTERS])
		fail(0, "system rounds != library commits",
		     stats_commits(&system_group), rounds[NCLUSTERS]);
	for (i = 0; i < NCORES; i++) {
		struct core *c = &cores[i];

		if (c->commits[1] != rounds[c->cluster])
			fail(i, "core's cluster commits != cluster rounds",
			     c->commits[1], rounds[c->cluster]);
		if (c->commits[2] != rounds[NCLUSTERS])
			fail(i, "core's system commits != system rounds",
			     c->commits[2], rounds[NCLUSTERS]);
		if (stats_commits(&leaf_group[i]) != c->commits[0])
			fail(i, "leaf commits != library commits",
			     c->commits[0], stats_commits(&leaf_group[i]));
		leaf += c->commits[0];
		calls += c->calls;
		for (k = 0; k < LEVELS; k++)
			for (o = 0; o < OUTCOMES; o++)
				tot[k][o] += c->outcomes[k][o];
		for (o = 0; o < COUPLED_ABORT_REASONS; o++)
			leaf_ab += c->leaf_aborts[o];
	}
	if (leaf != atomic_load_explicit(&leaf_done, memory_order_relaxed) ||
	    leaf < TORTURE_LEAF_ROUNDS)
		fail(0, "leaf rounds", leaf, TORTURE_LEAF_ROUNDS);
	if (leaf + leaf_ab != calls)
		fail(0, "calls != commits + aborts", calls, leaf + leaf_ab);
	/* Not vacuous: both upper levels committed and were given up. */
	if (!rounds[0] || !rounds[1] || !rounds[NCLUSTERS])
		fail(0, "an upper level never committed", rounds[0] + rounds[1],
		     rounds[NCLUSTERS]);
	aborts = leaf_ab;
	for (k = 1; k < LEVELS; k++)
		aborts += tot[k][COUPLED_DOMAIN_CANNOT] +
			  tot[k][COUPLED_ABORT_WORK] +
			  tot[k][COUPLED_ABORT_CALLER];
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
	put_kv("cluster", rounds[0] + rounds[1]);
	put_kv("cluster0", rounds[0]);
	put_kv("cluster1", rounds[1]);
	put_kv("system", rounds[NCLUSTERS]);
	put_kv("aborts", aborts);
	put_kv("leaf_aborts", leaf_ab);
	put_kv("calls", calls);
	for (k = 1; k < LEVELS; k++) {
		board_puts(k == 1 ? " cluster_outcomes=" : " system_outcomes=");
		board_puts("refused:");
		board_put_u64(tot[k][COUPLED_DOMAIN_REFUSED]);
		board_puts(",cannot:");
		board_put_u64(tot[k][COUPLED_DOMAIN_CANNOT]);
		board_puts(",work:");
		board_put_u64(tot[k][COUPLED_ABORT_WORK]);
		board_puts(",caller:");
		board_put_u64(tot[k][COUPLED_ABORT_CALLER]);
		board_puts(",not_tried:");
		board_put_u64(tot[k][COUPLED_DOMAIN_NOT_TRIED]);
	}
	put_kv("ticks", ticks);
	put_kv("freq", freq);
	put_kv("seed", seed);
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
		put_kv("seed", seed);
		board_puts("\n");
		print_end();
		/* release: publishes the tree, the mapping, the seed. */
		atomic_store_explicit(&started, 1u, memory_order_release);
		board_sev();
	} else {
		/* acquire: pairs with core 0's release store above. */
		while (!atomic_load_explicit(&started, memory_order_acquire))
			board_wfe();
	}
	c->rng = (seed ^ 0x9e3779b97f4a7c15ull) * (2u * cpu + 1u) | 1u;
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

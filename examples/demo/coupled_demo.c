/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled_demo.c - a cluster of N cores that can only power down together.
 *
 * Usage: coupled_demo [--workers N] [--seconds S]
 *                     [--strategy spin|futex|condvar] [--seed X]
 *
 * N worker threads (1..64, default 4) play the cores of one cluster.  Each
 * loops: a busy period of random length (simulated work, 0..2 ms), then it
 * goes idle.  An idle core asks for the deepest state it allows (1..3, read
 * as C1..C3, drawn at random, mostly deep) and calls coupled_enter_opts() with a phase-1 deadline of
 * 20 ms: if its siblings stay busy that long it gives up.  The reduction is
 * the minimum, the deepest state every core allows.
 *
 * A separate "interrupt" thread raises simulated work on random cores at
 * random times; a core waiting to power down aborts with COUPLED_ABORT_WORK,
 * clears the work and runs a busy period.
 *
 * The action is the coupled deep state:
 *   1. every core records what it saw (generation, parameter) and enters a
 *      barrier: cpu0 powers the cluster down only after every sibling is
 *      down, so the barrier is "cpu0 powers down last";
 *   2. the power-down can fail (a small random chance per core): the cores
 *      decide with coupled_vote() and, if any failed, come back up at once,
 *      together;
 *   3. otherwise the cluster stays down for a residency derived from the
 *      round's parameter and generation (the same on every core), and a
 *      second barrier brings the cores back up together.
 *
 * Checked while running: every core of a round saw the same generation and
 * parameter, the parameter is the minimum of all requests, generations grow,
 * every core got the same vote answer.  Checked at the end: every core ran
 * every round (the membership is fixed), the library's statistics agree with
 * the demo's own counts.  Exit status 0 if all holds, 1 if a check failed,
 * 2 for a bad command line.
 */
#define DEMO_NAME "coupled_demo"
#include "../common/demo_util.h"

#define MAX_WORKERS 64
#define SHALLOWEST 1              /* C1 */
#define DEEPEST 3                 /* C3 */
#define BUSY_MAX_NS 2000000u      /* a busy period: 0..2 ms */
#define IRQ_GAP_MAX_NS 3000000u   /* between two interrupts: 0..3 ms */
#define DEADLINE_NS 20000000u     /* phase-1 deadline: 20 ms */
#define RESIDENCY_UNIT_NS 300000u /* residency: up to 300 us per depth */
#define RESIDENCY_MIN_NS 20000u   /* ... plus 20 us */
#define VOTE_FAIL_PER_MILLE 5     /* a core's power-down fails: 0.5% */

/* The command line: --workers N is the cluster's size. */
static const struct demo_cli cli = { "--workers", "cores in the cluster",
				     MAX_WORKERS, 4, COUPLED_PTHREAD_FUTEX };

/* One core.  Counters are atomics: the main thread reads some of them
 * while the core runs (progress), all of them after the join. */
struct worker {
	pthread_t thread;
	uint32_t id;
	uint64_t rng;
	/* Written and read by this core's own thread only (its action runs
	 * in the same thread as its coupled_enter_opts() call). */
	uint64_t action_start;
	uint64_t action_end;
	uint32_t last_gen;
	bool have_gen;
	/* Statistics. */
	atomic_uint_fast64_t calls;
	atomic_uint_fast64_t commits; /* calls that returned COMMITTED */
	atomic_uint_fast64_t actions; /* times the action ran */
	atomic_uint_fast64_t aborts[COUPLED_ABORT_REASONS];
	atomic_uint_fast64_t vote_aborts; /* rounds this core saw vote abort */
	atomic_uint_fast64_t rdv_ns;      /* idle -> action start, committed */
	atomic_uint_fast64_t coupled_ns;  /* inside the action */
	atomic_uint_fast64_t safe_ns;     /* idle, not inside the action */
	atomic_uint_fast64_t busy_ns;
};

static struct {
	struct coupled_group group;
	struct coupled_slot slots[MAX_WORKERS];
	struct worker workers[MAX_WORKERS];
	uint32_t nworkers;

	/* Per core, for the cross-checks inside the action. */
	atomic_int request[MAX_WORKERS];        /* current request */
	atomic_uint_fast64_t seen[MAX_WORKERS]; /* generation << 32 | param */
	atomic_int vote_seen[MAX_WORKERS];      /* the vote answer it got */
	atomic_uint pending_irqs[MAX_WORKERS];  /* raised, not yet cleared */

	/* Cluster-wide counts, written by cpu0's action or by every core. */
	atomic_uint_fast64_t rounds;      /* committed rounds */
	atomic_uint_fast64_t vote_rounds; /* rounds aborted by the vote */
	atomic_uint_fast64_t depth[DEEPEST + 1];
	atomic_uint_fast64_t aborts_total;
	atomic_uint_fast64_t irqs;
} demo;

/* ---- small helpers ---------------------------------------------------- */

static uint64_t now_ns(void)
{
	return coupled_adapter_now(coupled_group_adapter(&demo.group));
}

static uint64_t pack(uint32_t generation, int32_t param)
{
	return (uint64_t)generation << 32 | (uint32_t)param;
}

/*
 * How long the cluster stays down: a function of the round only, so every
 * core computes the same value without talking to the others.  Deeper
 * states are entered for longer.
 */
static uint64_t residency_ns(uint32_t generation, int32_t param)
{
	uint64_t h = pack(generation, param);

	return RESIDENCY_MIN_NS +
	       rand_below(&h, (uint64_t)RESIDENCY_UNIT_NS * (uint64_t)param);
}

/* ---- the coupled deep state ------------------------------------------- */

static void deep_state(const struct coupled_round *round, void *ctx)
{
	struct worker *w = ctx;
	uint32_t n = demo.nworkers;
	uint64_t mine = pack(round->generation, round->param);
	int32_t min_request = DEEPEST + 1;
	bool failed_here;
	uint32_t i;
	int vote;

	w->action_start = now_ns();
	add(&w->actions, 1);

	if (round->self != w->id || round->members != n)
		fail("core %u: round says self %u, %u members (expected %u)",
		     w->id, round->self, round->members, n);
	if (round->param < SHALLOWEST || round->param > DEEPEST)
		fail("core %u: parameter %d out of range", w->id,
		     (int)round->param);
	if (w->have_gen && (int32_t)(round->generation - w->last_gen) <= 0)
		fail("core %u: generation %u after %u", w->id,
		     round->generation, w->last_gen);
	w->last_gen = round->generation;
	w->have_gen = true;

	/* Publish what this core saw; the barrier orders it before the
	 * siblings' reads, and nobody overwrites it before the next round,
	 * which needs this core again. */
	atomic_store_explicit(&demo.seen[w->id], mine, memory_order_relaxed);

	/* Every sibling is down: cpu0 powers the cluster down last. */
	(void)coupled_barrier(round);

	for (i = 0; i < n; i++) {
		uint64_t theirs = atomic_load_explicit(&demo.seen[i],
						       memory_order_relaxed);
		/* Stable: every core is inside the call that made it. */
		int32_t req = atomic_load_explicit(&demo.request[i],
						   memory_order_relaxed);

		if (theirs != mine)
			fail("core %u saw (gen %u, C%d), core %u saw (gen %u, "
			     "C%d)",
			     w->id, (uint32_t)(mine >> 32), (int)(int32_t)mine,
			     i, (uint32_t)(theirs >> 32), (int)(int32_t)theirs);
		if (req < min_request)
			min_request = req;
	}
	if (min_request != round->param)
		fail("core %u: parameter C%d but the deepest state all allow "
		     "is C%d",
		     w->id, (int)round->param, (int)min_request);
	if (round->self == 0 && round->param >= SHALLOWEST &&
	    round->param <= DEEPEST)
		add(&demo.depth[round->param], 1);

	/* Did the power-down work here?  Abort together if not. */
	failed_here = rand_below(&w->rng, 1000) < VOTE_FAIL_PER_MILLE;
	vote = coupled_vote(round, failed_here);
	if (vote < 0)
		fail("core %u: coupled_vote() returned %d", w->id, vote);
	atomic_store_explicit(&demo.vote_seen[w->id], vote,
			      memory_order_relaxed);
	if (vote == 1) {
		add(&w->vote_aborts, 1);
		if (round->self == 0)
			add(&demo.vote_rounds, 1);
	} else {
		/* The cluster is down; every core sleeps equally long. */
		sleep_ns(residency_ns(round->generation, round->param));
	}

	/* Wake-up: the cores come back up together. */
	(void)coupled_barrier(round);
	for (i = 0; i < n; i++) {
		int theirs = atomic_load_explicit(&demo.vote_seen[i],
						  memory_order_relaxed);

		if (theirs != vote)
			fail("core %u got vote %d, core %u got %d", w->id, vote,
			     i, theirs);
	}

	if (round->self == 0)
		add(&demo.rounds, 1);
	w->action_end = now_ns();
}

/* ---- cores and the interrupt source ----------------------------------- */

static bool should_abort(void *arg, uint32_t self)
{
	(void)arg;
	(void)self;
	return atomic_load_explicit(&demo_stop, memory_order_relaxed);
}

/* The "interrupt handler": acknowledge every interrupt raised so far. */
static void handle_irqs(struct worker *w)
{
	struct coupled_adapter_slot *as =
		coupled_participant_adapter(&demo.group, w->id);
	unsigned int n = atomic_exchange_explicit(&demo.pending_irqs[w->id], 0u,
						  memory_order_relaxed);

	while (n--)
		coupled_pthread_clear_work(as);
}

static void busy_period(struct worker *w)
{
	uint64_t t = rand_below(&w->rng, BUSY_MAX_NS + 1u);

	sleep_ns(t);
	add(&w->busy_ns, t);
}

static int32_t pick_request(struct worker *w)
{
	uint64_t r = rand_below(&w->rng, 10);

	return r < 1 ? 1 : r < 4 ? 2 : 3;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct coupled_abort_opts opts;

	memset(&opts, 0, sizeof(opts));
	opts.should_abort = should_abort;

	while (!atomic_load_explicit(&demo_stop, memory_order_relaxed)) {
		int32_t request;
		uint64_t idle_start, idle_end;
		int ret;

		busy_period(w);
		if (atomic_load_explicit(&demo_stop, memory_order_relaxed))
			break;

		/* Go idle: how deep may this core go right now?  Mostly
		 * deep (C3 60%, C2 30%, C1 10%); the cluster goes only as
		 * deep as its shallowest core allows. */
		request = pick_request(w);
		atomic_store_explicit(&demo.request[w->id], request,
				      memory_order_relaxed);
		idle_start = now_ns();
		opts.deadline = idle_start + DEADLINE_NS;
		ret = coupled_enter_opts(&demo.group, w->id, request,
					 deep_state, w, &opts);
		idle_end = now_ns();
		add(&w->calls, 1);

		if (ret == COUPLED_COMMITTED) {
			add(&w->commits, 1);
			add(&w->rdv_ns, w->action_start - idle_start);
			add(&w->coupled_ns, w->action_end - w->action_start);
			add(&w->safe_ns, (w->action_start - idle_start) +
						 (idle_end - w->action_end));
		} else if (ret > 0 && ret < COUPLED_ABORT_REASONS) {
			add(&w->aborts[ret], 1);
			add(&demo.aborts_total, 1);
			add(&w->safe_ns, idle_end - idle_start);
		} else {
			fail("core %u: coupled_enter_opts() returned %d (%s)",
			     w->id, ret, coupled_strerror(ret));
			break;
		}
		/* Interrupts that came in while idle are handled now, in
		 * the next busy period. */
		handle_irqs(w);
	}
	return NULL;
}

static void *irq_main(void *arg)
{
	struct irq_source *src = arg;
	struct coupled_adapter_group *ag = coupled_group_adapter(&demo.group);

	while (!atomic_load_explicit(&demo_stop, memory_order_relaxed)) {
		uint32_t id;

		sleep_ns(rand_below(&src->rng, IRQ_GAP_MAX_NS + 1u));
		id = (uint32_t)rand_below(&src->rng, demo.nworkers);
		/* Raise first, count second: the core never clears work
		 * that was not raised yet. */
		coupled_pthread_raise_work(
			ag, coupled_participant_adapter(&demo.group, id), id);
		atomic_fetch_add_explicit(&demo.pending_irqs[id], 1u,
					  memory_order_relaxed);
		add(&demo.irqs, 1);
	}
	return NULL;
}

/* ---- command line ----------------------------------------------------- */

/* ---- main --------------------------------------------------------------- */

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double us(uint64_t ns, uint64_t count)
{
	return count ? (double)ns / (double)count / 1000.0 : 0.0;
}

static int check_end(const struct coupled_stats *st)
{
	uint64_t rounds = get(&demo.rounds);
	uint64_t vote_rounds = get(&demo.vote_rounds);
	uint64_t aborts[COUPLED_ABORT_REASONS] = { 0 };
	uint64_t commits = 0;
	uint32_t i, r;
	int bad = 0;

	for (i = 0; i < demo.nworkers; i++) {
		struct worker *w = &demo.workers[i];

		/* The membership never changes: every core is in every
		 * round, and ran the action exactly when it committed. */
		if (get(&w->commits) != rounds || get(&w->actions) != rounds) {
			fprintf(stderr,
				"coupled_demo: CHECK FAILED: core %u committed "
				"%llu, ran the action %llu times, rounds "
				"%llu\n",
				i, (unsigned long long)get(&w->commits),
				(unsigned long long)get(&w->actions),
				(unsigned long long)rounds);
			bad = 1;
		}
		if (get(&w->vote_aborts) != vote_rounds) {
			fprintf(stderr,
				"coupled_demo: CHECK FAILED: core %u saw %llu "
				"vote aborts, cpu0 %llu\n",
				i, (unsigned long long)get(&w->vote_aborts),
				(unsigned long long)vote_rounds);
			bad = 1;
		}
		commits += get(&w->commits);
		for (r = 1; r < COUPLED_ABORT_REASONS; r++)
			aborts[r] += get(&w->aborts[r]);
	}
	if (st->commits != commits) {
		fprintf(stderr,
			"coupled_demo: CHECK FAILED: library counted %u "
			"commits, cores %llu\n",
			st->commits, (unsigned long long)commits);
		bad = 1;
	}
	for (r = 1; r < COUPLED_ABORT_REASONS; r++) {
		if (st->aborts[r] != aborts[r]) {
			fprintf(stderr,
				"coupled_demo: CHECK FAILED: %s: library %u, "
				"cores %llu\n",
				coupled_strerror((int)r), st->aborts[r],
				(unsigned long long)aborts[r]);
			bad = 1;
		}
	}
	return bad;
}

static void summary(const struct demo_config *cfg,
		    const struct coupled_stats *st, double elapsed)
{
	uint64_t rounds = get(&demo.rounds);
	uint64_t commits = 0, rdv = 0, coupled = 0, safe = 0;
	uint64_t aborts[COUPLED_ABORT_REASONS] = { 0 };
	uint32_t i, r;
	int d;

	for (i = 0; i < demo.nworkers; i++) {
		struct worker *w = &demo.workers[i];

		commits += get(&w->commits);
		rdv += get(&w->rdv_ns);
		coupled += get(&w->coupled_ns);
		safe += get(&w->safe_ns);
		for (r = 1; r < COUPLED_ABORT_REASONS; r++)
			aborts[r] += get(&w->aborts[r]);
	}

	printf("\n=== summary: %u cores, %s, %.1f s, seed %llu ===\n",
	       cfg->count, coupled_pthread_strategy_name(cfg->strategy),
	       elapsed, (unsigned long long)cfg->seed);
	printf("coupled entries (committed rounds): %llu (%.0f/s)\n",
	       (unsigned long long)rounds,
	       elapsed > 0 ? (double)rounds / elapsed : 0.0);
	printf("aborted calls (all cores):\n");
	for (r = 1; r < COUPLED_ABORT_REASONS; r++)
		printf("  %-26s %llu\n", coupled_strerror((int)r),
		       (unsigned long long)aborts[r]);
	printf("simulated interrupts raised:        %llu\n",
	       (unsigned long long)get(&demo.irqs));
	printf("library stats: attempts %u, commits %u, retries %u, restarts "
	       "%u\n",
	       st->attempts, st->commits, st->retries, st->restarts);
	printf("vote-aborted rounds (power-down failed, aborted together): "
	       "%llu\n",
	       (unsigned long long)get(&demo.vote_rounds));
	printf("mean time to rendezvous: %.1f us (committed calls)\n",
	       us(rdv, commits));
	printf("idle time: %.1f%% in the coupled state, %.1f%% in the safe "
	       "state (%.3f s idle in total)\n",
	       pct(coupled, coupled + safe), pct(safe, coupled + safe),
	       (double)(coupled + safe) / 1e9);
	printf("deepest state reached:");
	for (d = SHALLOWEST; d <= DEEPEST; d++)
		printf("  C%d %llu", d,
		       (unsigned long long)get(&demo.depth[d]));
	printf("\n");

	if (demo.nworkers > 16) {
		printf("(per-core table left out for more than 16 cores)\n");
		return;
	}
	printf("core  commits   aborts  rdv_us  coupled%%  safe%%  busy_s\n");
	for (i = 0; i < demo.nworkers; i++) {
		struct worker *w = &demo.workers[i];
		uint64_t c = get(&w->coupled_ns), s = get(&w->safe_ns);
		uint64_t a = 0;

		for (r = 1; r < COUPLED_ABORT_REASONS; r++)
			a += get(&w->aborts[r]);
		printf("%4u %8llu %8llu %7.1f %8.1f %6.1f %7.3f\n", i,
		       (unsigned long long)get(&w->commits),
		       (unsigned long long)a,
		       us(get(&w->rdv_ns), get(&w->commits)), pct(c, c + s),
		       pct(s, c + s), (double)get(&w->busy_ns) / 1e9);
	}
}

/* progress() - the line printed once a second. */
static void progress(double elapsed)
{
	printf("[%5.1f s] coupled entries %llu, aborts %llu\n", elapsed,
	       (unsigned long long)get(&demo.rounds),
	       (unsigned long long)get(&demo.aborts_total));
}

int main(int argc, char **argv)
{
	struct demo_config cfg;
	struct irq_source irq;
	struct coupled_stats st;
	uint64_t start, end, seed;
	uint32_t i;
	int ret;

	demo_command_line(argc, argv, &cli, &cfg);
	demo.nworkers = cfg.count;
	atomic_init(&demo_stop, false);
	atomic_init(&demo_failed, false);
	atomic_init(&demo.rounds, 0);
	atomic_init(&demo.vote_rounds, 0);
	atomic_init(&demo.aborts_total, 0);
	atomic_init(&demo.irqs, 0);
	for (i = 0; i <= DEEPEST; i++)
		atomic_init(&demo.depth[i], 0);

	ret = coupled_group_init(&demo.group, demo.slots, cfg.count, cfg.count,
				 coupled_reduce_min);
	if (ret) {
		fprintf(stderr, "coupled_demo: coupled_group_init: %s\n",
			coupled_strerror(ret));
		return 1;
	}
	coupled_pthread_set_strategy(coupled_group_adapter(&demo.group),
				     cfg.strategy);

	seed = cfg.seed;
	for (i = 0; i < cfg.count; i++) {
		struct worker *w = &demo.workers[i];
		uint32_t r;

		w->id = i;
		w->rng = splitmix64(&seed);
		w->have_gen = false;
		w->last_gen = 0;
		w->action_start = w->action_end = 0;
		atomic_init(&w->calls, 0);
		atomic_init(&w->commits, 0);
		atomic_init(&w->actions, 0);
		for (r = 0; r < COUPLED_ABORT_REASONS; r++)
			atomic_init(&w->aborts[r], 0);
		atomic_init(&w->vote_aborts, 0);
		atomic_init(&w->rdv_ns, 0);
		atomic_init(&w->coupled_ns, 0);
		atomic_init(&w->safe_ns, 0);
		atomic_init(&w->busy_ns, 0);
		atomic_init(&demo.request[i], DEEPEST);
		atomic_init(&demo.seen[i], 0);
		atomic_init(&demo.vote_seen[i], 0);
		atomic_init(&demo.pending_irqs[i], 0u);
	}
	irq.rng = splitmix64(&seed);

	printf("coupled_demo: %u cores, strategy %s, %.1f s, seed %llu\n",
	       cfg.count, coupled_pthread_strategy_name(cfg.strategy),
	       cfg.seconds, (unsigned long long)cfg.seed);
	fflush(stdout);

	start = now_ns();
	for (i = 0; i < cfg.count; i++)
		if (demo_spawn(&demo.workers[i].thread, worker_main,
			       &demo.workers[i]))
			return 1;
	if (demo_pace(now_ns, start, cfg.seconds, &irq, irq_main, progress))
		return 1;

	pthread_join(irq.thread, NULL);
	for (i = 0; i < cfg.count; i++)
		pthread_join(demo.workers[i].thread, NULL);
	end = now_ns();

	coupled_stats_read(&demo.group, &st);
	summary(&cfg, &st, (double)(end - start) / 1e9);
	return demo_result(check_end(&st), "every round checked: same "
					   "generation and state on "
					   "every core, state = deepest all "
					   "allow, same vote");
}

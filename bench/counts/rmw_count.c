/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * rmw_count.c - atomic read-modify-writes per participant per committed
 * round, from an instrumented build: COUPLED_ATOMIC_ON_RMW() bumps a
 * thread-local counter on every RMW the library (and the pthread adapter,
 * which uses the same atomics layer) performs; the seed baseline is linked in
 * its SEED_COUNT_RMW build.
 *
 * Usage: bench_rmw_count [--rounds R]
 *
 * For 1, 2 and 4 threads (one participant each) and each implementation,
 * every thread runs R committed rounds (the spin strategy with more than one
 * thread R/20, at least 50: pure spinning needs a CPU per participant); the
 * program prints one JSON object: {"rounds": R, "results": [{"impl",
 * "threads", "rounds", "rmw_per_round", "retries", "restarts", "backouts",
 * "missed_calls"}, ...]}.  Counts do not depend on timing
 * except through retries, restarts and back-outs, which are reported.
 * "seed_2012_loop" is the seed's ready loop as it was (seed_baseline.h):
 * its missed_calls are calls that skipped a committed round.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local unsigned long rmw_count;
#define COUPLED_ATOMIC_ON_RMW() ((void)rmw_count++)

#include "coupled/coupled.h"

#include "baseline/seed_baseline.h"

#define MAXT 8

static struct coupled_group group;
static struct coupled_slot slots[MAXT];
static struct seed_group seed;
static seed_atomic_u32 seed_stop;
static unsigned long rounds = 20000;
/* Rounds of the current measurement (fewer for pure spinning). */
static unsigned long cur_rounds;

struct worker {
	pthread_t thread;
	uint32_t id;
	int seed_mode;
	unsigned long rmws, backouts, failed, stopped;
};

static void empty_action(const struct coupled_round *r, void *ctx)
{
	(void)r;
	(void)ctx;
}

static void seed_action(void *ctx)
{
	(void)ctx;
}

static void *worker_main(void *arg)
{
	struct worker *w = (struct worker *)arg;
	unsigned long i;

	rmw_count = 0;
	for (i = 0; i < cur_rounds; i++) {
		if (w->seed_mode) {
			if (seed_enter(&seed, seed_action, NULL) !=
			    SEED_COMMITTED)
				w->stopped++;
		} else if (coupled_enter(&group, w->id, 0, empty_action,
					 NULL) != COUPLED_COMMITTED) {
			w->failed++;
		}
	}
	/* The first to finish lets a participant left behind leave. */
	if (w->seed_mode)
		atomic_store(&seed_stop, 1u);
	w->rmws = w->seed_mode ? seed_thread_rmws() : rmw_count;
	w->backouts = w->seed_mode ? seed_thread_backouts() : 0;
	return NULL;
}

/*
 * mode: -1 seed baseline (SEED_VARIANT_GEN), -2 the seed's 2012 loop
 * (SEED_VARIANT_2012), else a pthread strategy.
 */
static int measure(int mode, uint32_t n, int first)
{
	struct worker w[MAXT];
	struct coupled_stats st;
	unsigned long rmws = 0, backouts = 0, failed = 0, stopped = 0;
	double committed;
	uint32_t i;
	const char *impl;

	memset(w, 0, sizeof(w));
	memset(&st, 0, sizeof(st));
	/*
	 * Pure spinning needs a free CPU per participant; on a loaded or
	 * small machine each round may cost a time slice: run fewer.
	 */
	cur_rounds = rounds;
	if (mode == COUPLED_PTHREAD_SPIN && n > 1)
		cur_rounds = rounds / 20 > 50 ? rounds / 20 : 50;
	if (mode < 0) {
		/* Yield: rounds complete even when threads outnumber CPUs. */
		atomic_store(&seed_stop, 0u);
		seed_group_init(&seed, n, SEED_RELAX_YIELD,
				mode == -1 ? SEED_VARIANT_GEN
					   : SEED_VARIANT_2012,
				&seed_stop);
		impl = mode == -1 ? "seed_baseline" : "seed_2012_loop";
	} else {
		coupled_group_init(&group, slots, n, n, NULL);
		coupled_pthread_set_strategy(coupled_group_adapter(&group),
					     mode);
		impl = coupled_pthread_strategy_name(mode);
	}
	for (i = 0; i < n; i++) {
		w[i].id = i;
		w[i].seed_mode = mode < 0;
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i])) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		rmws += w[i].rmws;
		backouts += w[i].backouts;
		failed += w[i].failed;
		stopped += w[i].stopped;
	}
	/* Calls that returned SEED_STOPPED never committed. */
	committed = (double)cur_rounds * n - (double)stopped;
	if (mode == -1 && stopped)
		failed = stopped;
	if (mode >= 0)
		coupled_stats_read(&group, &st);
	if (failed) {
		fprintf(stderr, "%s/%u: %lu calls did not commit\n", impl,
			(unsigned)n, failed);
		return 1;
	}
	printf("%s    {\"impl\": \"%s%s\", \"threads\": %u, \"rounds\": %lu, "
	       "\"rmw_per_round\": %.4f, \"retries\": %u, \"restarts\": %u, "
	       "\"backouts\": %lu, \"missed_calls\": %lu}",
	       first ? "" : ",\n", mode < 0 ? "" : "coupled/", impl,
	       (unsigned)n, cur_rounds,
	       committed > 0 ? (double)rmws / committed : 0.0,
	       (unsigned)st.retries, (unsigned)st.restarts, backouts, stopped);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	static const uint32_t counts[] = { 1, 2, 4 };
	static const int modes[] = { COUPLED_PTHREAD_SPIN,
				     COUPLED_PTHREAD_FUTEX,
				     COUPLED_PTHREAD_CONDVAR, -1, -2 };
	size_t m, c;
	int first = 1, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = strtoul(argv[++i], NULL, 10);
		} else {
			fprintf(stderr, "usage: %s [--rounds R]\n", argv[0]);
			return 2;
		}
	}
	if (rounds == 0)
		rounds = 1;
	printf("{\"rounds\": %lu, \"results\": [\n", rounds);
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			if (measure(modes[m], counts[c], first))
				return 1;
			first = 0;
		}
	}
	printf("\n]}\n");
	return 0;
}

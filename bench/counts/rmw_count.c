/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * rmw_count.c - atomic read-modify-writes per participant per committed
 * round, from an instrumented build: COUPLED_ATOMIC_ON_RMW() bumps a
 * thread-local counter on every RMW the library (and the pthread adapter,
 * which uses the same atomics layer) performs; the seed baseline is linked in
 * its SEED_COUNT_RMW build.
 *
 * Usage: bench_rmw_count [--rounds R] [--withdraw-rounds W] [--coupled-only]
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
 *
 * Then the withdrawal scenario ("withdrawals" in the same object; its
 * rounds: --withdraw-rounds W, default 200): a group of N members (2, 4, 8
 * with the futex strategy; 2 with spin), member N-1 held back outside the
 * group until member 0 has withdrawn A times (A = 0 and 4) by the phase-1
 * deadline (DEADLINE_NS after its call), the others waiting inside the
 * round meanwhile; then every member completes the round.  The round cannot
 * complete while member N-1 is out, so every deadline call withdraws.
 * Printed per (strategy, members, aborts): "withdraw_rmw_per_abort" (RMWs
 * of member 0's withdrawn calls / withdrawals) and "group_rmw_per_round"
 * (RMWs of all members' other calls, summed over members, / rounds): the
 * latter must not grow with A if no member does work per withdrawal.
 *
 * "protocol" in the object names the protocol the library was built with
 * (COUPLED_PROTOCOL_NAME); --coupled-only leaves the seed baselines out (a
 * build forced to the other protocol need not count them again).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local unsigned long rmw_count;
#define COUPLED_ATOMIC_ON_RMW() ((void)rmw_count++)

#include "coupled/coupled.h"

#include "baseline/seed_baseline.h"

#define MAXT 8
/* Phase-1 deadline of each withdrawing call, ns after the call. */
#define DEADLINE_NS 100000u

static struct coupled_group group;
static struct coupled_slot slots[MAXT];
static struct seed_group seed;
static seed_atomic_u32 seed_stop;
static unsigned long rounds = 20000;
/* Rounds of the current measurement (fewer for pure spinning). */
static unsigned long cur_rounds;
static unsigned long withdraw_rounds = 200;
/* Withdrawal scenario: aborts per round, and the round member N-1 may
 * enter (plain C11 atomics: not counted, they are the scenario's, not the
 * library's). */
static unsigned long withdraw_aborts;
static atomic_ulong release_round;
/* No separator before the first withdrawal result. */
static int withdraw_first = 1;

/*
 * One participant's thread, in either measurement: its id, the member
 * count, whether it calls the seed baseline, and its counts (the
 * withdrawal scenario's: withdraw_rmws and withdrawals).
 */
struct worker {
	uint32_t id, n;
	int seed_mode;
	unsigned long rmws, backouts, failed, stopped;
	unsigned long withdraw_rmws, withdrawals;
};

/*
 * Run @fn on @n workers (ids 0..@n-1), one thread each, wait for them, and
 * add up their counts in @sum.
 * Return: 0, or 1 if a thread could not be started.
 */
static int run_workers(void *(*fn)(void *), uint32_t n, int seed_mode,
		       struct worker *sum)
{
	struct worker w[MAXT];
	pthread_t threads[MAXT];
	uint32_t i;

	memset(w, 0, sizeof(w));
	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++) {
		w[i].id = i;
		w[i].n = n;
		w[i].seed_mode = seed_mode;
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&threads[i], NULL, fn, &w[i])) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	for (i = 0; i < n; i++) {
		pthread_join(threads[i], NULL);
		sum->rmws += w[i].rmws;
		sum->backouts += w[i].backouts;
		sum->failed += w[i].failed;
		sum->stopped += w[i].stopped;
		sum->withdraw_rmws += w[i].withdraw_rmws;
		sum->withdrawals += w[i].withdrawals;
	}
	return 0;
}

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
	struct worker sum;
	struct coupled_stats st;
	unsigned long failed;
	double committed;
	const char *impl;

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
	if (run_workers(worker_main, n, mode < 0, &sum))
		return 1;
	/* Calls that returned SEED_STOPPED never committed. */
	committed = (double)cur_rounds * n - (double)sum.stopped;
	failed = mode == -1 && sum.stopped ? sum.stopped : sum.failed;
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
	       committed > 0 ? (double)sum.rmws / committed : 0.0,
	       (unsigned)st.retries, (unsigned)st.restarts, sum.backouts,
	       sum.stopped);
	fflush(stdout);
	return 0;
}

static void *wworker_main(void *arg)
{
	struct worker *w = (struct worker *)arg;
	struct coupled_abort_opts opts;
	unsigned long i, a, before;
	int r;

	memset(&opts, 0, sizeof(opts));
	rmw_count = 0;
	for (i = 0; i < withdraw_rounds; i++) {
		if (w->id == 0) {
			for (a = 0; a < withdraw_aborts; a++) {
				opts.deadline =
					coupled_adapter_now(
						coupled_group_adapter(&group)) +
					DEADLINE_NS;
				before = rmw_count;
				r = coupled_enter_opts(&group, 0, 0,
						       empty_action, NULL,
						       &opts);
				w->withdraw_rmws += rmw_count - before;
				if (r == COUPLED_ABORT_TIMEOUT)
					w->withdrawals++;
				else
					w->failed++;
			}
			atomic_store(&release_round, i + 1);
		} else if (w->id == w->n - 1) {
			while (atomic_load(&release_round) <= i)
				sched_yield();
		}
		if (coupled_enter(&group, w->id, 0, empty_action, NULL) !=
		    COUPLED_COMMITTED)
			w->failed++;
	}
	w->rmws = rmw_count - w->withdraw_rmws;
	return NULL;
}

/* The withdrawal scenario for one strategy, member count and abort count. */
static int measure_withdraw(int strategy, uint32_t n, unsigned long aborts)
{
	struct worker sum;

	withdraw_aborts = aborts;
	atomic_store(&release_round, 0ul);
	coupled_group_init(&group, slots, n, n, NULL);
	coupled_pthread_set_strategy(coupled_group_adapter(&group), strategy);
	if (run_workers(wworker_main, n, 0, &sum))
		return 1;
	if (sum.failed) {
		fprintf(stderr,
			"withdraw %s/%u/%lu: %lu calls ended otherwise than "
			"expected\n",
			coupled_pthread_strategy_name(strategy), (unsigned)n,
			aborts, sum.failed);
		return 1;
	}
	printf("%s    {\"strategy\": \"%s\", \"members\": %u, "
	       "\"aborts_per_round\": %lu, \"rounds\": %lu, "
	       "\"withdrawals\": %lu, \"withdraw_rmw_per_abort\": %.4f, "
	       "\"group_rmw_per_round\": %.4f}",
	       withdraw_first ? "" : ",\n",
	       coupled_pthread_strategy_name(strategy), (unsigned)n, aborts,
	       withdraw_rounds, sum.withdrawals,
	       sum.withdrawals
		       ? (double)sum.withdraw_rmws / (double)sum.withdrawals
		       : 0.0,
	       (double)sum.rmws / (double)withdraw_rounds);
	fflush(stdout);
	withdraw_first = 0;
	return 0;
}

int main(int argc, char **argv)
{
	static const uint32_t counts[] = { 1, 2, 4 };
	static const int modes[] = { COUPLED_PTHREAD_SPIN,
				     COUPLED_PTHREAD_FUTEX,
				     COUPLED_PTHREAD_CONDVAR, -1, -2 };
	/* The withdrawal scenario's cases. */
	static const struct {
		int strategy;
		uint32_t n;
	} wcases[] = { { COUPLED_PTHREAD_FUTEX, 2 },
		       { COUPLED_PTHREAD_FUTEX, 4 },
		       { COUPLED_PTHREAD_FUTEX, 8 },
		       { COUPLED_PTHREAD_SPIN, 2 } };
	size_t m, c;
	int first = 1, i, coupled_only = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--withdraw-rounds") &&
			   i + 1 < argc) {
			withdraw_rounds = strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--coupled-only")) {
			coupled_only = 1;
		} else {
			fprintf(stderr,
				"usage: %s [--rounds R] [--withdraw-rounds "
				"W] [--coupled-only]\n",
				argv[0]);
			return 2;
		}
	}
	if (rounds == 0)
		rounds = 1;
	if (withdraw_rounds == 0)
		withdraw_rounds = 1;
	printf("{\"protocol\": \"%s\", \"rounds\": %lu, \"results\": [\n",
	       COUPLED_PROTOCOL_NAME, rounds);
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		if (coupled_only && modes[m] < 0)
			continue;
		for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			if (measure(modes[m], counts[c], first))
				return 1;
			first = 0;
		}
	}
	printf("\n], \"withdraw_deadline_ns\": %u, \"withdrawals\": [\n",
	       DEADLINE_NS);
	for (c = 0; c < sizeof(wcases) / sizeof(wcases[0]); c++) {
		if (measure_withdraw(wcases[c].strategy, wcases[c].n, 0) ||
		    measure_withdraw(wcases[c].strategy, wcases[c].n, 4))
			return 1;
	}
	printf("\n]}\n");
	return 0;
}

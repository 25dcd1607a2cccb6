/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * many_threads.c - many more participants than CPUs, futex strategy: do the
 * rounds complete, and how long does one take?
 *
 * Usage: bench_many_threads [--threads N] [--rounds R] [--strategy S]
 *   defaults: 1000 threads, 20 rounds, futex
 *
 * Every thread runs R rounds; an action counter checks that each round was
 * run by all N.  Prints one JSON object {"threads", "rounds", "strategy",
 * "seconds" (all of it, thread creation included), "us_per_round" (thread
 * 0's time from the end of its first round to the end of its last, over
 * R - 1 rounds), "ok"}; exit status 0 only if every round committed with
 * every participant.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#include "coupled/coupled.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct coupled_group group;
static struct coupled_slot *slots;
static unsigned long rounds = 20;
static atomic_ulong actions;
static atomic_ulong failures;
/* Thread 0's clock after its first and after its last round. */
static double t_first, t_last;

static double now_s(void);

struct worker {
	pthread_t thread;
	uint32_t id;
};

static void count_action(const struct coupled_round *r, void *ctx)
{
	(void)r;
	(void)ctx;
	atomic_fetch_add_explicit(&actions, 1, memory_order_relaxed);
}

static void *worker_main(void *arg)
{
	struct worker *w = (struct worker *)arg;
	unsigned long i;

	for (i = 0; i < rounds; i++) {
		if (coupled_enter(&group, w->id, 0, count_action, NULL) !=
		    COUPLED_COMMITTED)
			atomic_fetch_add(&failures, 1);
		if (w->id == 0 && i == 0)
			t_first = now_s();
	}
	if (w->id == 0)
		t_last = now_s();
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	uint32_t n = 1000, i;
	int strategy = COUPLED_PTHREAD_FUTEX, k, ok;
	struct worker *w;
	pthread_attr_t attr;
	double t0, t1;

	for (k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--threads") && k + 1 < argc) {
			n = (uint32_t)strtoul(argv[++k], NULL, 10);
		} else if (!strcmp(argv[k], "--rounds") && k + 1 < argc) {
			rounds = strtoul(argv[++k], NULL, 10);
		} else if (!strcmp(argv[k], "--strategy") && k + 1 < argc) {
			k++;
			strategy = !strcmp(argv[k], "spin")
					   ? COUPLED_PTHREAD_SPIN
				   : !strcmp(argv[k], "condvar")
					   ? COUPLED_PTHREAD_CONDVAR
					   : COUPLED_PTHREAD_FUTEX;
		} else {
			fprintf(stderr,
				"usage: %s [--threads N] [--rounds R] "
				"[--strategy spin|futex|condvar]\n",
				argv[0]);
			return 2;
		}
	}
	if (n == 0 || n > COUPLED_MAX_MEMBERS)
		return 2;
	slots = calloc(n, sizeof(*slots));
	w = calloc(n, sizeof(*w));
	if (!slots || !w)
		return 1;
	coupled_group_init(&group, slots, n, n, NULL);
	coupled_pthread_set_strategy(coupled_group_adapter(&group), strategy);

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	t0 = now_s();
	for (i = 0; i < n; i++) {
		w[i].id = i;
		if (pthread_create(&w[i].thread, &attr, worker_main, &w[i])) {
			fprintf(stderr, "pthread_create %u failed\n",
				(unsigned)i);
			return 1;
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(w[i].thread, NULL);
	t1 = now_s();
	pthread_attr_destroy(&attr);

	ok = atomic_load(&failures) == 0 &&
	     atomic_load(&actions) == (unsigned long)n * rounds;
	printf("{\"threads\": %u, \"rounds\": %lu, \"strategy\": \"%s\", "
	       "\"seconds\": %.3f, \"us_per_round\": %.1f, \"ok\": %s}\n",
	       (unsigned)n, rounds, coupled_pthread_strategy_name(strategy),
	       t1 - t0,
	       rounds > 1 ? (t_last - t_first) * 1e6 / (double)(rounds - 1)
			  : 0.0,
	       ok ? "true" : "false");
	free(w);
	free(slots);
	return ok ? 0 : 1;
}

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * insn_count.c - uncontended rounds for instruction counting under
 * valgrind --tool=callgrind.
 *
 * Usage: bench_insn_count IMPL ROUNDS
 *   IMPL: coupled | seed | ck_centralized | pthread_barrier
 *
 * One participant runs ROUNDS rounds.  Running it twice with different
 * ROUNDS and subtracting the callgrind totals gives instructions per round
 * with start-up and exit cancelled out (tools/callgrind_rounds.sh).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#include "coupled/coupled.h"

#include <ck_barrier.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline/seed_baseline.h"

static struct coupled_group group;
static struct coupled_slot slot;
static struct seed_group seed;
static ck_barrier_centralized_t cen = CK_BARRIER_CENTRALIZED_INITIALIZER;
static ck_barrier_centralized_state_t cen_state =
	CK_BARRIER_CENTRALIZED_STATE_INITIALIZER;
static pthread_barrier_t pbar;

static void empty_action(const struct coupled_round *r, void *ctx)
{
	(void)r;
	(void)ctx;
}

static void seed_action(void *ctx)
{
	(void)ctx;
}

int main(int argc, char **argv)
{
	unsigned long rounds, i, failed = 0;
	const char *impl;

	if (argc != 3) {
		fprintf(stderr,
			"usage: %s coupled|seed|ck_centralized|"
			"pthread_barrier ROUNDS\n",
			argv[0]);
		return 2;
	}
	impl = argv[1];
	rounds = strtoul(argv[2], NULL, 10);
	if (!strcmp(impl, "coupled")) {
		coupled_group_init(&group, &slot, 1, 1, NULL);
		coupled_pthread_set_strategy(coupled_group_adapter(&group),
					     COUPLED_PTHREAD_SPIN);
		for (i = 0; i < rounds; i++)
			if (coupled_enter(&group, 0, 0, empty_action, NULL))
				failed++;
	} else if (!strcmp(impl, "seed")) {
		seed_group_init(&seed, 1, SEED_RELAX_PAUSE, SEED_VARIANT_GEN,
				NULL);
		for (i = 0; i < rounds; i++)
			if (seed_enter(&seed, seed_action, NULL))
				failed++;
	} else if (!strcmp(impl, "ck_centralized")) {
		for (i = 0; i < rounds; i++)
			ck_barrier_centralized(&cen, &cen_state, 1);
	} else if (!strcmp(impl, "pthread_barrier")) {
		pthread_barrier_init(&pbar, NULL, 1);
		for (i = 0; i < rounds; i++)
			pthread_barrier_wait(&pbar);
		pthread_barrier_destroy(&pbar);
	} else {
		fprintf(stderr, "unknown implementation %s\n", impl);
		return 2;
	}
	if (failed) {
		fprintf(stderr, "%lu rounds did not commit\n", failed);
		return 1;
	}
	return 0;
}

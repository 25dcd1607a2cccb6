// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * usdt_main.c - a program whose probes check_usdt.sh reads back: the
 * pthread adapter's USDT probes (provider "coupled") in two files of one
 * binary, which must share one semaphore.
 *
 * It runs, in each file, a committed round, an aborted call, a join, a
 * leave and a committed domain call, once as an untraced program and once
 * with the semaphore of commit and abort raised by hand (as a tracer that
 * attaches raises them), and checks what the program can see: the calls'
 * results are the same, and with the semaphore raised each traced entry
 * stamped its time (the wait_ns the probes then carry).
 *
 * With --stress THREADS ROUNDS (the bpftrace test, check_bpftrace.sh):
 * THREADS members, each calling until the group committed ROUNDS rounds,
 * a tenth of the calls aborted by their caller; then the library's own
 * counts (coupled_stats_read()) on one line, for the tracer's counts to be
 * compared with:
 *   usdt_main: stats commits=N aborts_work=N aborts_membership=N
 *   aborts_caller=N aborts_timeout=N
 * It starts only once a tracer raised the semaphore (the handshake
 * that says the probes are attached), or after 10 s without one (then the
 * counts cannot match, and the test says so).
 *
 * Exit status 0 when every call did what it should.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "usdt_calls.h"

static struct coupled_group stress_group;
static struct coupled_slot stress_slots[16];
static unsigned int stress_rounds;
static coupled_atomic_u32 stress_done;

static void stress_action(const struct coupled_round *r, void *ctx)
{
	(void)ctx;
	/* relaxed: a stop flag; the member that sees it stops calling. */
	if (r->generation >= stress_rounds)
		coupled_store(&stress_done, 1u, COUPLED_RELAXED);
}

static bool stress_abort(void *arg, uint32_t self)
{
	(void)self;
	return *(bool *)arg;
}

static void *stress_member(void *arg)
{
	uint32_t self = (uint32_t)(uintptr_t)arg;
	unsigned int seed = 12345u + self;

	/* relaxed: see stress_action(). */
	while (!coupled_load(&stress_done, COUPLED_RELAXED)) {
		bool no = rand_r(&seed) % 10 == 0;
		struct coupled_abort_opts o = { 0, stress_abort, &no };

		(void)coupled_enter_opts(&stress_group, self, 0, stress_action,
					 NULL, &o);
	}
	/* Out of the group, so that the others' rounds go on without us. */
	(void)coupled_leave(&stress_group, self);
	return NULL;
}

static int stress(unsigned int n, unsigned int rounds)
{
	struct coupled_stats st;
	pthread_t t[16];
	unsigned int i, waited = 0;

	if (n < 1 || n > 16 || !rounds)
		return 2;
	while (!coupled_pthread_usdt_semaphore && waited++ < 1000) {
		struct timespec ts = { 0, 10000000 };

		/* Waits for the tracer: pacing, bounded at 10 s. */
		nanosleep(&ts, NULL);
	}
	stress_rounds = rounds;
	coupled_atomic_init(&stress_done, 0u);
	if (coupled_group_init(&stress_group, stress_slots, n, n, NULL))
		return 2;
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, stress_member,
			       (void *)(uintptr_t)i);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	if (coupled_stats_read(&stress_group, &st))
		return 2;
	printf("usdt_main: stats commits=%u aborts_work=%u "
	       "aborts_membership=%u aborts_caller=%u aborts_timeout=%u\n",
	       st.commits, st.aborts[COUPLED_ABORT_WORK],
	       st.aborts[COUPLED_ABORT_MEMBERSHIP],
	       st.aborts[COUPLED_ABORT_CALLER],
	       st.aborts[COUPLED_ABORT_TIMEOUT]);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;

	if (argc == 4 && !strcmp(argv[1], "--stress"))
		return stress((unsigned int)atoi(argv[2]),
			      (unsigned int)atoi(argv[3]));

	bad |= usdt_calls_a(0);
	bad |= usdt_calls_b(0);
	coupled_pthread_usdt_semaphore = 1;
	bad |= usdt_calls_a(1);
	bad |= usdt_calls_b(1);
	coupled_pthread_usdt_semaphore = 0;
	printf("usdt_main: %s\n", bad ? "FAIL" : "ok");
	return bad;
}

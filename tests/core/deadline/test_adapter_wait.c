/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_adapter_wait.c - the pthread adapter's sleeps end at their deadline.
 *
 * Usage: test_adapter_wait [--waits N] [--ahead-ms A] [--bound-ms B]
 *
 * For the futex and condvar strategies, N waits (default 8) of
 * coupled_adapter_wait() with a deadline A ms ahead (default 20) and
 * nobody to wake them.  Each wait must return not before its deadline:
 * neither sleep ends early without a wake or a signal, and the test sends
 * neither.  The median lateness (return time minus deadline) of a strategy
 * must be at most B ms (default 250); the maximum is printed.
 *
 * What it catches: a futex timeout rounded to whole seconds (each wait
 * about 1 s late), a condition variable on another clock than
 * coupled_adapter_now() (CLOCK_REALTIME read as the monotonic deadline is
 * decades past: the wait returns at once, before its deadline; the other
 * way round it would sleep for decades: a watchdog fails a wait that has
 * not returned after WATCHDOG_S seconds).  The futex strategy's spin phase
 * is compiled out (COUPLED_PTHREAD_SPIN_TURNS 0, COUPLED_PTHREAD_SPIN_MAX_US
 * 0), so that each wait is one futex sleep timed by the kernel, and the
 * futex calls are counted: a
 * wait that did not sleep there proves nothing and fails the test.
 *
 * The bound is no speed goal: a whole-second rounding is ~1000 ms late,
 * a loaded 2-core machine wakes a thread within tens of ms.  Figures in
 * docs/testing.md.
 */
#include <linux/futex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Count the adapter's futex sleeps, then make the real call. */
static unsigned long futex_sleeps;
#define COUPLED_PTHREAD_FUTEX_WAIT(word, val, timeout)        \
	(futex_sleeps++,                                      \
	 (void)syscall(SYS_futex, (uint32_t *)(void *)(word), \
		       FUTEX_WAIT_PRIVATE, (val), (timeout), 0, 0))
#define COUPLED_PTHREAD_SPIN_TURNS 0u
#define COUPLED_PTHREAD_SPIN_MAX_US 0u

#include "coupled/coupled.h"

#include "check.h"
#include "options.h"

#define MAX_WAITS 64
#define WATCHDOG_S 5

static void watchdog(int sig)
{
	static const char msg[] = "FAIL: a wait has not returned within the "
				  "watchdog's "
				  "seconds\n";

	(void)sig;
	/* write(2) and _exit(2): async-signal-safe. */
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* @waits timed waits with @strategy; returns the number of failures. */
static int measure(int strategy, int waits, uint64_t ahead, double bound_ms)
{
	struct coupled_group g;
	struct coupled_slot slots[1];
	struct coupled_adapter_group *ag;
	struct coupled_adapter_slot *as;
	uint64_t late[MAX_WAITS];
	unsigned long sleeps_before = futex_sleeps;
	int i, failed = 0;
	double median;

	CHECK_EQ(coupled_group_init(&g, slots, 1, 1, NULL), 0);
	ag = coupled_group_adapter(&g);
	as = coupled_participant_adapter(&g, 0);
	CHECK_EQ(coupled_pthread_set_strategy(ag, strategy), 0);
	for (i = 0; i < waits; i++) {
		uint32_t token = coupled_adapter_wait_prepare(ag, as, 0);
		uint64_t deadline = coupled_adapter_now(ag) + ahead, done;

		alarm(WATCHDOG_S);
		coupled_adapter_wait(ag, as, 0, token, deadline);
		done = coupled_adapter_now(ag);
		alarm(0);
		if (done < deadline) {
			printf("FAIL: %s wait %d returned %.3f ms before its "
			       "deadline\n",
			       coupled_pthread_strategy_name(strategy), i,
			       (double)(deadline - done) / 1e6);
			failed++;
			late[i] = 0;
		} else {
			late[i] = done - deadline;
		}
	}
	if (strategy == COUPLED_PTHREAD_FUTEX &&
	    futex_sleeps - sleeps_before != (unsigned long)waits) {
		printf("FAIL: futex: %lu futex sleeps for %d waits\n",
		       futex_sleeps - sleeps_before, waits);
		failed++;
	}
	qsort(late, (size_t)waits, sizeof(late[0]), cmp_u64);
	median = (double)late[waits / 2] / 1e6;
	printf("%-8s lateness ms: median %.3f  max %.3f  (%s)\n",
	       coupled_pthread_strategy_name(strategy), median,
	       (double)late[waits - 1] / 1e6,
	       median <= bound_ms ? "ok" : "ABOVE BOUND");
	if (median > bound_ms)
		failed++;
	fflush(stdout);
	return failed;
}

int main(int argc, char **argv)
{
	int waits = 8, failed = 0;
	double ahead_ms = 20.0, bound_ms = 250.0;
	const struct test_option opts[] = {
		{ "--waits", &waits, NULL, NULL },
		{ "--ahead-ms", NULL, &ahead_ms, NULL },
		{ "--bound-ms", NULL, &bound_ms, NULL },
	};

	if (test_options(argc, argv, opts, sizeof(opts) / sizeof(opts[0])) ||
	    waits < 1 || waits > MAX_WAITS || ahead_ms <= 0 ||
	    ahead_ms > 1000 || bound_ms <= 0) {
		fprintf(stderr,
			"usage: test_adapter_wait [--waits 1..%d] "
			"[--ahead-ms 0..1000] [--bound-ms B]\n",
			MAX_WAITS);
		return 2;
	}
	if (signal(SIGALRM, watchdog) == SIG_ERR) {
		perror("signal");
		return 2;
	}
	printf("adapter waits: %d per strategy, deadline %.1f ms ahead, "
	       "nobody wakes them; bound on the median lateness %.1f ms\n",
	       waits, ahead_ms, bound_ms);
	failed += measure(COUPLED_PTHREAD_FUTEX, waits,
			  (uint64_t)(ahead_ms * 1e6), bound_ms);
	failed += measure(COUPLED_PTHREAD_CONDVAR, waits,
			  (uint64_t)(ahead_ms * 1e6), bound_ms);
	printf("%s\n", failed ? "FAIL" : "PASS");
	return failed != 0;
}

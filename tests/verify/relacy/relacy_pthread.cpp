/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_pthread.cpp - the pthread adapter's wait/wake handshake under the
 * Relacy race detector, for each wait strategy.
 *
 * The real pthread adapter (<coupled/adapter/pthread.h>) is compiled here
 * with its atomics on rl::atomic (coupled/atomic/relacy.h) and its platform
 * calls replaced by Relacy models:
 *   - mutex and condition variable (the condvar strategy): Relacy's own
 *     (relacy/pthread.h), with spurious wake-ups;
 *   - futex(2) (the futex strategy): only what futex(2) promises.  FUTEX_WAIT
 *     reads the word, compares it with the expected value and sleeps
 *     atomically with respect to FUTEX_WAKE on the same word: the model holds
 *     one "bucket" mutex across the relaxed compare and the sleep, and
 *     FUTEX_WAKE takes the same mutex.  Nothing more: in particular no
 *     barrier for other locations (the kernel has one, undocumented), so the
 *     adapter's own Dekker pair on its sleeping flag must do that job;
 *   - sched_yield(): Relacy's yield;
 *   - the clock: a counter (see COUPLED_PTHREAD_NOW_NS below).
 * The futex strategy's spin phase has no turns (0 instead of 200) and its
 * extension runs on the model clock, a turn or two at a time.  The spin
 * strategy is not checked: its wait never sleeps and its wake does
 * nothing, so it has no handshake (and its pause is no Relacy yield).
 *
 * Build: c++ -std=c++17 -O1 -I<include> -I<adapters>/pthread/include -Itests/verify/relacy
 *        tests/verify/relacy/relacy_pthread.cpp
 * Usage: relacy_pthread list | all | <check>
 * Exit code: 0 when every check held in every execution, 1 otherwise.
 */

/* The system headers first: the Relacy macros below rename their names. */
#include <atomic>
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <relacy/relacy.hpp>
#include <relacy/pthread.h>

#include <cstring>

#define COUPLED_ATOMIC_RELACY 1
#include <coupled/atomic.h>

/* Condition-variable attributes: nothing to model (no timed waits here). */
#define pthread_condattr_init(a) (*(a) = 0)
#define pthread_condattr_setclock(a, c) ((void)(a), (void)(c), 0)
#define pthread_condattr_destroy(a) ((void)(a), 0)

/* --- the futex model ---------------------------------------------------- */

struct futex_model {
	pthread_mutex_t bucket;
	pthread_cond_t cond;
	rl::var<unsigned> wakes;
	rl::var<unsigned> sleepers;
};

static futex_model *g_futex;

static void model_futex_wait(coupled_atomic_u32 *word, uint32_t val)
{
	futex_model *f = g_futex;

	pthread_mutex_lock(&f->bucket);
	/* relaxed: the bucket mutex orders it against FUTEX_WAKE. */
	if (word->load(rl::mo_relaxed, $) == val) {
		unsigned seen = f->wakes($);

		f->sleepers($) = f->sleepers($) + 1;
		/* No spurious return: a lost wake must show as a deadlock. */
		while (f->wakes($) == seen)
			pthread_cond_wait(&f->cond, &f->bucket);
		f->sleepers($) = f->sleepers($) - 1;
	}
	pthread_mutex_unlock(&f->bucket);
}

static void model_futex_wake(coupled_atomic_u32 *word)
{
	futex_model *f = g_futex;

	(void)word;
	pthread_mutex_lock(&f->bucket);
	if (f->sleepers($)) {
		f->wakes($) = f->wakes($) + 1;
		pthread_cond_broadcast(&f->cond);
	}
	pthread_mutex_unlock(&f->bucket);
}

#define COUPLED_PTHREAD_FUTEX_WAIT(word, val, timeout) \
	((void)(timeout), model_futex_wait((word), (val)))
#define COUPLED_PTHREAD_FUTEX_WAKE(word) model_futex_wake(word)
#define COUPLED_PTHREAD_SPIN_TURNS 0u

/*
 * The clock: a counter that every reading moves on by 100 us, so that the
 * futex strategy's wake-cost estimate learns from each woken sleep and the
 * spin phase's extension (coupled__pthread_futex_spin()) runs a turn or
 * two between sleeps, in a bounded number of steps.  Not shared data: a
 * reading is a reading, whatever the interleaving.
 */
static uint64_t g_model_clock_ns;
#define COUPLED_PTHREAD_NOW_NS() (g_model_clock_ns += 100000u)

#define COUPLED_ADAPTER_PTHREAD 1
#include <coupled/adapter.h>

/* --- the handshake ------------------------------------------------------ */

struct handshake_platform {
	futex_model futex;

	void before(unsigned threads)
	{
		(void)threads;
		pthread_mutex_init(&futex.bucket, 0);
		pthread_cond_init(&futex.cond, 0);
		futex.wakes($) = 0;
		futex.sleepers($) = 0;
		g_futex = &futex;
	}
	void after(struct coupled_adapter_slot *slots, unsigned n)
	{
		for (unsigned i = 0; i < n; i++) {
			pthread_cond_destroy(&slots[i].cond);
			pthread_mutex_destroy(&slots[i].lock);
		}
		pthread_cond_destroy(&futex.cond);
		pthread_mutex_destroy(&futex.bucket);
	}
	void boundary(unsigned self)
	{
		(void)self;
	}
	void waker_done(unsigned self)
	{
		(void)self;
	}
};

static void handshake_setup(struct coupled_adapter_group *ag, int mode)
{
	RL_ASSERT(coupled_pthread_set_strategy(ag, mode) == 0);
}

#include "relacy_handshake.h"

/* The checks: the wait modes, one and two wakers. */
#define HANDSHAKE_CASES(ONE, BOTH)            \
	BOTH(COUPLED_PTHREAD_FUTEX, futex, 4) \
	BOTH(COUPLED_PTHREAD_CONDVAR, condvar, 4)
RELACY_HANDSHAKE_PROGRAM()

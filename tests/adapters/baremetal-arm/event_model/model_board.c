/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * model_board.c - host threads as cores, with the strict event-register and
 * interrupt model described in board.h.  Runs the bare-metal torture
 * application (tests/adapters/baremetal-arm/torture/torture.c) unchanged.
 *
 * usage: arm_event_model [--cpus N] [--expect-lost-wakeup]
 *
 * Exit status: the application's verdict (0 pass, 1 fail), or 3 for a lost
 * wake-up: every live core asleep at once (certain: nothing can wake them),
 * or a core asleep while no core slept or woke for STALL_SECONDS (the others
 * spin, waiting for it: a watchdog, generous against a loaded machine).
 * --expect-lost-wakeup inverts it for the mutants: 0 only when a lost
 * wake-up was detected.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board.h"

#define WAKE_SGI 1u

enum sleep_kind { AWAKE, IN_WFE, IN_WFI };

struct model_core {
	pthread_t thread;
	pthread_cond_t cv;
	bool event;   /* the event register */
	bool masked;  /* IRQs masked (CPSR.I / DAIF.I) */
	bool pending; /* the wake SGI is pending */
	bool alive;
	enum sleep_kind sleep;
};

static struct model_core cores[BOARD_MAX_CPUS];

#define MODEL_CPUS cores
#define MODEL_IRQ WAKE_SGI
#define MODEL_DEFAULT_CPUS BOARD_MAX_CPUS
#define MODEL_NAME "event model"
#define MODEL_CPU "core"
#include "../../baremetal-common/model_common.h"

static bool expect_lost;
static unsigned long sleeps_total, sgis_sent, sevs;
static unsigned long transitions; /* sleeps and wakes: the watchdog's clock */

#define STALL_SECONDS 5

/* Report a lost wake-up and exit (mu held). */
static void lost_wakeup(const char *why)
{
	uint32_t i;

	fprintf(stderr, "event model: LOST WAKE-UP: %s (", why);
	for (i = 0; i < ncpus; i++)
		if (cores[i].alive)
			fprintf(stderr, " cpu%u:%s%s", (unsigned)i,
				cores[i].sleep == IN_WFE   ? "WFE"
				: cores[i].sleep == IN_WFI ? "WFI"
							   : "running",
				cores[i].masked ? "/masked" : "");
	fprintf(stderr, " ) after %lu sleeps, %lu SEVs, %lu SGIs\n",
		sleeps_total, sevs, sgis_sent);
	if (expect_lost) {
		printf("event model: lost wake-up detected, as the mutant "
		       "should\n");
		fflush(stdout);
		_exit(0);
	}
	fflush(stdout);
	_exit(3);
}

/* Called with mu held whenever a core goes to sleep or dies. */
static void check_all_asleep(void)
{
	if (alive != 0 && asleep == alive)
		lost_wakeup("every live core asleep for good");
}

/* Wake core @c out of its sleep (mu held). */
static void wake_locked(struct model_core *c)
{
	c->sleep = AWAKE;
	asleep--;
	transitions++;
	pthread_cond_signal(&c->cv);
}

static void sleep_locked(struct model_core *c, enum sleep_kind kind)
{
	c->sleep = kind;
	asleep++;
	sleeps_total++;
	transitions++;
	check_all_asleep();
	while (c->sleep != AWAKE)
		pthread_cond_wait(&c->cv, &mu);
}

/* An instruction boundary: take the pending interrupt if unmasked. */
static void take_interrupt(void)
{
	model_take_pending();
}

void model_sev(void)
{
	uint32_t i;

	take_interrupt();
	pthread_mutex_lock(&mu);
	sevs++;
	for (i = 0; i < ncpus; i++) {
		cores[i].event = true;
		if (cores[i].sleep == IN_WFE)
			wake_locked(&cores[i]);
	}
	pthread_mutex_unlock(&mu);
}

void model_wfe(void)
{
	struct model_core *c = &cores[self];

	take_interrupt();
	pthread_mutex_lock(&mu);
	if (!c->event && !(c->pending && !c->masked))
		sleep_locked(c, IN_WFE);
	c->event = false;
	pthread_mutex_unlock(&mu);
	take_interrupt();
}

void model_wfi(void)
{
	struct model_core *c = &cores[self];

	pthread_mutex_lock(&mu);
	if (!c->pending)
		sleep_locked(c, IN_WFI);
	pthread_mutex_unlock(&mu);
	take_interrupt();
}

void model_send_sgi(void *arg, uint32_t target)
{
	struct model_core *t = &cores[target];

	(void)arg;
	take_interrupt();
	pthread_mutex_lock(&mu);
	sgis_sent++;
	t->pending = true;
	if (t->sleep == IN_WFI || (t->sleep == IN_WFE && !t->masked))
		wake_locked(t);
	else
		pthread_cond_signal(&t->cv); /* ends a DSB stall */
	pthread_mutex_unlock(&mu);
}

static _Thread_local uint64_t stall_rng;

/*
 * A DSB stalls the core until its earlier accesses complete.  The model
 * stretches that stall, with IRQs unmasked, to a random 0..DSB_STALL_US
 * microseconds in which the other cores run and an SGI may arrive (which
 * ends it): the window where an interrupt is taken between a check and a
 * sleep, too short to hit by chance otherwise.  Not synchronisation: the
 * verdict of a correct binding does not depend on the stall's length.
 */
#define DSB_STALL_US 20u
static void dsb_stall(void)
{
	struct model_core *c = &cores[self];
	struct timespec until;
	uint64_t ns;

	if (stall_rng == 0)
		stall_rng = board_counter() ^ ((uint64_t)self << 32) ^ 1u;
	stall_rng ^= stall_rng << 13; /* xorshift64 */
	stall_rng ^= stall_rng >> 7;
	stall_rng ^= stall_rng << 17;
	ns = (stall_rng % (DSB_STALL_US + 1u)) * 1000u;
	clock_gettime(CLOCK_MONOTONIC, &until);
	ns += (uint64_t)until.tv_nsec;
	until.tv_sec += (time_t)(ns / 1000000000u);
	until.tv_nsec = (long)(ns % 1000000000u);
	pthread_mutex_lock(&mu);
	while (!c->masked && !c->pending &&
	       pthread_cond_timedwait(&c->cv, &mu, &until) == 0)
		;
	pthread_mutex_unlock(&mu);
}

uint32_t model_cpu_id(void)
{
	return self;
}

void model_dsb(void)
{
	/* seq_cst: DSB completes every earlier access before any later one. */
	atomic_thread_fence(memory_order_seq_cst);
	dsb_stall();
	take_interrupt();
}

void model_yield(void)
{
	take_interrupt();
	sched_yield();
}

/* The saved flags: 1 if IRQs were masked. */
unsigned long model_irq_save(void)
{
	return model_mask();
}

void model_irq_restore(unsigned long flags)
{
	model_unmask(flags != 0);
}

void board_irq_enable(void)
{
	model_irq_restore(0);
}

void board_putc(char c)
{
	putchar(c);
}

void board_exit(int status)
{
	fflush(stdout);
	if (expect_lost) {
		fprintf(stderr,
			"event model: the run ended (status %d) without "
			"a lost wake-up: the mutant survived\n",
			status);
		_exit(1);
	}
	_exit(status);
}

uint64_t board_counter(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t board_counter_freq(void)
{
	return 1000000000u;
}

uint32_t board_gic_cpu_interface(uint32_t cpu)
{
	return cpu;
}

/*
 * The stall watchdog: wakes once a second (a timeout, not a
 * synchronisation: every verdict above is reached without it) and returns
 * when no core is alive any more.
 */
static void watchdog(void)
{
	unsigned long last = 0;
	int still = 0;

	pthread_mutex_lock(&mu);
	while (alive > 0) {
		struct timespec ts;

		pthread_mutex_unlock(&mu);
		ts.tv_sec = 1;
		ts.tv_nsec = 0;
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&mu);
		if (transitions != last || asleep == 0) {
			last = transitions;
			still = 0;
		} else if (++still >= STALL_SECONDS) {
			lost_wakeup("a core asleep while no core slept or "
				    "woke for STALL_SECONDS");
		}
	}
	pthread_mutex_unlock(&mu);
}

int main(int argc, char **argv)
{
	return model_main(argc, argv, "--expect-lost-wakeup", &expect_lost,
			  watchdog);
}

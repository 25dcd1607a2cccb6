/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * model_board.c - host threads as harts, with the strict WFI and MSIP
 * model described in board.h, for the bare-metal RISC-V applications
 * (tests/adapters/baremetal-riscv/deadline/).
 *
 * usage: riscv_event_model [--cpus N]
 *
 * Exit status: the application's verdict (0 pass, 1 fail), or 3 when every
 * live hart sleeps in WFI at once (certain: nothing can wake them).
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

struct model_hart {
	pthread_t thread;
	pthread_cond_t cv;
	bool masked; /* mstatus.MIE clear */
	bool msip;   /* the machine software interrupt is pending */
	bool asleep; /* in WFI */
	bool alive;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct model_hart harts[BOARD_MAX_CPUS];
static uint32_t ncpus = 1;
static unsigned alive, asleep;
static unsigned long wfis, sends, clears;
static _Thread_local uint32_t self;

/* Report every live hart asleep and exit (mu held). */
static void check_all_asleep(void)
{
	if (alive == 0 || asleep != alive)
		return;
	fprintf(stderr,
		"riscv event model: LOST WAKE-UP: every live hart asleep in "
		"WFI for good (after %lu WFIs, %lu MSIPs sent, %lu cleared)\n",
		wfis, sends, clears);
	fflush(stdout);
	_exit(3);
}

/* An instruction boundary: with MIE set, take a pending MSIP. */
static void boundary(void)
{
	struct model_hart *h = &harts[self];
	bool take;

	pthread_mutex_lock(&mu);
	take = h->msip && !h->masked;
	if (take)
		h->msip = false; /* the trap handler clears it */
	pthread_mutex_unlock(&mu);
	if (take)
		board_on_irq(self, BOARD_IRQ_MSI);
}

void model_wfi(void)
{
	struct model_hart *h = &harts[self];

	boundary();
	pthread_mutex_lock(&mu);
	wfis++;
	if (!h->msip) {
		h->asleep = true;
		asleep++;
		check_all_asleep();
		while (h->asleep)
			pthread_cond_wait(&h->cv, &mu);
	}
	pthread_mutex_unlock(&mu);
	boundary();
}

void model_pause(void)
{
	boundary();
	sched_yield();
}

void model_fence(void)
{
	/* seq_cst: a FENCE orders the accesses on either side of it. */
	atomic_thread_fence(memory_order_seq_cst);
	boundary();
}

unsigned long model_irq_save(void)
{
	unsigned long old;

	boundary(); /* the boundary before the csrrci */
	pthread_mutex_lock(&mu);
	old = harts[self].masked ? 0ul : 0x8ul;
	harts[self].masked = true;
	pthread_mutex_unlock(&mu);
	return old;
}

void model_irq_restore(unsigned long flags)
{
	pthread_mutex_lock(&mu);
	harts[self].masked = !(flags & 0x8ul);
	pthread_mutex_unlock(&mu);
	boundary();
}

void model_msip_send(void *arg, uint32_t hart)
{
	struct model_hart *h = &harts[hart];

	(void)arg;
	boundary();
	pthread_mutex_lock(&mu);
	sends++;
	h->msip = true;
	if (h->asleep) {
		h->asleep = false;
		asleep--;
		pthread_cond_signal(&h->cv);
	}
	pthread_mutex_unlock(&mu);
}

void model_msip_clear(void *arg, uint32_t hart)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	clears++;
	harts[hart].msip = false;
	pthread_mutex_unlock(&mu);
}

uint32_t model_hart_id(void)
{
	return self;
}

void board_irq_enable(void)
{
	model_irq_restore(0x8ul);
}

void board_irq_disable(void)
{
	(void)model_irq_save();
}

__attribute__((weak)) void board_on_irq(uint32_t cpu, uint32_t irq_id)
{
	(void)cpu;
	(void)irq_id;
}

void board_puts(const char *s)
{
	fputs(s, stdout);
}

void board_put_u64(uint64_t v)
{
	printf("%llu", (unsigned long long)v);
}

void board_exit(int status)
{
	fflush(stdout);
	_exit(status);
}

uint32_t board_cpu_count(void)
{
	return ncpus;
}

/* mtime: CLOCK_MONOTONIC in ticks of 100 ns (10 MHz). */
uint64_t board_counter(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 10000000u + (uint64_t)ts.tv_nsec / 100u;
}

uint64_t board_counter_freq(void)
{
	return 10000000u;
}

static void *hart_main(void *arg)
{
	self = (uint32_t)(uintptr_t)arg;
	app_main(self);
	/* A hart whose application returned parks for good. */
	pthread_mutex_lock(&mu);
	harts[self].alive = false;
	alive--;
	check_all_asleep();
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(int argc, char **argv)
{
	uint32_t i;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--cpus") && a + 1 < argc) {
			ncpus = (uint32_t)strtoul(argv[++a], NULL, 10);
		} else {
			fprintf(stderr, "usage: %s [--cpus 1..%d]\n", argv[0],
				BOARD_MAX_CPUS);
			return 2;
		}
	}
	if (ncpus < 1 || ncpus > BOARD_MAX_CPUS) {
		fprintf(stderr, "--cpus must be 1..%d\n", BOARD_MAX_CPUS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	alive = ncpus;
	for (i = 0; i < ncpus; i++) {
		pthread_cond_init(&harts[i].cv, NULL);
		harts[i].masked = true; /* app_main starts with MIE clear */
		harts[i].alive = true;
	}
	for (i = 0; i < ncpus; i++)
		if (pthread_create(&harts[i].thread, NULL, hart_main,
				   (void *)(uintptr_t)i) != 0) {
			perror("pthread_create");
			return 2;
		}
	for (i = 0; i < ncpus; i++)
		pthread_join(harts[i].thread, NULL);
	fprintf(stderr, "riscv event model: every hart returned without a "
			"verdict\n");
	return 1;
}

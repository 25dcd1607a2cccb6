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
	bool masked;  /* mstatus.MIE clear */
	bool pending; /* MSIP: the machine software interrupt is pending */
	bool asleep;  /* in WFI */
	bool alive;
};

static struct model_hart harts[BOARD_MAX_CPUS];

#define MODEL_CPUS harts
#define MODEL_IRQ BOARD_IRQ_MSI
#define MODEL_DEFAULT_CPUS 1
#define MODEL_NAME "riscv event model"
#define MODEL_CPU "hart"
#include "../../baremetal-common/model_common.h"

static unsigned long wfis, sends, clears;

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
	model_take_pending(); /* the trap handler clears the MSIP */
}

void model_wfi(void)
{
	struct model_hart *h = &harts[self];

	boundary();
	pthread_mutex_lock(&mu);
	wfis++;
	if (!h->pending) {
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

/* The saved flags: mstatus, MIE (0x8) set if interrupts were enabled. */
unsigned long model_irq_save(void)
{
	return model_mask() ? 0ul : 0x8ul;
}

void model_irq_restore(unsigned long flags)
{
	model_unmask(!(flags & 0x8ul));
}

void model_msip_send(void *arg, uint32_t hart)
{
	struct model_hart *h = &harts[hart];

	(void)arg;
	boundary();
	pthread_mutex_lock(&mu);
	sends++;
	h->pending = true;
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
	harts[hart].pending = false;
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

__attribute__((weak)) void board_on_irq(uint32_t cpu, uint32_t irq_id)
{
	(void)cpu;
	(void)irq_id;
}

void board_exit(int status)
{
	fflush(stdout);
	_exit(status);
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

int main(int argc, char **argv)
{
	return model_main(argc, argv, NULL, NULL, NULL);
}

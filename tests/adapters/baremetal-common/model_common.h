/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * model_common.h - what the host event models of the ARM and RISC-V boards
 * (event_model/model_board.c under tests/adapters/baremetal-arm/ and
 * tests/adapters/baremetal-riscv/) share: the lock of the model's state,
 * the live and sleeping core counts, the output, the threads as cores and
 * main()'s part (the command line, the start and the end).
 *
 * Include once, from model_board.c, by a path relative to it, after the
 * model's cores and these names:
 *   MODEL_CPUS          its array of BOARD_MAX_CPUS cores, each with the
 *                       members thread, cv, masked (interrupts masked),
 *                       pending (the interrupt that wakes it is pending)
 *                       and alive;
 *   MODEL_DEFAULT_CPUS  how many run without --cpus;
 *   MODEL_IRQ           the id of the interrupt that wakes a core, for
 *                       board_on_irq();
 *   MODEL_NAME, MODEL_CPU  the model's and a core's names, for messages;
 * and define check_all_asleep() (called with mu held whenever a core goes
 * to sleep or dies).
 */
#ifndef COUPLED_TESTS_BAREMETAL_MODEL_COMMON_H
#define COUPLED_TESTS_BAREMETAL_MODEL_COMMON_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static uint32_t ncpus = MODEL_DEFAULT_CPUS;
static unsigned alive, asleep;
static _Thread_local uint32_t self;

static void check_all_asleep(void);

void board_puts(const char *s)
{
	fputs(s, stdout);
}

void board_put_u64(uint64_t v)
{
	printf("%llu", (unsigned long long)v);
}

uint32_t board_cpu_count(void)
{
	return ncpus;
}

void board_irq_disable(void)
{
	(void)model_irq_save();
}

/**
 * model_take_pending() - an instruction boundary of the calling core: it
 * takes its pending interrupt if unmasked (the handler clears it, then
 * board_on_irq() runs with MODEL_IRQ).
 */
static void model_take_pending(void)
{
	bool take;

	pthread_mutex_lock(&mu);
	take = MODEL_CPUS[self].pending && !MODEL_CPUS[self].masked;
	if (take)
		MODEL_CPUS[self].pending = false;
	pthread_mutex_unlock(&mu);
	if (take)
		board_on_irq(self, MODEL_IRQ);
}

/**
 * model_mask() - the interrupt mask's save: the boundary before the
 * masking instruction, then the calling core's interrupts masked.
 *
 * Return: true if they were masked before.
 */
static bool model_mask(void)
{
	bool old;

	model_take_pending();
	pthread_mutex_lock(&mu);
	old = MODEL_CPUS[self].masked;
	MODEL_CPUS[self].masked = true;
	pthread_mutex_unlock(&mu);
	return old;
}

/**
 * model_unmask() - the restore: the calling core's mask back, then a
 * boundary.
 * @masked: the mask, as model_mask() returned it.
 */
static void model_unmask(bool masked)
{
	pthread_mutex_lock(&mu);
	MODEL_CPUS[self].masked = masked;
	pthread_mutex_unlock(&mu);
	model_take_pending();
}

static void *model_cpu_main(void *arg)
{
	self = (uint32_t)(uintptr_t)arg;
	app_main(self);
	/* A core whose application returned parks for good. */
	pthread_mutex_lock(&mu);
	MODEL_CPUS[self].alive = false;
	alive--;
	check_all_asleep();
	pthread_mutex_unlock(&mu);
	return NULL;
}

/**
 * model_main() - the model's main(): reads "--cpus N" and the model's own
 * flag, runs app_main() on each core's thread (IRQs masked, as a core
 * starts), and waits for them.  The application's verdict ends the process
 * first (board_exit()).
 * @argc: main()'s.
 * @argv: main()'s.
 * @flag: the model's own flag, or NULL.
 * @flag_set: set to true when @flag is given.
 * @watch: run while the cores run (it returns once none is alive), or NULL.
 *
 * Return: main()'s exit status: 2 on a usage error, 1 when every core
 * returned without a verdict.
 */
static int model_main(int argc, char **argv, const char *flag, bool *flag_set,
		      void (*watch)(void))
{
	pthread_condattr_t cv_attr;
	uint32_t i;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--cpus") && a + 1 < argc) {
			ncpus = (uint32_t)strtoul(argv[++a], NULL, 10);
		} else if (flag && !strcmp(argv[a], flag)) {
			*flag_set = true;
		} else {
			fprintf(stderr, "usage: %s [--cpus 1..%d]%s%s%s\n",
				argv[0], BOARD_MAX_CPUS, flag ? " [" : "",
				flag ? flag : "", flag ? "]" : "");
			return 2;
		}
	}
	if (ncpus < 1 || ncpus > BOARD_MAX_CPUS) {
		fprintf(stderr, "--cpus must be 1..%d\n", BOARD_MAX_CPUS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	alive = ncpus;
	pthread_condattr_init(&cv_attr);
	pthread_condattr_setclock(&cv_attr, CLOCK_MONOTONIC);
	for (i = 0; i < ncpus; i++) {
		pthread_cond_init(&MODEL_CPUS[i].cv, &cv_attr);
		MODEL_CPUS[i].masked = true; /* app_main starts masked */
		MODEL_CPUS[i].alive = true;
	}
	for (i = 0; i < ncpus; i++)
		if (pthread_create(&MODEL_CPUS[i].thread, NULL, model_cpu_main,
				   (void *)(uintptr_t)i) != 0) {
			perror("pthread_create");
			return 2;
		}
	if (watch)
		watch();
	for (i = 0; i < ncpus; i++)
		pthread_join(MODEL_CPUS[i].thread, NULL);
	fprintf(stderr, "%s: every %s returned without a verdict\n", MODEL_NAME,
		MODEL_CPU);
	return 1;
}

#endif /* COUPLED_TESTS_BAREMETAL_MODEL_COMMON_H */

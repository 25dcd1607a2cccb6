/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * torture_common.h - what the bare-metal tortures
 * (tests/adapters/baremetal-arm/torture/torture.c and domain_torture.c, on
 * the ARM and the RISC-V boards and on the host event model) share: the
 * architecture's name for the PASS line, the serialised output, the failure
 * line, the start handshake and the per-core random numbers.
 *
 * Include after "board.h" and after TORTURE_YIELD() is defined (the wait
 * for the output lock).  Included by a path relative to the tortures, so
 * that every build of them (images, host model) finds it.
 */
#ifndef COUPLED_TESTS_BAREMETAL_TORTURE_COMMON_H
#define COUPLED_TESTS_BAREMETAL_TORTURE_COMMON_H

#include <stdatomic.h>
#include <stdint.h>

#include "image_print.h"

/* The PASS line's arch= and atomics=; another architecture's board.h
 * names its own. */
#ifndef TORTURE_ARCH
#if defined(__aarch64__)
#define TORTURE_ARCH "aarch64"
#elif defined(__arm__)
#define TORTURE_ARCH "armv7-a"
#else
#define TORTURE_ARCH "host-model"
#endif
#endif
#ifndef TORTURE_ATOMICS
#if defined(__ARM_FEATURE_ATOMICS)
#define TORTURE_ATOMICS "lse"
#else
#define TORTURE_ATOMICS "exclusives"
#endif
#endif

/* Held while a core prints, so that lines do not interleave. */
static atomic_flag print_lock = ATOMIC_FLAG_INIT;

/**
 * print_begin() - take the output (the UART) for one line or more.
 */
static inline void print_begin(void)
{
	/* acquire: pairs with print_end()'s release; the UART is ours. */
	while (atomic_flag_test_and_set_explicit(&print_lock,
						 memory_order_acquire))
		TORTURE_YIELD();
}

/**
 * print_end() - give the output back.
 */
static inline void print_end(void)
{
	/* release: our output is done before the next holder's. */
	atomic_flag_clear_explicit(&print_lock, memory_order_release);
}

/**
 * torture_fail() - print the failure line and exit with status 1.
 * @name: the torture's name, the line's first word.
 * @cpu: the core that found it.
 * @what: what failed.
 * @a: a value that tells more.
 * @b: another.
 * @seed: the run's seed (to run it again).
 */
static inline __attribute__((noreturn)) void
torture_fail(const char *name, uint32_t cpu, const char *what, uint64_t a,
	     uint64_t b, uint64_t seed)
{
	print_begin();
	board_puts(name);
	board_puts(": FAIL protocol=");
	board_puts(COUPLED_PROTOCOL_NAME);
	board_puts(" cpu ");
	board_put_u64(cpu);
	board_puts(": ");
	board_puts(what);
	put_kv("a", a);
	put_kv("b", b);
	put_kv("seed", seed);
	board_puts("\n");
	board_exit(1);
}

/**
 * print_start_end() - end core 0's start line with the run's seed and give
 * the output back.
 * @seed: the seed.
 */
static inline void print_start_end(uint64_t seed)
{
	put_kv("seed", seed);
	board_puts("\n");
	print_end();
}

/**
 * torture_start() - the start handshake: core 0, once it set the run up,
 * publishes that and signals the other cores; they wait for it.
 * @started: the flag (0 before).
 * @primary: true on core 0.
 * @sev: core 0's signal to the waiting cores.
 * @wfe: a waiting core's wait for a signal (or a yield).
 */
static inline void torture_start(atomic_uint *started, int primary,
				 void (*sev)(void), void (*wfe)(void))
{
	if (primary) {
		/* release: publishes core 0's set-up; pairs below. */
		atomic_store_explicit(started, 1u, memory_order_release);
		sev();
		return;
	}
	/* acquire: pairs with core 0's release store above. */
	while (!atomic_load_explicit(started, memory_order_acquire))
		wfe();
}

/**
 * torture_rng_seed() - the first state of a core's generator (torture_rnd()).
 * @seed: the run's seed.
 * @cpu: the core.
 *
 * Return: the state: distinct per core, odd (so not 0).
 */
static inline uint64_t torture_rng_seed(uint64_t seed, uint32_t cpu)
{
	return (seed ^ 0x9e3779b97f4a7c15ull) * (2u * cpu + 1u) | 1u;
}

/**
 * torture_rnd() - a random number below @bound from a core's private
 * xorshift64* generator.
 * @rng: the generator's state (not 0), advanced.
 * @bound: the bound (> 0).
 *
 * Return: the number.
 */
static inline uint32_t torture_rnd(uint64_t *rng, uint32_t bound)
{
	*rng ^= *rng >> 12;
	*rng ^= *rng << 25;
	*rng ^= *rng >> 27;
	return (uint32_t)((*rng * 2685821657736338717ull) >> 33) % bound;
}

#endif /* COUPLED_TESTS_BAREMETAL_TORTURE_COMMON_H */

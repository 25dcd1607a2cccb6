/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * seed_baseline.c - the 2012 coupled cpuidle counting protocol (see
 * seed_baseline.h for what it is and how it differs from the kernel code).
 *
 * Built twice: plain, and with SEED_COUNT_RMW to count every atomic
 * read-modify-write in a thread-local counter.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* sched_yield() under -std=c11 */
#endif
#include "seed_baseline.h"

#include <sched.h>
#include <stdbool.h>

#define SEED_WAITING_BITS 16u
#define SEED_WAITING_ONE 1u
#define SEED_READY_ONE (1u << SEED_WAITING_BITS)
#define SEED_WAITING_MASK (SEED_READY_ONE - 1u)

static _Thread_local unsigned long seed_rmws;
static _Thread_local unsigned long seed_backouts;

#ifdef SEED_COUNT_RMW
#define SEED_RMW() (seed_rmws++)
#else
#define SEED_RMW() ((void)0)
#endif

unsigned long seed_thread_rmws(void)
{
	return seed_rmws;
}

unsigned long seed_thread_backouts(void)
{
	return seed_backouts;
}

void seed_group_init(struct seed_group *g, uint32_t online, int relax,
		     int variant, seed_atomic_u32 *stop)
{
	atomic_init(&g->counts, 0u);
	atomic_init(&g->gen, 0u);
	g->online = online;
	g->relax = relax;
	g->variant = variant;
	g->stop = stop;
}

static void seed_relax(const struct seed_group *g)
{
	if (g->relax == SEED_RELAX_YIELD) {
		sched_yield();
		return;
	}
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
	__builtin_ia32_pause();
#elif defined(__GNUC__) && (defined(__aarch64__) || defined(__arm__))
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

static uint32_t seed_waiting(uint32_t w)
{
	return w & SEED_WAITING_MASK;
}

static uint32_t seed_ready(uint32_t w)
{
	return w >> SEED_WAITING_BITS;
}

/*
 * The seed's "set not ready": ready -= 1 unless the word equals its
 * all-ready value.  That value is spelled as in 2012, with a logical OR, so
 * it is 1 and the guard practically never fires.  Returns true if the ready
 * count was decremented.
 */
static bool seed_set_not_ready(struct seed_group *g)
{
	const uint32_t all = g->online || (g->online << SEED_WAITING_BITS);
	uint32_t old = atomic_load_explicit(&g->counts, memory_order_relaxed);

	while (old != all) {
		SEED_RMW();
		if (atomic_compare_exchange_weak_explicit(
			    &g->counts, &old, old - SEED_READY_ONE,
			    memory_order_seq_cst, memory_order_relaxed))
			return true;
	}
	return false;
}

int seed_enter(struct seed_group *g, void (*action)(void *), void *ctx)
{
	const uint32_t n = g->online;
	const uint32_t all_ready = n | (n << SEED_WAITING_BITS);
	uint32_t gen, w;

	/*
	 * 1: waiting += 1.  The kernel's atomic_inc_return is a full barrier;
	 * seq_cst here.  (The last arriver would poke the others; here they
	 * poll the word.)
	 */
	SEED_RMW();
	(void)atomic_fetch_add_explicit(&g->counts, SEED_WAITING_ONE,
					memory_order_seq_cst);
retry:
	/* Waiting phase: until every participant is waiting. */
	while (seed_waiting(atomic_load_explicit(&g->counts,
						 memory_order_acquire)) != n) {
		/* Where the seed polls for pending work. */
		if (g->stop &&
		    atomic_load_explicit(g->stop, memory_order_relaxed)) {
			SEED_RMW();
			(void)atomic_fetch_sub_explicit(&g->counts,
							SEED_WAITING_ONE,
							memory_order_seq_cst);
			return SEED_STOPPED;
		}
		seed_relax(g);
	}

	/*
	 * 2: ready += 1.  The generation is read first: it cannot move before
	 * this increment, which every completion of the word follows.
	 */
	gen = atomic_load_explicit(&g->gen, memory_order_relaxed);
	SEED_RMW();
	w = atomic_fetch_add_explicit(&g->counts, SEED_READY_ONE,
				      memory_order_seq_cst) +
	    SEED_READY_ONE;
	if (g->variant == SEED_VARIANT_GEN && w == all_ready)
		/* release: pairs with the acquire load below. */
		atomic_store_explicit(&g->gen, gen + 1u, memory_order_release);
	for (;;) {
		uint32_t c =
			atomic_load_explicit(&g->counts, memory_order_acquire);

		if (g->variant == SEED_VARIANT_GEN) {
			/*
			 * Loaded after the word: if c shows somebody's exit,
			 * that somebody saw the new generation first.
			 */
			if (atomic_load_explicit(&g->gen,
						 memory_order_acquire) != gen)
				break;
		} else if (seed_ready(c) == n) {
			break;
		}
		/* Someone stopped waiting: back out and wait again. */
		if (seed_waiting(c) != n && seed_set_not_ready(g)) {
			seed_backouts++;
			goto retry;
		}
		seed_relax(g);
	}

	action(ctx);

	/* 3 and 4: the seed's "set done": waiting -= 1, then ready -= 1. */
	SEED_RMW();
	(void)atomic_fetch_sub_explicit(&g->counts, SEED_WAITING_ONE,
					memory_order_seq_cst);
	SEED_RMW();
	(void)atomic_fetch_sub_explicit(&g->counts, SEED_READY_ONE,
					memory_order_seq_cst);

	/* Wait until every participant has left the ready phase. */
	while (seed_ready(atomic_load_explicit(&g->counts,
					       memory_order_acquire)) != 0)
		seed_relax(g);
	return SEED_COMMITTED;
}

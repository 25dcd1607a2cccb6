/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * seed_baseline.h - the 2012 coupled cpuidle counting protocol, as a
 * benchmark baseline.
 *
 * Written for this project from the description of the Linux 3.6 seed
 * (commit 4126c0197bc8, "cpuidle: add support for states that affect
 * multiple cpus"), with no later fixes.  One packed 32-bit word holds the
 * waiting count (low 16 bits) and the ready count (high 16 bits); each
 * participant of a round performs exactly four atomic read-modify-writes:
 *
 *   1. waiting += 1                       (arrive)
 *   2. ready   += 1                       (promise to enter)
 *   3. waiting -= 1                       (done, first half)
 *   4. ready   -= 1                       (done, second half)
 *
 * plus one "ready -= 1 unless all ready" whenever it backs out of the ready
 * phase.  The all-ready value keeps the seed's "||" spelling, which makes it 1
 * and disables that guard (a later fix changed it).
 *
 * Differences from the kernel code, all in the baseline's favour or neutral:
 * the waiting phase polls the word instead of sleeping in a safe state and
 * being woken by a poke IPI (there is no IPI in user space), so the last
 * arriver pokes nobody; no requests are reduced (the benchmark's action takes
 * no parameter).
 *
 * The seed's exit race, and the one deviation (SEED_VARIANT_GEN, what the
 * benchmarks use): in the seed a participant leaves the ready loop when it
 * sees ready == online.  That state lasts only from the last ready increment
 * to the first participant's "waiting -= 1"; a participant that misses it
 * (preempted, yielding, or simply slower than an empty action) then sees
 * waiting < online, backs out of a round the others committed, and waits for
 * the next round one round behind: it skips the action.  In the kernel the
 * coupled idle state lasts long enough to hide this; with an empty action it
 * happens all the time.  SEED_VARIANT_GEN adds a round generation: the
 * participant whose ready increment completes the word (it learns that from
 * the same RMW's result) stores generation + 1, and participants leave the
 * ready loop when they see the generation change.  It adds a plain store and
 * loads, no RMW.  SEED_VARIANT_2012 keeps the seed's loop as it was; the
 * rounds it skips are counted (seed_thread_missed()) and a stop flag, polled
 * where the seed polls for pending work (the waiting phase), lets a lagging
 * participant leave at the end instead of hanging.
 */
#ifndef COUPLED_BENCH_SEED_BASELINE_H
#define COUPLED_BENCH_SEED_BASELINE_H

#ifdef __cplusplus
#include <atomic>
#include <cstdint>
typedef std::atomic<std::uint32_t> seed_atomic_u32;
extern "C" {
#else
#include <stdatomic.h>
#include <stdint.h>
typedef _Atomic uint32_t seed_atomic_u32;
#endif

/* How a participant waits: pause instruction, or sched_yield(). */
#define SEED_RELAX_PAUSE 0
#define SEED_RELAX_YIELD 1

/* Protocol variants (see above). */
#define SEED_VARIANT_GEN 0
#define SEED_VARIANT_2012 1

/* Return codes of seed_enter(). */
#define SEED_COMMITTED 0
#define SEED_STOPPED 1 /* the stop flag was seen in the waiting phase */

struct seed_group {
	seed_atomic_u32 counts; /* ready << 16 | waiting */
	uint32_t online;        /* number of participants */
	int relax;              /* SEED_RELAX_* */
	int variant;            /* SEED_VARIANT_* */
	seed_atomic_u32 gen;    /* round generation (SEED_VARIANT_GEN) */
	seed_atomic_u32 *stop;  /* polled in the waiting phase; may be NULL */
};

/* Initialise @g for @online participants; no participant may be inside. */
void seed_group_init(struct seed_group *g, uint32_t online, int relax,
		     int variant, seed_atomic_u32 *stop);

/*
 * One round: wait until all are waiting, become ready, wait until all are
 * ready (backing out and retrying if someone stopped waiting), call
 * @action(@ctx), then leave both counts and wait until nobody is ready.
 * Returns SEED_COMMITTED after @action ran, SEED_STOPPED if the stop flag
 * ended the waiting phase (the word is then as if the call never happened).
 */
int seed_enter(struct seed_group *g, void (*action)(void *), void *ctx);

/*
 * Counters of the calling thread: atomic read-modify-writes on the word
 * (maintained only when the object was built with SEED_COUNT_RMW, otherwise
 * 0), and back-outs of the ready phase.
 */
unsigned long seed_thread_rmws(void);
unsigned long seed_thread_backouts(void);

#ifdef __cplusplus
}
#endif

#endif /* COUPLED_BENCH_SEED_BASELINE_H */

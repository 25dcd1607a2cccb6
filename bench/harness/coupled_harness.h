/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled_harness.h - a bindings-free benchmark harness for coupled rounds.
 *
 * The core (coupled_harness.c) is C11 and needs no C library: it includes
 * only the freestanding headers and coupled/coupled.h.  Everything that
 * depends on the platform comes in through struct coupled_harness_platform:
 * the clock, a way to run N execution contexts (threads, cores) at once, the
 * output, and how to pick the adapter's wait strategy.  It runs the same
 * cases as the Google Benchmark suite (bench/bench_main.cc), under the same
 * names, and writes the same JSON schema (a "context" object and a
 * "benchmarks" array of entries with name, run_type, iterations, real_time,
 * cpu_time, time_unit and the ns_per_round counter), so that Google
 * Benchmark's compare.py reads it and a bare-metal or kernel target produces
 * numbers comparable with a hosted run.
 */
#ifndef COUPLED_HARNESS_H
#define COUPLED_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "coupled/coupled.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one execution context runs: @tid is 0..n-1. */
typedef void (*coupled_harness_body_fn)(void *arg, uint32_t tid);

/**
 * struct coupled_harness_platform - what the caller provides
 * @ctx: first argument of every callback
 * @now_ns: a monotonic clock in nanoseconds; called by context 0 only
 * @write: append @len bytes of output (the JSON document)
 * @run: run @body(@arg, tid) on @n contexts concurrently, tid = 0..n-1, and
 *       return when all have returned; what they wrote must be visible to
 *       the caller afterwards (as after pthread_join())
 * @set_strategy: select wait strategy @strategy (an index into
 *       @strategy_names) on a freshly initialised group; NULL if the adapter
 *       has a single way of waiting.  Return 0 on success.
 * @strategy_names: printable names, used in benchmark names; NULL and 0
 *       mean one strategy called "spin"
 * @n_strategies: number of entries of @strategy_names
 * @spinning: optional array of @n_strategies flags: 1 if that strategy
 *       busy-waits (it then gets a fixed iteration count when there are more
 *       contexts than CPUs); NULL means all spin
 * @num_cpus: CPUs available (0: unknown, treated as 1)
 * @host_name, @date, @executable: strings for the JSON context (may be NULL)
 */
struct coupled_harness_platform {
	void *ctx;
	uint64_t (*now_ns)(void *ctx);
	void (*write)(void *ctx, const char *buf, size_t len);
	void (*run)(void *ctx, uint32_t n, coupled_harness_body_fn body,
		    void *arg);
	int (*set_strategy)(void *ctx, struct coupled_group *g, int strategy);
	const char *const *strategy_names;
	unsigned n_strategies;
	const unsigned char *spinning;
	unsigned num_cpus;
	const char *host_name;
	const char *date;
	const char *executable;
};

/**
 * struct coupled_harness_options - what to run
 * @threads: thread counts to run each case with (1..@capacity)
 * @n_threads: number of entries of @threads
 * @min_time_ns: grow the iteration count until a run lasts this long
 * @max_iterations: cap of the iteration count per thread (0: 1e9)
 * @oversub_iterations: fixed per-thread iterations of a busy-waiting
 *       strategy with more contexts than CPUs (0: 5)
 * @repetitions: runs reported per case (0: 1)
 * @case_mask: bit i set runs case i (enum coupled_harness_case); 0: all
 */
struct coupled_harness_options {
	const uint32_t *threads;
	unsigned n_threads;
	uint64_t min_time_ns;
	uint64_t max_iterations;
	uint64_t oversub_iterations;
	unsigned repetitions;
	unsigned case_mask;
};

enum coupled_harness_case {
	COUPLED_HARNESS_ROUND, /* coupled_round: enter, empty action, exit */
	COUPLED_HARNESS_ABORT_RETRY, /* coupled_abort_retry: one abort, retry */
	COUPLED_HARNESS_JOIN_LEAVE, /* coupled_join_leave: leave+join per round */
	COUPLED_HARNESS_UNCONTENDED, /* coupled_uncontended: one member */
	COUPLED_HARNESS_CASES
};

/**
 * coupled_harness_run() - run the cases and write the JSON document
 * @p: the platform
 * @o: the options
 * @slots: storage for @capacity participant slots
 * @capacity: at least the largest thread count
 *
 * Return: 0, or a negative COUPLED_E* code for bad arguments (nothing is
 * written then), or COUPLED_EPERM if a round failed (the document is still
 * completed).
 */
int coupled_harness_run(const struct coupled_harness_platform *p,
			const struct coupled_harness_options *o,
			struct coupled_slot *slots, uint32_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* COUPLED_HARNESS_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * demo_util.h - what the two demos (examples/demo, examples/domains) share:
 * the random numbers, the simulated time, the counters, the failure line,
 * the command line and the paced main loop.  Each demo names its own
 * "how many cores" option and default strategy; the rest is the same.
 *
 * Define DEMO_NAME (the program's name, a string) and include it first: it
 * asks for the POSIX names (nanosleep, flockfile) and
 * the library's counters before any header, and includes the library,
 * which must be built with the pthread adapter (the command line names its
 * wait strategies).
 */
#ifndef COUPLED_EXAMPLES_DEMO_UTIL_H
#define COUPLED_EXAMPLES_DEMO_UTIL_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#ifndef COUPLED_STATS
#define COUPLED_STATS 1 /* the summaries read coupled_stats_read() */
#endif

#include "coupled/coupled.h"

#ifndef COUPLED_ADAPTER_PTHREAD
#error "the demos need the pthread adapter (-DCOUPLED_ADAPTER_PTHREAD)"
#endif

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- small helpers ---------------------------------------------------- */

/**
 * splitmix64() - the next value of a splitmix64 stream.
 * @state: the stream's state, advanced.
 *
 * Return: 64 random bits.
 */
static inline uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/**
 * rand_below() - a uniform value in 0..n-1 (n > 0).
 * @state: the stream's state, advanced.
 * @n: the bound; the modulo bias is irrelevant here.
 *
 * Return: the value.
 */
static inline uint64_t rand_below(uint64_t *state, uint64_t n)
{
	return splitmix64(state) % n;
}

/**
 * sleep_ns() - simulated time (work, residency, pacing of the output);
 * never used to wait for another thread.
 * @ns: how long, in nanoseconds.
 */
static inline void sleep_ns(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / 1000000000u);
	ts.tv_nsec = (long)(ns % 1000000000u);
	while (nanosleep(&ts, &ts) != 0)
		;
}

/**
 * add() - add to a statistics counter.
 * @counter: the counter.
 * @v: what to add.
 */
static inline void add(atomic_uint_fast64_t *counter, uint64_t v)
{
	/* relaxed: a count; it orders nothing, the joins publish it. */
	atomic_fetch_add_explicit(counter, v, memory_order_relaxed);
}

/**
 * get() - read a statistics counter.
 * @counter: the counter.
 *
 * Return: its value.
 */
static inline uint64_t get(atomic_uint_fast64_t *counter)
{
	/* relaxed: a count read for progress or after the joins. */
	return atomic_load_explicit(counter, memory_order_relaxed);
}

/* Set by a failed check (the run fails) and at the end (threads stop);
 * stop is read by every thread. */
static atomic_bool demo_stop;
static atomic_bool demo_failed;

/**
 * fail() - print one failed check and stop the run.
 * @fmt: printf format of the check's words, then its arguments.
 *
 * The line starts with DEMO_NAME, which the demo defines before it
 * includes this header.
 */
static inline void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	flockfile(stderr); /* one line per failure, not interleaved */
	fputs(DEMO_NAME ": CHECK FAILED: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
	va_end(ap);
	atomic_store(&demo_failed, true);
	atomic_store(&demo_stop, true);
}

/* ---- command line ----------------------------------------------------- */

/**
 * struct demo_config - a demo's command line.
 * @count: the value of the demo's "how many cores" option.
 * @seconds: how long to run.
 * @strategy: how idle cores wait (COUPLED_PTHREAD_*).
 * @seed: the random seed (from the clock without --seed).
 */
struct demo_config {
	uint32_t count;
	double seconds;
	int strategy;
	uint64_t seed;
};

/**
 * struct demo_cli - what differs between the demos' command lines.
 * @count_opt: the "how many cores" option ("--workers", "--cores").
 * @count_what: what it counts, for the usage text.
 * @count_max: its largest value (the smallest is 1).
 * @count_default: its default.
 * @strategy_default: the default strategy (COUPLED_PTHREAD_*).
 */
struct demo_cli {
	const char *count_opt;
	const char *count_what;
	uint32_t count_max;
	uint32_t count_default;
	int strategy_default;
};

/**
 * demo_usage() - print the usage text.
 * @out: where.
 * @prog: the program's name.
 * @cli: the demo's options.
 */
static inline void demo_usage(FILE *out, const char *prog,
			      const struct demo_cli *cli)
{
	fprintf(out,
		"usage: %s [%s N] [--seconds S] "
		"[--strategy spin|futex|condvar] [--seed X]\n",
		prog, cli->count_opt);
	fprintf(out, "  %s N%*s%s, 1..%u (default %u)\n", cli->count_opt,
		(int)(14 - strlen(cli->count_opt)), "", cli->count_what,
		cli->count_max, cli->count_default);
	fprintf(out,
		"  --seconds S     how long to run, 0 < S <= 3600 (default 5)\n"
		"  --strategy W    how idle cores wait (default %s)\n"
		"  --seed X        random seed (default: from the clock)\n",
		coupled_pthread_strategy_name(cli->strategy_default));
}

/**
 * demo_parse_u64() - a whole number, decimal or 0x hex, no sign.
 * @s: the text (may be NULL).
 * @out: the value, when it parses.
 *
 * Return: true if @s is a whole number.
 */
static inline bool demo_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return false;
	v = strtoull(s, &end, 0);
	if (*end)
		return false;
	*out = v;
	return true;
}

/**
 * demo_parse_args() - read the options into @cfg.
 * @argc: as main()'s.
 * @argv: as main()'s.
 * @cli: the demo's options.
 * @cfg: filled where an option names it (defaults set by the caller).
 * @seeded: set to whether --seed was given.
 *
 * Return: true if every option and value is valid.
 */
static inline bool demo_parse_args(int argc, char **argv,
				   const struct demo_cli *cli,
				   struct demo_config *cfg, bool *seeded)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *opt = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t u;

		if (!val)
			return false;
		i++;
		if (!strcmp(opt, cli->count_opt)) {
			if (!demo_parse_u64(val, &u) || u < 1 ||
			    u > cli->count_max)
				return false;
			cfg->count = (uint32_t)u;
		} else if (!strcmp(opt, "--seconds")) {
			char *end;
			double s = strtod(val, &end);

			if (*end || !(s > 0.0 && s <= 3600.0))
				return false;
			cfg->seconds = s;
		} else if (!strcmp(opt, "--strategy")) {
			if (!strcmp(val, "spin"))
				cfg->strategy = COUPLED_PTHREAD_SPIN;
			else if (!strcmp(val, "futex"))
				cfg->strategy = COUPLED_PTHREAD_FUTEX;
			else if (!strcmp(val, "condvar"))
				cfg->strategy = COUPLED_PTHREAD_CONDVAR;
			else
				return false;
		} else if (!strcmp(opt, "--seed")) {
			if (!demo_parse_u64(val, &u))
				return false;
			cfg->seed = u;
			*seeded = true;
		} else {
			return false;
		}
	}
	return true;
}

/**
 * demo_command_line() - defaults, options, --help and the seed.
 * @argc: as main()'s.
 * @argv: as main()'s.
 * @cli: the demo's options.
 * @cfg: the configuration to run.
 *
 * Exits after --help (status 0) and for a bad command line (status 2, the
 * usage printed).
 */
static inline void demo_command_line(int argc, char **argv,
				     const struct demo_cli *cli,
				     struct demo_config *cfg)
{
	bool seeded = false;

	cfg->count = cli->count_default;
	cfg->seconds = 5.0;
	cfg->strategy = cli->strategy_default;
	cfg->seed = 0;
	if (argc == 2 &&
	    (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		demo_usage(stdout, argv[0], cli);
		exit(0);
	}
	if (!demo_parse_args(argc, argv, cli, cfg, &seeded)) {
		demo_usage(stderr, argv[0], cli);
		exit(2);
	}
	if (!seeded) {
		/* No --seed: take one from the clock (it is printed). */
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		cfg->seed = (uint64_t)ts.tv_sec * 1000000000u +
			    (uint64_t)ts.tv_nsec;
	}
}

/* ---- the run ---------------------------------------------------------- */

/**
 * struct irq_source - the thread that raises simulated interrupts.
 * @thread: its id.
 * @rng: its random stream.
 */
struct irq_source {
	pthread_t thread;
	uint64_t rng;
};

/**
 * demo_spawn() - start a thread.
 * @thread: its id.
 * @fn: its function.
 * @arg: @fn's argument.
 *
 * Return: 0, or 1 (printed) if it could not be created.
 */
static inline int demo_spawn(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	if (!pthread_create(thread, NULL, fn, arg))
		return 0;
	fprintf(stderr, DEMO_NAME ": pthread_create failed\n");
	return 1;
}

/**
 * demo_pace() - start the interrupt thread, then run until a check fails
 * or @seconds have passed, calling @progress once a second; the sleeps only
 * pace the output.  Then sets demo_stop (the caller joins the threads).
 * @now: the clock (nanoseconds).
 * @start: when the run started, on @now's clock.
 * @seconds: how long.
 * @irq: the interrupt thread's state.
 * @irq_main: its function, given @irq.
 * @progress: prints one progress line, given the seconds so far.
 *
 * Return: 0, or 1 (printed) if the interrupt thread could not be created.
 */
static inline int demo_pace(uint64_t (*now)(void), uint64_t start,
			    double seconds, struct irq_source *irq,
			    void *(*irq_main)(void *), void (*progress)(double))
{
	uint64_t end = start + (uint64_t)(seconds * 1e9);
	uint64_t next = start + 1000000000u;

	if (demo_spawn(&irq->thread, irq_main, irq))
		return 1;
	for (;;) {
		uint64_t t = now();

		if (atomic_load(&demo_stop) || t >= end)
			break;
		if (t < next) {
			sleep_ns((next < end ? next : end) - t);
			continue;
		}
		progress((double)(t - start) / 1e9);
		fflush(stdout);
		next += 1000000000u;
	}
	atomic_store(&demo_stop, true);
	return 0;
}

/**
 * demo_result() - the last line and the exit status.
 * @end_checks_bad: nonzero if a check at the end failed.
 * @ok: what held, printed after "result: OK".
 *
 * Return: 0 if every check held, 1 if one failed during the run or at the
 * end.
 */
static inline int demo_result(int end_checks_bad, const char *ok)
{
	if (end_checks_bad)
		atomic_store(&demo_failed, true);
	if (atomic_load(&demo_failed)) {
		printf("result: FAILED\n");
		return 1;
	}
	printf("result: OK (%s)\n", ok);
	return 0;
}

#endif /* COUPLED_EXAMPLES_DEMO_UTIL_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * hosted_main.c - the harness on a hosted system: POSIX threads,
 * clock_gettime(CLOCK_MONOTONIC), output to stdout or a file.  Context i is
 * pinned to the i-th allowed CPU (modulo their number), as in the Google
 * Benchmark suite, unless COUPLED_BENCH_PIN=0.
 *
 * Usage: bench_harness [--out FILE] [--threads 1,2,4,8,16]
 *                      [--min-time-ms MS] [--repetitions R]
 *                      [--oversub-iters N] [--cases round,abort_retry,
 *                      join_leave,uncontended] [--strategies spin,futex,condvar]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_setaffinity_np(), CPU_SET() */
#endif
#include "coupled_harness.h"

#include <sched.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64
#define MAX_LIST 16

static const char *const all_strategy_names[] = { "spin", "futex", "condvar" };
static const int all_strategy_ids[] = { COUPLED_PTHREAD_SPIN,
					COUPLED_PTHREAD_FUTEX,
					COUPLED_PTHREAD_CONDVAR };
static const unsigned char all_spinning[] = { 1, 0, 0 };

struct hosted {
	FILE *out;
	int strategy_ids[3];
};

struct thread_arg {
	pthread_t thread;
	coupled_harness_body_fn body;
	void *arg;
	uint32_t tid;
};

static uint64_t hosted_now(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void hosted_write(void *ctx, const char *buf, size_t len)
{
	struct hosted *h = (struct hosted *)ctx;

	fwrite(buf, 1, len, h->out);
}

/* The CPUs the process may run on, read once at start-up. */
static int cpus_allowed[CPU_SETSIZE];
static unsigned n_cpus_allowed;
static int pin_threads = 1;

static void read_cpus(void)
{
	cpu_set_t set;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus_allowed[n_cpus_allowed++] = c;
}

static void *thread_main(void *p)
{
	struct thread_arg *a = (struct thread_arg *)p;

	if (pin_threads && n_cpus_allowed) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpus_allowed[a->tid % n_cpus_allowed], &set);
		(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}

	a->body(a->arg, a->tid);
	return NULL;
}

static void hosted_run(void *ctx, uint32_t n, coupled_harness_body_fn body,
		       void *arg)
{
	static struct thread_arg threads[MAX_THREADS];
	uint32_t i;

	(void)ctx;
	for (i = 0; i < n; i++) {
		threads[i].body = body;
		threads[i].arg = arg;
		threads[i].tid = i;
		if (pthread_create(&threads[i].thread, NULL, thread_main,
				   &threads[i])) {
			fprintf(stderr, "bench_harness: pthread_create "
					"failed\n");
			exit(1);
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(threads[i].thread, NULL);
}

static int hosted_set_strategy(void *ctx, struct coupled_group *g, int s)
{
	struct hosted *h = (struct hosted *)ctx;

	return coupled_pthread_set_strategy(coupled_group_adapter(g),
					    h->strategy_ids[s]);
}

/* Split a comma-separated list; returns the number of items. */
static unsigned split(char *s, char **items, unsigned max)
{
	unsigned n = 0;
	char *tok = strtok(s, ",");

	while (tok && n < max) {
		items[n++] = tok;
		tok = strtok(NULL, ",");
	}
	return n;
}

static int usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [--out FILE] [--threads 1,2,...] [--min-time-ms "
		"MS]\n"
		"          [--repetitions R] [--oversub-iters N]\n"
		"          [--cases round,abort_retry,join_leave,uncontended]\n"
		"          [--strategies spin,futex,condvar]\n",
		argv0);
	return 2;
}

int main(int argc, char **argv)
{
	static struct coupled_slot slots[MAX_THREADS];
	static const char *const case_opts[] = { "round", "abort_retry",
						 "join_leave", "uncontended" };
	uint32_t threads[MAX_LIST] = { 1, 2, 4, 8, 16 };
	const char *names[3];
	unsigned char spinning[3];
	struct coupled_harness_platform p;
	struct coupled_harness_options o;
	struct hosted h;
	char host[256] = "", date[64] = "";
	const char *out_path = NULL;
	unsigned n_threads = 5, n_strat = 3, i, j;
	time_t now = time(NULL);
	struct tm tm;
	long cpus;
	int ret;

	read_cpus();
	{
		const char *pin = getenv("COUPLED_BENCH_PIN");

		pin_threads = !(pin && !strcmp(pin, "0"));
	}
	memset(&o, 0, sizeof(o));
	o.min_time_ns = 200000000u;
	o.repetitions = 1;
	for (i = 0; i < 3; i++) {
		names[i] = all_strategy_names[i];
		h.strategy_ids[i] = all_strategy_ids[i];
		spinning[i] = all_spinning[i];
	}
	for (i = 1; i < (unsigned)argc; i++) {
		const char *a = argv[i];
		char *v = i + 1 < (unsigned)argc ? argv[i + 1] : NULL;
		char *items[MAX_LIST];
		unsigned n;

		if (!v)
			return usage(argv[0]);
		i++;
		if (!strcmp(a, "--out")) {
			out_path = v;
		} else if (!strcmp(a, "--threads")) {
			n_threads = split(v, items, MAX_LIST);
			for (j = 0; j < n_threads; j++) {
				threads[j] =
					(uint32_t)strtoul(items[j], NULL, 10);
				if (threads[j] == 0 || threads[j] > MAX_THREADS)
					return usage(argv[0]);
			}
		} else if (!strcmp(a, "--min-time-ms")) {
			o.min_time_ns = strtoull(v, NULL, 10) * 1000000u;
		} else if (!strcmp(a, "--repetitions")) {
			o.repetitions = (unsigned)strtoul(v, NULL, 10);
		} else if (!strcmp(a, "--oversub-iters")) {
			o.oversub_iterations = strtoull(v, NULL, 10);
		} else if (!strcmp(a, "--cases")) {
			n = split(v, items, MAX_LIST);
			for (j = 0; j < n; j++) {
				unsigned k;

				for (k = 0; k < 4; k++)
					if (!strcmp(items[j], case_opts[k]))
						o.case_mask |= 1u << k;
			}
			if (!o.case_mask)
				return usage(argv[0]);
		} else if (!strcmp(a, "--strategies")) {
			n = split(v, items, MAX_LIST);
			n_strat = 0;
			for (j = 0; j < n; j++) {
				unsigned k;

				for (k = 0; k < 3; k++) {
					if (strcmp(items[j],
						   all_strategy_names[k]) ||
					    n_strat == 3)
						continue;
					names[n_strat] = all_strategy_names[k];
					h.strategy_ids[n_strat] =
						all_strategy_ids[k];
					spinning[n_strat] = all_spinning[k];
					n_strat++;
				}
			}
			if (!n_strat)
				return usage(argv[0]);
		} else {
			return usage(argv[0]);
		}
	}
	o.threads = threads;
	o.n_threads = n_threads;

	h.out = stdout;
	if (out_path && !(h.out = fopen(out_path, "w"))) {
		perror(out_path);
		return 1;
	}
	gethostname(host, sizeof(host) - 1);
	if (gmtime_r(&now, &tm))
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
	cpus = n_cpus_allowed ? (long)n_cpus_allowed
			      : sysconf(_SC_NPROCESSORS_ONLN);

	memset(&p, 0, sizeof(p));
	p.ctx = &h;
	p.now_ns = hosted_now;
	p.write = hosted_write;
	p.run = hosted_run;
	p.set_strategy = hosted_set_strategy;
	p.strategy_names = names;
	p.n_strategies = n_strat;
	p.spinning = spinning;
	p.num_cpus = cpus > 0 ? (unsigned)cpus : 1;
	p.host_name = host;
	p.date = date;
	p.executable = argv[0];

	ret = coupled_harness_run(&p, &o, slots, MAX_THREADS);
	if (out_path)
		fclose(h.out);
	if (ret) {
		fprintf(stderr, "bench_harness: %s\n", coupled_strerror(ret));
		return 1;
	}
	return 0;
}

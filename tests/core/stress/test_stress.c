/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_stress.c - many rounds, random aborts, membership churn, every
 * committed round checked.
 *
 * Usage: test_stress [--threads N] [--rounds R] [--strategy spin|futex|condvar]
 *                    [--abort-pct P] [--work-pct P] [--churn|--changer]
 *                    [--seed S] [--start-gen G]
 *
 * N threads (2..64) share one group.  Each call asks for a random request;
 * with probability P a call carries a caller abort that fires after a random
 * number of polls; threads raise simulated work on random others (the
 * pthread adapter's injectable "work pending") after P% of their committed
 * rounds; with --churn the last thread leaves the group and joins again
 * after about one in 32 of its committed rounds; with --changer a separate
 * thread removes running participants and adds them back at random (at least
 * two stay members), racing with their own calls, which then return
 * COUPLED_ENOENT until they are members again.
 *
 * --start-gen G starts the group at generation G
 * (coupled_group_set_generation()), e.g. close to 2^32 so that the run
 * crosses the wrap.
 *
 * Every committed round is recorded by generation in the per-round oracle
 * (oracle.h).  At the end each recorded round must have been run by exactly
 * its members (each once), all with the same parameter, equal to the
 * minimum of their requests, and the same vote outcome where a vote was
 * held; the generations must be consecutive from the start generation on
 * (across the 32-bit wrap with --start-gen), with no round missing; every
 * thread ran the action exactly as often as its calls returned
 * COUPLED_COMMITTED; and the group must be at rest at the end
 * (variant.h).  Exit status 0 only if all of that holds.
 */
#include "coupled/coupled.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "oracle.h"
#include "variant.h"

#define MAX_THREADS 64
_Static_assert(MAX_THREADS <= ORACLE_MAX_MEMBERS, "the oracle's record holds "
						  "every thread");

struct worker {
	pthread_t thread;
	uint32_t id;
	uint64_t rng;
	int32_t request;
	/* Caller abort of the current call: fires when polls reaches 0. */
	int abort_armed;
	unsigned abort_polls;
	/* Counted by the worker itself; read after join. */
	unsigned long calls, commits, actions, results[COUPLED_ABORT_REASONS];
	unsigned long changes;
	int last;             /* the result of the last call */
	unsigned long absent; /* calls refused while not a member */
};

static struct coupled_group group;
static struct coupled_slot slots[MAX_THREADS];
static struct worker workers[MAX_THREADS];
static struct oracle_round *log_rounds; /* one record per generation */
static uint32_t log_size;
static uint32_t target_rounds = 20000;
static uint32_t start_gen; /* the generation the group starts at */
static uint32_t nthreads = 4;
static unsigned abort_pct = 2, work_pct = 5;
static int churn, changer;
static atomic_int stop;
static atomic_uint work_flag[MAX_THREADS];

static uint32_t rnd(struct worker *w, uint32_t bound)
{
	/* xorshift64*: a private generator per worker. */
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return (uint32_t)((w->rng * 2685821657736338717ull) >> 33) % bound;
}

static bool caller_abort(void *arg, uint32_t self)
{
	struct worker *w = (struct worker *)arg;

	(void)self;
	/* Armed, it fires once its polls are used up. */
	if (w->abort_armed && w->abort_polls > 0) {
		w->abort_polls--;
		return false;
	}
	return w->abort_armed != 0;
}

static void action(const struct coupled_round *r, void *ctx)
{
	struct worker *w = (struct worker *)ctx;
	struct oracle_round *rec;
	struct oracle_failure f;
	uint32_t idx;

	/* Rounds counted from the start generation, across the wrap. */
	idx = r->generation - start_gen;
	if (idx >= log_size) {
		fprintf(stderr, "generation %u beyond the log\n",
			(unsigned)r->generation);
		exit(1);
	}
	CHECK_EQ(r->self, w->id);
	rec = &log_rounds[idx];
	w->actions++;
	if (oracle_record(rec, r, w->request, NULL, &f) != 0) {
		fprintf(stderr, "round %u: participant %u: %s (%ld, %ld)\n",
			(unsigned)r->generation, (unsigned)r->self, f.what, f.a,
			f.b);
		exit(1);
	}
	/* Every 8th round: a barrier and a vote inside the action. */
	if (r->generation % 8 == 0) {
		int v;

		CHECK_EQ(coupled_barrier(r), 0);
		v = coupled_vote(r, rnd(w, 4) == 0);
		CHECK(v == 0 || v == 1);
		oracle_vote(rec, v);
	}
	if (idx >= target_rounds)
		atomic_store(&stop, 1);
}

/*
 * Raise simulated work on a random participant, at most one pending per
 * target (work_flag), so that pending work never piles up faster than it is
 * handled.
 */
static void maybe_raise_work(struct worker *w)
{
	uint32_t t;
	unsigned expected = 0;

	if (!work_pct || rnd(w, 100) >= work_pct)
		return;
	t = rnd(w, nthreads);
	if (!atomic_compare_exchange_strong(&work_flag[t], &expected, 1u))
		return;
	coupled_pthread_raise_work(coupled_group_adapter(&group),
				   coupled_participant_adapter(&group, t), t);
}

/* The participant "handles the interrupt": its pending work goes away. */
static void handle_work(struct worker *w)
{
	coupled_pthread_clear_work(coupled_participant_adapter(&group, w->id));
	atomic_store(&work_flag[w->id], 0u);
}

static void churn_once(struct worker *w)
{
	unsigned spin = rnd(w, 16);

	CHECK_EQ(coupled_leave(&group, w->id), 0);
	w->changes++;
	while (spin-- && !atomic_load(&stop))
		sched_yield();
	CHECK_EQ(coupled_join(&group, w->id), 0);
	w->changes++;
}

static void *worker_main(void *arg)
{
	struct worker *w = (struct worker *)arg;
	struct coupled_abort_opts opts;
	bool is_churner = churn && nthreads >= 3 && w->id == nthreads - 1;

	memset(&opts, 0, sizeof(opts));
	opts.should_abort = caller_abort;
	opts.abort_arg = w;

	while (!atomic_load(&stop)) {
		int r;

		/*
		 * Membership changes and simulated interrupts are drawn once
		 * per committed round, not per call: an aborted call is cheap,
		 * and drawing per call would abort rounds faster than they
		 * can form.
		 */
		if (is_churner && w->last == COUPLED_COMMITTED &&
		    rnd(w, 32) == 0) {
			churn_once(w);
			/*
			 * The last round may have committed while we were
			 * out; its members have left for good.
			 */
			if (atomic_load(&stop))
				break;
		}
		w->request = (int32_t)rnd(w, 8);
		w->abort_armed = abort_pct && rnd(w, 100) < abort_pct;
		w->abort_polls = rnd(w, 40);
		w->calls++;
		r = coupled_enter_opts(&group, w->id, w->request, action, w,
				       &opts);
		w->last = r;
		if (r == COUPLED_ENOENT && changer) {
			/* Removed by the changer: wait to be added back. */
			w->absent++;
			sched_yield();
		} else if (r == COUPLED_COMMITTED) {
			w->commits++;
			maybe_raise_work(w);
		} else if (r > 0 && r < COUPLED_ABORT_REASONS) {
			w->results[r]++;
			if (r == COUPLED_ABORT_WORK)
				handle_work(w);
			/* Run the "work", or let the changer finish. */
			sched_yield();
		} else {
			fprintf(stderr, "participant %u: unexpected %s\n",
				(unsigned)w->id, coupled_strerror(r));
			exit(1);
		}
	}
	return NULL;
}

/*
 * --changer: remove and add back random participants while they run.  When
 * the last round has committed, remove everybody, so that a participant added
 * back after that round (and now resting in phase 1 for a round that will
 * never come) aborts and sees the stop flag.
 */
static unsigned long changer_ops;

static void *changer_main(void *arg)
{
	struct worker self;
	uint32_t t;

	(void)arg;
	memset(&self, 0, sizeof(self));
	self.rng = 0x2545f4914f6cdd1dull;
	while (!atomic_load(&stop)) {
		unsigned spin = rnd(&self, 8);

		t = rnd(&self, nthreads);
		if (coupled_is_member(&group, t)) {
			if (coupled_group_members(&group) > 2) {
				CHECK_EQ(coupled_leave(&group, t), 0);
				changer_ops++;
			}
		} else {
			CHECK_EQ(coupled_join(&group, t), 0);
			changer_ops++;
		}
		while (spin-- && !atomic_load(&stop))
			sched_yield();
	}
	for (t = 0; t < nthreads; t++) {
		int r = coupled_leave(&group, t);

		CHECK(r == 0 || r == COUPLED_ENOENT);
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: test_stress [--threads N] [--rounds R] "
			"[--strategy spin|futex|condvar] [--abort-pct P] "
			"[--work-pct P] [--churn|--changer] [--seed S] "
			"[--start-gen G]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int strategy = COUPLED_PTHREAD_FUTEX, i;
	unsigned long seed = 1;
	unsigned long committed = 0, actions = 0, commits = 0, calls = 0;
	unsigned long aborts[COUPLED_ABORT_REASONS] = { 0 }, changes = 0;
	unsigned long restarted = 0, absent = 0, skipped = 0;
	uint32_t last_recorded = 0;
	uint32_t g;
	struct coupled_stats st;
	pthread_t changer_thread;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--churn")) {
			churn = 1;
			continue;
		}
		if (!strcmp(a, "--changer")) {
			changer = 1;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--threads"))
			nthreads = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(a, "--rounds"))
			target_rounds = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(a, "--abort-pct"))
			abort_pct = (unsigned)strtoul(v, NULL, 0);
		else if (!strcmp(a, "--work-pct"))
			work_pct = (unsigned)strtoul(v, NULL, 0);
		else if (!strcmp(a, "--seed"))
			seed = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--start-gen"))
			start_gen = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(a, "--strategy")) {
			if (!strcmp(v, "spin"))
				strategy = COUPLED_PTHREAD_SPIN;
			else if (!strcmp(v, "futex"))
				strategy = COUPLED_PTHREAD_FUTEX;
			else if (!strcmp(v, "condvar"))
				strategy = COUPLED_PTHREAD_CONDVAR;
			else
				usage();
		} else
			usage();
	}
	if (nthreads < 2 || nthreads > MAX_THREADS || target_rounds < 1 ||
	    abort_pct > 100 || work_pct > 100 || (churn && changer))
		usage();

	log_size = target_rounds + 1024u;
	log_rounds =
		(struct oracle_round *)calloc(log_size, sizeof(*log_rounds));
	CHECK(log_rounds != NULL);
	for (g = 0; g < log_size; g++)
		oracle_init(&log_rounds[g]);
	CHECK_EQ(coupled_group_init(&group, slots, nthreads, nthreads, NULL),
		 0);
	CHECK_EQ(coupled_group_set_generation(&group, start_gen), 0);
	CHECK_EQ(coupled_pthread_set_strategy(coupled_group_adapter(&group),
					      strategy),
		 0);
	printf("stress: %s protocol, %u threads, %u rounds, %s, abort %u%%, "
	       "work %u%%, churn %s, seed %lu, start generation %u\n",
	       COUPLED_PROTOCOL_NAME, (unsigned)nthreads,
	       (unsigned)target_rounds, coupled_pthread_strategy_name(strategy),
	       abort_pct, work_pct,
	       churn     ? "self"
	       : changer ? "changer"
			 : "off",
	       seed, (unsigned)start_gen);
	fflush(stdout);

	for (i = 0; i < (int)nthreads; i++) {
		workers[i].id = (uint32_t)i;
		workers[i].rng = (seed + 1) * 0x9e3779b97f4a7c15ull +
				 (uint64_t)i * 0xbf58476d1ce4e5b9ull;
		if (!workers[i].rng)
			workers[i].rng = 1;
		CHECK(pthread_create(&workers[i].thread, NULL, worker_main,
				     &workers[i]) == 0);
	}
	if (changer)
		CHECK(pthread_create(&changer_thread, NULL, changer_main,
				     NULL) == 0);
	for (i = 0; i < (int)nthreads; i++) {
		/*
		 * --churn: the churner joins back while the members of the
		 * last round may still run its action (in the direct protocol
		 * a change does not wait for a committed round's actions), so
		 * it may miss the stop flag and rest for a round that will
		 * never come.  Once everybody else has returned, simulated
		 * work ends such a call (the counter stays raised, so a call
		 * that starts later aborts too), and the churner sees stop.
		 */
		if (churn && i == (int)nthreads - 1 && nthreads >= 3)
			coupled_pthread_raise_work(
				coupled_group_adapter(&group),
				coupled_participant_adapter(&group,
							    (uint32_t)i),
				(uint32_t)i);
		CHECK(pthread_join(workers[i].thread, NULL) == 0);
	}
	if (changer)
		CHECK(pthread_join(changer_thread, NULL) == 0);

	/*
	 * Every recorded round: run once by each of its members, all agreed,
	 * the parameter the minimum of their requests (the joins ordered
	 * every record before these checks).
	 */
	for (g = 0; g < log_size; g++) {
		struct oracle_round *rec = &log_rounds[g];
		struct oracle_failure f;
		uint32_t n = oracle_actions(rec);

		/*
		 * Record 0 is the start generation itself, which no round
		 * of this run has; the rounds are start + 1, start + 2, ...
		 * A generation is skipped only by a restarted round of the
		 * settled variant (which decides, but runs no action):
		 * counted here, checked against the restarts below.
		 */
		if (!n)
			continue;
		if (g == 0) {
			fprintf(stderr, "a round of the start generation\n");
			return 1;
		}
		skipped += g - 1u - last_recorded;
		last_recorded = g;
		committed++;
		actions += n;
		if (oracle_check(rec, coupled_reduce_min, &f) != 0) {
			fprintf(stderr, "round %u: %s (%ld, %ld)\n",
				(unsigned)(start_gen + g), f.what, f.a, f.b);
			return 1;
		}
	}
	for (i = 0; i < (int)nthreads; i++) {
		struct worker *w = &workers[i];
		int r;

		if (w->actions != w->commits) {
			fprintf(stderr,
				"participant %d: %lu actions but %lu "
				"commits\n",
				i, w->actions, w->commits);
			return 1;
		}
		for (r = 1; r < COUPLED_ABORT_REASONS; r++)
			aborts[r] += w->results[r];
		calls += w->calls;
		commits += w->commits;
		changes += w->changes;
		absent += w->absent;
	}
	CHECK_EQ(actions, commits);
	CHECK(test_group_at_rest(&group));
	/* It stopped at generation start + target_rounds or after. */
	CHECK(last_recorded >= target_rounds);
	CHECK(atomic_load(&stop) == 1);
	CHECK_EQ(coupled_stats_read(&group, &st), 0);
	restarted = st.restarts;
	/*
	 * The generations are consecutive but for restarted rounds: each
	 * restart is counted by every member of its round, so at least once.
	 * The direct variant never restarts: no generation may be missing.
	 */
	if (skipped > restarted) {
		fprintf(stderr,
			"%lu generations without a round, but only %lu "
			"restarts\n",
			skipped, restarted);
		return 1;
	}

	printf("committed rounds: %lu (actions %lu, calls %lu), generations "
	       "skipped by restarts %lu\n",
	       committed, actions, calls, skipped);
	printf("aborts: work %lu, membership %lu, caller %lu, timeout %lu; "
	       "membership changes %lu\n",
	       aborts[COUPLED_ABORT_WORK], aborts[COUPLED_ABORT_MEMBERSHIP],
	       aborts[COUPLED_ABORT_CALLER], aborts[COUPLED_ABORT_TIMEOUT],
	       changes + changer_ops);
	if (changer)
		printf("changer: %lu changes, %lu calls refused while "
		       "removed\n",
		       changer_ops, absent);
	if (coupled_stats_read(&group, &st) == 0)
		printf("stats: attempts %u, retries %u, restarts %lu\n",
		       (unsigned)st.attempts, (unsigned)st.retries, restarted);
	printf("OK: every committed round was run once by each of its "
	       "members with the minimum request\n");
	free(log_rounds);
	return 0;
}

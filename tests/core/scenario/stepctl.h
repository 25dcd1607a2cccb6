/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * stepctl.h - a step controller for deterministic scenario tests.
 *
 * The core calls COUPLED_HOOK(group, self, point) at each protocol step.
 * This file defines that hook: a participant whose breakpoint is set at a
 * point stops there, under a mutex and condition variable, until the test's
 * controller resumes it.  The controller waits for "participant X has
 * reached point P" the same way, so a scenario is a script of exact steps
 * and no sleep is involved anywhere.
 *
 * Every wait of the controller is bounded (STEPCTL_LIMIT_S): a scenario that
 * does not reach the expected step fails with a message instead of hanging.
 *
 * Participant threads run a list of calls; before each call they wait for the
 * controller's permit, and after it they publish the result, so the
 * controller decides exactly when each call starts.
 *
 * Include this before coupled/coupled.h.
 */
#ifndef COUPLED_TEST_STEPCTL_H
#define COUPLED_TEST_STEPCTL_H

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct coupled_group;
static void stepctl_hook(struct coupled_group *g, uint32_t self, int point);
#define COUPLED_HOOK(group, self, point) \
	stepctl_hook((group), (self), (int)(point))

#include "coupled/coupled.h"

#include "check.h"

#define STEPCTL_MAX 8   /* participants; index MAX = changer */
#define STEPCTL_CALLS 8 /* calls per participant */
#define STEPCTL_POINTS 19
#ifndef STEPCTL_LIMIT_S
#define STEPCTL_LIMIT_S 30 /* bound of every controller wait */
#endif
#define STEPCTL_CHANGER STEPCTL_MAX

static const char *const stepctl_point_names[STEPCTL_POINTS] = {
	"ARRIVE",     "LAST_ARRIVER",   "WAIT_SLEEP",  "READY",
	"READY_SPIN", "BACK_OUT",       "DECIDED",     "DONE",
	"EXITED",     "MEMBERSHIP",     "LEAVE_DRAIN", "GATE_WAIT",
	"EXIT_WAIT",  "COMPLETE",       "WITHDRAW",    "ARRIVED",
	"DOMAIN_TRY", "DOMAIN_GIVE_UP",
};

struct stepctl {
	struct coupled_group *g;
	uint32_t capacity;
	/* Per participant (and the changer at STEPCTL_CHANGER). */
	unsigned brk[STEPCTL_MAX + 1];
	int at[STEPCTL_MAX + 1];
	unsigned hits[STEPCTL_MAX + 1][STEPCTL_POINTS];
	/* Call scripting. */
	int permits[STEPCTL_MAX];
	int calls_done[STEPCTL_MAX];
	int result[STEPCTL_MAX][STEPCTL_CALLS];
	int32_t request[STEPCTL_MAX];
	int abort_now[STEPCTL_MAX]; /* what the participant's should_abort says */
	uint64_t deadline[STEPCTL_MAX]; /* of the next calls; 0: none */
	/* The options of each participant's calls (its thread owns them). */
	struct coupled_abort_opts *opts[STEPCTL_MAX];
	/* What the actions saw. */
	unsigned runs[STEPCTL_MAX];
	uint32_t gen[STEPCTL_MAX];
	int32_t param[STEPCTL_MAX];
	uint32_t members[STEPCTL_MAX];
};

static struct stepctl ctl;
static pthread_mutex_t stepctl_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stepctl_c = PTHREAD_COND_INITIALIZER;

static void stepctl_deadline(struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += STEPCTL_LIMIT_S;
}

/* Wait on the controller's condition; fail the test after the limit. */
static void stepctl_cond_wait(const struct timespec *limit, const char *what,
			      int who)
{
	if (pthread_cond_timedwait(&stepctl_c, &stepctl_m, limit) ==
	    ETIMEDOUT) {
		fprintf(stderr, "stepctl: timed out waiting for %s of %d\n",
			what, who);
		exit(1);
	}
}

static int stepctl_index(uint32_t self)
{
	return self >= ctl.capacity ? STEPCTL_CHANGER : (int)self;
}

static void stepctl_hook(struct coupled_group *g, uint32_t self, int point)
{
	int i;

	pthread_mutex_lock(&stepctl_m);
	if (g != ctl.g) {
		pthread_mutex_unlock(&stepctl_m);
		return;
	}
	i = stepctl_index(self);
	ctl.hits[i][point]++;
	if (ctl.brk[i] & (1u << point)) {
		struct timespec limit;

		stepctl_deadline(&limit);
		ctl.at[i] = point;
		pthread_cond_broadcast(&stepctl_c);
		while (ctl.at[i] != -1)
			stepctl_cond_wait(&limit, "resume", i);
	}
	pthread_mutex_unlock(&stepctl_m);
}

/** Start a scenario on group @g (already initialised). */
static void stepctl_init(struct coupled_group *g, uint32_t capacity)
{
	int i, k;

	pthread_mutex_lock(&stepctl_m);
	ctl.g = g;
	ctl.capacity = capacity;
	for (i = 0; i <= STEPCTL_MAX; i++) {
		ctl.brk[i] = 0;
		ctl.at[i] = -1;
		for (k = 0; k < STEPCTL_POINTS; k++)
			ctl.hits[i][k] = 0;
	}
	for (i = 0; i < STEPCTL_MAX; i++) {
		ctl.permits[i] = 0;
		ctl.calls_done[i] = 0;
		ctl.request[i] = 0;
		ctl.abort_now[i] = 0;
		ctl.deadline[i] = 0;
		ctl.opts[i] = NULL;
		ctl.runs[i] = 0;
		for (k = 0; k < STEPCTL_CALLS; k++)
			ctl.result[i][k] = 999;
	}
	pthread_mutex_unlock(&stepctl_m);
}

/** Set (@on) or clear a breakpoint of participant @i at @point. */
static void stepctl_break(int i, int point, int on)
{
	pthread_mutex_lock(&stepctl_m);
	if (on)
		ctl.brk[i] |= 1u << point;
	else
		ctl.brk[i] &= ~(1u << point);
	pthread_mutex_unlock(&stepctl_m);
}

/**
 * Wait until participant @i is stopped at one of the points in @mask.
 * Return: the point.
 */
static int stepctl_wait_at(int i, unsigned mask)
{
	struct timespec limit;
	int p, done;

	stepctl_deadline(&limit);
	pthread_mutex_lock(&stepctl_m);
	while (ctl.at[i] < 0 || !(mask & (1u << ctl.at[i]))) {
		/*
		 * A participant with no call running or permitted can never
		 * stop anywhere: its call returned instead; fail at once.
		 */
		if (i < STEPCTL_MAX && ctl.calls_done[i] >= ctl.permits[i]) {
			done = ctl.calls_done[i] - 1;
			fprintf(stderr,
				"stepctl: participant %d returned %s instead "
				"of stopping at the expected point\n",
				i,
				done >= 0
					? coupled_strerror(ctl.result[i][done])
					: "nothing");
			exit(1);
		}
		stepctl_cond_wait(&limit, "a breakpoint", i);
	}
	p = ctl.at[i];
	pthread_mutex_unlock(&stepctl_m);
	return p;
}

/** Wait until participant @i stops at @point, and say so. */
static void stepctl_expect(int i, int point)
{
	int p = stepctl_wait_at(i, 1u << point);

	printf("   participant %d stopped at %s\n", i, stepctl_point_names[p]);
}

/** Resume participant @i from its breakpoint. */
static void stepctl_resume(int i)
{
	pthread_mutex_lock(&stepctl_m);
	CHECK(ctl.at[i] != -1);
	ctl.at[i] = -1;
	pthread_cond_broadcast(&stepctl_c);
	pthread_mutex_unlock(&stepctl_m);
}

/** Clear breakpoint @point of @i and resume it from there. */
static void stepctl_release(int i, int point)
{
	stepctl_break(i, point, 0);
	stepctl_resume(i);
}

/** Clear every breakpoint of @i and resume it if it is stopped. */
static void stepctl_free(int i)
{
	pthread_mutex_lock(&stepctl_m);
	ctl.brk[i] = 0;
	if (ctl.at[i] != -1) {
		ctl.at[i] = -1;
		pthread_cond_broadcast(&stepctl_c);
	}
	pthread_mutex_unlock(&stepctl_m);
}

/** Let participant @i start its next call. */
static void stepctl_permit(int i)
{
	pthread_mutex_lock(&stepctl_m);
	ctl.permits[i]++;
	pthread_cond_broadcast(&stepctl_c);
	pthread_mutex_unlock(&stepctl_m);
}

/** Let @i start its next call and wait until it stops at @point. */
static void stepctl_run_to(int i, int point)
{
	stepctl_break(i, point, 1);
	stepctl_permit(i);
	stepctl_expect(i, point);
}

/** Resume @i from @from (clearing that breakpoint); wait for it at @to. */
static void stepctl_step(int i, int from, int to)
{
	stepctl_break(i, to, 1);
	stepctl_release(i, from);
	stepctl_expect(i, to);
}

/** Wait for the result of call @k (0-based) of participant @i. */
static int stepctl_result(int i, int k)
{
	struct timespec limit;
	int r;

	stepctl_deadline(&limit);
	pthread_mutex_lock(&stepctl_m);
	while (ctl.calls_done[i] <= k)
		stepctl_cond_wait(&limit, "a call's result", i);
	r = ctl.result[i][k];
	pthread_mutex_unlock(&stepctl_m);
	printf("   participant %d call %d: %s\n", i, k, coupled_strerror(r));
	return r;
}

/** Make participant @i's abort check say @on from now on. */
static void stepctl_set_abort(int i, int on)
{
	pthread_mutex_lock(&stepctl_m);
	ctl.abort_now[i] = on;
	pthread_mutex_unlock(&stepctl_m);
}

/**
 * Set the deadline (an absolute coupled_adapter_now() time, 0 for none) of
 * participant @i's calls from its next call on.
 */
static void stepctl_set_deadline(int i, uint64_t deadline)
{
	pthread_mutex_lock(&stepctl_m);
	ctl.deadline[i] = deadline;
	pthread_mutex_unlock(&stepctl_m);
}

/**
 * Move the deadline of the call participant @i is in, while it is stopped
 * at a breakpoint: from its next poll on the call sees @deadline, as if the
 * clock had crossed its deadline (or not yet) right there.  The write is
 * under the controller's mutex, which the stopped participant takes again
 * before it resumes, so its next read of the options sees it.
 */
static void stepctl_move_deadline(int i, uint64_t deadline)
{
	pthread_mutex_lock(&stepctl_m);
	CHECK(ctl.at[i] != -1 && ctl.opts[i] != NULL);
	ctl.opts[i]->deadline = deadline;
	ctl.deadline[i] = deadline;
	pthread_mutex_unlock(&stepctl_m);
}

/* The scripted participants' should_abort: what the controller set. */
static bool stepctl_should_abort(void *arg, uint32_t self)
{
	int on;

	(void)arg;
	pthread_mutex_lock(&stepctl_m);
	on = self < STEPCTL_MAX && ctl.abort_now[self];
	pthread_mutex_unlock(&stepctl_m);
	return on;
}

/** The action of scripted participants: record what the round said. */
static void stepctl_action(const struct coupled_round *r, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&stepctl_m);
	ctl.runs[r->self]++;
	ctl.gen[r->self] = r->generation;
	ctl.param[r->self] = r->param;
	ctl.members[r->self] = r->members;
	pthread_mutex_unlock(&stepctl_m);
}

static unsigned stepctl_runs(int i)
{
	unsigned n;

	pthread_mutex_lock(&stepctl_m);
	n = ctl.runs[i];
	pthread_mutex_unlock(&stepctl_m);
	return n;
}

struct stepctl_participant {
	pthread_t thread;
	int id;
	int calls;
	coupled_action_fn action;
};

static void *stepctl_participant_main(void *arg)
{
	struct stepctl_participant *p = (struct stepctl_participant *)arg;
	struct coupled_abort_opts opts;
	int k;

	memset(&opts, 0, sizeof(opts));
	opts.should_abort = stepctl_should_abort;
	pthread_mutex_lock(&stepctl_m);
	ctl.opts[p->id] = &opts;
	pthread_mutex_unlock(&stepctl_m);

	for (k = 0; k < p->calls; k++) {
		struct timespec limit;
		int32_t req;
		int r;

		stepctl_deadline(&limit);
		pthread_mutex_lock(&stepctl_m);
		while (ctl.permits[p->id] <= k)
			stepctl_cond_wait(&limit, "a permit", p->id);
		req = ctl.request[p->id];
		opts.deadline = ctl.deadline[p->id];
		pthread_mutex_unlock(&stepctl_m);

		r = coupled_enter_opts(ctl.g, (uint32_t)p->id, req, p->action,
				       NULL, &opts);

		pthread_mutex_lock(&stepctl_m);
		ctl.result[p->id][k] = r;
		ctl.calls_done[p->id] = k + 1;
		pthread_cond_broadcast(&stepctl_c);
		pthread_mutex_unlock(&stepctl_m);
	}
	return NULL;
}

/** Start participant @id, which will make @calls calls (each on a permit). */
static void stepctl_start(struct stepctl_participant *p, int id, int calls,
			  int32_t request, coupled_action_fn action)
{
	p->id = id;
	p->calls = calls;
	p->action = action ? action : stepctl_action;
	pthread_mutex_lock(&stepctl_m);
	ctl.request[id] = request;
	pthread_mutex_unlock(&stepctl_m);
	CHECK(pthread_create(&p->thread, NULL, stepctl_participant_main, p) ==
	      0);
}

static void stepctl_join(struct stepctl_participant *p)
{
	CHECK(pthread_join(p->thread, NULL) == 0);
}

#endif /* COUPLED_TEST_STEPCTL_H */

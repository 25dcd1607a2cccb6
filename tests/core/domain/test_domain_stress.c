/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_domain_stress.c - threads as the cores of a domain tree, random
 * requests, aborts, work, refusals and deadlines per level, membership
 * changes between and inside the cores' calls, every committed round of
 * every node checked.
 *
 * Usage: test_domain_stress (--clusters N,N,... [--leaf L] | --psci F,F,...)
 *                           [--strategy spin|futex|condvar] [--calls C]
 *                           [--seed S] [--churn | --changer [--inside]]
 *                           [--deadlines N] [--hang S]
 *
 * A root, one cluster per number of --clusters with that many cores; with
 * --leaf L > 0 each cluster is cut into leaves of at most L cores (three
 * levels), with --leaf 0 the clusters are the leaves (two levels).  With
 * --psci the PSCI shape instead: every core its own leaf, under levels of
 * the fan-outs given from the root down (--psci 2,2: a root over 2 clusters
 * of 2 cores, 3 levels; --psci 2,2,2: a root over 2 groups of 2 clusters of
 * 2 cores, 4 levels), so that every round above the leaves holds cores of
 * several leaves.  Each
 * thread makes C calls of coupled_domain_enter_opts() on its core, then
 * leaves the domain (coupled_domain_leave()), so that the cores still
 * calling never wait for it.  Each call: a random request per level, a
 * refusal (negative request) of a level above the leaf with probability
 * 1/32, a caller abort of some level with probability 1/32 (after a random
 * number of polls), work raised on the core's own leaf slot from inside a
 * poll of a random level with probability 1/32 (cleared after the call),
 * and a deadline at the root with probability 1/32; with --deadlines N
 * instead, a deadline at each level above the leaf with probability 1/N
 * (in the PSCI shape a one-core leaf commits at once, and a core that
 * waits for its cluster-mates is what makes the levels above commit).
 *
 * Membership changes: with --churn core 0 leaves the domain and joins it
 * again between two of its own calls, about one call in 16.  With
 * --changer a thread that is none of the cores takes a core out of the
 * domain (coupled_domain_leave()) and puts it back (coupled_domain_join())
 * over and over, after random pauses, while every core keeps calling: the
 * change lands while cores are inside their calls, at any point of them
 * (waiting at a level, committed at one and trying the next).  It changes
 * every core in turn, in a new random order each sweep.  The calls of a
 * core that is out return COUPLED_ENOENT or COUPLED_ABORT_MEMBERSHIP.  With
 * --inside, also about one action in 16 tries to change a core of another
 * subtree (coupled_domain_leave() if it is a member, else
 * coupled_domain_join()): from inside a domain call of the same tree that
 * must return COUPLED_EPERM and change no level; every try is counted.
 *
 * The per-level oracle (tests/common/domain_oracle.h), inside every
 * action: the call's outcome vector is well formed and the action runs
 * once per committed call; every committed round of every node was
 * reported by exactly the node's members, each once, with one generation
 * and one parameter, the minimum of their requests, and the members are
 * the level's (the tree's gate keeps membership still during calls); its
 * cores learned the same outcome for every level above (no split: the same
 * depth, the same round of the level above; splits are counted, and any
 * fails the run at its end); the level given up above the depth says a
 * cause the call had (COUPLED_ABORT_MEMBERSHIP only while a change ran,
 * COUPLED_DOMAIN_CANNOT whenever, the caller's abort, work or deadline only
 * where the call had them).  After the run no round is left half reported,
 * and each thread ran the action once per COMMITTED call.
 *
 * The run ends: every thread makes its calls.  A level without a deadline
 * (most levels of most calls) is opportunistic: a level that keeps a core
 * waiting forever there hangs it.  A watchdog thread fails the run when a
 * core or the changer makes no progress (no call begun or returned, no
 * change made) for --hang seconds (60 by default), after printing where
 * every thread is; ctest's timeout is the outer bound.  Prints the committed rounds per level (the leaf
 * rounds first), the splits, the changes and the changes tried inside
 * actions.
 */
#include <stdatomic.h>

/*
 * The hook: with --changer a core sometimes pauses right before it tries a
 * level above its committed leaf round, or right before its arrival at
 * such a level (after direct's poll), as a preemption there would, and the
 * changer aims at that moment (stress_hook() below).
 */
static void stress_hook(const void *group, int point);
#define COUPLED_HOOK(group, self, point) \
	((void)(self), stress_hook((group), (point)))

#include "coupled/domain.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "domain_oracle.h"
#include "tree.h"

#define LEVELS_MAX 4
#define RING 4u      /* records per node, indexed by generation */
#define OUT_OTHER 15 /* outcome counter of a negative (error) outcome */

struct worker {
	pthread_t thread;
	uint32_t core;
	uint64_t rng;
	int32_t req[LEVELS_MAX];
	int abort_level, work_level; /* -1: none this call */
	unsigned abort_polls, work_polls;
	int work_raised;
	struct domain_oracle_call call;
	unsigned long calls, commits, actions, out;
	unsigned long ended;         /* changes ended when the call began */
	uint32_t may[LEVELS_MAX];    /* DOMAIN_ORACLE_MAY_* of the call */
	unsigned long inside, eperm; /* changes tried inside actions, and
				      * those that got COUPLED_EPERM */
	atomic_ulong progress;       /* calls begun + calls returned */
	atomic_int last;             /* the last call's result */
	atomic_uint done;            /* out of the domain for good */
	unsigned long outcome[LEVELS_MAX][16];
};

static struct domain_tree t;
static struct worker workers[TREE_MAX_CORES];
static struct domain_oracle_level recs[TREE_MAX_NODES][RING];
static unsigned long calls_per_thread = 1000;
static int strategy = COUPLED_PTHREAD_FUTEX, churn, changer, inside;
static atomic_uint finished; /* threads done with their calls */
static atomic_uint top_seen; /* a round committed the top level */
/*
 * A call count is a floor: a core goes on past it, up to this many times
 * as many calls, until some round committed the top level.  On 2 CPUs four
 * spinning cores are all inside a call at once only now and then (a few
 * thousand calls per core in runs here), and before this floor a run could
 * end with no top round at all (4 of 100 runs of 400 calls did).  A top
 * level that never commits still fails the run.
 */
#define CALLS_STRETCH 256u
static atomic_uint changer_done; /* the changer made its last change */
static unsigned long changes;    /* leave+join pairs (changer or churn) */
static unsigned long changed[TREE_MAX_CORES]; /* the same, per core */
static uint32_t pod[TREE_MAX_CORES]; /* per core, its lowest node of more
				      * than one core (the changer's aim) */
/*
 * Membership changes begun and ended (the changer's and the churn's),
 * seq_cst: a call that reads ended at its start and begun after it saw the
 * gate closed counts every change that overlapped it (see may_change()).
 */
static atomic_ulong change_begun, change_ended;
static atomic_ulong splits;           /* rounds whose cores split */
static atomic_ulong changer_progress; /* changes begun + ended */
static atomic_uint changer_at;        /* 0, or 1 + core + 256 * joining
					* while a change runs */
static unsigned hang_s = 60;          /* the watchdog's bound */
static uint32_t deadlines;            /* --deadlines N, or 0 */
static pthread_barrier_t start;       /* the cores and the changer */

static uint32_t rnd(struct worker *w, uint32_t bound)
{
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return (uint32_t)(w->rng >> 16) % bound;
}

static struct coupled_group *leaf_group(struct worker *w)
{
	return t.leaf[w->core]->group;
}

/* The core's adapter slot in its leaf (never NULL: the id is in range). */
static struct coupled_adapter_slot *own_slot(struct worker *w)
{
	return &leaf_group(w)->slots[t.id[w->core]].adapter;
}

/* The caller's should_abort of each level: fires or raises work. */
static bool level_abort(void *arg, uint32_t self)
{
	struct worker *w = (struct worker *)arg;

	(void)self;
	if (w->work_level >= 0 && !w->work_raised && !w->work_polls--) {
		coupled_pthread_raise_work(coupled_group_adapter(leaf_group(w)),
					   own_slot(w), t.id[w->core]);
		w->work_raised = 1;
	}
	if (w->abort_level >= 0 && !w->abort_polls)
		return true;
	if (w->abort_level >= 0)
		w->abort_polls--;
	return false;
}

/*
 * The level's should_abort: a worker pointer whose per-level fields say
 * what fires.  Each level gets its own opts entry, but the worker's state
 * is one; the level whose poll counts is the one chosen for the call.
 */
struct level_arg {
	struct worker *w;
	int level;
};

/* level_abort() with one of @w's two levels (@level) turned off. */
static bool level_abort_without(struct worker *w, uint32_t self, int *level)
{
	int saved = *level;
	bool r;

	*level = -1;
	r = level_abort(w, self);
	*level = saved;
	return r;
}

static bool level_should_abort(void *arg, uint32_t self)
{
	struct level_arg *a = (struct level_arg *)arg;
	struct worker *w = a->w;

	if (a->level != w->abort_level && a->level != w->work_level)
		return false;
	if (a->level != w->abort_level) /* only the work fires here */
		return level_abort_without(w, self, &w->abort_level);
	if (a->level != w->work_level) /* only the abort fires here */
		return level_abort_without(w, self, &w->work_level);
	return level_abort(w, self);
}

/*
 * A membership change (the changer's or the churn's), counted begun before
 * and ended after it (seq_cst, both: see may_change()).
 */
static int change(uint32_t c, bool joining)
{
	int ret;

	atomic_fetch_add(&change_begun, 1u);
	ret = joining ? coupled_domain_join(t.leaf[c], t.id[c])
		      : coupled_domain_leave(t.leaf[c], t.id[c]);
	atomic_fetch_add(&change_ended, 1u);
	return ret;
}

/*
 * Did a change run during the call so far?  The call read change_ended at
 * its start (seq_cst).  A core gives up with COUPLED_ABORT_MEMBERSHIP after
 * it read the gate closed, a load sequenced before this fence; the
 * changer's seq_cst (so release) store of the gate then synchronises with
 * the acquire fence, and its count of change_begun, made before, is seen
 * below.  That change had not ended when the call read change_ended (a
 * call that begins after a change ended reads the gate open, or a later
 * change's), so it counts in change_begun and not in the call's ended.
 */
static bool may_change(const struct worker *w)
{
	/*
	 * gcc refuses the fence under ThreadSanitizer (-Werror=tsan), which
	 * runs on x86 here: there the loads stay in program order (TSO), and
	 * the changer's increment precedes its store of the gate.
	 */
#ifndef __SANITIZE_THREAD__
	atomic_thread_fence(memory_order_acquire);
#endif
	/* seq_cst: see above. */
	return atomic_load(&change_begun) > w->ended;
}

/* A failed check of the oracle: say which and stop the run. */
static void oracle_failed(const char *where, uint32_t a, uint32_t b,
			  const struct oracle_failure *f)
{
	fprintf(stderr, "domain stress: FAIL %s %u level %u: %s (%ld, %ld)\n",
		where, a, b, f->what, f->a, f->b);
	fflush(stderr);
	exit(1);
}

/*
 * From inside the action: try to change a core of another subtree (under
 * another node below the root, if the tree has two).  The call runs inside
 * the tree, so the change must be refused with COUPLED_EPERM and change no
 * level of that core (no change can run now: the gate waits for this call).
 */
static void inside_change(struct worker *w)
{
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], n, k, x, before = 0, after = 0;
	int ret;

	if (t.cores < 2)
		return;
	do
		x = rnd(w, t.cores);
	while (x == w->core || (t.cluster[x] == t.cluster[w->core] &&
				t.cluster[t.cores - 1] != t.cluster[0]));
	n = tree_path(&t, x, node, id);
	for (k = 0; k < n; k++)
		before |= (uint32_t)coupled_is_member(node[k]->group, id[k])
			  << k;
	ret = before & 1u ? coupled_domain_leave(t.leaf[x], t.id[x])
			  : coupled_domain_join(t.leaf[x], t.id[x]);
	for (k = 0; k < n; k++)
		after |= (uint32_t)coupled_is_member(node[k]->group, id[k])
			 << k;
	w->inside++;
	w->eperm += ret == COUPLED_EPERM;
	if (ret != COUPLED_EPERM || after != before) {
		fprintf(stderr,
			"domain stress: FAIL core %u changed core %u from "
			"inside its action: %s (-1 is EPERM: %d), levels "
			"member %#x before, %#x after\n",
			w->core, x, coupled_strerror(ret), ret, before, after);
		fflush(stderr);
		exit(1);
	}
}

static void action(const struct coupled_domain_round *r, void *ctx)
{
	struct worker *w = (struct worker *)ctx;
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], k, n;
	struct oracle_failure f;

	w->actions++;
	/* relaxed: a flag that only lengthens the run (see CALLS_STRETCH). */
	if (r->depth == t.levels)
		atomic_store_explicit(&top_seen, 1u, memory_order_relaxed);
	n = tree_path(&t, w->core, node, id);
	CHECK_EQ(r->levels, n);
	CHECK_EQ(r->core, t.id[w->core]);
	if (domain_oracle_shape(&w->call, r, w->req, &f))
		oracle_failed("core", w->core, r->depth, &f);
	if (domain_oracle_roster(r, node, id, &f))
		oracle_failed("core", w->core, r->depth, &f);
	if (may_change(w))
		for (k = 0; k < n; k++)
			w->may[k] |= DOMAIN_ORACLE_MAY_CHANGE;
	if (w->work_raised)
		for (k = 0; k < n; k++)
			w->may[k] |= DOMAIN_ORACLE_MAY_WORK;
	if (domain_oracle_given_up(r, w->may, &f))
		oracle_failed("core", w->core, r->depth, &f);
	for (k = 0; k < r->depth; k++) {
		struct domain_oracle_level *rec;
		uint32_t x = domain_tree_index(&t, node[k]);

		/*
		 * While no core has left (no change, no thread done), a round
		 * has every core under its node.  seq_cst: a thread counts
		 * itself done before its leave, which precedes any round
		 * without it.
		 */
		if (!churn && !changer && !atomic_load(&finished))
			CHECK_EQ(r->level[k].members, t.ncores[x]);

		/*
		 * Checked by the report that completes the round.  A split is
		 * counted (the record is whole, so it starts again) and fails
		 * the run at its end; any other failure at once.
		 */
		rec = &recs[x][r->level[k].generation % RING];
		if (domain_oracle_report(rec, r, k, w->req[k],
					 coupled_reduce_min, &f) >= 0)
			continue;
		if (!domain_oracle_is_split(&f))
			oracle_failed("node", x, k, &f);
		/* relaxed: a count, read after the run. */
		if (atomic_fetch_add_explicit(&splits, 1u,
					      memory_order_relaxed) < 8u)
			fprintf(stderr,
				"domain stress: SPLIT node %u level %u "
				"generation %u: %s (%ld, %ld)\n",
				x, k, r->level[k].generation, f.what, f.a, f.b);
		domain_oracle_reset(rec);
	}
	if (inside && !rnd(w, 16))
		inside_change(w);
}

/* The outcome vector of a call that returned COMMITTED. */
static void check_outcomes(struct worker *w, const int32_t *req,
			   const struct coupled_domain_round *r)
{
	uint32_t k;

	for (k = 0; k < r->levels; k++) {
		int o = r->level[k].outcome;

		w->outcome[k][o >= 0 && o < OUT_OTHER ? o : OUT_OTHER]++;
		if (k < r->depth)
			continue;
		if (k == r->depth) {
			CHECK(o != COUPLED_COMMITTED &&
			      o != COUPLED_DOMAIN_NOT_TRIED);
			if (req[k] < 0)
				CHECK_EQ(o, COUPLED_DOMAIN_REFUSED);
			else
				CHECK(o != COUPLED_DOMAIN_REFUSED);
		} else {
			CHECK_EQ(o, COUPLED_DOMAIN_NOT_TRIED);
		}
	}
}

static _Thread_local struct worker *self_worker; /* the thread's core */

static atomic_uint aim_core;     /* 1 + the core the changer aims at, or 0 */
static atomic_uint aim_join;     /* the aimed change is a join */
static atomic_uint aim_changing; /* the changer is making it now */
static atomic_uint aim_paused;   /* a core of the aim's pod paused */

/*
 * At the try of a level above the leaf, or at the arrival there: the cores
 * of the aimed core's pod (its lowest node of more than one core: its
 * cluster in the PSCI shape) stop there for a while (yields, as a
 * preemption would: until the aimed core's membership of the root is the
 * change's result, or a few yields after the change began, a change that
 * waits for this call first, or a while), the aimed core of a leave and a
 * core held at its arrival a few yields more; the pause says so to the
 * changer.  Pacing only: nothing waits for it, the pause is bounded.
 */
static void stress_hook(const void *group, int point)
{
	struct worker *w = self_worker;
	/* relaxed, all: hints, never what anything waits for. */
	uint32_t aim = atomic_load_explicit(&aim_core, memory_order_relaxed);
	bool joining = atomic_load_explicit(&aim_join, memory_order_relaxed);
	const struct coupled_group *g = (const struct coupled_group *)group;
	uint32_t n, m;

	if (!changer || !w || !aim || pod[aim - 1u] != pod[w->core])
		return;
	if (point != COUPLED_HOOK_DOMAIN_TRY &&
	    (point != COUPLED_HOOK_ARRIVE || g < t.group ||
	     g >= t.group + t.nodes || !t.level[g - t.group]))
		return;
	if (joining || aim == w->core + 1u)
		/* relaxed: as above. */
		atomic_store_explicit(&aim_paused, 1u, memory_order_relaxed);
	for (n = 0, m = 0; n < 256u && m < 16u &&
			   coupled_is_member(&t.group[0], aim - 1u) != joining;
	     n++) {
		/* relaxed: as above. */
		if (atomic_load_explicit(&aim_changing, memory_order_relaxed))
			m++;
		sched_yield();
	}
	/*
	 * The aimed core of a leave, and a pod-mate held at its arrival: a
	 * few yields more (the other cores' arrivals land meanwhile).
	 */
	if (joining || (aim != w->core + 1u && point != COUPLED_HOOK_ARRIVE))
		return;
	for (n = rnd(w, 16) + 1u; n; n--)
		sched_yield();
}

static void churn_once(struct worker *w)
{
	CHECK_EQ(change(w->core, false), 0);
	CHECK_EQ(change(w->core, true), 0);
	changes++; /* core 0's alone: the churn has no changer */
	changed[w->core]++;
}

static uint64_t changer_rng;

static uint32_t changer_rnd(uint32_t bound)
{
	changer_rng ^= changer_rng << 13;
	changer_rng ^= changer_rng >> 7;
	changer_rng ^= changer_rng << 17;
	return (uint32_t)(changer_rng >> 16) % bound;
}

/*
 * A random pause of the changer (pacing only: the change is correct at
 * any moment, and the oracle decides): a short busy pause, so that the
 * changes land at any point of the cores' calls.
 */
static void changer_pause(void)
{
	volatile uint32_t spin = changer_rnd(4000);

	while (spin)
		spin = spin - 1u;
}

/*
 * One change of the changer: half the time aimed at the widest window (a
 * core of the pod stopped before a level above its committed leaf round,
 * or before its arrival there; bounded: pacing only).  relaxed, all the
 * aim's: hints, see stress_hook().
 */
static void changer_change(uint32_t c, bool joining)
{
	uint32_t spin;

	changer_pause();
	atomic_store_explicit(&aim_paused, 0u, memory_order_relaxed);
	atomic_store_explicit(&aim_join, joining, memory_order_relaxed);
	if (changer_rnd(2)) {
		atomic_store_explicit(&aim_core, c + 1u, memory_order_relaxed);
		for (spin = 0;
		     spin < 200000u &&
		     !atomic_load_explicit(&aim_paused, memory_order_relaxed);
		     spin++)
			;
	}
	/* relaxed: read by the watchdog's report only. */
	atomic_store_explicit(&changer_at, 1u + c + (joining ? 256u : 0u),
			      memory_order_relaxed);
	atomic_fetch_add_explicit(&changer_progress, 1u, memory_order_relaxed);
	atomic_store_explicit(&aim_changing, 1u, memory_order_relaxed);
	CHECK_EQ(change(c, joining), 0);
	atomic_store_explicit(&aim_core, 0u, memory_order_relaxed);
	atomic_store_explicit(&aim_changing, 0u, memory_order_relaxed);
	atomic_store_explicit(&changer_at, 0u, memory_order_relaxed);
	atomic_fetch_add_explicit(&changer_progress, 1u, memory_order_relaxed);
}

/* The sum of the calls the cores made and returned from. */
static unsigned long calls_returned(void)
{
	unsigned long sum = 0;
	uint32_t c;

	for (c = 0; c < t.cores; c++)
		/* relaxed: pacing only. */
		sum += atomic_load_explicit(&workers[c].progress,
					    memory_order_relaxed) /
		       2u;
	return sum;
}

/* The changer waits until the cores made @n more calls, or one is done. */
static void calls_pause(uint32_t n)
{
	unsigned long until = calls_returned() + n;

	/* acquire: a plain flag, as in changer_main(). */
	while (calls_returned() < until &&
	       !atomic_load_explicit(&finished, memory_order_acquire))
		sched_yield();
}

/*
 * The changer: not a core.  Takes every core out of every level and puts
 * it back, one after another in a new random order each sweep, while the
 * cores call, until the first thread is done.
 */
static void *changer_main(void *arg)
{
	uint32_t order[TREE_MAX_CORES], next = t.cores, c, j;

	(void)arg;
	CHECK(pthread_barrier_wait(&start) != EINVAL);
	for (c = 0; c < t.cores; c++)
		order[c] = c;
	/* acquire: a plain flag; any order of the last change will do. */
	while (!atomic_load_explicit(&finished, memory_order_acquire)) {
		if (next == t.cores) {
			for (c = t.cores - 1u; c; c--) {
				uint32_t swap = order[c];

				j = changer_rnd(c + 1u);
				order[c] = order[j];
				order[j] = swap;
			}
			next = 0;
		}
		c = order[next++];
		changer_change(c, false);
		changer_change(c, true);
		changes++;
		changed[c]++;
		/*
		 * The whole domain for a while: rounds of every core, up to
		 * 32 calls per core (pacing only: the watchdog would see the
		 * cores stuck).
		 */
		calls_pause(changer_rnd(32u * t.cores));
	}
	/* release: the last change before the threads' final leaves. */
	atomic_store_explicit(&changer_done, 1u, memory_order_release);
	return NULL;
}

/*
 * The watchdog: a hang detector, not synchronisation.  Wakes every second
 * (or when the run ends) and fails the run, after a report of where every
 * thread is, if a core or the changer has made no progress for hang_s
 * seconds while not done.
 */
static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cond;
static int wd_done; /* under wd_lock: the run ended */

static void hang_report(const char *who, uint32_t which, unsigned secs)
{
	uint32_t c, n;

	fprintf(stderr,
		"domain stress: HANG: %s %u made no progress for %u s\n", who,
		which, secs);
	for (c = 0; c < t.cores; c++) {
		/* relaxed, all: a report; the run is stuck or racing on. */
		unsigned long p = atomic_load_explicit(&workers[c].progress,
						       memory_order_relaxed);

		fprintf(stderr,
			"  core %u: %lu calls, %s, last result %d, %s\n", c,
			p / 2u, p & 1u ? "inside a call" : "between calls",
			atomic_load_explicit(&workers[c].last,
					     memory_order_relaxed),
			atomic_load_explicit(&workers[c].done,
					     memory_order_relaxed)
				? "done"
				: "not done");
	}
	c = atomic_load_explicit(&changer_at, memory_order_relaxed);
	fprintf(stderr, "  changer: %lu changes begun+ended, %s",
		atomic_load_explicit(&changer_progress, memory_order_relaxed),
		c ? (c & 256u ? "joining" : "leaving") : "between changes");
	if (c)
		fprintf(stderr, " core %u", (c & 255u) - 1u);
	fprintf(stderr, "\n");
	for (n = 0; n < t.nodes; n++)
		fprintf(stderr,
			"  node %u level %u: members %u, candidates %u, "
			"waiting %u, changing %u, calls %u\n",
			n, t.level[n], coupled_group_members(&t.group[n]),
			coupled_load(&t.node[n].candidates, COUPLED_RELAXED),
			coupled_load(&t.node[n].waiting, COUPLED_RELAXED),
			coupled_load(&t.node[n].changing, COUPLED_RELAXED),
			coupled_load(&t.node[n].calls, COUPLED_RELAXED));
	fflush(stdout);
	fflush(stderr);
	_Exit(1);
}

static void *watchdog_main(void *arg)
{
	unsigned long last[TREE_MAX_CORES + 1] = { 0 };
	unsigned still[TREE_MAX_CORES + 1] = { 0 };
	struct timespec until;
	uint32_t i;

	(void)arg;
	CHECK_EQ(pthread_mutex_lock(&wd_lock), 0);
	while (!wd_done) {
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec++;
		if (pthread_cond_timedwait(&wd_cond, &wd_lock, &until) !=
			    ETIMEDOUT ||
		    wd_done)
			continue;
		for (i = 0; i <= t.cores; i++) {
			/* relaxed, all: progress counts, compared only. */
			bool done =
				i < t.cores
					? atomic_load_explicit(
						  &workers[i].done,
						  memory_order_relaxed)
					: !changer ||
						  atomic_load_explicit(
							  &changer_done,
							  memory_order_relaxed);
			unsigned long p =
				i < t.cores ? atomic_load_explicit(
						      &workers[i].progress,
						      memory_order_relaxed)
					    : atomic_load_explicit(
						      &changer_progress,
						      memory_order_relaxed);

			if (done || p != last[i]) {
				last[i] = p;
				still[i] = 0;
			} else if (++still[i] >= hang_s) {
				hang_report(i < t.cores ? "core" : "changer",
					    i < t.cores ? i : 0, still[i]);
			}
		}
	}
	CHECK_EQ(pthread_mutex_unlock(&wd_lock), 0);
	return NULL;
}

struct call_ctx {
	struct worker *w;
	struct coupled_domain_round r;
};

static void call_action(const struct coupled_domain_round *r, void *ctx)
{
	struct call_ctx *cc = (struct call_ctx *)ctx;

	action(r, cc->w);
	cc->r = *r;
}

static void *worker_main(void *arg)
{
	struct worker *w = (struct worker *)arg;
	struct level_arg la[LEVELS_MAX];
	uint32_t k, levels = t.levels;
	struct oracle_failure f;
	unsigned long i;

	self_worker = w;
	CHECK(pthread_barrier_wait(&start) != EINVAL);
	for (k = 0; k < levels; k++) {
		la[k].w = w;
		la[k].level = (int)k;
	}
	/* relaxed: see top_seen. */
	for (i = 0; i < calls_per_thread ||
		    (i < CALLS_STRETCH * calls_per_thread &&
		     !atomic_load_explicit(&top_seen, memory_order_relaxed));
	     i++) {
		struct coupled_abort_opts opts[LEVELS_MAX];
		struct call_ctx cc;
		unsigned long before = w->actions;
		int ret;

		memset(opts, 0, sizeof(opts));
		for (k = 0; k < levels; k++) {
			w->req[k] = (int32_t)rnd(w, 8);
			if (k && !rnd(w, 32))
				w->req[k] = -1;
			opts[k].should_abort = level_should_abort;
			opts[k].abort_arg = &la[k];
		}
		w->abort_level = rnd(w, 32) ? -1 : (int)rnd(w, levels);
		w->abort_polls = rnd(w, 64);
		w->work_level = rnd(w, 32) ? -1 : (int)rnd(w, levels);
		w->work_polls = rnd(w, 64);
		w->work_raised = 0;
		for (k = 0; k < levels; k++)
			w->may[k] = (int)k == w->abort_level
					    ? DOMAIN_ORACLE_MAY_CALLER
					    : 0u;
		for (k = deadlines ? 1u : levels - 1u; k < levels; k++) {
			if (rnd(w, deadlines ? deadlines : 32u))
				continue;
			opts[k].deadline =
				coupled_adapter_now(
					coupled_group_adapter(leaf_group(w))) +
				rnd(w, 200000);
			w->may[k] |= DOMAIN_ORACLE_MAY_DEADLINE;
		}
		cc.w = w;
		domain_oracle_call_begin(&w->call);
		/* seq_cst: see may_change(). */
		w->ended = atomic_load(&change_ended);
		/* relaxed, both: the watchdog's progress count. */
		atomic_fetch_add_explicit(&w->progress, 1u,
					  memory_order_relaxed);
		ret = coupled_domain_enter_opts(t.leaf[w->core], t.id[w->core],
						w->req, call_action, &cc, opts);
		atomic_fetch_add_explicit(&w->progress, 1u,
					  memory_order_relaxed);
		/* relaxed: read by the watchdog's report only. */
		atomic_store_explicit(&w->last, ret, memory_order_relaxed);
		w->calls++;
		if (w->work_raised)
			coupled_pthread_clear_work(own_slot(w));
		if (domain_oracle_call_end(&w->call, ret, &f))
			oracle_failed("core", w->core, 0, &f);
		/* The gate closed only while a change ran. */
		if (ret == COUPLED_ABORT_MEMBERSHIP && !may_change(w)) {
			fprintf(stderr,
				"domain stress: FAIL core %u: "
				"COUPLED_ABORT_MEMBERSHIP while no change "
				"ran\n",
				w->core);
			exit(1);
		}
		if (ret == COUPLED_COMMITTED) {
			w->commits++;
			CHECK_EQ(w->actions, before + 1);
			check_outcomes(w, w->req, &cc.r);
		} else if (ret == COUPLED_ABORT_MEMBERSHIP ||
			   ((changer || churn) && ret == COUPLED_ENOENT)) {
			/*
			 * Out of the domain, or a change under way: let the
			 * others run (the changer among them), as a core
			 * would do its work before its next idle call.  In
			 * every mode: a core's final leave closes the gate of
			 * the whole tree, and the others would spend their
			 * calls on refusals while it drains.
			 */
			uint32_t n = 0;

			w->out += ret == COUPLED_ENOENT;
			CHECK_EQ(w->actions, before);
			/*
			 * While a change runs or the core is out, a while
			 * (pacing only, bounded: else the calls are spent on
			 * aborts).  seq_cst, both: plain counts here.
			 */
			do
				sched_yield();
			while (n++ < 64u &&
			       (atomic_load(&change_begun) !=
					atomic_load(&change_ended) ||
				!coupled_is_member(leaf_group(w),
						   t.id[w->core])));
		} else {
			CHECK_EQ(w->actions, before);
			CHECK(ret > 0 && ret < COUPLED_ABORT_REASONS);
		}
		if (churn && w->core == 0 && !rnd(w, 16))
			churn_once(w);
	}
	/* Done: out of every level, so that nobody waits for this core. */
	atomic_fetch_add(&finished, 1u);
	/* acquire: the changer's last change happens before our leave. */
	while (changer &&
	       !atomic_load_explicit(&changer_done, memory_order_acquire))
		sched_yield();
	CHECK_EQ(change(w->core, false), 0);
	/* relaxed: the watchdog's, which only stops watching us. */
	atomic_store_explicit(&w->done, 1u, memory_order_relaxed);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: test_domain_stress (--clusters N,N,... "
			"[--leaf L] | --psci F,F,...) "
			"[--strategy spin|futex|condvar] [--calls C] "
			"[--seed S] [--churn | --changer [--inside]] "
			"[--deadlines N] [--hang S]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint32_t cl[TREE_MAX_CORES], nclusters = 0, leaf = 0, c, n, k;
	uint32_t fan[LEVELS_MAX], nfan = 0, cores_changed = 0;
	unsigned long seed = 1, per_level[LEVELS_MAX] = { 0 }, out = 0;
	unsigned long tried = 0, eperm = 0, extra = 0;
	struct oracle_failure f;
	pthread_t changer_thread, watchdog;
	pthread_condattr_t ca;
	struct timespec t0, t1;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--clusters") && i + 1 < argc) {
			char *p = argv[++i];

			while (*p && nclusters < TREE_MAX_CORES) {
				cl[nclusters++] = (uint32_t)strtoul(p, &p, 10);
				if (*p == ',')
					p++;
			}
		} else if (!strcmp(argv[i], "--psci") && i + 1 < argc) {
			char *p = argv[++i];

			while (*p && nfan < LEVELS_MAX) {
				fan[nfan++] = (uint32_t)strtoul(p, &p, 10);
				if (*p == ',')
					p++;
			}
			if (*p)
				usage();
		} else if (!strcmp(argv[i], "--deadlines") && i + 1 < argc) {
			deadlines = (uint32_t)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--hang") && i + 1 < argc) {
			hang_s = (unsigned)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--leaf") && i + 1 < argc) {
			leaf = (uint32_t)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--calls") && i + 1 < argc) {
			calls_per_thread = strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--strategy") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "spin"))
				strategy = COUPLED_PTHREAD_SPIN;
			else if (!strcmp(argv[i], "futex"))
				strategy = COUPLED_PTHREAD_FUTEX;
			else if (!strcmp(argv[i], "condvar"))
				strategy = COUPLED_PTHREAD_CONDVAR;
			else
				usage();
		} else if (!strcmp(argv[i], "--churn")) {
			churn = 1;
		} else if (!strcmp(argv[i], "--changer")) {
			changer = 1;
		} else if (!strcmp(argv[i], "--inside")) {
			inside = 1;
		} else {
			usage();
		}
	}
	if (!nclusters == !nfan || (nfan && leaf) || (churn && changer) ||
	    (inside && !changer) || !hang_s)
		usage();
	if (nfan) {
		CHECK_EQ(domain_tree_build_psci(&t, fan, nfan, true,
						tree__setup, &strategy),
			 0);
		nclusters = fan[0];
	} else {
		tree_build(&t, nclusters, cl, leaf, strategy);
	}
	CHECK(t.levels <= LEVELS_MAX);
	for (n = 0; n < t.nodes; n++)
		for (i = 0; i < (int)RING; i++)
			domain_oracle_init(&recs[n][i]);
	/* Each core's pod: its lowest node of more than one core. */
	for (c = 0; c < t.cores; c++) {
		struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
		uint32_t id[COUPLED_DOMAIN_MAX_LEVELS];

		n = tree_path(&t, c, node, id);
		for (k = 0; k + 1u < n; k++)
			if (t.ncores[domain_tree_index(&t, node[k])] > 1u)
				break;
		pod[c] = domain_tree_index(&t, node[k]);
	}
	changer_rng = seed * 0x2545f4914f6cdd1dull + 1;
	printf("domain stress: %u cores, %u clusters, %u levels%s, %s, %lu "
	       "calls per core, %s protocol%s%s\n",
	       t.cores, nclusters, t.levels,
	       nfan ? " (PSCI: a leaf per core)" : "",
	       coupled_pthread_strategy_name(strategy), calls_per_thread,
	       COUPLED_PROTOCOL_NAME,
	       churn     ? ", churn"
	       : changer ? ", changer"
			 : "",
	       inside ? ", changes inside actions" : "");
	fflush(stdout);
	CHECK_EQ(pthread_condattr_init(&ca), 0);
	CHECK_EQ(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC), 0);
	CHECK_EQ(pthread_cond_init(&wd_cond, &ca), 0);
	CHECK_EQ(pthread_create(&watchdog, NULL, watchdog_main, NULL), 0);
	CHECK_EQ(pthread_barrier_init(&start, NULL,
				      t.cores + (changer ? 1 : 0)),
		 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (c = 0; c < t.cores; c++) {
		workers[c].core = c;
		workers[c].rng = seed * 0x9e3779b97f4a7c15ull + c + 1;
		CHECK_EQ(pthread_create(&workers[c].thread, NULL, worker_main,
					&workers[c]),
			 0);
	}
	if (changer)
		CHECK_EQ(pthread_create(&changer_thread, NULL, changer_main,
					NULL),
			 0);
	for (c = 0; c < t.cores; c++)
		CHECK_EQ(pthread_join(workers[c].thread, NULL), 0);
	if (changer)
		CHECK_EQ(pthread_join(changer_thread, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK_EQ(pthread_mutex_lock(&wd_lock), 0);
	wd_done = 1;
	CHECK_EQ(pthread_cond_signal(&wd_cond), 0);
	CHECK_EQ(pthread_mutex_unlock(&wd_lock), 0);
	CHECK_EQ(pthread_join(watchdog, NULL), 0);

	/* The oracle: no round left half reported; the rounds per level. */
	for (n = 0; n < t.nodes; n++) {
		for (i = 0; i < (int)RING; i++) {
			if (domain_oracle_leftover(&recs[n][i], &f))
				oracle_failed("node", n, t.level[n], &f);
			per_level[t.level[n]] +=
				domain_oracle_rounds(&recs[n][i]);
		}
		/* Nobody left inside a call. */
		/* relaxed: every thread joined. */
		CHECK_EQ(coupled_load(&t.node[n].candidates, COUPLED_RELAXED),
			 0);
		CHECK_EQ(coupled_load(&t.node[n].waiting, COUPLED_RELAXED), 0);
	}
	for (c = 0; c < t.cores; c++) {
		CHECK(workers[c].calls >= calls_per_thread);
		extra += workers[c].calls - calls_per_thread;
		CHECK_EQ(workers[c].actions, workers[c].commits);
		out += workers[c].out;
		tried += workers[c].inside;
		eperm += workers[c].eperm;
		cores_changed += changed[c] > 0;
	}
	printf("%.2f s; committed rounds per level (leaf first):",
	       (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (k = 0; k < t.levels; k++)
		printf(" L%u %lu", k, per_level[k]);
	/* relaxed: every thread joined. */
	printf("\nleaf rounds %lu, split outcomes %lu, changes %lu, calls "
	       "while out %lu, changes inside actions %lu (EPERM %lu), cores "
	       "changed %u of %u\n",
	       per_level[0],
	       atomic_load_explicit(&splits, memory_order_relaxed), changes,
	       out, tried, eperm, cores_changed, t.cores);
	printf("calls past the floor of %lu per core, until a top round: %lu\n",
	       calls_per_thread, extra);
	printf("outcomes per level of committed calls:\n");
	for (k = 0; k < t.levels; k++) {
		unsigned long sum[16] = { 0 };
		int o;

		for (c = 0; c < t.cores; c++)
			for (o = 0; o < 16; o++)
				sum[o] += workers[c].outcome[k][o];
		printf("  L%u:", k);
		for (o = 0; o < 16; o++)
			if (sum[o])
				printf(" %s %lu",
				       o == OUT_OTHER ? "error"
						      : coupled_strerror(o),
				       sum[o]);
		printf("\n");
	}
	fflush(stdout);
	/* relaxed: every thread joined. */
	CHECK_EQ(atomic_load_explicit(&splits, memory_order_relaxed), 0);
	/* The top level must have committed sometimes, or nothing ran. */
	CHECK(per_level[t.levels - 1] > 0);
	/*
	 * With the changer or the churn: changes happened (else nothing was
	 * tested); with the changer every core was changed once a sweep
	 * could cover them all.
	 */
	CHECK(!(changer || churn) || changes > 0);
	CHECK(!changer || changes < t.cores || cores_changed == t.cores);
	/* Changes tried inside actions: some, every one refused. */
	CHECK(!inside || tried > 0);
	CHECK_EQ(eperm, tried);
	return 0;
}

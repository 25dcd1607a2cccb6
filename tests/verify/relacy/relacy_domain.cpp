/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_domain.cpp - the real include/coupled/domain.h (and
 * coupled_group_kick()) under the Relacy race detector: one two-level tree,
 * a root over two leaves, every core a Relacy thread; in the membership
 * scenarios one more thread changes the membership of a core of leaf 0.
 *
 * Build (one line, no CMake), once per protocol variant:
 *
 *   c++ -std=c++17 -O1 -DCOUPLED_PROTOCOL_DIRECT=1 -I<include> -Itests/verify/relacy tests/verify/relacy/relacy_domain.cpp -o relacy_domain_direct
 *   c++ -std=c++17 -O1 -DCOUPLED_PROTOCOL_SETTLED=1 -I<include> -Itests/verify/relacy tests/verify/relacy/relacy_domain.cpp -o relacy_domain_settled
 *
 * Usage:
 *   relacy_domain list                        the scenario names
 *   relacy_domain <scenario> 1+1|2+1 [iters]  one scenario on one tree
 *   relacy_domain all                         every scenario on both trees
 * Trees:
 *   1+1  root over two leaves of one core each: 2 threads, Relacy's
 *        context-bound scheduler (bound 2, every schedule with at most 2
 *        preemptions and every value each load may read; bound 1 for the
 *        settled give_up, whose bound 2 did not end in 5 minutes), except
 *        aborts: random (even bound 1 did not end in 200 s);
 *   2+1  root over a leaf of two cores and a leaf of one: 3 threads, the
 *        random scheduler (50000 iterations).
 * The membership scenarios (leave_join, join_leave) run the random
 * scheduler on both trees (4 threads on 2+1).
 * Environment: COUPLED_RELACY_QUICK=1 (mutation testing: bound 1, 10000
 * iterations), COUPLED_RELACY_BOUND=K, COUPLED_RELACY_ITERS=N, as for
 * relacy_coupled.cpp.
 * Exit code: 0 when every property held in every explored execution and the
 * scenario reached its paths, 1 on a violation (Relacy's history printed),
 * 2 on a usage error.
 *
 * Every group waits with the adapter's token mode: a waiter rests until it
 * is woken, so a give-up that kicks nobody who should see it is a Relacy
 * livelock (a core waiting forever at a level that cannot commit).  Each
 * core makes calls until its leaf committed ROUNDS times; should_abort of
 * each level is the test's, its decisions drawn with rl::rand() (explored
 * like the schedule).
 *
 * Properties checked in every execution (RL_ASSERT, and Relacy's deadlock,
 * livelock and data-race detection):
 *   - termination: every thread ends (a level that cannot commit keeps
 *     nobody waiting once a core under it gave it up);
 *   - per level, all or none: a round of generation g of a level was
 *     committed by exactly the cores under that level, one call each, all
 *     with the same parameter (the min of their requests for that level),
 *     generation and member count;
 *   - cores of one committed leaf round learn the same outcome for the root
 *     (committed or not, and the same root generation);
 *   - the action ran once iff the call returned COUPLED_COMMITTED, with
 *     depth == the committed levels, a non-committed root's outcome one of
 *     CANNOT, REFUSED (exactly when the request refused it) or
 *     ABORT_CALLER (only if this core's root should_abort said so);
 *   - plain data written in the root's action before coupled_barrier() on
 *     the root round is read by every other core after it;
 *   - the counters are back to 0 at the end (candidates, waiting, the
 *     leaf's calls and gate).
 *
 * The membership scenarios: a changer thread runs coupled_domain_leave()
 * then coupled_domain_join() of the last core of leaf 0 (leave_join), or
 * that core starts out of every level and the changer joins it, then takes
 * it out again (join_leave), while every core calls.  Checked besides:
 *   - no split: the cores of one committed leaf round learn the same
 *     outcome for the root (above), and no committed leaf round ever learns
 *     COUPLED_ENOENT for the root (a member of the leaf and not of the root);
 *   - all or none with the membership of the moment: a round of a level ran
 *     on as many cores as its member count, each once;
 *   - the gate orders every call of leaf 0 against the change, both ways,
 *     by Relacy's data-race detection on plain variables (rl::var): each
 *     call of a leaf-0 core writes its own mark and reads the changer's
 *     mark (in its should_abort and its action); the changer, holding the
 *     gate with no call of leaf 0 in progress (hook point
 *     COUPLED_HOOK_DOMAIN_CHANGE), reads every core's mark and writes its
 *     own.  A call that runs while the change runs (a missed Dekker pair, no
 *     drain, no entry check), a call whose end does not publish it
 *     (coupled__domain_call_end()'s release) or a gate opened without
 *     publishing the change is a data race;
 *   - liveness: waiting cores are woken by the change (token waits), and in
 *     join_leave a core of leaf 1 is held before its root try while the
 *     changer works, as a candidate of the root: the cores of leaf 0
 *     waiting at the root must give it up for the gate, else the change
 *     waits for them and they for the held core (a livelock).
 */
#include <relacy/relacy.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

#include "relacy_driver.h"

#define COUPLED_ATOMIC_RELACY 1
#define COUPLED_ADAPTER_HEADER "coupled_adapter_relacy.h"

/* The membership scenarios observe the changer and hold a core (hook.h). */
void relacy_domain_hook(const void *group, uint32_t self, int point);
#define COUPLED_HOOK(group, self, point) \
	relacy_domain_hook((const void *)(group), (self), (int)(point))

#include <coupled/domain.h>

namespace
{

enum scenario {
	SC_ABORTS,     /* random aborts at both levels */
	SC_GIVE_UP,    /* core 1 always gives the root up; the others wait */
	SC_REFUSE,     /* core 1 refuses the root in its first call */
	SC_ABANDON,    /* core 1 gives the root up at once, then calls again */
	SC_LEAVE_JOIN, /* a changer: leave, then join, of leaf 0's last core */
	SC_JOIN_LEAVE, /* that core starts out: join, then leave; a core of
			* leaf 1 is held before its root try meanwhile */
	SC_COUNT
};

const char *const scenario_names[SC_COUNT] = { "aborts",     "give_up",
					       "refuse",     "abandon",
					       "leave_join", "join_leave" };
const char *const scenario_what[SC_COUNT] = {
	"each call's should_abort may fire at the leaf (once per core) and at "
	"the root, at a drawn poll",
	"core 1's root should_abort fires at a drawn poll of every call: the "
	"others, waiting at the root, must give it up (no livelock), and the "
	"root never commits",
	"core 1 refuses the root (negative request) in its first call: "
	"nobody waits for it there",
	"core 1 gives the root up at its first poll in its first call and "
	"calls again at once: with two cores in its leaf, the other core of "
	"its leaf round must see the round abandoned although core 1 is a "
	"candidate again (else it waits at the root for a core waiting in "
	"the leaf)",
	"a changer thread takes leaf 0's last core out of every level "
	"(coupled_domain_leave()), then back in (coupled_domain_join()), while "
	"every core calls: no split, all or none, and the gate orders every "
	"call of leaf 0 against the change (rl::var marks both ways)",
	"leaf 0's last core starts out; a changer joins it, then takes it out "
	"again, while every core calls; leaf 1's first core is held before "
	"its root try while the changer works (the cores of leaf 0 waiting at "
	"the root must give it up for the gate)",
};

enum coverage {
	COV_EXECS,
	COV_ROOT_COMMIT,
	COV_ROOT_CANNOT,
	COV_ROOT_CALLER,
	COV_ROOT_REFUSED,
	COV_LEAF_ABORT,
	COV_GATE_ABORT,
	COV_ROOT_GATE,
	COV_OUT,
	COV_COUNT
};

/* The paths each scenario (in enum scenario's order) is there for,
 * COV_COUNT after the last. */
enum { NEEDS = 4 };
const unsigned scenario_needs[SC_COUNT][NEEDS] = {
	/* aborts */
	{ COV_ROOT_COMMIT, COV_ROOT_CANNOT, COV_ROOT_CALLER, COV_COUNT },
	/* give_up */
	{ COV_ROOT_CANNOT, COV_ROOT_CALLER, COV_COUNT, COV_COUNT },
	/* refuse */
	{ COV_ROOT_REFUSED, COV_ROOT_CANNOT, COV_ROOT_COMMIT, COV_COUNT },
	/* abandon */
	{ COV_ROOT_CANNOT, COV_ROOT_CALLER, COV_COUNT, COV_COUNT },
	/* leave_join, join_leave */
	{ COV_GATE_ABORT, COV_ROOT_GATE, COV_OUT, COV_ROOT_COMMIT },
	{ COV_GATE_ABORT, COV_ROOT_GATE, COV_OUT, COV_ROOT_COMMIT },
};

const char *const coverage_names[COV_COUNT] = {
	"executions",
	"root commits",
	"root CANNOT outcomes",
	"root caller aborts",
	"root refusals",
	"leaf caller aborts",
	"calls given up for a change (COUPLED_ABORT_MEMBERSHIP)",
	"root outcomes COUPLED_ABORT_MEMBERSHIP",
	"calls of the core while out (COUPLED_ENOENT)",
};

int g_scenario;
unsigned long g_cov[COV_COUNT];

/*
 * MAXCALLS: a membership scenario's core makes at most ROUNDS + 1 commits,
 * a give-up per phase (the gate may still look closed in the last) and a
 * call while out per phase: 9.
 */
enum { MAXN = 3, ROUNDS = 2, MAXCALLS = 9, LEVELS = 2 };
const unsigned NEVER = ~0u;

int32_t request_of(unsigned t, unsigned call, unsigned level)
{
	return (int32_t)((t * 5u + call * 3u + level * 2u + 1u) % 7u + 1u);
}

struct abort_ctx {
	unsigned polls; /* polls so far in this call */
	unsigned at;    /* the poll that fires, NEVER for none */
	bool fired;
	/* Membership scenarios, leaf 0's cores: the marks (else NULL). */
	rl::var<unsigned> *mine;   /* this core's, written by its calls */
	rl::var<unsigned> *change; /* the changer's, read by the calls */
};

/* A leaf-0 call touches both marks: plain accesses Relacy checks. */
void touch_marks(rl::var<unsigned> *mine, rl::var<unsigned> *change)
{
	if (!mine)
		return;
	unsigned seen = (*change)($); /* the access is the check */
	(void)seen;
	(*mine)($) = (*mine)($) + 1u;
}

bool should_abort_fn(void *arg, uint32_t self)
{
	abort_ctx *a = static_cast<abort_ctx *>(arg);
	(void)self;
	touch_marks(a->mine, a->change);
	if (a->at != NEVER && a->polls++ >= a->at) {
		a->fired = true;
		return true;
	}
	return false;
}

struct call_rec {
	int ret;
	unsigned ran;
	int32_t req[LEVELS];
	bool root_fired; /* this core's root should_abort said yes */
	bool stop;       /* membership scenarios: the leaf round's vote */
	struct coupled_domain_round r;
};

template <unsigned A, unsigned B, unsigned C> struct domain_test;

template <unsigned A, unsigned B, unsigned C> struct action_ctx {
	domain_test<A, B, C> *t;
	unsigned thread;
};

void action_fn(const struct coupled_domain_round *r, void *ctx);

/* Set by before(): the test running now, for the hook. */
void *g_hook_test;
void (*g_hook)(void *test, const void *group, uint32_t self, int point);

/*
 * A: cores of leaf 0, B: of leaf 1, C: changer threads (1 in the
 * membership scenarios, else 0).
 */
template <unsigned A, unsigned B, unsigned C>
struct domain_test final : rl::test_suite<domain_test<A, B, C>, A + B + C> {
	static const unsigned N = A + B;
	/* The core whose membership changes: leaf 0's last. */
	static const unsigned X = A - 1;
	/* join_leave: held before its root try while the changer works. */
	static const unsigned HELD = A;

	struct coupled_group groot, gleaf[2];
	struct coupled_slot sroot[N], sleaf0[A], sleaf1[B];
	struct coupled_domain root, leaf[2];

	/* Plain data of the root's action, ordered by its barrier. */
	rl::var<uint32_t> data[N];

	/*
	 * Membership scenarios: the changer's mark, and each leaf-0 core's
	 * (plain: the gate must order them); the changer's progress (0, 1
	 * after its first change, 2 when done; relaxed everywhere, so that it
	 * orders nothing the gate should).
	 */
	rl::var<unsigned> change_mark;
	rl::var<unsigned> core_mark[N];
	rl::atomic<unsigned> phase;

	/* Owner-only records, read by after() once every thread ended. */
	call_rec calls[N][MAXCALLS];
	unsigned ncalls[N];
	abort_ctx aborts[N][LEVELS];
	unsigned leaf_budget[N];
	int sc;

	bool changes() const
	{
		return sc == SC_LEAVE_JOIN || sc == SC_JOIN_LEAVE;
	}

	void before()
	{
		sc = g_scenario;
		g_hook = NULL;
		RL_ASSERT(coupled_group_init(&groot, sroot, N, N, NULL) == 0);
		/* join_leave: X starts out of every level. */
		RL_ASSERT(coupled_group_init(&gleaf[0], sleaf0, A,
					     sc == SC_JOIN_LEAVE ? A - 1 : A,
					     NULL) == 0);
		RL_ASSERT(coupled_group_init(&gleaf[1], sleaf1, B, B, NULL) ==
			  0);
		coupled_relacy_set_mode(coupled_group_adapter(&groot),
					COUPLED_RELACY_WAIT_TOKEN);
		for (unsigned l = 0; l < 2; l++)
			coupled_relacy_set_mode(
				coupled_group_adapter(&gleaf[l]),
				COUPLED_RELACY_WAIT_TOKEN);
		RL_ASSERT(coupled_domain_init(&root, &groot, NULL) == 0);
		RL_ASSERT(coupled_domain_init(&leaf[0], &gleaf[0], &root) == 0);
		RL_ASSERT(coupled_domain_init(&leaf[1], &gleaf[1], &root) == 0);
		if (sc == SC_JOIN_LEAVE)
			RL_ASSERT(coupled_leave(&groot, X) == 0);
		for (unsigned i = 0; i < N; i++) {
			data[i]($) = 0u;
			core_mark[i]($) = 0u;
			ncalls[i] = 0;
			leaf_budget[i] = 1;
		}
		change_mark($) = 0u;
		phase.store(0u, rl::mo_relaxed, $);
		g_hook_test = this;
		g_hook = hook_dispatch;
	}

	static void hook_dispatch(void *test, const void *group, uint32_t self,
				  int point)
	{
		static_cast<domain_test *>(test)->on_hook(group, self, point);
	}

	/* The hook points of the membership scenarios. */
	void on_hook(const void *group, uint32_t self, int point)
	{
		if (!changes())
			return;
		if (point == COUPLED_HOOK_DOMAIN_CHANGE && group == &gleaf[0]) {
			/*
			 * The changer holds leaf 0's gate and no call of it
			 * is in progress: every finished call's writes are
			 * visible (coupled__domain_call_end()'s release), and
			 * no call may read what we write now.
			 */
			for (unsigned t = 0; t < A; t++) {
				unsigned m = core_mark[t]($);
				(void)m;
			}
			change_mark($) = change_mark($) + 1u;
			return;
		}
		if (point == COUPLED_HOOK_DOMAIN_TRY && group == &groot &&
		    self == HELD && sc == SC_JOIN_LEAVE) {
			/* relaxed: a test schedule, it orders nothing. */
			while (phase.load(rl::mo_relaxed, $) != 2u)
				rl::yield(1, $);
		}
	}

	/* Thread t: leaf 0's cores first, then leaf 1's. */
	static unsigned leaf_of(unsigned t)
	{
		return t < A ? 0 : 1;
	}
	static unsigned core_of(unsigned t)
	{
		return t < A ? t : t - A;
	}
	static unsigned leaf_size(unsigned l)
	{
		return l ? B : A;
	}

	/* The changer: two changes of X, then done. */
	void changer()
	{
		bool leave_first = sc == SC_LEAVE_JOIN;

		RL_ASSERT((leave_first
				   ? coupled_domain_leave(&leaf[0], X)
				   : coupled_domain_join(&leaf[0], X)) == 0);
		/* relaxed: progress only (see phase). */
		phase.store(1u, rl::mo_relaxed, $);
		RL_ASSERT((leave_first
				   ? coupled_domain_join(&leaf[0], X)
				   : coupled_domain_leave(&leaf[0], X)) == 0);
		phase.store(2u, rl::mo_relaxed, $);
	}

	/*
	 * Start core @t's next call: @req and @opts its request and abort
	 * options at every level, nothing injected yet; @marks: its aborts
	 * touch the membership scenarios' marks (leaf 0's cores there).
	 * Return: the call's index in calls[t].
	 */
	unsigned new_call(unsigned t, bool marks, int32_t *req,
			  struct coupled_abort_opts *opts)
	{
		RL_ASSERT(ncalls[t] < MAXCALLS);
		unsigned call = ncalls[t]++;

		for (unsigned k = 0; k < LEVELS; k++) {
			req[k] = request_of(t, call, k);
			aborts[t][k].polls = 0;
			aborts[t][k].at = NEVER;
			aborts[t][k].fired = false;
			aborts[t][k].mine = marks ? &core_mark[t] : NULL;
			aborts[t][k].change = marks ? &change_mark : NULL;
			opts[k].deadline = 0;
			opts[k].should_abort = should_abort_fn;
			opts[k].abort_arg = &aborts[t][k];
		}
		return call;
	}

	/*
	 * Make the call @rec of core @t with @req and @opts (recorded in
	 * @rec, its result in rec->ret): the action ran once iff it
	 * committed.
	 */
	void enter(unsigned t, call_rec *rec, int32_t *req,
		   struct coupled_abort_opts *opts)
	{
		action_ctx<A, B, C> ctx = { this, t };

		for (unsigned k = 0; k < LEVELS; k++)
			rec->req[k] = req[k];
		rec->ran = 0;
		rec->ret = coupled_domain_enter_opts(&leaf[leaf_of(t)],
						     core_of(t), req, action_fn,
						     &ctx, opts);
		RL_ASSERT((rec->ret == COUPLED_COMMITTED) == (rec->ran == 1));
		RL_ASSERT(rec->ran <= 1);
	}

	/*
	 * A core in a membership scenario: calls until its leaf round votes
	 * to stop (a core of the round saw the changer done), or, X only,
	 * until a call finds it out after the changer is done.  After a call
	 * given up for a change, or made while out, it waits for the
	 * changer's next step; after ROUNDS commits, for the changer to end.
	 */
	void change_core(unsigned t)
	{
		unsigned commits = 0;
		bool l0 = leaf_of(t) == 0;

		for (;;) {
			/* relaxed: progress only (see phase). */
			unsigned p = phase.load(rl::mo_relaxed, $);
			if (commits >= ROUNDS && p != 2u) {
				while (phase.load(rl::mo_relaxed, $) != 2u)
					rl::yield(1, $);
				continue;
			}
			int32_t req[LEVELS];
			struct coupled_abort_opts opts[LEVELS];
			call_rec *rec = &calls[t][new_call(t, l0, req, opts)];

			rec->stop = false;
			enter(t, rec, req, opts);
			rec->root_fired = false;
			if (rec->ret == COUPLED_COMMITTED) {
				commits++;
				if (rec->stop)
					return;
				continue;
			}
			if (rec->ret == COUPLED_ABORT_MEMBERSHIP) {
				/* Only the gate, only on leaf 0. */
				RL_ASSERT(l0);
				g_cov[COV_GATE_ABORT]++;
				if (p == 2u) {
					/*
					 * Our phase load orders nothing: the
					 * gate may still look closed.  Its
					 * opening is visible after a yield.
					 */
					rl::yield(1, $);
					continue;
				}
			} else {
				/* Only X, only while out. */
				RL_ASSERT(rec->ret == COUPLED_ENOENT);
				RL_ASSERT(t == X);
				g_cov[COV_OUT]++;
				if (p == 2u) {
					RL_ASSERT(sc == SC_JOIN_LEAVE);
					return;
				}
			}
			while (phase.load(rl::mo_relaxed, $) == p)
				rl::yield(1, $);
		}
	}

	void thread(unsigned t)
	{
		if (t >= N) {
			changer();
			return;
		}
		if (changes()) {
			change_core(t);
			return;
		}

		unsigned commits = 0;

		while (commits < ROUNDS) {
			int32_t req[LEVELS];
			struct coupled_abort_opts opts[LEVELS];
			unsigned call = new_call(t, false, req, opts);
			call_rec *rec = &calls[t][call];

			if (sc == SC_ABORTS) {
				/* At most one leaf abort per core: the other
				 * cores of its leaf wait for its next call. */
				if (leaf_budget[t] && rl::rand(2)) {
					leaf_budget[t]--;
					aborts[t][0].at = rl::rand(2);
				}
				if (rl::rand(2))
					aborts[t][1].at = rl::rand(3);
			}
			if (sc == SC_GIVE_UP && t == 1)
				aborts[t][1].at = rl::rand(3);
			if (sc == SC_ABANDON && t == 1 && call == 0)
				aborts[t][1].at = 0;
			if (sc == SC_REFUSE && t == 1 && call == 0)
				req[1] = -1;
			enter(t, rec, req, opts);
			rec->root_fired = aborts[t][1].fired;
			if (rec->ret == COUPLED_COMMITTED) {
				commits++;
			} else {
				/* Only the injected leaf abort. */
				RL_ASSERT(rec->ret == COUPLED_ABORT_CALLER);
				RL_ASSERT(aborts[t][0].fired);
				g_cov[COV_LEAF_ABORT]++;
			}
		}
	}

	void on_action(unsigned t, const struct coupled_domain_round *r)
	{
		call_rec *rec = &calls[t][ncalls[t] - 1];

		rec->ran++;
		rec->r = *r;
		RL_ASSERT(r->levels == LEVELS);
		RL_ASSERT(r->core == core_of(t));
		RL_ASSERT(r->depth >= 1 && r->depth <= LEVELS);
		for (unsigned k = 0; k < LEVELS; k++)
			RL_ASSERT(r->level[k].committed == (k < r->depth));
		if (leaf_of(t) == 0 && changes())
			touch_marks(&core_mark[t], &change_mark);
		if (r->depth == LEVELS) {
			/* Inside the root's round: its barrier orders data. */
			uint32_t gen = r->level[1].generation;
			unsigned same = 0;
			data[t]($) = gen;
			RL_ASSERT(coupled_barrier(r->level[1].round) == 0);
			/* Every core of the round wrote gen (a core out of
			 * the root last wrote in an older round). */
			for (unsigned j = 0; j < N; j++)
				same += data[j]($) == gen;
			RL_ASSERT(same == r->level[1].members);
			/* Nobody overwrites before everyone has read. */
			RL_ASSERT(coupled_barrier(r->level[1].round) == 0);
		}
		if (changes()) {
			/*
			 * Stop together: every core of the leaf round learns
			 * the same vote (relaxed: progress only).
			 */
			bool done = phase.load(rl::mo_relaxed, $) == 2u;
			int v = coupled_vote(r->level[0].round, done);
			RL_ASSERT(v == 0 || v == 1);
			rec->stop = v == 1;
		}
	}

	void after()
	{
		g_cov[COV_EXECS]++;
		RL_ASSERT(coupled_load(&root.candidates, COUPLED_RELAXED) ==
			  0u);
		RL_ASSERT(coupled_load(&root.waiting, COUPLED_RELAXED) == 0u);
		for (unsigned l = 0; l < 2; l++) {
			RL_ASSERT(coupled_load(&leaf[l].calls,
					       COUPLED_RELAXED) == 0u);
			RL_ASSERT(coupled_load(&leaf[l].changing,
					       COUPLED_RELAXED) == 0u);
		}
		if (changes()) {
			/* X ends in for leave_join, out for join_leave. */
			bool in = sc == SC_LEAVE_JOIN;
			RL_ASSERT(coupled_is_member(&gleaf[0], X) == in);
			RL_ASSERT(coupled_is_member(&groot, X) == in);
		}
		for (unsigned t = 0; t < N; t++)
			for (unsigned c = 0; c < ncalls[t]; c++)
				check_call(t, c);
	}

	/*
	 * The calls of core @u in the round that the committed call @rec
	 * committed at level @k: each with the round's parameter and member
	 * count, @min lowered to its request; at the leaf (@k 0) each with
	 * @rec's outcome for the root (no split).  (A committed call
	 * committed its leaf: see on_action().)
	 * Return: how many: 1, or 0 in the membership scenarios.
	 */
	unsigned round_calls(const call_rec *rec, unsigned k, unsigned u,
			     int32_t *min)
	{
		const struct coupled_domain_level *lv = &rec->r.level[k];
		const struct coupled_domain_level *l1 = &rec->r.level[1];
		unsigned here = 0;

		for (unsigned d = 0; d < ncalls[u]; d++) {
			const call_rec *o = &calls[u][d];
			const struct coupled_domain_level *ol = &o->r.level[k];
			if (o->ret != COUPLED_COMMITTED || !ol->committed ||
			    ol->generation != lv->generation)
				continue;
			here++;
			if (o->req[k] < *min)
				*min = o->req[k];
			RL_ASSERT(ol->param == lv->param);
			RL_ASSERT(ol->members == lv->members);
			if (k == 0) {
				RL_ASSERT(o->r.level[1].committed ==
					  l1->committed);
				if (l1->committed)
					RL_ASSERT(o->r.level[1].generation ==
						  l1->generation);
			}
		}
		RL_ASSERT(here <= 1);
		RL_ASSERT(here == 1 || changes());
		return here;
	}

	/* One committed call against every other call of the execution. */
	void check_call(unsigned t, unsigned c)
	{
		const call_rec *rec = &calls[t][c];
		if (rec->ret != COUPLED_COMMITTED)
			return;
		const struct coupled_domain_level *l0 = &rec->r.level[0];
		const struct coupled_domain_level *l1 = &rec->r.level[1];
		unsigned lf = leaf_of(t);

		/*
		 * The leaf: every core of the leaf (every member, in the
		 * membership scenarios), once, same round.
		 */
		unsigned seen = 0, count = 0;
		int32_t min = INT32_MAX;
		for (unsigned u = 0; u < N; u++) {
			if (leaf_of(u) != lf)
				continue;
			count += round_calls(rec, 0, u, &min);
			seen++;
		}
		RL_ASSERT(seen == leaf_size(lf));
		RL_ASSERT(count == l0->members);
		RL_ASSERT(l0->members == leaf_size(lf) ||
			  (changes() && lf == 0 &&
			   l0->members == leaf_size(lf) - 1));
		RL_ASSERT(l0->param == min);

		if (!l1->committed) {
			int o = l1->outcome;
			/*
			 * COUPLED_ABORT_MEMBERSHIP: the gate (leaf 0) or the
			 * root's change (leaf 1).  Never COUPLED_ENOENT: a
			 * member of the leaf is one of the root.
			 */
			RL_ASSERT(o == COUPLED_DOMAIN_CANNOT ||
				  o == COUPLED_DOMAIN_REFUSED ||
				  o == COUPLED_ABORT_CALLER ||
				  (changes() && o == COUPLED_ABORT_MEMBERSHIP));
			RL_ASSERT((o == COUPLED_DOMAIN_REFUSED) ==
				  (rec->req[1] < 0));
			if (o == COUPLED_ABORT_CALLER)
				RL_ASSERT(rec->root_fired);
			g_cov[o == COUPLED_DOMAIN_CANNOT    ? COV_ROOT_CANNOT
			      : o == COUPLED_DOMAIN_REFUSED ? COV_ROOT_REFUSED
			      : o == COUPLED_ABORT_CALLER   ? COV_ROOT_CALLER
							    : COV_ROOT_GATE]++;
			return;
		}
		/* The root: every core, once, with its reduction. */
		RL_ASSERT(l1->outcome == COUPLED_COMMITTED);
		RL_ASSERT(rec->req[1] >= 0);
		g_cov[COV_ROOT_COMMIT]++;
		min = INT32_MAX;
		count = 0;
		for (unsigned u = 0; u < N; u++)
			count += round_calls(rec, 1, u, &min);
		RL_ASSERT(count == l1->members);
		RL_ASSERT(l1->members == N ||
			  (changes() && l1->members == N - 1));
		RL_ASSERT(l1->param == min);
	}
};

template <unsigned A, unsigned B, unsigned C>
void action_dispatch(const struct coupled_domain_round *r, void *ctx)
{
	action_ctx<A, B, C> *a = static_cast<action_ctx<A, B, C> *>(ctx);
	a->t->on_action(a->thread, r);
}

/* Set by main(): the tree running now. */
void (*g_action)(const struct coupled_domain_round *, void *);

void action_fn(const struct coupled_domain_round *r, void *ctx)
{
	g_action(r, ctx);
}

} /* namespace */

void relacy_domain_hook(const void *group, uint32_t self, int point)
{
	if (g_hook)
		g_hook(g_hook_test, group, self, point);
}

namespace
{

template <unsigned A, unsigned B, unsigned C>
bool run_one(const run_config &cfg)
{
	rl::test_params p;
	std::ostringstream sink;
	p.output_stream = &std::cout;
	p.progress_stream = &sink;
	p.execution_depth_limit = 20000;
	if (g_scenario == SC_ABORTS || C) {
		/* Drawn aborts at two levels: even bound 1 did not end in
		 * 200 s; the random scheduler explores them, and the
		 * membership scenarios (a changer thread more). */
		p.search_type = rl::sched_random;
		p.iteration_count = cfg.iterations;
	} else if (A + B == 2 && cfg.bound == 0) {
		p.search_type = rl::sched_full;
	} else if (A + B == 2) {
		p.search_type = rl::sched_bound;
		p.context_bound = cfg.bound;
		/* Settled, give_up: bound 2 did not end in 5 minutes. */
		if (COUPLED_PROTOCOL_SETTLED && g_scenario == SC_GIVE_UP &&
		    p.context_bound > 1)
			p.context_bound = 1;
	} else {
		p.search_type = rl::sched_random;
		p.iteration_count = cfg.iterations;
	}
	g_action = action_dispatch<A, B, C>;
	bool ok = rl::simulate<domain_test<A, B, C>>(p);
	g_hook = NULL;
	std::cout << "  search: "
		  << (p.search_type == rl::sched_full    ? "full"
		      : p.search_type == rl::sched_bound ? "context bound"
							 : "random");
	if (p.search_type == rl::sched_bound)
		std::cout << " " << p.context_bound;
	std::cout << ", iterations " << p.stop_iteration << "\n";
	return ok;
}

int run_scenario(int sc, unsigned tree, const run_config &cfg)
{
	const char *tname = tree == 2 ? "1+1" : "2+1";
	g_scenario = sc;
	for (unsigned c = 0; c < COV_COUNT; c++)
		g_cov[c] = 0;
	std::printf("== %s, tree %s, %s protocol: %s\n", scenario_names[sc],
		    tname, COUPLED_PROTOCOL_NAME, scenario_what[sc]);
	std::fflush(stdout);
	bool change = sc == SC_LEAVE_JOIN || sc == SC_JOIN_LEAVE;
	bool ok = tree == 2 ? (change ? run_one<1, 1, 1>(cfg)
				      : run_one<1, 1, 0>(cfg))
			    : (change ? run_one<2, 1, 1>(cfg)
				      : run_one<2, 1, 0>(cfg));
	std::cout.flush();
	if (!ok) {
		std::printf("FAIL: %s %s\n", scenario_names[sc], tname);
		return 1;
	}
	std::printf("  coverage:");
	for (unsigned c = 0; c < COV_COUNT; c++)
		if (g_cov[c])
			std::printf(" %s %lu;", coverage_names[c], g_cov[c]);
	std::printf("\n");
	/* The paths each scenario is there for must have been reached. */
	const unsigned *need = scenario_needs[sc];
	for (unsigned i = 0; i < NEEDS; i++) {
		if (need[i] != COV_COUNT && g_cov[need[i]] == 0) {
			std::printf("FAIL: %s %s never reached: %s\n",
				    scenario_names[sc], tname,
				    coverage_names[need[i]]);
			return 1;
		}
	}
	std::printf("PASS: %s %s\n", scenario_names[sc], tname);
	return 0;
}

const char *scenario_name(int sc)
{
	return scenario_names[sc];
}

} /* namespace */

int main(int argc, char **argv)
{
	const relacy_program prog = {
		SC_COUNT, scenario_name, { "1+1", "2+1" }, run_scenario
	};

	return relacy_scenario_main(prog, relacy_config(50000ul, 10000ul), argc,
				    argv);
}

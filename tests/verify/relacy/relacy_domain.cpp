/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_domain.cpp - the real include/coupled/domain.h (and
 * coupled_group_kick()) under the Relacy race detector: one two-level tree,
 * a root over two leaves, every core a Relacy thread; in the membership
 * scenarios one more thread changes the membership of a core of leaf 0;
 * the PSCI scenarios' three-level tree (a leaf per core) is below.
 * The scenarios: relacy_domain_scenarios.def.
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
 * scheduler on both trees (4 threads on 2+1); the PSCI scenarios have
 * trees of their own (see there), also with the random scheduler.
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
 *     tree's calls and gate, at the root).
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
 *   - the tree's gate orders every call of every core against the
 *     change, both ways, by Relacy's data-race detection on plain variables
 *     (rl::var): each call writes its core's mark and reads the changer's
 *     mark (in its should_abort and its action); the changer, holding the
 *     gate with no call of the tree in progress (hook point
 *     COUPLED_HOOK_DOMAIN_CHANGE), reads every core's mark and writes its
 *     own.  A call that runs while the change runs (a missed Dekker pair, no
 *     drain, no entry check), a call whose end does not publish it
 *     (coupled__domain_call_end()'s release) or a gate opened without
 *     publishing the change is a data race;
 *   - liveness: waiting cores are woken by the change (token waits), and in
 *     join_leave a core of leaf 1 is held before its root try, as a
 *     candidate of the root, until the changer waits for the tree's calls
 *     (hook point COUPLED_HOOK_DOMAIN_DRAIN; the held call is one of
 *     them): the cores waiting at the root must give it up for the gate,
 *     and so must the held core once it goes on, else the change waits for
 *     them and they for each other (a livelock).
 *
 * The PSCI scenarios (psci_leave_join, psci_join_leave): the tree that
 * PSCI firmware has, every core its own one-core leaf, under its cluster,
 * under the system: cluster A of cores 0 and 1, cluster B of core 2.
 * Trees: 1+1, core 2 offline (out of every level, no thread: 3 threads,
 * cores 0 and 1 and the changer); 2+1, core 2 online (4 threads).  The
 * changer changes core 1 (leave then join, or join then leave with core 1
 * out first), whose cluster-mate core 0 is in another leaf; core 0 is held
 * once in its call, its cluster round committed, right before it arrives
 * at the system (direct: its abort sources already polled), until the
 * changer waits for the tree's calls or made its change (at most 64 turns
 * of Relacy's scheduler); the changer starts
 * once a core tried the system (or every core waits for it), and before
 * its second change it waits, drawn, until every core is done calling.
 * Checked in every execution:
 *   - no split: the cores of one committed round at any level learn the
 *     same outcome (committed or not, and the generation) for every level
 *     above it: one cluster round, one outcome for the system;
 *   - all or none at every level with the membership of the moment, each
 *     level's parameter the min of its cores' requests, the system's
 *     barrier ordering plain data;
 *   - the changer never proceeds while any domain call of the tree is in
 *     progress, the cluster-mate's included: the marks, as above, of every
 *     core against the changer at COUPLED_HOOK_DOMAIN_CHANGE;
 *   - a level given up above a committed one reports COUPLED_DOMAIN_CANNOT
 *     or COUPLED_ABORT_MEMBERSHIP, never COUPLED_ENOENT;
 *   - termination: every thread ends (two calls waiting for each other at
 *     two levels after a join are a Relacy livelock); the counters of
 *     every node and the root's gate are back to 0, and core 1 ends a
 *     member of every level (leave_join) or of none (join_leave).
 * psci_eperm, on the same trees, has no changer: each core, from inside
 * its calls (its action at every depth, its leaf's should_abort), tries to
 * take out another core, crosswise; every try must get COUPLED_EPERM (the
 * adapter names its contexts here: COUPLED_RELACY_CONTEXT), also where the
 * caller is inside no group on the target's path, and nothing may hang.
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
/* The adapter names its contexts: a change from inside a call gets
 * COUPLED_EPERM (psci_eperm), as on the pthread and bare-metal adapters. */
#ifndef COUPLED_RELACY_CONTEXT
#define COUPLED_RELACY_CONTEXT 1
#endif

/* The membership scenarios observe the changer and hold a core (hook.h). */
void relacy_domain_hook(const void *group, uint32_t self, int point);
#define COUPLED_HOOK(group, self, point) \
	relacy_domain_hook((const void *)(group), (self), (int)(point))

#include <coupled/domain.h>

namespace
{

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
	COV_EPERM,
	COV_EPERM_OFF_PATH,
	COV_COUNT
};

/* The scenarios: relacy_domain_scenarios.def, also read by CMakeLists.txt. */
enum scenario {
#define DOMAIN_SCENARIO(id, name, needs, what) id,
#include "relacy_domain_scenarios.def"
#undef DOMAIN_SCENARIO
	SC_COUNT
};

const char *const scenario_names[SC_COUNT] = {
#define DOMAIN_SCENARIO(id, name, needs, what) #name,
#include "relacy_domain_scenarios.def"
#undef DOMAIN_SCENARIO
};
const char *const scenario_what[SC_COUNT] = {
#define DOMAIN_SCENARIO(id, name, needs, what) what,
#include "relacy_domain_scenarios.def"
#undef DOMAIN_SCENARIO
};

/* The paths each scenario is there for, COV_COUNT after the last. */
enum { NEEDS = 4 };
#define DOMAIN_NEEDS(a, b, c, d) \
	{                        \
		a, b, c, d       \
	}
const unsigned scenario_needs[SC_COUNT][NEEDS] = {
#define DOMAIN_SCENARIO(id, name, needs, what) DOMAIN_NEEDS needs,
#include "relacy_domain_scenarios.def"
#undef DOMAIN_SCENARIO
};
#undef DOMAIN_NEEDS

const char *const coverage_names[COV_COUNT] = {
	"executions",
	"root commits",
	"root CANNOT outcomes",
	"root caller aborts",
	"root refusals",
	"leaf caller aborts",
	"calls given up for a change (COUPLED_ABORT_MEMBERSHIP)",
	"root outcomes COUPLED_ABORT_MEMBERSHIP (psci: the system's after a "
	"committed cluster round)",
	"calls of the core while out (COUPLED_ENOENT)",
	"changes refused from inside a call (COUPLED_EPERM)",
	"of those, the caller inside no group of the target's path",
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
	/* Membership scenarios, every core: the marks (else NULL). */
	rl::var<unsigned> *mine;   /* this core's, written by its calls */
	rl::var<unsigned> *change; /* the changer's, read by the calls */
	/* psci_eperm: the leaf of the core each poll tries to take out (its
	 * core 0), which must be refused; else NULL. */
	struct coupled_domain *eperm;
};

/* A call touches both marks: plain accesses Relacy checks. */
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
	if (a->eperm) {
		RL_ASSERT(coupled_domain_leave(a->eperm, 0) == COUPLED_EPERM);
		g_cov[COV_EPERM]++;
		/* Inside the leaf's round only (its should_abort). */
		g_cov[COV_EPERM_OFF_PATH]++;
	}
	if (a->at != NEVER && a->polls++ >= a->at) {
		a->fired = true;
		return true;
	}
	return false;
}

/* Every group of @n at @g waits with tokens (the core's wait). */
void wait_tokens(struct coupled_group *g, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		coupled_relacy_set_mode(coupled_group_adapter(&g[i]),
					COUPLED_RELACY_WAIT_TOKEN);
}

/*
 * The changer's hook at its change (COUPLED_HOOK_DOMAIN_CHANGE of the
 * changed core's leaf): it holds the tree's gate and no domain call of the
 * tree is in progress: every finished call's writes are visible
 * (coupled__domain_call_end()'s release), and no call may read what it
 * writes now.  It reads the @n cores' marks @core_mark and writes its own
 * @change_mark: a data race with any call still running (a cluster-mate's
 * of the changed core, say).
 */
void changer_marks(rl::var<unsigned> *core_mark, unsigned n,
		   rl::var<unsigned> *change_mark)
{
	for (unsigned t = 0; t < n; t++) {
		unsigned m = core_mark[t]($);
		(void)m;
	}
	(*change_mark)($) = (*change_mark)($) + 1u;
}

/*
 * Wait for the changer's next step after its phase @p (@phase moves on;
 * relaxed: a test schedule, it orders nothing), counted in @parked[p]
 * where the test counts (else @parked is NULL).
 */
void park(rl::atomic<unsigned> *phase, rl::atomic<unsigned> *parked, unsigned p)
{
	if (parked && p < 2u)
		parked[p].fetch_add(1u, rl::mo_relaxed, $);
	while (phase->load(rl::mo_relaxed, $) == p)
		rl::yield(1, $);
}

/*
 * A membership scenario's call that did not commit, of core @is_x (the
 * changed core, or not) in the changer's phase @p (2: the changer is done;
 * @phase and @parked as for park()): given up for the tree's gate (@ret
 * COUPLED_ABORT_MEMBERSHIP, on any leaf), or, the changed core only, made
 * while out (COUPLED_ENOENT), which after the changer is done only
 * @ends_out allows (the scenario leaves it out).  Before the changer is
 * done, the core then waits for its next step.
 * Return: true if the core is done, false if it calls again.
 */
bool gave_up(int ret, bool is_x, unsigned p, bool ends_out,
	     rl::atomic<unsigned> *phase, rl::atomic<unsigned> *parked)
{
	if (ret == COUPLED_ABORT_MEMBERSHIP) {
		g_cov[COV_GATE_ABORT]++;
		if (p == 2u) {
			/*
			 * Our phase load orders nothing: the gate may still
			 * look closed.  Its opening is visible after a yield.
			 */
			rl::yield(1, $);
			return false;
		}
	} else {
		/* Only X, only while out. */
		RL_ASSERT(ret == COUPLED_ENOENT);
		RL_ASSERT(is_x);
		g_cov[COV_OUT]++;
		if (p == 2u) {
			RL_ASSERT(ends_out);
			return true;
		}
	}
	park(phase, parked, p);
	return false;
}

/* The hook of the test @T running now (g_hook_test). */
template <typename T>
void hook_dispatch(void *test, const void *group, uint32_t self, int point)
{
	static_cast<T *>(test)->on_hook(group, self, point);
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
	 * Membership scenarios: the changer's mark, and each core's
	 * (plain: the gate must order them); the changer's progress (0, 1
	 * after its first change, 2 when done; relaxed everywhere, so that it
	 * orders nothing the gate should).
	 */
	rl::var<unsigned> change_mark;
	rl::var<unsigned> core_mark[N];
	rl::atomic<unsigned> phase;
	/* Set when the changer first waits for the tree's calls (the hook
	 * COUPLED_HOOK_DOMAIN_DRAIN; relaxed, as phase). */
	rl::atomic<unsigned> draining;

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
		wait_tokens(&groot, 1);
		wait_tokens(gleaf, 2);
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
		draining.store(0u, rl::mo_relaxed, $);
		g_hook_test = this;
		g_hook = hook_dispatch<domain_test>;
	}

	/* The hook points of the membership scenarios. */
	void on_hook(const void *group, uint32_t self, int point)
	{
		if (!changes())
			return;
		if (point == COUPLED_HOOK_DOMAIN_DRAIN) {
			/* relaxed: a test schedule, it orders nothing. */
			draining.store(1u, rl::mo_relaxed, $);
			return;
		}
		if (point == COUPLED_HOOK_DOMAIN_CHANGE && group == &gleaf[0]) {
			changer_marks(core_mark, N, &change_mark);
			return;
		}
		if (point == COUPLED_HOOK_DOMAIN_TRY && group == &groot &&
		    self == HELD && sc == SC_JOIN_LEAVE) {
			/*
			 * Until the changer waits for the tree's calls (ours
			 * among them), or is done (relaxed: a test schedule,
			 * it orders nothing).
			 */
			while (phase.load(rl::mo_relaxed, $) != 2u &&
			       !draining.load(rl::mo_relaxed, $))
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
	 * touch the membership scenarios' marks (every core there).
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
			aborts[t][k].eperm = NULL;
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
			call_rec *rec = &calls[t][new_call(t, true, req, opts)];

			rec->stop = false;
			enter(t, rec, req, opts);
			rec->root_fired = false;
			if (rec->ret == COUPLED_COMMITTED) {
				commits++;
				if (rec->stop)
					return;
				continue;
			}
			if (gave_up(rec->ret, t == X, p, sc == SC_JOIN_LEAVE,
				    &phase, NULL))
				return;
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
		if (changes())
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
		/* The tree's gate, at the root. */
		RL_ASSERT(coupled_load(&root.calls, COUPLED_RELAXED) == 0u);
		RL_ASSERT(coupled_load(&root.changing, COUPLED_RELAXED) == 0u);
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
			 * COUPLED_ABORT_MEMBERSHIP: the tree's gate.  Never
			 * COUPLED_ENOENT: a member of the leaf is one of the
			 * root.
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

/*
 * The PSCI shape: every core its own one-core leaf, under its cluster,
 * under the system.  Cluster A holds cores 0 and 1; cluster B holds core 2,
 * online (a thread that calls, B = 1) or offline (out of every level and no
 * thread, B = 0).  One changer thread changes core 1 (X), whose cluster-mate
 * core 0 shares no leaf with it: a cluster round holds cores of two leaves.
 */
enum { PSCI_LEVELS = 3, PSCI_CORES = 3, PSCI_MAXCALLS = 12 };

struct psci_rec {
	int ret;
	unsigned ran;
	int32_t req[PSCI_LEVELS];
	struct coupled_domain_round r;
};

template <unsigned B> struct psci_test;

template <unsigned B> struct psci_ctx {
	psci_test<B> *t;
	unsigned core;
};

template <unsigned B>
struct psci_test final : rl::test_suite<psci_test<B>, 2 + B + 1> {
	static const unsigned N = 2 + B; /* the cores with a thread */
	static const unsigned X = 1;     /* the changed core */
	static const unsigned MATE = 0;  /* X's cluster-mate, held */
	static const unsigned HOLD_TURNS = 64;

	struct coupled_group gsys, gcl[2], gleaf[PSCI_CORES];
	struct coupled_slot ssys[PSCI_CORES], scl0[2], scl1[1];
	struct coupled_slot sleaf[PSCI_CORES][1];
	struct coupled_domain sys, cl[2], leaf[PSCI_CORES];

	/* Plain data of the system's action, ordered by its barrier. */
	rl::var<uint32_t> data[PSCI_CORES];
	/* The marks, as in domain_test: every core's and the changer's. */
	rl::var<unsigned> change_mark;
	rl::var<unsigned> core_mark[PSCI_CORES];
	/*
	 * The schedule, relaxed everywhere (it must order nothing the gate
	 * should): the changer's progress (0, 1 after its first change, 2
	 * when done); armed: a core reached the system's try; parked[p]:
	 * the cores done with phase p (ROUNDS commits, or stopped by the
	 * gate or while out), waiting for the changer's next step; draining:
	 * the changer waits for the tree's calls; held: MATE was held once.
	 */
	rl::atomic<unsigned> phase, armed, parked[2], draining;
	bool held;

	psci_rec calls[PSCI_CORES][PSCI_MAXCALLS];
	unsigned ncalls[PSCI_CORES];
	abort_ctx aborts[PSCI_CORES][PSCI_LEVELS];
	int sc;

	bool eperm() const
	{
		return sc == SC_PSCI_EPERM;
	}

	/*
	 * psci_eperm: the core that core @c tries to take out from inside
	 * its calls, crosswise: 0 and 1 each other's (tree 1+1), else
	 * 0 -> 2 -> 1 -> 0, across the clusters.
	 */
	static unsigned target(unsigned c)
	{
		if (!B)
			return c ^ 1u;
		return c == 0 ? 2u : c == 1 ? 0u : 1u;
	}

	void before()
	{
		/* join_leave: X starts out of every level. */
		unsigned xin = g_scenario != SC_PSCI_JOIN_LEAVE;

		sc = g_scenario;
		g_hook = NULL;
		/* The system's ids: 0, 1 (cluster A), 2 (cluster B). */
		RL_ASSERT(coupled_group_init(&gsys, ssys, PSCI_CORES,
					     PSCI_CORES, NULL) == 0);
		RL_ASSERT(coupled_group_init(&gcl[0], scl0, 2, 1 + xin, NULL) ==
			  0);
		RL_ASSERT(coupled_group_init(&gcl[1], scl1, 1, B, NULL) == 0);
		for (unsigned c = 0; c < PSCI_CORES; c++)
			RL_ASSERT(coupled_group_init(&gleaf[c], sleaf[c], 1,
						     c == 2   ? B
						     : c == X ? xin
							      : 1u,
						     NULL) == 0);
		if (!B)
			RL_ASSERT(coupled_leave(&gsys, 2) == 0);
		if (!xin)
			RL_ASSERT(coupled_leave(&gsys, X) == 0);
		wait_tokens(&gsys, 1);
		wait_tokens(gcl, 2);
		wait_tokens(gleaf, PSCI_CORES);
		RL_ASSERT(coupled_domain_init(&sys, &gsys, NULL) == 0);
		RL_ASSERT(coupled_domain_init(&cl[0], &gcl[0], &sys) == 0);
		RL_ASSERT(coupled_domain_init(&cl[1], &gcl[1], &sys) == 0);
		for (unsigned c = 0; c < PSCI_CORES; c++)
			RL_ASSERT(coupled_domain_init(&leaf[c], &gleaf[c],
						      &cl[c < 2 ? 0 : 1]) == 0);
		for (unsigned c = 0; c < PSCI_CORES; c++) {
			data[c]($) = 0u;
			core_mark[c]($) = 0u;
			ncalls[c] = 0;
		}
		change_mark($) = 0u;
		phase.store(0u, rl::mo_relaxed, $);
		armed.store(0u, rl::mo_relaxed, $);
		parked[0].store(0u, rl::mo_relaxed, $);
		parked[1].store(0u, rl::mo_relaxed, $);
		draining.store(0u, rl::mo_relaxed, $);
		held = false;
		g_hook_test = this;
		g_hook = hook_dispatch<psci_test>;
	}

	void on_hook(const void *group, uint32_t self, int point)
	{
		if (eperm())
			return;
		if (point == COUPLED_HOOK_DOMAIN_DRAIN) {
			draining.store(1u, rl::mo_relaxed, $);
			return;
		}
		if (point == COUPLED_HOOK_DOMAIN_CHANGE && group == &gleaf[X]) {
			changer_marks(core_mark, N, &change_mark);
			return;
		}
		if (group != &gsys)
			return;
		if (point == COUPLED_HOOK_DOMAIN_TRY)
			armed.store(1u, rl::mo_relaxed, $);
		if (point == COUPLED_HOOK_ARRIVE && self == MATE && !held &&
		    phase.load(rl::mo_relaxed, $) == 0u) {
			/*
			 * MATE, its cluster round committed (with X, or alone
			 * while X is out), about to arrive at the system
			 * (direct: its abort sources polled): held there
			 * until the changer waits for the tree's calls (ours
			 * among them) or made its first change, for at most
			 * HOLD_TURNS turns: a wrong change that waits for
			 * this very round (a group's own change does) must
			 * fail on what it breaks, not on the hold.
			 */
			held = true;
			armed.store(1u, rl::mo_relaxed, $);
			for (unsigned i = 0;
			     i < HOLD_TURNS &&
			     phase.load(rl::mo_relaxed, $) == 0u &&
			     !draining.load(rl::mo_relaxed, $);
			     i++)
				rl::yield(1, $);
		}
	}

	void changer()
	{
		bool leave_first = sc == SC_PSCI_LEAVE_JOIN;

		if (eperm())
			return; /* the cores change each other, refused */
		/* Start inside a round, or once every core waits for us. */
		while (!armed.load(rl::mo_relaxed, $) &&
		       parked[0].load(rl::mo_relaxed, $) != N)
			rl::yield(1, $);
		RL_ASSERT((leave_first
				   ? coupled_domain_leave(&leaf[X], 0)
				   : coupled_domain_join(&leaf[X], 0)) == 0);
		phase.store(1u, rl::mo_relaxed, $);
		/*
		 * Drawn: the second change at once, into the cores' calls,
		 * or once every core is done with phase 1, so that a hang
		 * the first change left (two calls waiting for each other
		 * at two levels after a join) is not ended by the second.
		 */
		if (rl::rand(2))
			while (parked[1].load(rl::mo_relaxed, $) != N)
				rl::yield(1, $);
		RL_ASSERT((leave_first
				   ? coupled_domain_join(&leaf[X], 0)
				   : coupled_domain_leave(&leaf[X], 0)) == 0);
		phase.store(2u, rl::mo_relaxed, $);
	}

	/*
	 * Core @c: calls until it committed ROUNDS times in each of the
	 * changer's phases 0 and 1, then once more when the changer is done.
	 * After a call given up for the gate, or made while out, it waits
	 * for the changer's next step.
	 */
	void core(unsigned c)
	{
		unsigned commits[2] = { 0, 0 };

		for (;;) {
			unsigned p = phase.load(rl::mo_relaxed, $);
			if (p != 2u && commits[p] >= ROUNDS) {
				park(&phase, parked, p);
				continue;
			}
			RL_ASSERT(ncalls[c] < PSCI_MAXCALLS);
			psci_rec *rec = &calls[c][ncalls[c]++];
			struct coupled_abort_opts opts[PSCI_LEVELS];
			psci_ctx<B> ctx = { this, c };

			for (unsigned k = 0; k < PSCI_LEVELS; k++) {
				rec->req[k] = request_of(c, ncalls[c], k);
				aborts[c][k].polls = 0;
				aborts[c][k].at = NEVER;
				aborts[c][k].fired = false;
				aborts[c][k].mine = &core_mark[c];
				aborts[c][k].change = &change_mark;
				aborts[c][k].eperm = k == 0 && eperm()
							     ? &leaf[target(c)]
							     : NULL;
				opts[k].deadline = 0;
				opts[k].should_abort = should_abort_fn;
				opts[k].abort_arg = &aborts[c][k];
			}
			rec->ran = 0;
			rec->ret = coupled_domain_enter_opts(
				&leaf[c], 0, rec->req, action_fn, &ctx, opts);
			RL_ASSERT((rec->ret == COUPLED_COMMITTED) ==
				  (rec->ran == 1));
			if (eperm()) {
				/* Nothing stops a one-core leaf's round. */
				RL_ASSERT(rec->ret == COUPLED_COMMITTED);
				if (++commits[0] == ROUNDS)
					return;
				continue;
			}
			if (rec->ret == COUPLED_COMMITTED) {
				if (p == 2u)
					return;
				commits[p]++;
				continue;
			}
			if (gave_up(rec->ret, c == X, p,
				    sc == SC_PSCI_JOIN_LEAVE, &phase, parked))
				return;
		}
	}

	void thread(unsigned t)
	{
		if (t == N)
			changer();
		else
			core(t);
	}

	void on_action(unsigned c, const struct coupled_domain_round *r)
	{
		psci_rec *rec = &calls[c][ncalls[c] - 1];

		rec->ran++;
		rec->r = *r;
		RL_ASSERT(r->levels == PSCI_LEVELS);
		RL_ASSERT(r->core == 0);
		RL_ASSERT(r->depth >= 1 && r->depth <= PSCI_LEVELS);
		for (unsigned k = 0; k < PSCI_LEVELS; k++)
			RL_ASSERT(r->level[k].committed == (k < r->depth));
		touch_marks(&core_mark[c], &change_mark);
		if (eperm()) {
			/*
			 * Inside the rounds of levels 0..depth-1: refused
			 * even where none of them is on the target's path
			 * (a leaf round alone, or with its cluster's round
			 * and the target in the other cluster).
			 */
			unsigned u = target(c);
			RL_ASSERT(coupled_domain_leave(&leaf[u], 0) ==
				  COUPLED_EPERM);
			RL_ASSERT(coupled_domain_join(&leaf[u], 0) ==
				  COUPLED_EPERM);
			g_cov[COV_EPERM] += 2;
			if (r->depth == 1 ||
			    (r->depth == 2 && !shares(c, u, 1)))
				g_cov[COV_EPERM_OFF_PATH] += 2;
		}
		if (r->depth == PSCI_LEVELS) {
			/* Inside the system's round: its barrier orders data. */
			const struct coupled_domain_level *s = &r->level[2];
			unsigned same = 0;
			data[c]($) = s->generation;
			RL_ASSERT(coupled_barrier(s->round) == 0);
			for (unsigned j = 0; j < N; j++)
				same += data[j]($) == s->generation;
			RL_ASSERT(same == s->members);
			RL_ASSERT(coupled_barrier(s->round) == 0);
		}
	}

	/* Do cores @a and @b share level @k's node? */
	static bool shares(unsigned a, unsigned b, unsigned k)
	{
		return k == 2 || (k == 1 && (a < 2) == (b < 2)) || a == b;
	}

	void after()
	{
		struct coupled_domain *node[] = {
			&sys, &cl[0], &cl[1], &leaf[0], &leaf[1], &leaf[2]
		};
		bool in = sc != SC_PSCI_JOIN_LEAVE;

		g_cov[COV_EXECS]++;
		/* The tree's gate, at the root, and every node's counts. */
		RL_ASSERT(coupled_load(&sys.calls, COUPLED_RELAXED) == 0u);
		RL_ASSERT(coupled_load(&sys.changing, COUPLED_RELAXED) == 0u);
		for (unsigned i = 0; i < sizeof(node) / sizeof(node[0]); i++) {
			RL_ASSERT(coupled_load(&node[i]->candidates,
					       COUPLED_RELAXED) == 0u);
			RL_ASSERT(coupled_load(&node[i]->waiting,
					       COUPLED_RELAXED) == 0u);
		}
		/* X ends in (leave_join, eperm) or out (join_leave),
		 * everywhere. */
		RL_ASSERT(coupled_is_member(&gleaf[X], 0) == in);
		RL_ASSERT(coupled_is_member(&gcl[0], X) == in);
		RL_ASSERT(coupled_is_member(&gsys, X) == in);
		for (unsigned c = 0; c < N; c++)
			for (unsigned d = 0; d < ncalls[c]; d++)
				check_call(c, d);
	}

	/*
	 * One committed call against every other call of the execution: at
	 * each level it committed, the round ran on exactly its member count
	 * of cores, once each, with one parameter (the min of their
	 * requests); and the cores of one committed round learn the same
	 * outcome for every level above it (no split: one cluster round, one
	 * outcome for the system).
	 */
	void check_call(unsigned c, unsigned d)
	{
		const psci_rec *rec = &calls[c][d];
		if (rec->ret != COUPLED_COMMITTED)
			return;
		const struct coupled_domain_round *r = &rec->r;

		for (unsigned k = 0; k < r->depth; k++) {
			const struct coupled_domain_level *lv = &r->level[k];
			unsigned count = 0;
			int32_t min = INT32_MAX;

			for (unsigned u = 0; u < N; u++) {
				unsigned here = 0;
				if (!shares(c, u, k))
					continue;
				for (unsigned e = 0; e < ncalls[u]; e++) {
					const psci_rec *o = &calls[u][e];
					const struct coupled_domain_level *ol =
						&o->r.level[k];
					if (o->ret != COUPLED_COMMITTED ||
					    !ol->committed ||
					    ol->generation != lv->generation)
						continue;
					here++;
					if (o->req[k] < min)
						min = o->req[k];
					RL_ASSERT(ol->param == lv->param);
					RL_ASSERT(ol->members == lv->members);
					for (unsigned j = k + 1;
					     j < PSCI_LEVELS; j++) {
						/* No split. */
						RL_ASSERT(
							o->r.level[j].committed ==
							r->level[j].committed);
						if (r->level[j].committed)
							RL_ASSERT(
								o->r.level[j]
									.generation ==
								r->level[j]
									.generation);
					}
				}
				RL_ASSERT(here <= 1);
				count += here;
			}
			RL_ASSERT(count == lv->members);
			RL_ASSERT(lv->param == min);
		}
		if (r->depth == PSCI_LEVELS) {
			g_cov[COV_ROOT_COMMIT]++;
			return;
		}
		/* The level given up: the tree's gate, a round-mate's give-up
		 * or a non-candidate member; never COUPLED_ENOENT. */
		int o = r->level[r->depth].outcome;
		RL_ASSERT(o == COUPLED_DOMAIN_CANNOT ||
			  o == COUPLED_ABORT_MEMBERSHIP);
		if (r->depth == 2)
			g_cov[o == COUPLED_DOMAIN_CANNOT ? COV_ROOT_CANNOT
							 : COV_ROOT_GATE]++;
	}
};

template <unsigned B>
void psci_action_dispatch(const struct coupled_domain_round *r, void *ctx)
{
	psci_ctx<B> *a = static_cast<psci_ctx<B> *>(ctx);
	a->t->on_action(a->core, r);
}

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

/* The PSCI shape with cluster B's core online (@B 1) or offline. */
template <unsigned B> bool run_psci(const run_config &cfg)
{
	rl::test_params p;
	std::ostringstream sink;
	p.output_stream = &std::cout;
	p.progress_stream = &sink;
	p.execution_depth_limit = 20000;
	p.search_type = rl::sched_random;
	p.iteration_count = cfg.iterations;
	g_action = psci_action_dispatch<B>;
	bool ok = rl::simulate<psci_test<B>>(p);
	g_hook = NULL;
	std::cout << "  search: random, iterations " << p.stop_iteration
		  << "\n";
	return ok;
}

int run_scenario(int sc, unsigned tree, const run_config &cfg)
{
	const char *tname = tree == 2 ? "1+1" : "2+1";
	bool psci = sc == SC_PSCI_LEAVE_JOIN || sc == SC_PSCI_JOIN_LEAVE ||
		    sc == SC_PSCI_EPERM;
	g_scenario = sc;
	for (unsigned c = 0; c < COV_COUNT; c++)
		g_cov[c] = 0;
	std::printf("== %s, tree %s, %s protocol: %s\n", scenario_names[sc],
		    tname, COUPLED_PROTOCOL_NAME, scenario_what[sc]);
	std::fflush(stdout);
	bool change = sc == SC_LEAVE_JOIN || sc == SC_JOIN_LEAVE;
	bool ok = psci ? (tree == 2 ? run_psci<0>(cfg) : run_psci<1>(cfg))
		  : tree == 2 ? (change ? run_one<1, 1, 1>(cfg)
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

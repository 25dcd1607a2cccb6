/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_coupled.cpp - the real include/coupled/coupled.h under the Relacy
 * race detector (C++ relaxed memory model, exhaustive or random schedules).
 *
 * Build (one line, no CMake; <include> is the project's include directory,
 * or a mutated copy of it), once per protocol variant (coupled/protocol.h):
 *
 *   c++ -std=c++17 -O1 -DCOUPLED_PROTOCOL_SETTLED=1 -I<include> -Itests/verify/relacy tests/verify/relacy/relacy_coupled.cpp -o relacy_coupled_settled
 *   c++ -std=c++17 -O1 -DCOUPLED_PROTOCOL_DIRECT=1 -I<include> -Itests/verify/relacy tests/verify/relacy/relacy_coupled.cpp -o relacy_coupled_direct
 *
 * (With neither definition the Relacy adapter, whose wake-ups cannot be
 * lost, gets the direct protocol.)  A scenario specific to the other
 * variant is reported skipped with its reason, exit code 77.
 *
 * Needs Relacy's headers (Debian: relacy-dev) on the include path.
 *
 * Usage:
 *   relacy_coupled list                    the scenario names
 *   relacy_coupled <scenario> 2p           2 participants, context bound 2
 *   relacy_coupled <scenario> 3p [iters]   3 participants, random scheduler
 *   relacy_coupled all                     every scenario, 2p and 3p
 *                                          (those of the other variant
 *                                          are listed as skipped)
 * Search:
 *   2 participants are explored systematically with Relacy's context-bound
 *   scheduler, bound 2 (every schedule with at most 2 preemptions, and for
 *   each load the newest two values of its atomic).  The full search does
 *   not finish: the commit scenario ran for more than 2 minutes without
 *   ending, and bound 3 takes more than 100 s per scenario; bound 2 takes
 *   2-30 s.  Scenarios with a changer thread (3 threads) use the random
 *   scheduler even with 2 participants: even bound 1 did not finish in
 *   200 s.  So does remove_inside, whose failure needs a load to read the
 *   third newest value, which only the random scheduler offers.
 *   3 participants use the random scheduler, 100000 iterations by default.
 * Environment:
 *   COUPLED_RELACY_ITERS=N   random iterations (default 100000)
 *   COUPLED_RELACY_BOUND=K   context bound for 2 participants (default 2;
 *                            0 asks for the full search)
 *   COUPLED_RELACY_QUICK=1   quick mode for mutation testing: bound 1 and
 *                            20000 random iterations (the two variables
 *                            above still override it)
 * Build option: -DCOUPLED_RELACY_ONLY_N=N -DCOUPLED_RELACY_ONLY_EXTRA=E
 *   builds the runs of N participants and E changer threads only (N=0: the
 *   publish test only), about half the build time: the mutation suite
 *   builds its recorded killer run's shape first.  Every other run exits 77,
 *   as a skip (not in this build).
 * Exit code: 0 when every property held in every explored execution, 1 when
 * Relacy found a violation (its history is printed), 2 on a usage error, 77
 * when the scenario does not exist in this build's protocol variant.
 *
 * Properties checked in every execution (RL_ASSERT, plus Relacy's own data
 * race, livelock and uninitialized-access detection):
 *   - every member of a committed round runs the action exactly once, with
 *     param == min of the members' requests of that call, and the same
 *     member count and generation;
 *   - all or none: a generation run by anyone was run by exactly round.members
 *     participants (all of them when membership is fixed);
 *   - return codes: the action ran iff the call returned COUPLED_COMMITTED;
 *     only the injected abort reasons occur, caller aborts only from phase 2;
 *   - the packed word is 0, prevent 0 and the member count right at the end
 *     (direct: no arrival and no stop left, whatever the generation);
 *   - direct: the word is frozen from the completing arrival to the
 *     completer's store (checked at the completer's COMPLETE hook): no
 *     withdrawal and no stop got in;
 *   - direct: a membership change still holds stop once the count drained
 *     (checked at the changer's MEMBERSHIP hook): no completer's store
 *     wiped it;
 *   - plain data (rl::var) written in an action before coupled_barrier() is
 *     read by the others after it; data of one round's action is read by the
 *     next round's action and, settled only, by a membership change and by
 *     every member once its call returned (so the exit and the membership
 *     protocol must order them, or Relacy reports a race).  The direct
 *     protocol does not wait for anybody on the way out: there the leaver's
 *     data is read by the changer once coupled_leave() returned (as in
 *     both), and the next round's action reads the previous round's data;
 *   - coupled_vote() returns the OR of the votes to every member, also when a
 *     vote slot is reused;
 *   - no lost wake-up: in token wait mode a lost wake-up is a livelock.
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

struct coupled_group;
static void relacy_hook(struct coupled_group *g, uint32_t self, int point);
#define COUPLED_HOOK(group, self, point) \
	relacy_hook((group), (self), (int)(point))

#include <coupled/coupled.h>
/* The settled word's helpers (private to settled.h), for the invariant
 * checked in both builds. */
#include <coupled/word.h>

namespace
{

/* --- scenarios ------------------------------------------------------------ */

/* The scenarios: relacy_scenarios.def, also read by CMakeLists.txt. */
enum scenario {
#define SCENARIO(id, name, extra, rounds, variants, what) id,
#include "relacy_scenarios.def"
#undef SCENARIO
	SC_COUNT
};

/* The protocol variants a scenario exists in (coupled/protocol.h). */
enum variants { SETTLED = 1, DIRECT = 2, BOTH = 3 };
const unsigned this_variant = COUPLED_PROTOCOL_SETTLED ? SETTLED : DIRECT;

struct scenario_info {
	const char *name;
	unsigned extra_threads; /* a changer thread */
	unsigned rounds;        /* commits each participant needs */
	unsigned variants;      /* enum variants */
	const char *what;
};

const scenario_info scenarios[SC_COUNT] = {
#define SCENARIO(id, name, extra, rounds, variants, what) \
	{ #name, extra, rounds, variants, what },
#include "relacy_scenarios.def"
#undef SCENARIO
};

/* Coverage of the interesting paths over a whole simulation. */
enum coverage {
	COV_EXECS,
	COV_ABORT_WORK_P1,
	COV_ABORT_WORK_P2,
	COV_ABORT_CALLER,
	COV_RETRY,
	COV_RESTART,
	COV_ABORT_MEMBERSHIP,
	COV_ENOENT,
	COV_SMALL_ROUND,
	COV_WRAP_LANDING,
	COV_WITHDRAWN,
	COV_WITHDRAW_REFUSED,
	COV_COMPLETE_IN_CHANGE,
	COV_READ_AFTER_REMOVAL,
	COV_COUNT
};
const char *const coverage_names[COV_COUNT] = {
	"executions",
	"phase-1 work aborts",
	"phase-2 work aborts",
	"caller aborts",
	"retries",
	"restarts",
	"membership aborts",
	"ENOENT returns",
	"rounds without the leaver",
	"rounds of generation 0 with the joiner",
	"withdrawals that took the arrival back",
	"withdrawals refused by a complete count (committed)",
	"rounds completed while a change was under way",
	"arrivals that read the membership after their removal",
};

/* Set by main() before a simulation; constant while it runs. */
int g_scenario;
unsigned g_wait_mode;
unsigned long g_cov[COV_COUNT];

enum { MAXP = 3, MAXCALLS = 12, MAXACT = 4 };

/* Each call asks for something different, so a stale request shows. */
int32_t request_of(uint32_t self, unsigned call)
{
	return (int32_t)((self * 5u + call * 3u + 1u) % 7u + 1u);
}

struct harness_base {
	virtual void hook(uint32_t self, int point) = 0;
	virtual bool should_abort(uint32_t self) = 0;
	virtual void on_action(const struct coupled_round *r) = 0;

      protected:
	~harness_base()
	{
	}
};

harness_base *g_current;

void action_fn(const struct coupled_round *r, void *ctx)
{
	static_cast<harness_base *>(ctx)->on_action(r);
}

bool should_abort_fn(void *arg, uint32_t self)
{
	return static_cast<harness_base *>(arg)->should_abort(self);
}

struct call_rec {
	int ret;
	int32_t request;
	unsigned ran;
	unsigned decided;
	unsigned withdraws; /* direct: WITHDRAW hook points of the call */
	uint32_t gen;
	int32_t param;
	uint32_t members;
	int last_point;
};

template <unsigned N, unsigned EXTRA>
struct coupled_test final : rl::test_suite<coupled_test<N, EXTRA>, N + EXTRA>,
			    harness_base {
	struct coupled_group g;
	/* next_changer: one more id, a member without a thread (the ghost) */
	struct coupled_slot slots[N + 1];

	/* Test-side scheduling flags (atomics: they carry no data). */
	rl::atomic<uint32_t> arrived[N];
	rl::atomic<uint32_t> paused[N];
	rl::atomic<uint32_t> second_ready;
	rl::atomic<uint32_t> changer_done;
	rl::atomic<uint32_t>
		zero_settled; /* participant 0: small round or done */
	/*
	 * stop_vs_complete: 1 once the removal started, 2 once it drained;
	 * next_changer: 1 from the start, 2 once the join drained.
	 */
	rl::atomic<uint32_t> change_phase;
	/* remove_inside: 1 once the removal waits for participant 0's call */
	rl::atomic<uint32_t> removal_waits;
	bool read_after_removal;
	bool complete_in_change;

	/* Plain data, checked for races by Relacy. */
	rl::var<unsigned> nact[N];
	rl::var<uint32_t> act_gen[N][MAXACT];
	rl::var<int32_t> act_param[N][MAXACT];
	rl::var<uint32_t> data[N];
	rl::var<int> scratch[N];
	rl::var<int> exit_scratch[N];
	/* direct: written at a withdrawal under stop, read by the change */
	rl::var<int> withdraw_scratch[N];
	/* Written in the ready loop only, i.e. before the owner's ack. */
	rl::var<int> ready_scratch[N];

	/* Owner-only bookkeeping (each participant its own row). */
	call_rec calls[N][MAXCALLS];
	unsigned ncalls[N];
	int last_point[N];
	unsigned budget[N];
	bool raised[N];
	bool paused_once[N];
	unsigned retries[N];
	unsigned membership_aborts[N];
	unsigned enoents[N];

	int sc;

	void before()
	{
		sc = g_scenario;
		g_current = this;
		uint32_t capacity = sc == SC_NEXT_CHANGER ? N + 1 : N;
		uint32_t initial = sc == SC_WRAP_JOIN ? N - 1 : capacity;
		RL_ASSERT(coupled_group_init(&g, slots, capacity, initial,
					     NULL) == 0);
		/* The last decided round is UINT32_MAX; the next one wraps. */
		if (sc == SC_WRAP_JOIN)
			RL_ASSERT(coupled_group_set_generation(
					  &g, UINT32_MAX) == 0);
		coupled_relacy_set_mode(coupled_group_adapter(&g), g_wait_mode);
		second_ready.store(0u, rl::mo_relaxed, $);
		changer_done.store(0u, rl::mo_relaxed, $);
		zero_settled.store(0u, rl::mo_relaxed, $);
		change_phase.store(0u, rl::mo_relaxed, $);
		removal_waits.store(0u, rl::mo_relaxed, $);
		read_after_removal = false;
		complete_in_change = false;
		for (unsigned i = 0; i < N; i++) {
			arrived[i].store(0u, rl::mo_relaxed, $);
			paused[i].store(0u, rl::mo_relaxed, $);
			nact[i]($) = 0u;
			data[i]($) = 0u;
			scratch[i]($) = 0;
			exit_scratch[i]($) = 0;
			withdraw_scratch[i]($) = 0;
			ready_scratch[i]($) = 0;
			for (unsigned k = 0; k < MAXACT; k++) {
				act_gen[i][k]($) = 0u;
				act_param[i][k]($) = 0;
			}
			ncalls[i] = 0;
			last_point[i] = -1;
			budget[i] = 0;
			raised[i] = false;
			paused_once[i] = false;
			retries[i] = 0;
			membership_aborts[i] = 0;
			enoents[i] = 0;
		}
		if (sc == SC_ABORT2) {
			budget[N - 1] = 1;
			if (N > 2)
				budget[0] = 1;
		}
		if (sc == SC_RESTART)
			budget[N - 1] = 1;
	}

	/*
	 * Every round has all N participants and no call gives up for a
	 * membership change.  remove_inside is one too: its change runs only
	 * after the one round each participant takes part in.
	 */
	bool fixed_membership() const
	{
		return sc != SC_CHURN && sc != SC_SELF_CHURN &&
		       sc != SC_WRAP_JOIN && sc != SC_STOP &&
		       sc != SC_NEXT_CHANGER;
	}

	void raise_work(uint32_t id)
	{
		coupled_relacy_raise_work(coupled_group_adapter(&g),
					  coupled_participant_adapter(&g, id),
					  id);
	}

	static bool inside_window(int point)
	{
		return point == COUPLED_HOOK_LAST_ARRIVER ||
		       point == COUPLED_HOOK_WAIT_SLEEP ||
		       point == COUPLED_HOOK_READY ||
		       point == COUPLED_HOOK_READY_SPIN ||
		       point == COUPLED_HOOK_BACK_OUT ||
		       point == COUPLED_HOOK_DECIDED ||
		       point == COUPLED_HOOK_DONE ||
		       point == COUPLED_HOOK_COMPLETE ||
		       point == COUPLED_HOOK_WITHDRAW;
	}

	bool all_flags(rl::atomic<uint32_t> *f, unsigned count)
	{
		for (unsigned j = 0; j < count; j++)
			if (!f[j].load(rl::mo_relaxed, $))
				return false;
		return true;
	}

#if COUPLED_PROTOCOL_SETTLED
	/* A membership change holds prevent and nobody is waiting. */
	void on_membership()
	{
		/* Nobody waiting: nobody ready either, no round still open. */
		RL_ASSERT(coupled__word_ready(coupled_load(
				  &g.counts, COUPLED_RELAXED)) == 0);
		for (unsigned j = 0; j < N; j++) {
			unsigned k = nact[j]($);
			if (k)
				(void)(uint32_t)act_gen[j][k - 1]($);
			(void)(int)scratch[j]($);
		}
	}
#else
	/*
	 * A membership change holds stop and the count drained.  (An arrival
	 * that sees stop may count for a moment before it withdraws, so the
	 * arrivals are not checked here.)  The members of the last round may
	 * still run its action: the direct protocol orders a change only
	 * after the leaver's call (coupled_leave()), checked by changer().
	 */
	void on_membership()
	{
		uint32_t w = coupled_load(&g.counts, COUPLED_RELAXED);

		RL_ASSERT((w & COUPLED__DIRECT_STOP) != 0);
		/*
		 * Every withdrawal under stop happens before the change (the
		 * release withdrawal CAS, the changer's acquire drain): what
		 * a drained call read of the membership cannot see the
		 * change's writes.
		 */
		for (unsigned j = 0; j < N; j++)
			(void)(int)withdraw_scratch[j]($);
		if (sc == SC_STOP && change_phase.load(rl::mo_relaxed, $) == 1u)
			change_phase.store(2u, rl::mo_relaxed, $);
		/*
		 * next_changer: the join drained (the ghost is no member yet;
		 * during the removal before it, it still is).  relaxed, the
		 * flag: the drain ordered the removal's store before this
		 * load; change_phase: a coverage flag, it orders nothing.
		 */
		if (sc == SC_NEXT_CHANGER &&
		    change_phase.load(rl::mo_relaxed, $) == 1u &&
		    !coupled_load(&g.slots[N].member, COUPLED_RELAXED))
			change_phase.store(2u, rl::mo_relaxed, $);
	}
#endif

	void hook(uint32_t self, int point) override
	{
		if (self >= N) {
			if (point == COUPLED_HOOK_MEMBERSHIP)
				on_membership();
			/*
			 * remove_inside: 0's flag and the count are stored,
			 * the removal waits for 0's call to end.
			 */
			/* relaxed: see SC_REMOVE_INSIDE below. */
			if (sc == SC_REMOVE_INSIDE &&
			    point == COUPLED_HOOK_LEAVE_DRAIN)
				removal_waits.store(1u, rl::mo_relaxed, $);
			return;
		}
		int prev = last_point[self];
		last_point[self] = point;
		if (inside_window(point))
			scratch[self]($) = point;
		if (point == COUPLED_HOOK_READY_SPIN ||
		    point == COUPLED_HOOK_BACK_OUT)
			ready_scratch[self]($) = point;
		/*
		 * Nobody leaves a decided round before every member left its
		 * ready loop (the acks and the exit gate): each member's
		 * ready-loop writes happen before any member's done.  (The
		 * membership is stable during the round.)
		 */
		if (point == COUPLED_HOOK_DONE)
			for (unsigned j = 0; j < N; j++)
				if (fixed_membership() ||
				    coupled_load(&g.slots[j].member,
						 COUPLED_RELAXED))
					(void)(int)ready_scratch[j]($);
		/* The packed word's invariant: every ready one is waiting. */
		if (point == COUPLED_HOOK_EXIT_WAIT) {
			uint32_t w = coupled_load(&g.counts, COUPLED_RELAXED);
			RL_ASSERT(coupled__word_ready(w) <=
				  coupled__word_waiting(w));
			RL_ASSERT(coupled__word_waiting(w) <= N);
		}
		/* After done, before the call returns: ordered by inside. */
		if (point == COUPLED_HOOK_EXITED)
			exit_scratch[self]($) = point;
		if (prev == COUPLED_HOOK_BACK_OUT &&
		    (point == COUPLED_HOOK_WAIT_SLEEP ||
		     point == COUPLED_HOOK_READY))
			retries[self]++;
		if (point == COUPLED_HOOK_DECIDED)
			calls[self][ncalls[self]].decided++;
		if (point == COUPLED_HOOK_WITHDRAW)
			calls[self][ncalls[self]].withdraws++;
#if !COUPLED_PROTOCOL_SETTLED
		/*
		 * A withdrawal that sees stop cannot be refused: no round
		 * completes under stop, and stop stays until the count
		 * drained, which needs this withdrawal.
		 */
		if (point == COUPLED_HOOK_WITHDRAW &&
		    (coupled_load(&g.counts, COUPLED_RELAXED) &
		     COUPLED__DIRECT_STOP))
			withdraw_scratch[self]($) = point;
#endif
#if !COUPLED_PROTOCOL_SETTLED
		/*
		 * The completer: its increment completed the count, so the
		 * word is frozen until its store: no withdrawal, no stop, no
		 * other arrival can have come in between.  (relaxed: this
		 * thread's own RMW or any later value of the word.)
		 */
		if (point == COUPLED_HOOK_COMPLETE) {
			uint32_t w = coupled_load(&g.counts, COUPLED_RELAXED);
			uint32_t n = coupled_load(&g.members, COUPLED_RELAXED);

			RL_ASSERT(!(w & COUPLED__DIRECT_STOP));
			RL_ASSERT(coupled__direct_arrivals(w) == n);
			if ((sc == SC_STOP || sc == SC_NEXT_CHANGER) &&
			    change_phase.load(rl::mo_relaxed, $) == 1u)
				complete_in_change = true;
		}
#endif

		switch (sc) {
		case SC_ABORT1: /* the last one gets work while 0 waits */
		case SC_RETRY:  /* ... while 0 is ready */
			if (self == 0 && !raised[0] &&
			    point == (sc == SC_ABORT1
					      ? COUPLED_HOOK_WAIT_SLEEP
					      : COUPLED_HOOK_READY_SPIN)) {
				raised[0] = true;
				raise_work(N - 1);
			}
			break;
		case SC_RESTART:
			if (self < N - 1 && point == COUPLED_HOOK_WAIT_SLEEP)
				arrived[self].store(1u, rl::mo_relaxed, $);
			if (self == N - 1 && point == COUPLED_HOOK_ARRIVE &&
			    ncalls[self] == 0)
				while (!all_flags(arrived, N - 1))
					rl::yield(1, $);
			if (self < N - 1 && point == COUPLED_HOOK_READY &&
			    !paused_once[self]) {
				paused_once[self] = true;
				paused[self].store(1u, rl::mo_relaxed, $);
				while (!second_ready.load(rl::mo_relaxed, $))
					rl::yield(1, $);
			}
			if (self == N - 1 && point == COUPLED_HOOK_READY &&
			    ncalls[self] == 1)
				second_ready.store(1u, rl::mo_relaxed, $);
			break;
		case SC_REMOVE_INSIDE:
			/*
			 * The first call of each: arrivals 1..N-2 first, then
			 * 0, then N-1, which completes the count.  So 0 is
			 * the (N-1)-th arrival: with the count of N - 1
			 * members it would be the completer.  0 then rests
			 * between its arrival and its loads of the
			 * membership until the removal has stored them (see
			 * remove_inside()).  The flags are relaxed: they order
			 * nothing, or the test would mask the bug it looks for.
			 * 0 waits without rl::yield(): after a yield Relacy
			 * lets a thread read only values newer than those it
			 * saw before, and 0 read its own member flag on its
			 * way in (coupled_enter_opts()), so a yield would hide
			 * the stale flag the memory model allows it to read.
			 */
			if (ncalls[self] != 0)
				break;
			if (point == COUPLED_HOOK_ARRIVE && self == 0)
				for (unsigned j = 1; j + 1 < N; j++)
					while (!arrived[j].load(rl::mo_relaxed,
								$))
						;
			if (point == COUPLED_HOOK_ARRIVE && self == N - 1)
				while (!arrived[0].load(rl::mo_relaxed, $))
					rl::yield(1, $);
			if (point == COUPLED_HOOK_ARRIVED) {
				arrived[self].store(1u, rl::mo_relaxed, $);
				if (self == 0) {
					while (!removal_waits.load(
						rl::mo_relaxed, $))
						;
					read_after_removal = true;
				}
			}
			break;
		case SC_WITHDRAW:
			/*
			 * Participant 0's first call: work pending from its
			 * arrival on, so it tries to withdraw at its first
			 * check, racing the arrivals of the others.
			 */
			if (self == 0 && !raised[0] &&
			    point == COUPLED_HOOK_ARRIVE) {
				raised[0] = true;
				raise_work(0);
			}
			break;
		default: break;
		}
	}

	bool should_abort(uint32_t self) override
	{
		if (!budget[self] ||
		    last_point[self] != COUPLED_HOOK_READY_SPIN)
			return false;
		if (sc == SC_RESTART)
			return all_flags(paused, N - 1);
		return true;
	}

	void on_action(const struct coupled_round *r) override
	{
		uint32_t self = r->self;
		RL_ASSERT(self < N);
		call_rec &c = calls[self][ncalls[self]];
		RL_ASSERT(c.ran == 0);
		c.ran++;
		c.gen = r->generation;
		c.param = r->param;
		c.members = r->members;
		RL_ASSERT(r->group == &g);

		unsigned k = nact[self]($);
		RL_ASSERT(k < MAXACT);
		act_gen[self][k]($) = r->generation;
		act_param[self][k]($) = r->param;
		nact[self]($) = k + 1;

		if (fixed_membership()) {
			RL_ASSERT(r->members == N);
			/* The previous round's actions happen before this one. */
			if (k > 0)
				for (unsigned j = 0; j < N; j++)
					RL_ASSERT(
						(uint32_t)act_gen[j][k - 1](
							$) ==
						(uint32_t)act_gen[self][k - 1](
							$));
		}

		if (sc == SC_BARRIER) {
			uint32_t mark = r->generation * 16u + self;
			data[self]($) = mark;
			RL_ASSERT(coupled_barrier(r) == 0);
			for (unsigned j = 0; j < N; j++)
				RL_ASSERT((uint32_t)data[j]($) ==
					  r->generation * 16u + j);
			int v1 = coupled_vote(r, self == k % N);
			int v2 = coupled_vote(r, false);
			int v3 = coupled_vote(r, false); /* reuses v1's slot */
			int v4 = coupled_vote(r, true);
			RL_ASSERT(v1 == 1);
			RL_ASSERT(v2 == 0);
			RL_ASSERT(v3 == 0);
			RL_ASSERT(v4 == 1);
		}
	}

	int enter(uint32_t self)
	{
		struct coupled_abort_opts opts;
		opts.deadline = 0;
		opts.should_abort = should_abort_fn;
		opts.abort_arg = static_cast<harness_base *>(this);
		RL_ASSERT(ncalls[self] < MAXCALLS);
		call_rec &c = calls[self][ncalls[self]];
		c.ret = -1000;
		c.request = request_of(self, ncalls[self]);
		c.ran = 0;
		c.decided = 0;
		c.withdraws = 0;
		c.gen = 0;
		c.param = -1;
		c.members = 0;
		int ret = coupled_enter_opts(&g, self, c.request, action_fn,
					     this, &opts);
		c.ret = ret;
		c.last_point = last_point[self];
		RL_ASSERT(c.ran == (ret == COUPLED_COMMITTED ? 1u : 0u));
		if (ret == COUPLED_ENOENT)
			enoents[self]++;
		if (ret == COUPLED_ABORT_MEMBERSHIP)
			membership_aborts[self]++;
		/*
		 * Membership refusals may repeat while a change runs: keep
		 * no record of them unless the call restarted a round first.
		 */
		if ((ret != COUPLED_ABORT_MEMBERSHIP &&
		     ret != COUPLED_ENOENT) ||
		    c.decided)
			ncalls[self]++;
		last_point[self] = -1;
		return ret;
	}

	void wait_changer()
	{
		while (!changer_done.load(rl::mo_relaxed, $))
			rl::yield(1, $);
	}

	void participant(uint32_t self)
	{
		unsigned full = 0;

		if (sc == SC_ABORT1 && self == 0)
			raise_work(N - 1);
		if (sc == SC_SELF_CHURN && self == N - 1) {
			RL_ASSERT(coupled_leave(&g, self) == 0);
			RL_ASSERT(coupled_join(&g, self) == 0);
			changer_done.store(1u, rl::mo_relaxed, $);
		}
		if (sc == SC_WRAP_JOIN && self == N - 1) {
			RL_ASSERT(coupled_join(&g, self) == 0);
			changer_done.store(1u, rl::mo_relaxed, $);
		}
		/*
		 * next_changer: participant 0 removes the ghost (id N, a
		 * member that never calls), the first of the two changes;
		 * only then can a round complete.
		 */
		if (sc == SC_NEXT_CHANGER && self == 0)
			RL_ASSERT(coupled_leave(&g, N) == 0);
		for (;;) {
			int ret = enter(self);
			switch (ret) {
			case COUPLED_COMMITTED: {
				const call_rec &c =
					calls[self][ncalls[self] - 1];
				RL_ASSERT(c.ret == COUPLED_COMMITTED);
				if (sc == SC_WITHDRAW && self == 0)
					coupled_relacy_clear_work(
						coupled_participant_adapter(
							&g, self));
				if (sc == SC_REMOVE_INSIDE && self == N - 1)
					remove_inside();
				/*
				 * settled only: the direct protocol lets
				 * everybody leave a round at once.
				 */
				if (COUPLED_PROTOCOL_SETTLED &&
				    fixed_membership()) {
					/*
					 * Returned: every member's action of
					 * this round happens before this point.
					 */
					unsigned k = nact[self]($) - 1;
					for (unsigned j = 0; j < N; j++)
						RL_ASSERT(
							(uint32_t)act_gen[j][k](
								$) == c.gen);
				}
				if (self == 0 && c.members < N)
					zero_settled.store(1u, rl::mo_relaxed,
							   $);
				if (c.members == N) {
					if (++full == scenarios[sc].rounds) {
						if (self == 0)
							zero_settled.store(
								1u,
								rl::mo_relaxed,
								$);
						return;
					}
				} else {
					RL_ASSERT(!fixed_membership());
					wait_changer();
				}
				break;
			}
			case COUPLED_ABORT_WORK:
				if (sc == SC_WITHDRAW) {
					RL_ASSERT(self == 0);
				} else {
					RL_ASSERT(sc == SC_ABORT1 ||
						  sc == SC_RETRY);
					RL_ASSERT(self == N - 1);
				}
				coupled_relacy_clear_work(
					coupled_participant_adapter(&g, self));
				break;
			case COUPLED_ABORT_CALLER:
				RL_ASSERT(budget[self] > 0);
				/* Only ever asked for from the ready phase. */
				RL_ASSERT(calls[self][ncalls[self] - 1]
						  .last_point ==
					  COUPLED_HOOK_BACK_OUT);
				RL_ASSERT(sc == SC_ABORT2 || sc == SC_RESTART);
				budget[self]--;
				break;
			case COUPLED_ABORT_MEMBERSHIP:
				RL_ASSERT(!fixed_membership());
				rl::yield(1, $);
				break;
			case COUPLED_ENOENT:
				RL_ASSERT(!fixed_membership() && self == N - 1);
				wait_changer();
				break;
			default: RL_ASSERT(!"unexpected return code"); return;
			}
		}
	}

	/*
	 * remove_inside: the last participant's call committed, so every
	 * participant has arrived in that round; participant 0 rests between
	 * its arrival and its loads of the member count, its member flag and
	 * the word (coupled__run(); the hook holds it at ARRIVED).  The
	 * removal of 0 runs now: it stops nothing (the count is empty),
	 * stores 0's flag and the smaller count, then waits for 0's call to
	 * end.  Participant 0 must still take part in the round it arrived
	 * in, with its N members.  Its loads of the count and the flag may
	 * read the change's values: only their acquire makes the re-load of
	 * the word see the generation that moved before the change.  With a
	 * relaxed load of the count, 0 may read N - 1 and a stale word (its
	 * own round's count, N - 1 before its arrival) and complete a round
	 * of its own (the COMPLETE hook's frozen-word assertion, or the
	 * action's member count); with a relaxed load of the flag it may read
	 * 0 and return COUPLED_ENOENT from a committed round (all or none
	 * broken).  Then 0 is re-added, which the end state needs.
	 */
	void remove_inside()
	{
		RL_ASSERT(coupled_leave(&g, 0) == 0);
		RL_ASSERT(coupled_join(&g, 0) == 0);
	}

	/*
	 * next_changer: this thread joins the ghost as soon as participant 0
	 * has removed it (participant()), and removes it again.  The join's
	 * coupled__membership_begin() judges the complete-count guard against
	 * the member count it loads under the changers' lock; only the lock's
	 * acquire/release orders it after the removal's store of the smaller
	 * count.  Meanwhile the participants' round of N can complete.  Read
	 * stale (N + 1), the guard misses that the word counts N, complete:
	 * the join sets stop on a committed round, the completer's store then
	 * wipes it, and the change runs without stop (the assertions in the
	 * COMPLETE hook and in on_membership()).
	 */
	void next_changer()
	{
		int ret;

		/* relaxed: a coverage flag, it orders nothing. */
		change_phase.store(1u, rl::mo_relaxed, $);
		/* Refused until the removal of the ghost has run. */
		while ((ret = coupled_join(&g, N)) == COUPLED_EEXIST)
			rl::yield(1, $);
		RL_ASSERT(ret == 0);
		/* A member that never calls: the rounds wait until it goes. */
		RL_ASSERT(coupled_leave(&g, N) == 0);
		/* relaxed: a scheduling flag, as in changer(). */
		changer_done.store(1u, rl::mo_relaxed, $);
	}

	void changer()
	{
		if (sc == SC_NEXT_CHANGER) {
			next_changer();
			return;
		}
		if (sc == SC_STOP)
			change_phase.store(1u, rl::mo_relaxed, $);
		RL_ASSERT(coupled_leave(&g, N - 1) == 0);
		RL_ASSERT(!coupled_is_member(&g, N - 1));
		/* The removed participant's call is over: its data is ours. */
		unsigned k = nact[N - 1]($);
		if (k)
			(void)(uint32_t)act_gen[N - 1][k - 1]($);
		(void)(int)exit_scratch[N - 1]($);
		/*
		 * Rejoin only once the others have committed without the
		 * leaver (or are done): a call of the leaver that slipped past
		 * the leave would otherwise be masked by the join's pokes.
		 */
		while (!zero_settled.load(rl::mo_relaxed, $))
			rl::yield(1, $);
		RL_ASSERT(coupled_join(&g, N - 1) == 0);
		changer_done.store(1u, rl::mo_relaxed, $);
	}

	void thread(unsigned idx)
	{
		if (idx < N)
			participant(idx);
		else
			changer();
	}

	void after()
	{
#if COUPLED_PROTOCOL_SETTLED
		RL_ASSERT(coupled_load(&g.counts, COUPLED_RELAXED) == 0u);
		RL_ASSERT(coupled_load(&g.prevent, COUPLED_RELAXED) == 0u);
#else
		/* At rest: no arrival, no stop; the generation moved on. */
		RL_ASSERT((coupled_load(&g.counts, COUPLED_RELAXED) &
			   ~COUPLED__DIRECT_GEN_MASK) == 0u);
#endif
		RL_ASSERT(coupled_group_members(&g) == N);
		if (complete_in_change)
			g_cov[COV_COMPLETE_IN_CHANGE]++;
		if (read_after_removal)
			g_cov[COV_READ_AFTER_REMOVAL]++;

		/* Every committed generation: all or none, same param. */
		for (unsigned i = 0; i < N; i++) {
			for (unsigned ci = 0; ci < ncalls[i]; ci++) {
				const call_rec &c = calls[i][ci];
				if (c.ret != COUPLED_COMMITTED)
					continue;
				unsigned count = 0;
				int32_t min = INT32_MAX;
				for (unsigned j = 0; j < N; j++) {
					unsigned found = 0;
					for (unsigned cj = 0; cj < ncalls[j];
					     cj++) {
						const call_rec &d =
							calls[j][cj];
						if (d.ret !=
							    COUPLED_COMMITTED ||
						    d.gen != c.gen)
							continue;
						found++;
						RL_ASSERT(d.param == c.param);
						RL_ASSERT(d.members ==
							  c.members);
						if (d.request < min)
							min = d.request;
					}
					RL_ASSERT(found <= 1);
					count += found;
				}
				RL_ASSERT(count == c.members);
				RL_ASSERT(c.param == min);
				if (fixed_membership())
					RL_ASSERT(count == N);
				if (c.members < N)
					g_cov[COV_SMALL_ROUND]++;
				if (sc == SC_WRAP_JOIN && c.members == N &&
				    c.gen == 0)
					g_cov[COV_WRAP_LANDING]++;
			}
		}

		unsigned restarts_total = 0;
		for (unsigned i = 0; i < N; i++) {
			unsigned restarts = 0;
			for (unsigned ci = 0; ci < ncalls[i]; ci++) {
				const call_rec &c = calls[i][ci];
				restarts += c.decided - c.ran;
				if (c.ret == COUPLED_ABORT_WORK) {
					if (c.last_point ==
					    COUPLED_HOOK_BACK_OUT)
						g_cov[COV_ABORT_WORK_P2]++;
					else
						g_cov[COV_ABORT_WORK_P1]++;
				}
				if (c.ret == COUPLED_ABORT_CALLER)
					g_cov[COV_ABORT_CALLER]++;
				/*
				 * A withdrawal: either it took the arrival
				 * back (the call aborted and ran nothing) or
				 * it was refused (the round had committed:
				 * the call ran the action), never both.
				 */
				if (c.withdraws) {
					RL_ASSERT(!COUPLED_PROTOCOL_SETTLED);
					if (c.ret == COUPLED_COMMITTED) {
						RL_ASSERT(c.ran == 1);
						g_cov[COV_WITHDRAW_REFUSED]++;
					} else {
						RL_ASSERT(c.ran == 0);
						g_cov[COV_WITHDRAWN]++;
					}
				}
			}
			if (sc == SC_RESTART)
				RL_ASSERT(restarts == 1);
			restarts_total += restarts;
			g_cov[COV_RETRY] += retries[i];
			g_cov[COV_ABORT_MEMBERSHIP] += membership_aborts[i];
			g_cov[COV_ENOENT] += enoents[i];
		}
		g_cov[COV_RESTART] += restarts_total;
		g_cov[COV_EXECS]++;
	}
};

/*
 * The membership queries: a thread that sees the new member through
 * coupled_is_member() or coupled_group_members() must also see what the
 * joiner wrote before coupled_join() (Relacy reports a race otherwise).
 */
struct publish_test final : rl::test_suite<publish_test, 4> {
	struct coupled_group g;
	struct coupled_slot slots[3];
	rl::var<int> before_join;
	rl::var<int> before_leave;

	void before()
	{
		/* Members 0 and 1; thread 0 adds 2 while thread 1 removes 1. */
		RL_ASSERT(coupled_group_init(&g, slots, 3, 2, NULL) == 0);
		coupled_relacy_set_mode(coupled_group_adapter(&g),
					COUPLED_RELACY_WAIT_SPIN);
		before_join($) = 0;
		before_leave($) = 0;
	}

	void thread(unsigned idx)
	{
		uint32_t m;

		switch (idx) {
		case 0:
			before_join($) = 42;
			RL_ASSERT(coupled_join(&g, 2) == 0);
			break;
		case 1:
			before_leave($) = 7;
			RL_ASSERT(coupled_leave(&g, 1) == 0);
			break;
		case 2:
			if (coupled_is_member(&g, 2))
				RL_ASSERT(before_join($) == 42);
			if (!coupled_is_member(&g, 1))
				RL_ASSERT(before_leave($) == 7);
			break;
		default:
			/* 3: the join came first; 1: the leave did. */
			m = coupled_group_members(&g);
			if (m == 3)
				RL_ASSERT(before_join($) == 42);
			if (m == 1)
				RL_ASSERT(before_leave($) == 7);
			break;
		}
	}
};

/* --- driver --------------------------------------------------------------- */

/* Whether this build has the runs of N participants, EXTRA changers. */
#ifdef COUPLED_RELACY_ONLY_N
#define SHAPE_BUILT(n, extra) \
	((n) == COUPLED_RELACY_ONLY_N && (extra) == COUPLED_RELACY_ONLY_EXTRA)
#else
#define SHAPE_BUILT(n, extra) true
#endif

template <unsigned N, unsigned EXTRA>
bool run_one(const run_config &cfg, std::ostream &out)
{
	rl::test_params p;
	std::ostringstream sink;
	p.output_stream = &out;
	p.progress_stream = &sink;
	p.execution_depth_limit = 20000;
	/*
	 * remove_inside needs a load to read the third newest value of the
	 * word: only the random scheduler goes back that far (Relacy keeps
	 * three values per atomic; its other schedulers read the newest two).
	 */
	bool random = N > 2 || EXTRA > 0 || g_scenario == SC_REMOVE_INSIDE;
	if (!random && cfg.bound == 0) {
		p.search_type = rl::sched_full;
	} else if (!random) {
		p.search_type = rl::sched_bound;
		p.context_bound = cfg.bound;
	} else {
		/*
		 * 3 participants, or 2 and a changer thread, or a scenario
		 * that needs it: random.
		 */
		p.search_type = rl::sched_random;
		p.iteration_count = cfg.iterations;
	}
	bool ok;
	if constexpr (SHAPE_BUILT(N, EXTRA))
		ok = rl::simulate<coupled_test<N, EXTRA>>(p);
	else
		std::exit(77); /* not reached: run_scenario() skips it */
	out << "  search: "
	    << (p.search_type == rl::sched_full    ? "full"
		: p.search_type == rl::sched_bound ? "context bound"
						   : "random");
	if (p.search_type == rl::sched_bound)
		out << " " << p.context_bound;
	out << ", iterations " << p.stop_iteration << "\n";
	return ok;
}

int run_publish(unsigned n)
{
	rl::test_params p;
	std::ostringstream sink;
	p.output_stream = &std::cout;
	p.progress_stream = &sink;
	/* The full search of 4 threads with two changers does not end. */
	p.search_type = rl::sched_bound;
	p.context_bound = 2;
	std::printf("== %s (%up: the same 4-thread test, context bound 2): "
		    "%s\n",
		    scenarios[SC_PUBLISH].name, n, scenarios[SC_PUBLISH].what);
	std::fflush(stdout);
	g_current = 0;
	bool ok;
	if constexpr (SHAPE_BUILT(0, 0))
		ok = rl::simulate<publish_test>(p);
	else
		std::exit(77); /* not reached: run_scenario() skips it */
	std::cout << "  search: context bound 2, iterations "
		  << p.stop_iteration << "\n";
	std::cout.flush();
	std::printf("%s: publish %up\n", ok ? "PASS" : "FAIL", n);
	return ok ? 0 : 1;
}

/* Why a scenario of the other variant does not run in this build. */
const char *skip_reason(int sc)
{
	if (scenarios[sc].variants & this_variant)
		return NULL;
	if (sc == SC_REMOVE_INSIDE)
		return "direct protocol only: the window it holds "
		       "participant 0 in (counted, before its loads of the "
		       "membership: the ARRIVED hook) is the direct "
		       "protocol's";
	if (sc == SC_NEXT_CHANGER)
		return "direct protocol only: it checks the complete-count "
		       "guard of the direct changers against the stop bit; "
		       "the settled protocol has neither";
	if (scenarios[sc].variants == SETTLED)
		return "settled protocol only: the direct protocol has no "
		       "ready "
		       "phase (no phase-2 abort, no back-out and retry, no "
		       "poke "
		       "restart); its withdrawal is covered by abort_waiting "
		       "and "
		       "withdraw_vs_complete";
	return "direct protocol only: the settled protocol has no withdrawal "
	       "CAS nor stop bit; its counterparts are abort_waiting, retry "
	       "and "
	       "churn";
}

int run_scenario(int sc, unsigned n, const run_config &cfg)
{
	const char *skip = skip_reason(sc);
	if (skip) {
		std::printf("SKIP: %s %up (%s build): %s\n", scenarios[sc].name,
			    n, COUPLED_PROTOCOL_NAME, skip);
		return 77;
	}
	bool changer = scenarios[sc].extra_threads != 0;
	if (!(sc == SC_PUBLISH ? SHAPE_BUILT(0, 0)
			       : SHAPE_BUILT(n, changer ? 1u : 0u))) {
		std::printf("SKIP: %s %up: not in this build (built with "
			    "COUPLED_RELACY_ONLY_N)\n",
			    scenarios[sc].name, n);
		return 77;
	}
	if (sc == SC_PUBLISH)
		return run_publish(n);
	g_scenario = sc;
	/*
	 * 2 participants: the spin wait, so that the adapter adds no
	 * synchronization; 3 participants: the token wait, which also checks
	 * that no wake-up is lost.
	 */
	g_wait_mode = n == 2 ? COUPLED_RELACY_WAIT_SPIN
			     : COUPLED_RELACY_WAIT_TOKEN;
	for (unsigned c = 0; c < COV_COUNT; c++)
		g_cov[c] = 0;

	std::printf("== %s, %u participants, %s protocol: %s\n",
		    scenarios[sc].name, n, COUPLED_PROTOCOL_NAME,
		    scenarios[sc].what);
	std::fflush(stdout);
	bool ok;
	std::ostream &out = std::cout;
	if (n == 2)
		ok = changer ? run_one<2, 1>(cfg, out)
			     : run_one<2, 0>(cfg, out);
	else
		ok = changer ? run_one<3, 1>(cfg, out)
			     : run_one<3, 0>(cfg, out);
	std::cout.flush();
	if (!ok) {
		std::printf("FAIL: %s %up\n", scenarios[sc].name, n);
		return 1;
	}

	/* The scenario must really have exercised its path. */
	unsigned need = COV_COUNT;
	switch (sc) {
	case SC_ABORT1: need = COV_ABORT_WORK_P1; break;
	case SC_ABORT2: need = COV_ABORT_CALLER; break;
	case SC_RETRY: need = COV_RETRY; break;
	case SC_RESTART: need = COV_RESTART; break;
	case SC_CHURN: need = COV_ABORT_MEMBERSHIP; break;
	case SC_SELF_CHURN: need = COV_SMALL_ROUND; break;
	case SC_WRAP_JOIN: need = COV_WRAP_LANDING; break;
	case SC_WITHDRAW: need = COV_WITHDRAWN; break;
	case SC_STOP: need = COV_COMPLETE_IN_CHANGE; break;
	case SC_NEXT_CHANGER: need = COV_COMPLETE_IN_CHANGE; break;
	case SC_REMOVE_INSIDE: need = COV_READ_AFTER_REMOVAL; break;
	default: break;
	}
	std::printf("  coverage:");
	for (unsigned c = 0; c < COV_COUNT; c++)
		if (g_cov[c])
			std::printf(" %s %lu;", coverage_names[c], g_cov[c]);
	std::printf("\n");
	if (need != COV_COUNT && g_cov[need] == 0) {
		std::printf("FAIL: %s %up never reached: %s\n",
			    scenarios[sc].name, n, coverage_names[need]);
		return 1;
	}
	/* The races: both of their outcomes must have been explored. */
	unsigned also = COV_COUNT;
	if (sc == SC_WITHDRAW)
		also = COV_WITHDRAW_REFUSED;
	if (sc == SC_STOP)
		also = COV_ABORT_MEMBERSHIP;
	if (also != COV_COUNT && g_cov[also] == 0) {
		std::printf("FAIL: %s %up never reached: %s\n",
			    scenarios[sc].name, n, coverage_names[also]);
		return 1;
	}
	std::printf("PASS: %s %up\n", scenarios[sc].name, n);
	return 0;
}

const char *scenario_name(int sc)
{
	return scenarios[sc].name;
}

} /* namespace */

/* The core's hook, routed to the running test. */
static void relacy_hook(struct coupled_group *g, uint32_t self, int point)
{
	(void)g;
	if (g_current) /* the publish test has no hooks */
		g_current->hook(self, point);
}

int main(int argc, char **argv)
{
	const relacy_program prog = {
		SC_COUNT, scenario_name, { "2p", "3p" }, run_scenario
	};

	return relacy_scenario_main(prog, relacy_config(100000ul, 20000ul),
				    argc, argv);
}

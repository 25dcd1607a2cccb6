/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_anchor.cpp - anchors for the Relacy checks: small models of the two
 * earlier protocols, written for this test from their published
 * descriptions, that the checks must find faulty; and the same check on the
 * real header, which must pass.
 *
 * Build (one line, no CMake):
 *
 *   c++ -std=c++17 -O1 -I<include> -Itests/verify/relacy tests/verify/relacy/relacy_anchor.cpp -o relacy_anchor
 *
 * Usage: relacy_anchor seed|linux6|coupled [2p|3p]
 *
 *   seed     the 2012 (Linux 3.6) protocol: all-ready value spelled with a
 *            logical "||", back-out with add-unless, done as two separate
 *            decrements, exit waits for ready == 0.
 *   linux6   the protocol as in Linux 6.x: bitwise all-ready, wait to be
 *            poked, pending-poke check after the ready loop with a
 *            parallel-barrier restart, the same two-decrement done and exit.
 *   coupled  include/coupled/coupled.h under the same harness.
 *
 * Each of the participants enters once; nobody ever aborts.  The property:
 * all or none.  A participant that backs out of the ready phase must not do
 * so after another participant entered the action of the same round (it
 * would then never take part in a round the others took), and in the end
 * everybody entered exactly once.  A violation shows as a failed assertion
 * (or as a livelock: the one that backed out waits for good).
 *
 * Exit code: seed and linux6 exit 0 when Relacy FINDS a violation (the
 * anchor still proves that the check can fail) and 1 when it finds none;
 * coupled exits 0 when it finds none and 1 when it finds one.  A summary of
 * the counterexample (the protocol steps, one line each) is printed.
 *
 * Kernel atomics are modelled by their documented ordering: value-returning
 * RMWs (atomic_inc_return, a successful atomic_add_unless) are fully ordered
 * (seq_cst), atomic_add/atomic_sub/atomic_dec/atomic_read/atomic_set and
 * plain flag accesses are relaxed, smp_wmb/smp_rmb are release/acquire fences.
 */
#include <relacy/relacy.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define COUPLED_ATOMIC_RELACY 1
#define COUPLED_ADAPTER_HEADER "coupled_adapter_relacy.h"
/*
 * The models are the Linux protocol and its ancestor, which the settled
 * variant generalizes: the real header runs that one unless the build asks
 * for the other (-DCOUPLED_PROTOCOL_DIRECT=1 also works).
 */
#if !defined(COUPLED_PROTOCOL_SETTLED) && !defined(COUPLED_PROTOCOL_DIRECT)
#define COUPLED_PROTOCOL_SETTLED 1
#endif

struct coupled_group;
static void anchor_hook(struct coupled_group *g, uint32_t self, int point);
#define COUPLED_HOOK(group, self, point) \
	anchor_hook((group), (self), (int)(point))

#include <coupled/coupled.h>

namespace
{

enum model { M_SEED, M_LINUX6, M_COUPLED };
int g_model;

const uint32_t WAITING_ONE = 1u;
const uint32_t READY_ONE = 1u << 16;
inline uint32_t waiting_of(uint32_t w)
{
	return w & 0xffffu;
}
inline uint32_t ready_of(uint32_t w)
{
	return w >> 16;
}

/* A fixed buffer for Relacy's report: no allocation inside the simulation. */
class fixed_buf : public std::streambuf
{
      public:
	enum { SIZE = 1 << 22 };
	char text[SIZE];
	size_t len = 0;

      protected:
	int_type overflow(int_type c) override
	{
		if (c != traits_type::eof() && len + 1 < SIZE)
			text[len++] = (char)c;
		return traits_type::not_eof(c);
	}
	std::streamsize xsputn(const char *s, std::streamsize n) override
	{
		for (std::streamsize i = 0; i < n; i++)
			overflow((unsigned char)s[i]);
		return n;
	}
};
fixed_buf g_report;

struct anchor_base {
	virtual void hook(uint32_t self, int point) = 0;

      protected:
	~anchor_base()
	{
	}
};
anchor_base *g_anchor;

void coupled_action(const struct coupled_round *r, void *ctx);

template <unsigned N>
struct anchor_test final : rl::test_suite<anchor_test<N>, N>, anchor_base {
	/* The models' shared state. */
	rl::atomic<uint32_t> counts;
	rl::atomic<uint32_t> poked[N];        /* linux6: poked mask */
	rl::atomic<uint32_t> poke_pending[N]; /* linux6: IPI pending */
	rl::atomic<uint32_t> abort_barrier;   /* linux6: parallel barrier */
	/* The test's view: how many entered the action. */
	rl::atomic<uint32_t> entered;
	rl::var<int> entries[N];

	/* The real header. */
	struct coupled_group g;
	struct coupled_slot slots[N];
	int last_point[N];

	void before()
	{
		g_anchor = this;
		counts.store(0u, rl::mo_relaxed, $);
		abort_barrier.store(0u, rl::mo_relaxed, $);
		entered.store(0u, rl::mo_relaxed, $);
		for (unsigned i = 0; i < N; i++) {
			poked[i].store(0u, rl::mo_relaxed, $);
			poke_pending[i].store(0u, rl::mo_relaxed, $);
			entries[i]($) = 0;
			last_point[i] = -1;
		}
		if (g_model == M_COUPLED) {
			RL_ASSERT(coupled_group_init(&g, slots, N, N, NULL) ==
				  0);
			coupled_relacy_set_mode(coupled_group_adapter(&g),
						COUPLED_RELACY_WAIT_TOKEN);
		}
	}

	/* The check: a back-out must come before anybody entered. */
	void backed_out()
	{
		RL_LOG("back out of the ready phase");
		RL_ASSERT(entered.load(rl::mo_seq_cst, $) == 0u && "backed out "
								   "of a round "
								   "another "
								   "participant"
								   " entered");
	}

	void enter_action(unsigned self)
	{
		RL_LOG("enter the coupled action");
		entries[self]($) = entries[self]($) + 1;
		entered.fetch_add(1u, rl::mo_seq_cst, $);
	}

	/* atomic_add_unless(counts, -READY_ONE, all): fully ordered on success */
	bool add_unless_ready(uint32_t all)
	{
		uint32_t old = counts.load(rl::mo_relaxed, $);
		while (old != all)
			if (counts.compare_exchange_strong(old, old - READY_ONE,
							   rl::mo_seq_cst, $,
							   rl::mo_relaxed, $))
				return true;
		return false;
	}

	/*
	 * The kernels' ready loop: wait for ready == n, backing out (add
	 * unless all-ready) when not everyone is waiting any more.
	 * Return: true once all are ready, false after a back-out.
	 */
	bool ready_loop(uint32_t all)
	{
		while (ready_of(counts.load(rl::mo_relaxed, $)) != N) {
			if (waiting_of(counts.load(rl::mo_relaxed, $)) != N &&
			    add_unless_ready(all)) {
				backed_out();
				return false;
			}
			rl::yield(1, $);
		}
		return true;
	}

	/* Two separate decrements, waiting first (as both kernels do). */
	void set_done()
	{
		RL_LOG("done: waiting -= 1");
		counts.fetch_sub(WAITING_ONE, rl::mo_relaxed, $);
		RL_LOG("done: ready -= 1");
		counts.fetch_sub(READY_ONE, rl::mo_relaxed, $);
	}

	void exit_wait()
	{
		while (ready_of(counts.load(rl::mo_relaxed, $)) != 0)
			rl::yield(1, $);
	}

	/* --- the 2012 seed ----------------------------------------------- */
	void seed(unsigned self)
	{
		/* "online_count || (online_count << WAITING_BITS)" == 1 */
		const uint32_t all = (N || (N << 16)) ? 1u : 0u;

		RL_LOG("arrive: waiting += 1");
		(void)counts.fetch_add(WAITING_ONE, rl::mo_seq_cst, $);
retry:
		while (waiting_of(counts.load(rl::mo_relaxed, $)) != N)
			rl::yield(1, $);
		RL_LOG("all waiting: ready += 1");
		counts.fetch_add(READY_ONE, rl::mo_relaxed, $);
		if (!ready_loop(all))
			goto retry;
		enter_action(self);
		set_done();
		exit_wait();
	}

	/* --- Linux 6.x ----------------------------------------------------- */
	/* The poke IPI handler: runs where the kernel enables interrupts. */
	bool handle_poke(unsigned self)
	{
		if (!poke_pending[self].load(rl::mo_relaxed, $))
			return false;
		poked[self].store(1u, rl::mo_relaxed, $);
		poke_pending[self].store(0u, rl::mo_relaxed, $);
		return true;
	}

	void poke_others(unsigned self)
	{
		RL_LOG("last arriver: poke the others");
		for (unsigned j = 0; j < N; j++)
			if (j != self)
				/* test_and_set_bit: fully ordered */
				(void)poke_pending[j].exchange(
					1u, rl::mo_seq_cst, $);
	}

	bool any_poke_pending()
	{
		for (unsigned j = 0; j < N; j++)
			if (poke_pending[j].load(rl::mo_relaxed, $))
				return true;
		return false;
	}

	void parallel_barrier()
	{
		rl::atomic_thread_fence(rl::mo_seq_cst, $);
		abort_barrier.fetch_add(1u, rl::mo_relaxed, $);
		while (abort_barrier.load(rl::mo_relaxed, $) < N)
			rl::yield(1, $);
		if (abort_barrier.fetch_add(1u, rl::mo_seq_cst, $) + 1u ==
		    2u * N) {
			abort_barrier.store(0u, rl::mo_relaxed, $);
			return;
		}
		while (abort_barrier.load(rl::mo_relaxed, $) > N)
			rl::yield(1, $);
	}

	void linux6(unsigned self)
	{
		const uint32_t all = N | (N << 16);

reset:
		poked[self].store(0u, rl::mo_relaxed, $);
		RL_LOG("arrive: waiting += 1");
		if (waiting_of(
			    counts.fetch_add(WAITING_ONE, rl::mo_seq_cst, $) +
			    WAITING_ONE) == N) {
			poked[self].store(1u, rl::mo_relaxed, $);
			poke_others(self);
		}
retry:
		while (waiting_of(counts.load(rl::mo_relaxed, $)) != N ||
		       !poked[self].load(rl::mo_relaxed, $)) {
			if (handle_poke(self))
				continue;
			rl::yield(1, $); /* the safe state */
		}
		(void)handle_poke(self);
		rl::atomic_thread_fence(rl::mo_release, $); /* smp_wmb */
		RL_LOG("all waiting and poked: ready += 1");
		counts.fetch_add(READY_ONE, rl::mo_relaxed, $);
		if (!ready_loop(all))
			goto retry;
		rl::atomic_thread_fence(rl::mo_acquire, $); /* smp_rmb */
		if (any_poke_pending()) {
			RL_LOG("poke pending: done, barrier, reset");
			set_done();
			parallel_barrier();
			goto reset;
		}
		enter_action(self);
		set_done();
		exit_wait();
	}

	/* --- the real header ---------------------------------------------- */
	void hook(uint32_t self, int point) override
	{
		if (self >= N)
			return;
		int prev = last_point[self];
		last_point[self] = point;
		/* After BACK_OUT, a retry shows as the next phase-1 point. */
		if (prev == COUPLED_HOOK_BACK_OUT &&
		    (point == COUPLED_HOOK_WAIT_SLEEP ||
		     point == COUPLED_HOOK_READY))
			backed_out();
	}

	void coupled(unsigned self)
	{
		int ret = coupled_enter(&g, self, (int32_t)self + 1,
					coupled_action, this);
		RL_ASSERT(ret == COUPLED_COMMITTED);
	}

	void thread(unsigned self)
	{
		switch (g_model) {
		case M_SEED: seed(self); break;
		case M_LINUX6: linux6(self); break;
		default: coupled(self); break;
		}
	}

	void after()
	{
		RL_ASSERT(entered.load(rl::mo_relaxed, $) == N);
		for (unsigned i = 0; i < N; i++)
			RL_ASSERT(entries[i]($) == 1);
		if (g_model == M_COUPLED && COUPLED_PROTOCOL_SETTLED)
			RL_ASSERT(coupled_load(&g.counts, COUPLED_RELAXED) ==
				  0u);
#if !COUPLED_PROTOCOL_SETTLED
		/* direct: no arrival, no stop; the generation moved on. */
		if (g_model == M_COUPLED)
			RL_ASSERT((coupled_load(&g.counts, COUPLED_RELAXED) &
				   ~COUPLED__DIRECT_GEN_MASK) == 0u);
#endif
		else
			RL_ASSERT(counts.load(rl::mo_relaxed, $) == 0u);
	}
};

void coupled_action(const struct coupled_round *r, void *ctx)
{
	/* Every member takes part, so the member count names the harness. */
	if (r->members == 2)
		static_cast<anchor_test<2> *>(ctx)->enter_action(r->self);
	else
		static_cast<anchor_test<3> *>(ctx)->enter_action(r->self);
}

/* Print Relacy's verdict and the protocol steps of the counterexample. */
void summarize()
{
	g_report.text[g_report.len] = 0;
	char *line = g_report.text;
	bool in_history = false;
	unsigned steps = 0;
	while (line && *line) {
		char *next = std::strchr(line, '\n');
		if (next)
			*next = 0;
		if (!in_history) {
			if (std::strstr(line, "execution history"))
				in_history = true;
			else if (*line)
				std::printf("  %s\n", line);
		} else if (std::strstr(line, "ASSERT") ||
			   std::strstr(line, "LIVELOCK") ||
			   std::strstr(line, "DATA RACE") ||
			   std::strstr(line, "DEADLOCK")) {
			std::printf("    %s\n", line);
			break; /* the per-thread histories repeat it */
		} else if (!std::strstr(line, " load, ") &&
			   !std::strstr(line, " store, ") &&
			   !std::strstr(line, "yield") &&
			   !std::strstr(line, "fence") &&
			   (std::strstr(line, "relacy_anchor.cpp") ||
			    std::strstr(line, "coupled.h") ||
			    std::strstr(line, "word.h"))) {
			/* "[k] thread: event, in function, file(line)" */
			char *in = std::strstr(line, ", in ");
			if (in)
				*in = 0;
			std::printf("    %s\n", line);
			steps++;
		}
		line = next ? next + 1 : NULL;
	}
	if (in_history)
		std::printf("  (%u protocol steps shown)\n", steps);
}

template <unsigned N> rl::test_result_e run(bool exhaustive)
{
	rl::test_params p;
	std::ostream report(&g_report);
	static fixed_buf progress;
	std::ostream progress_stream(&progress);
	p.output_stream = &report;
	p.progress_stream = &progress_stream;
	p.execution_depth_limit = 20000;
	if (exhaustive) {
		p.search_type = rl::sched_bound;
		p.context_bound = 2;
	} else {
		p.search_type = rl::sched_random;
		p.iteration_count = 100000;
	}
	rl::simulate<anchor_test<N>>(p);
	std::printf("  %s, %llu iterations\n",
		    exhaustive ? "context bound 2" : "random scheduler",
		    (unsigned long long)p.stop_iteration);
	return p.test_result;
}

} /* namespace */

static void anchor_hook(struct coupled_group *g, uint32_t self, int point)
{
	(void)g;
	g_anchor->hook(self, point);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s seed|linux6|coupled [2p|3p]\n",
			     argv[0]);
		return 2;
	}
	if (!std::strcmp(argv[1], "seed"))
		g_model = M_SEED;
	else if (!std::strcmp(argv[1], "linux6"))
		g_model = M_LINUX6;
	else if (!std::strcmp(argv[1], "coupled"))
		g_model = M_COUPLED;
	else
		return 2;
	bool three = argc > 2 && !std::strcmp(argv[2], "3p");

	std::printf("== anchor %s, %u participants (the real header: %s "
		    "protocol)\n",
		    argv[1], three ? 3 : 2, COUPLED_PROTOCOL_NAME);
	rl::test_result_e res = three ? run<3>(false) : run<2>(true);
	summarize();
	bool found = res != rl::test_result_success;
	if (g_model == M_COUPLED) {
		std::printf("%s: the real header %s\n", found ? "FAIL" : "PASS",
			    found ? "violates all-or-none"
				  : "holds all-or-none");
		return found ? 1 : 0;
	}
	std::printf("%s: %s\n", found ? "PASS" : "FAIL",
		    found ? "Relacy found the expected violation"
			  : "Relacy found no violation: the check lost its "
			    "teeth");
	return found ? 0 : 1;
}

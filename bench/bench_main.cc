// SPDX-License-Identifier: MIT OR GPL-2.0-only
//
// bench_main.cc - Google Benchmark suite: coupled rounds against the barriers
// a user would pick instead, in one binary and one run.
//
// The library header is included directly (C++ uses its std::atomic
// back-end); the Concurrency Kit barriers and the 2012 seed baseline are C
// translation units.  Every case runs with 1, 2, 4, 8 and 16 threads (the
// 2-level domain case, two leaves of N/2 cores, with 2 to 16), one
// participant per thread; each iteration of a thread is one round.
//
// Google Benchmark sums iterations over threads, so "Time" is a round divided
// by the thread count.  Read the ns_per_round counter instead: thread 0 alone
// reports its rounds, as a rate inverted and scaled so that the counter is
// wall-clock nanoseconds per round.
//
// Pure spinners (spin strategy, Concurrency Kit, seed/pause) with more threads
// than CPUs need a scheduler time slice per participant per round: they run a
// fixed, small number of iterations (COUPLED_BENCH_OVERSUB_ITERS, default 5)
// and a single repetition instead of the time-based count: with 16 threads on
// 2 CPUs a spinning round takes a few hundred milliseconds.
//
// Every case also reports vcsw_per_round and ivcsw_per_round: the voluntary
// and involuntary context switches of all its threads per round
// (getrusage(RUSAGE_THREAD) around each thread's loop).  Two cases give the
// 2-thread figures a floor of the same run: pingpong, one cache line bounced
// between the two pinned threads (handoff_ns: the one-way hand-off; cpu_t0,
// cpu_t1: the CPUs).  Every pinned 2-thread case
// also measures the floor of its own repetition, right before and right
// after its timed loop (floor_ns, floor_after_ns: floor_probe()), so that
// the report can group repetitions by where the two vCPUs ran.
//
// Built once more with COUPLED_BENCH_SETTLED_TWIN=1 and
// COUPLED_PROTOCOL_SETTLED=1 (coupled_bench_settled), the same coupled cases
// run the settled protocol under the family names "coupled_settled_..."
// instead of "coupled_...", and the peers are left out (the main binary
// measures them), so that one run shows both protocols next to the peers.

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>

// --- the futex strategy's waits, counted --------------------------------------
//
// The pthread adapter lets a program replace its futex(2) calls and its yield
// (COUPLED_PTHREAD_FUTEX_WAIT, COUPLED_PTHREAD_FUTEX_WAKE,
// COUPLED_PTHREAD_YIELD).  Here each also counts, per thread, what a waiting
// round is made of, for the oversubscribed futex tail (docs/benchmarks.md):
// busy turns (yields), sleeps (FUTEX_WAIT calls) and the time spent in them,
// FUTEX_WAKE calls, and the wake-up latency: from a FUTEX_WAKE call to the
// return of the sleeper it woke.  The fast path (a wait that ends in its
// busy turns) pays one thread-local increment per turn; a sleep or a wake
// pays two or one clock reads beside its system call.
namespace bench_wait
{
struct counts {
	uint64_t yields, sleeps, sleep_ns, wakes, latency_ns, latency_n;
};
thread_local counts t_counts;

// The time of the last FUTEX_WAKE of each wake counter, hashed by address
// (a collision only blurs the latency statistic).
constexpr unsigned kStamps = 4093;
std::atomic<uint64_t> g_wake_stamp[kStamps];

inline unsigned stamp_of(const void *word)
{
	return static_cast<unsigned>((reinterpret_cast<uintptr_t>(word) >> 2) %
				     kStamps);
}

// The clock of the rest of the benchmark (CLOCK_MONOTONIC on Linux).
inline uint64_t now_ns()
{
	return static_cast<uint64_t>(
		std::chrono::duration_cast<std::chrono::nanoseconds>(
			std::chrono::steady_clock::now().time_since_epoch())
			.count());
}

// An emulated slow host (coupled_slow_wake): every sleep that a wake ended
// returns this many ns later, as from a vCPU that the host runs late.  0
// everywhere else.
std::atomic<uint64_t> g_wake_delay_ns;

inline void futex_wait(void *word, uint32_t val, const struct timespec *timeout)
{
	const uint64_t t0 = now_ns();
	const long woken_up = syscall(SYS_futex, static_cast<uint32_t *>(word),
				      FUTEX_WAIT_PRIVATE, val, timeout, nullptr,
				      0);
	// relaxed: set before the case's threads start (Setup).
	const uint64_t delay = g_wake_delay_ns.load(std::memory_order_relaxed);

	if (woken_up == 0 && delay) {
		struct timespec d = { 0, static_cast<long>(delay) };

		(void)nanosleep(&d, nullptr);
	}
	const uint64_t t1 = now_ns();
	// relaxed: a statistic; the futex orders the wake itself.
	const uint64_t woken =
		g_wake_stamp[stamp_of(word)].load(std::memory_order_relaxed);

	t_counts.sleeps++;
	t_counts.sleep_ns += t1 - t0;
	if (woken >= t0 && woken <= t1) {
		t_counts.latency_ns += t1 - woken;
		t_counts.latency_n++;
	}
}

inline void futex_wake(void *word)
{
	// relaxed: a statistic, read by the sleeper after its futex returns.
	g_wake_stamp[stamp_of(word)].store(now_ns(), std::memory_order_relaxed);
	t_counts.wakes++;
	(void)syscall(SYS_futex, static_cast<uint32_t *>(word),
		      FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

inline void yield()
{
	t_counts.yields++;
	(void)sched_yield();
}
} // namespace bench_wait

#define COUPLED_PTHREAD_FUTEX_WAIT(word, val, timeout) \
	bench_wait::futex_wait((void *)(word), (val), (timeout))
#define COUPLED_PTHREAD_FUTEX_WAKE(word) bench_wait::futex_wake((void *)(word))
#define COUPLED_PTHREAD_YIELD() bench_wait::yield()

#include "coupled/coupled.h"
#include "coupled/domain.h"

#include <benchmark/benchmark.h>
#include <pthread.h>
#include <sys/resource.h>

#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "baseline/seed_baseline.h"
#include "peers/ck_peers.h"

#if defined(COUPLED_BENCH_SETTLED_TWIN) && COUPLED_BENCH_SETTLED_TWIN
#if !COUPLED_PROTOCOL_SETTLED
#error "the settled twin needs COUPLED_PROTOCOL_SETTLED=1"
#endif
#define BENCH_TWIN 1
#else
#define BENCH_TWIN 0
#endif
// Built once more with COUPLED_BENCH_NOUSDT_TWIN=1 and COUPLED_PTHREAD_USDT=0
// (coupled_bench_nousdt): the spin cases without the adapter's USDT probes,
// as "coupled_nousdt_...", for the probes' cost (docs/benchmarks.md).
#if defined(COUPLED_BENCH_NOUSDT_TWIN) && COUPLED_BENCH_NOUSDT_TWIN
#if COUPLED_PTHREAD_USDT
#error "the no-USDT twin needs COUPLED_PTHREAD_USDT=0"
#endif
#define BENCH_NOUSDT 1
#else
#define BENCH_NOUSDT 0
#endif

namespace
{

// The coupled families' prefix: "coupled_" in the main binary,
// "coupled_settled_" in the settled twin, "coupled_nousdt_" in the no-USDT
// one.
const std::string kCoupled = BENCH_TWIN     ? "coupled_settled_"
			     : BENCH_NOUSDT ? "coupled_nousdt_"
					    : "coupled_";

constexpr int kMaxThreads = 64;
// The sparse group's capacity (coupled_capacity case).
constexpr uint32_t kSparseCapacity = 4096;
const int kThreadCounts[] = { 1, 2, 4, 8, 16 };

// --- shared objects, rebuilt by each benchmark's Setup -----------------------

// Each group starts a cache line: the direct protocol keeps the requests of
// its first members in the line of the group's word (coupled/direct.h).
alignas(64) struct coupled_group g_group;
struct coupled_slot g_slots[kMaxThreads];
struct coupled_slot g_sparse_slots[kSparseCapacity];
pthread_barrier_t g_pbarrier;
bool g_pbarrier_live = false;
std::unique_ptr<std::barrier<>> g_stdbarrier;
struct seed_group g_seed;
seed_atomic_u32 g_seed_stop;

// The CPUs the process may run on, read once before any thread is pinned.
std::vector<int> g_cpus;

void read_cpus()
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			g_cpus.push_back(c);
}

long oversub_iters()
{
	const char *s = std::getenv("COUPLED_BENCH_OVERSUB_ITERS");
	long v = s ? std::strtol(s, nullptr, 10) : 0;
	return v > 0 ? v : 5;
}

unsigned ncpus()
{
	if (!g_cpus.empty())
		return static_cast<unsigned>(g_cpus.size());
	unsigned n = std::thread::hardware_concurrency();
	return n ? n : 1;
}

// The calling thread's context switches when its loop started (pin()).
thread_local struct rusage t_usage_start;

// --- the placement of each 2-thread repetition --------------------------------

// On a virtual machine the two vCPUs move between host cores, and with them
// the cost of a cache-line hand-off (26 ns in one run, 61-67 or 208 ns in
// others, sometimes changing within a run).  A floor measured once per run
// cannot say where a given repetition ran, so every 2-thread case measures
// its own: floor_probe() bounces a line of its own between the two pinned
// threads right before the timed loop (pin()) and right after it
// (report_rounds()), and thread 0 reports the one-way hand-off of each as
// floor_ns and floor_after_ns.  The report groups repetitions by that floor
// (bench/tools/results.py) and judges each placement on its own.
struct alignas(64) probe_line {
	std::atomic<uint32_t> v;
	char pad[64 - sizeof(std::atomic<uint32_t>)];
};
probe_line g_probe;

// Round trips before the timed ones (the other thread may start late) and
// timed round trips: about 0.1 to 0.5 ms per probe at 26 to 210 ns a hand-off.
constexpr unsigned kProbeWarm = 64, kProbeTimed = 1000;

// Does this case measure its placement?  Two threads on at least 2 CPUs.
bool probes_placement(const benchmark::State &st)
{
	return st.threads() == 2 && ncpus() >= 2;
}

// Both threads of a 2-thread case call this at the same point; each takes
// its turn kProbeWarm + kProbeTimed times (thread 0 moves an even value to
// odd, thread 1 an odd one to even), so the line's value is even again after
// every probe and no reset is needed between cases.  Returns thread 0's
// one-way hand-off in ns (0 on thread 1).
double floor_probe(const benchmark::State &st)
{
	const uint32_t parity = static_cast<uint32_t>(st.thread_index()) & 1u;
	std::chrono::steady_clock::time_point t0;

	for (unsigned i = 0; i < kProbeWarm + kProbeTimed; i++) {
		if (i == kProbeWarm)
			t0 = std::chrono::steady_clock::now();
		// acquire: the other thread's store, the turn it hands over.
		uint32_t v = g_probe.v.load(std::memory_order_acquire);

		while ((v & 1u) != parity) {
			coupled_cpu_relax();
			v = g_probe.v.load(std::memory_order_acquire);
		}
		// release: pairs with the other thread's acquire load.
		g_probe.v.store(v + 1u, std::memory_order_release);
	}
	if (parity)
		return 0;
	std::chrono::duration<double, std::nano> d =
		std::chrono::steady_clock::now() - t0;
	return d.count() / (2.0 * kProbeTimed);
}

thread_local double t_floor_before;

// Pinning is on unless COUPLED_BENCH_PIN=0.
bool pin_enabled()
{
	static const bool enabled = [] {
		const char *s = std::getenv("COUPLED_BENCH_PIN");
		return !(s && std::strcmp(s, "0") == 0);
	}();
	return enabled && !g_cpus.empty();
}

// Pin the calling benchmark thread to CPU (thread index mod CPUs), unless
// COUPLED_BENCH_PIN=0.  Google Benchmark starts fresh threads for every run,
// so every benchmark function calls this before its loop.  Without it two
// spinning threads on a loaded 2-CPU machine often share one CPU, and each
// round then costs a scheduler time slice.  Also notes the thread's context
// switches so far, for report_rounds(), and in a pinned 2-thread case
// measures the placement's floor (floor_probe()).
void pin(benchmark::State &st)
{
	cpu_set_t set;

	if (pin_enabled()) {
		CPU_ZERO(&set);
		CPU_SET(g_cpus[static_cast<size_t>(st.thread_index()) %
			       g_cpus.size()],
			&set);
		(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (probes_placement(st))
			t_floor_before = floor_probe(st);
	}
	// Last: the probe's switches and turns are not the case's.
	bench_wait::t_counts = bench_wait::counts();
	if (getrusage(RUSAGE_THREAD, &t_usage_start) != 0)
		std::memset(&t_usage_start, 0, sizeof(t_usage_start));
}

// Every thread's wait counts (bench_wait), summed over the threads: per
// round (scaled like the context switches below: kAvgIterations divides by
// the iterations of all threads) the busy turns, the sleeps, the time asleep
// and the FUTEX_WAKE calls; and the sum and number of the measured wake-up
// latencies (plain sums; the report divides them).
void report_waits(benchmark::State &st, const bench_wait::counts &c)
{
	const double threads = st.threads();
	const auto per_round = [&](const char *name, uint64_t v) {
		st.counters[name] =
			benchmark::Counter(static_cast<double>(v) * threads,
					   benchmark::Counter::kAvgIterations);
	};

	per_round("yields_per_round", c.yields);
	per_round("sleeps_per_round", c.sleeps);
	per_round("sleep_ns_per_round", c.sleep_ns);
	per_round("futex_wakes_per_round", c.wakes);
	st.counters["wake_latency_ns_sum"] = static_cast<double>(c.latency_ns);
	st.counters["wake_latency_n"] = static_cast<double>(c.latency_n);
}

// Thread 0 reports wall-clock nanoseconds per round (see the header
// comment), and in a pinned 2-thread case the floor before the loop and after
// it (floor_probe()).  Every thread reports its voluntary and involuntary context
// switches since pin() (getrusage(RUSAGE_THREAD), Linux): Google Benchmark
// sums a counter over the threads and kAvgIterations divides the sum by the
// iterations of all threads, so each thread's count is scaled by the thread
// count, and vcsw_per_round / ivcsw_per_round come out as the switches of
// all the threads per round.  (The few switches of Google Benchmark's own
// start and stop of the threads are included.)
void report_rounds(benchmark::State &st)
{
	struct rusage now;
	// First: the probe's switches and turns are not the case's.
	const bool usage = getrusage(RUSAGE_THREAD, &now) == 0;
	const bench_wait::counts counts = bench_wait::t_counts;

	if (probes_placement(st) && pin_enabled()) {
		double after = floor_probe(st);

		if (st.thread_index() == 0) {
			st.counters["floor_ns"] = t_floor_before;
			st.counters["floor_after_ns"] = after;
		}
	}
	if (st.thread_index() == 0)
		st.counters["ns_per_round"] = benchmark::Counter(
			static_cast<double>(st.iterations()) * 1e-9,
			benchmark::Counter::kIsRate |
				benchmark::Counter::kInvert);
	if (!usage)
		return;
	const double threads = st.threads();
	st.counters["vcsw_per_round"] = benchmark::Counter(
		static_cast<double>(now.ru_nvcsw - t_usage_start.ru_nvcsw) *
			threads,
		benchmark::Counter::kAvgIterations);
	st.counters["ivcsw_per_round"] = benchmark::Counter(
		static_cast<double>(now.ru_nivcsw - t_usage_start.ru_nivcsw) *
			threads,
		benchmark::Counter::kAvgIterations);
	report_waits(st, counts);
}

void empty_action(const struct coupled_round *, void *)
{
}

// Between an aborted call and the next: the adapter's relax (a pause for
// spin, sched_yield() otherwise), so that retrying participants do not starve
// a membership changer of CPU time.
void backoff()
{
	coupled_adapter_relax(coupled_group_adapter(&g_group));
}

void members_action(const struct coupled_round *r, void *ctx)
{
	*static_cast<uint32_t *>(ctx) = r->members;
}

template <int Strategy> void setup_coupled(const benchmark::State &st)
{
	uint32_t n = static_cast<uint32_t>(st.threads());

	if (coupled_group_init(&g_group, g_slots, n, n, nullptr) != 0 ||
	    coupled_pthread_set_strategy(coupled_group_adapter(&g_group),
					 Strategy) != 0) {
		std::fprintf(stderr, "coupled setup failed\n");
		std::abort();
	}
}

// A group of Capacity slots whose first st.threads() are members: the same
// rounds as setup_coupled() when Capacity == threads, a sparse group when it
// is much larger.
template <int Strategy, uint32_t Capacity>
void setup_coupled_capacity(const benchmark::State &st)
{
	static_assert(Capacity <= kSparseCapacity, "capacity too large");
	uint32_t n = static_cast<uint32_t>(st.threads());

	if (n > Capacity ||
	    coupled_group_init(&g_group, g_sparse_slots, Capacity, n,
			       nullptr) != 0 ||
	    coupled_pthread_set_strategy(coupled_group_adapter(&g_group),
					 Strategy) != 0) {
		std::fprintf(stderr, "coupled capacity setup failed\n");
		std::abort();
	}
}

// --- coupled cases -----------------------------------------------------------

// A full round: enter, empty action, exit.
void BM_coupled_round(benchmark::State &st)
{
	pin(st);
	const uint32_t self = static_cast<uint32_t>(st.thread_index());
	unsigned long failed = 0;

	for (auto _ : st) {
		if (coupled_enter(&g_group, self, 0, empty_action, nullptr) !=
		    COUPLED_COMMITTED)
			failed++;
	}
	report_rounds(st);
	st.counters["failed"] = static_cast<double>(failed);
}

// The caller-abort check of participant 0: fires once per armed call.
bool abort_once(void *arg, uint32_t)
{
	bool *armed = static_cast<bool *>(arg);

	if (!*armed)
		return false;
	*armed = false;
	return true;
}

// A round in which participant 0 aborts once and then enters again; the
// others wait, back out if they were ready (settled), and retry.  The armed
// call must abort: both protocols poll the abort sources before the call can
// be part of a commit (direct: before its arrival; settled: in phase 1).
// Were it to commit, that call is the iteration's round, so that every
// participant still commits exactly one round per iteration, and
// aborts_per_round falls below 1.
void BM_coupled_abort_retry(benchmark::State &st)
{
	pin(st);
	const uint32_t self = static_cast<uint32_t>(st.thread_index());
	bool armed = false;
	struct coupled_abort_opts opts;
	unsigned long aborts = 0;

	std::memset(&opts, 0, sizeof(opts));
	opts.should_abort = abort_once;
	opts.abort_arg = &armed;
	for (auto _ : st) {
		if (self == 0) {
			armed = true;
			if (coupled_enter_opts(&g_group, self, 0, empty_action,
					       nullptr,
					       &opts) == COUPLED_COMMITTED)
				continue;
			aborts++;
		}
		while (coupled_enter(&g_group, self, 0, empty_action,
				     nullptr) != COUPLED_COMMITTED)
			backoff();
	}
	report_rounds(st);
	if (self == 0)
		st.counters["aborts_per_round"] =
			benchmark::Counter(static_cast<double>(aborts),
					   benchmark::Counter::kAvgIterations);
}

// One full round, then the last participant leaves and joins again.  The
// others count only rounds with every member in (they may commit rounds of
// the smaller group while it is out, and abort on the membership change).
void BM_coupled_join_leave(benchmark::State &st)
{
	pin(st);
	const uint32_t self = static_cast<uint32_t>(st.thread_index());
	const uint32_t n = static_cast<uint32_t>(st.threads());
	const bool changer = self == n - 1;
	unsigned long extra = 0;

	for (auto _ : st) {
		uint32_t members = 0;

		for (;;) {
			int r = coupled_enter(&g_group, self, 0, members_action,
					      &members);
			if (r == COUPLED_COMMITTED && members == n)
				break;
			extra++;
			if (r != COUPLED_COMMITTED)
				backoff();
		}
		if (changer) {
			if (coupled_leave(&g_group, self) != 0 ||
			    coupled_join(&g_group, self) != 0) {
				std::fprintf(stderr, "join/leave failed\n");
				std::abort();
			}
		}
	}
	report_rounds(st);
	st.counters["extra_calls"] = benchmark::Counter(
		static_cast<double>(extra), benchmark::Counter::kAvgIterations);
}

// A late partner: 2 threads, the futex strategy, and participant 1 busy for
// st.range(0) microseconds before each call, so that participant 0 waits that
// long in every round.  Where the wait outlasts the spin phase, participant
// 0 sleeps and its round pays a wake-up on top (sleeps_per_round,
// wake_latency_ns_*): the round minus the delay (extra_ns) is what the wait
// policy costs for a partner that late.
void BM_coupled_late_partner(benchmark::State &st)
{
	pin(st);
	const uint32_t self = static_cast<uint32_t>(st.thread_index());
	const auto delay = std::chrono::microseconds(st.range(0));
	unsigned long failed = 0;

	for (auto _ : st) {
		if (self == 1) {
			const auto until =
				std::chrono::steady_clock::now() + delay;

			while (std::chrono::steady_clock::now() < until)
				coupled_cpu_relax();
		}
		if (coupled_enter(&g_group, self, 0, empty_action, nullptr) !=
		    COUPLED_COMMITTED)
			failed++;
	}
	report_rounds(st);
	st.counters["failed"] = static_cast<double>(failed);
	if (self == 0)
		st.counters["delay_ns"] =
			static_cast<double>(st.range(0)) * 1e3;
}

// coupled_slow_wake/futex/<delay_us>/<cap_us>: a host whose wake-ups are
// slow, emulated: every futex sleep that a wake ended returns <delay_us>
// late (bench_wait::g_wake_delay_ns), and participant 1 is off its CPU for
// kHiccupUs every kHiccupEvery rounds (a host hiccup), which makes the
// others sleep.  <cap_us> is the group's spin extension cap
// (coupled_pthread_set_spin_extension()): 0 is the spin phase of turns
// alone, where a sleeper is late for the next round, whose waiters then
// sleep too (a sleep convoy); the default lets the spin phase outlast the
// measured wake-up cost.
constexpr unsigned long kHiccupEvery = 4096;
constexpr long kHiccupUs = 2000;

void setup_slow_wake(const benchmark::State &st)
{
	setup_coupled<COUPLED_PTHREAD_FUTEX>(st);
	if (coupled_pthread_set_spin_extension(
		    coupled_group_adapter(&g_group),
		    static_cast<uint32_t>(st.range(1))) != 0) {
		std::fprintf(stderr, "coupled setup failed\n");
		std::abort();
	}
	// relaxed: the threads start after Setup.
	bench_wait::g_wake_delay_ns.store(static_cast<uint64_t>(st.range(0)) *
						  1000u,
					  std::memory_order_relaxed);
}

void teardown_slow_wake(const benchmark::State &)
{
	// relaxed: the threads have ended.
	bench_wait::g_wake_delay_ns.store(0, std::memory_order_relaxed);
}

void BM_coupled_slow_wake(benchmark::State &st)
{
	pin(st);
	const uint32_t self = static_cast<uint32_t>(st.thread_index());
	unsigned long failed = 0, round = 0;

	for (auto _ : st) {
		if (self == 1 && ++round % kHiccupEvery == 0) {
			struct timespec d = { 0, kHiccupUs * 1000 };

			(void)nanosleep(&d, nullptr);
		}
		if (coupled_enter(&g_group, self, 0, empty_action, nullptr) !=
		    COUPLED_COMMITTED)
			failed++;
	}
	report_rounds(st);
	st.counters["failed"] = static_cast<double>(failed);
}

// --- coupled domains (coupled/domain.h) -------------------------------------

// A 2-level domain of the benchmark's N threads: a root over two leaves of
// N/2 cores each (thread i: leaf i / (N/2), core i % (N/2)).
alignas(64) struct coupled_group g_dom_root_group;
struct coupled_slot g_dom_root_slots[kMaxThreads];
alignas(64) struct coupled_group g_dom_leaf_group[2];
struct coupled_slot g_dom_leaf_slots[2][kMaxThreads / 2];
struct coupled_domain g_dom_root;
struct coupled_domain g_dom_leaf[2];

template <int Strategy> void setup_domain(const benchmark::State &st)
{
	uint32_t n = static_cast<uint32_t>(st.threads()), half = n / 2;
	int r = n < 2 || n % 2 ? COUPLED_EINVAL : 0;

	if (!r)
		r = coupled_group_init(&g_dom_root_group, g_dom_root_slots, n,
				       n, nullptr);
	if (!r)
		r = coupled_domain_init(&g_dom_root, &g_dom_root_group,
					nullptr);
	if (!r)
		r = coupled_pthread_set_strategy(
			coupled_group_adapter(&g_dom_root_group), Strategy);
	for (int i = 0; i < 2 && !r; i++) {
		r = coupled_group_init(&g_dom_leaf_group[i],
				       g_dom_leaf_slots[i], half, half,
				       nullptr);
		if (!r)
			r = coupled_domain_init(&g_dom_leaf[i],
						&g_dom_leaf_group[i],
						&g_dom_root);
		if (!r)
			r = coupled_pthread_set_strategy(
				coupled_group_adapter(&g_dom_leaf_group[i]),
				Strategy);
	}
	if (r) {
		std::fprintf(stderr, "coupled domain setup failed: %s\n",
			     coupled_strerror(r));
		std::abort();
	}
}

void domain_action(const struct coupled_domain_round *r, void *ctx)
{
	*static_cast<uint32_t *>(ctx) = r->depth;
}

// One call of coupled_domain_enter() per core and iteration, every request
// allowing the root: the leaf's round always commits (every core of the
// leaf calls), the root's when both leaves reach it together (the level is
// opportunistic: a leaf whose other half is not in a call gives it up).
// ns_per_round is per call, as coupled_round's per round of a flat group of
// the same N threads; root_committed is the fraction of calls in which the
// root committed too.
void BM_coupled_domain_round(benchmark::State &st)
{
	pin(st);
	const uint32_t self = static_cast<uint32_t>(st.thread_index());
	const uint32_t half = static_cast<uint32_t>(st.threads()) / 2;
	struct coupled_domain *leaf = &g_dom_leaf[self / half];
	const int32_t requests[2] = { 0, 0 };
	unsigned long failed = 0, root = 0;

	for (auto _ : st) {
		uint32_t depth = 0;

		if (coupled_domain_enter(leaf, self % half, requests,
					 domain_action,
					 &depth) != COUPLED_COMMITTED)
			failed++;
		else if (depth == 2)
			root++;
	}
	report_rounds(st);
	st.counters["failed"] = static_cast<double>(failed);
	// Summed over the threads, divided by the iterations of all of them.
	st.counters["root_committed"] = benchmark::Counter(
		static_cast<double>(root), benchmark::Counter::kAvgIterations);
}

// --- peers -------------------------------------------------------------------

void setup_pthread_barrier(const benchmark::State &st)
{
	if (g_pbarrier_live)
		pthread_barrier_destroy(&g_pbarrier);
	pthread_barrier_init(&g_pbarrier, nullptr,
			     static_cast<unsigned>(st.threads()));
	g_pbarrier_live = true;
}

void BM_pthread_barrier(benchmark::State &st)
{
	pin(st);
	for (auto _ : st)
		pthread_barrier_wait(&g_pbarrier);
	report_rounds(st);
}

void setup_std_barrier(const benchmark::State &st)
{
	g_stdbarrier = std::make_unique<std::barrier<>>(st.threads());
}

void BM_std_barrier(benchmark::State &st)
{
	pin(st);
	for (auto _ : st)
		g_stdbarrier->arrive_and_wait();
	report_rounds(st);
}

template <int Kind> void setup_ck(const benchmark::State &st)
{
	if (ck_peer_setup(Kind, static_cast<unsigned>(st.threads())) != 0) {
		std::fprintf(stderr, "ck setup failed\n");
		std::abort();
	}
}

template <int Kind> void BM_ck(benchmark::State &st)
{
	pin(st);
	const unsigned self = static_cast<unsigned>(st.thread_index());

	for (auto _ : st)
		ck_peer_wait(Kind, self);
	report_rounds(st);
}

void seed_empty_action(void *)
{
}

template <int Relax> void setup_seed(const benchmark::State &st)
{
	g_seed_stop.store(0);
	seed_group_init(&g_seed, static_cast<uint32_t>(st.threads()), Relax,
			SEED_VARIANT_GEN, &g_seed_stop);
}

// The seed baseline in its SEED_VARIANT_GEN form (seed_baseline.h): four RMWs
// per round, correct without aborts.  The stop flag is a safety net only: the
// first thread to finish sets it, and a participant left behind (which should
// not happen in this variant) leaves instead of hanging; missed_rounds counts
// such calls.
void BM_seed(benchmark::State &st)
{
	pin(st);
	unsigned long missed = 0;

	for (auto _ : st) {
		if (seed_enter(&g_seed, seed_empty_action, nullptr) !=
		    SEED_COMMITTED)
			missed++;
	}
	g_seed_stop.store(1);
	report_rounds(st);
	st.counters["missed_rounds"] = static_cast<double>(missed);
}

// --- the floor: one cache line bounced between two threads -----------------

// The ping-pong line, alone in its cache line.
struct alignas(64) ping_line {
	std::atomic<uint32_t> v;
	char pad[64 - sizeof(std::atomic<uint32_t>)];
};
ping_line g_ping;

void setup_pingpong(const benchmark::State &)
{
	g_ping.v.store(0, std::memory_order_relaxed);
}

// Two threads take turns on one line: thread 0 moves an even value to odd,
// thread 1 an odd one to even, each after seeing the other's store.  One
// iteration is a round trip, two one-way hand-offs of the line between the
// two CPUs: handoff_ns (thread 0's iterations as a rate, inverted) is half
// an iteration, the floor that every cross-CPU round pays per line
// transfer.  cpu_t0 and cpu_t1: the CPU each thread was on at the end
// (sched_getcpu()), so the report can say which CPUs were measured.
void BM_pingpong(benchmark::State &st)
{
	pin(st);
	const uint32_t parity = static_cast<uint32_t>(st.thread_index()) & 1u;

	for (auto _ : st) {
		// acquire: the other thread's store, the turn it hands over.
		uint32_t v = g_ping.v.load(std::memory_order_acquire);

		while ((v & 1u) != parity) {
			coupled_cpu_relax();
			v = g_ping.v.load(std::memory_order_acquire);
		}
		// release: pairs with the other thread's acquire load.
		g_ping.v.store(v + 1u, std::memory_order_release);
	}
	report_rounds(st);
	if (st.thread_index() == 0)
		st.counters["handoff_ns"] = benchmark::Counter(
			static_cast<double>(st.iterations()) * 2e-9,
			benchmark::Counter::kIsRate |
				benchmark::Counter::kInvert);
	st.counters["cpu_t" + std::to_string(st.thread_index())] =
		static_cast<double>(sched_getcpu());
}

// --- registration --------------------------------------------------------------

// Common options; oversubscribed pure spinners get a fixed iteration count
// and one repetition.
void configure(benchmark::internal::Benchmark *b, int threads, bool spinner)
{
	b->Threads(threads)->UseRealTime();
	if (spinner && static_cast<unsigned>(threads) > ncpus())
		b->Iterations(oversub_iters())->Repetitions(1);
}

// Register @fn as @name, set up by @setup, at @threads threads (configure()).
void add(const std::string &name, void (*fn)(benchmark::State &),
	 void (*setup)(const benchmark::State &), int threads, bool spinner)
{
	configure(benchmark::RegisterBenchmark(name.c_str(), fn)->Setup(setup),
		  threads, spinner);
}

template <int Strategy> void register_coupled(const char *strategy_name)
{
	const bool spinner = Strategy == COUPLED_PTHREAD_SPIN;
	std::string s(strategy_name);

	for (int t : kThreadCounts) {
		add(kCoupled + "round/" + s, BM_coupled_round,
		    setup_coupled<Strategy>, t, spinner);
		add(kCoupled + "abort_retry/" + s, BM_coupled_abort_retry,
		    setup_coupled<Strategy>, t, spinner);
		add(kCoupled + "join_leave/" + s, BM_coupled_join_leave,
		    setup_coupled<Strategy>, t, spinner);
	}
	add(kCoupled + "uncontended/" + s, BM_coupled_round,
	    setup_coupled<Strategy>, 1, spinner);
	// Two leaves need an even number of threads, at least 2.
	for (int t : kThreadCounts)
		if (t >= 2)
			add(kCoupled + "domain_round/" + s,
			    BM_coupled_domain_round, setup_domain<Strategy>, t,
			    spinner);
}

template <int Kind> void register_ck()
{
	for (int t : kThreadCounts)
		add(ck_peer_name(Kind), BM_ck<Kind>, setup_ck<Kind>, t, true);
}

// A full round of 4 members in a group of capacity 4 and of capacity 4,096,
// futex strategy (4 threads exceed 2 CPUs; pure spinning would measure the
// scheduler): the rounds differ only in the slots that are not members.
void register_capacity()
{
	add(kCoupled + "capacity/4/futex", BM_coupled_round,
	    setup_coupled_capacity<COUPLED_PTHREAD_FUTEX, 4>, 4, false);
	add(kCoupled + "capacity/4096/futex", BM_coupled_round,
	    setup_coupled_capacity<COUPLED_PTHREAD_FUTEX, kSparseCapacity>, 4,
	    false);
}

void register_all()
{
	register_coupled<COUPLED_PTHREAD_SPIN>("spin");
	if (BENCH_NOUSDT)
		return;
	register_coupled<COUPLED_PTHREAD_FUTEX>("futex");
	register_coupled<COUPLED_PTHREAD_CONDVAR>("condvar");
	register_capacity();
	if (BENCH_TWIN)
		return;
	add("pingpong", BM_pingpong, setup_pingpong, 2, true);
	// The partner's delays, in microseconds: around the spin phase of the
	// futex strategy (docs/benchmarks.md, "a late partner").
	for (int64_t us : { 0, 50, 100, 150, 250, 400 })
		configure(benchmark::RegisterBenchmark(
				  (kCoupled + "late_partner/futex").c_str(),
				  BM_coupled_late_partner)
				  ->Setup(setup_coupled<COUPLED_PTHREAD_FUTEX>)
				  ->Arg(us),
			  2, false);
	// Wake-up delays around the spin phase, with no extension and the
	// default cap (docs/benchmarks.md, "a host with slow wake-ups").  A
	// fixed length, 2 hiccups a repetition: a convoy costs ms per round,
	// and a timed run sized from its fast start would last minutes.
	for (int64_t us : { 0, 1000, 3000 })
		for (int64_t cap :
		     { int64_t(0), int64_t(COUPLED_PTHREAD_SPIN_MAX_US) })
			benchmark::RegisterBenchmark(
				(kCoupled + "slow_wake/futex").c_str(),
				BM_coupled_slow_wake)
				->Setup(setup_slow_wake)
				->Teardown(teardown_slow_wake)
				->Args({ us, cap })
				->Threads(8)
				->UseRealTime()
				->Iterations(2 * kHiccupEvery)
				->Repetitions(3);
	for (int t : kThreadCounts) {
		add("pthread_barrier", BM_pthread_barrier,
		    setup_pthread_barrier, t, false);
		add("std_barrier", BM_std_barrier, setup_std_barrier, t, false);
		add("seed_baseline/pause", BM_seed,
		    setup_seed<SEED_RELAX_PAUSE>, t, true);
		add("seed_baseline/yield", BM_seed,
		    setup_seed<SEED_RELAX_YIELD>, t, false);
	}
	register_ck<CK_PEER_CENTRALIZED>();
	register_ck<CK_PEER_COMBINING>();
	register_ck<CK_PEER_DISSEMINATION>();
	register_ck<CK_PEER_TOURNAMENT>();
	register_ck<CK_PEER_MCS>();
}

} // namespace

int main(int argc, char **argv)
{
	read_cpus();
	register_all();
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::AddCustomContext("coupled_protocol", COUPLED_PROTOCOL_NAME);
	benchmark::AddCustomContext("coupled_usdt",
				    COUPLED_PTHREAD_USDT ? "yes" : "no");
	benchmark::AddCustomContext("coupled_oversub_iters",
				    std::to_string(oversub_iters()));
	{
		const char *p = std::getenv("COUPLED_BENCH_PIN");
		benchmark::AddCustomContext(
			"coupled_pinned",
			p && std::strcmp(p, "0") == 0 ? "no" : "yes");
	}
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}

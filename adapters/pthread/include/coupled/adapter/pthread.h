/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/adapter/pthread.h - the hosted adapter: POSIX threads.
 *
 * For tests, demos and benchmarks.  Participants are threads; the "safe
 * state" is one of three wait strategies, chosen per group before the threads
 * start (coupled_pthread_set_strategy()):
 *
 *   COUPLED_PTHREAD_SPIN     busy-wait with the CPU's pause hint; lowest
 *                            latency when every thread has a core of its own,
 *                            impractical when oversubscribed.
 *   COUPLED_PTHREAD_FUTEX    spin a little, then sleep in futex(2) on a
 *                            per-participant word (Linux only; elsewhere it
 *                            behaves as CONDVAR).  The default on Linux.
 *   COUPLED_PTHREAD_CONDVAR  portable: a mutex and a condition variable per
 *                            participant.
 *
 * A wake bumps the target's wake sequence and wakes it the strategy's way.
 * "Work pending" (the need_resched() analog) is injectable: tests raise and
 * clear a per-participant work count, like a simulated interrupt, and may
 * also install a callback.  The clock is CLOCK_MONOTONIC in nanoseconds.
 *
 * Selected with -DCOUPLED_ADAPTER_PTHREAD (coupled/adapter.h then includes
 * this file).  The adapter contract is documented in docs/adapters.md.
 */
#ifndef COUPLED_ADAPTER_PTHREAD_H
#define COUPLED_ADAPTER_PTHREAD_H

#ifndef COUPLED__ADAPTER_SELECTING
#error "do not include <coupled/adapter/pthread.h> directly: define COUPLED_ADAPTER_PTHREAD and include <coupled/coupled.h>"
#endif

/*
 * POSIX and Linux interfaces (clock_gettime, pthread_condattr_setclock,
 * syscall) are hidden by a strict -std=c11 unless a feature-test macro was
 * defined before the first system header; the CMake target defines
 * _DEFAULT_SOURCE for this adapter.  C++ compilers define _GNU_SOURCE.
 */
#if !defined(_DEFAULT_SOURCE) && !defined(_GNU_SOURCE)
#error "the pthread adapter needs -D_DEFAULT_SOURCE (or _GNU_SOURCE) with -std=c11"
#endif

#ifdef __cplusplus
#include <atomic>
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#define COUPLED_PTHREAD_HAVE_FUTEX 1
#else
#define COUPLED_PTHREAD_HAVE_FUTEX 0
#endif

#include <coupled/atomic.h>
#include <coupled/errno.h>
#include <coupled/relax.h>
#include <coupled/types.h>

#define COUPLED_ADAPTER_NAME "pthread"
/* USDT probes (below): on where the ELF note format is known. */
#ifndef COUPLED_PTHREAD_USDT
#if defined(__ELF__) && (defined(__x86_64__) || defined(__aarch64__)) && \
	(defined(__GNUC__) || defined(__clang__))
#define COUPLED_PTHREAD_USDT 1
#else
#define COUPLED_PTHREAD_USDT 0
#endif
#endif
/*
 * Wake-ups: every strategy counts wakes in a sequence the waiter compares (futex, condvar) or never sleeps (spin).
 */
#define COUPLED_ADAPTER_WAKE_CAN_BE_LOST 0
/* coupled_adapter_wake_is_noop(): true for the spin strategy. */
#define COUPLED_ADAPTER_HAS_WAKE_IS_NOOP 1
/* coupled_adapter_now() is CLOCK_MONOTONIC in nanoseconds. */
#define COUPLED_ADAPTER_HAS_CLOCK 1
/* coupled_adapter_context(): the kernel's thread id, where there is one. */
#if defined(__linux__)
#define COUPLED_ADAPTER_HAS_CONTEXT 1
#else
#define COUPLED_ADAPTER_HAS_CONTEXT 0
#endif
#ifdef __cplusplus
#define COUPLED__PTHREAD_TLS thread_local
#else
#define COUPLED__PTHREAD_TLS _Thread_local
#endif

/**
 * enum coupled_pthread_strategy - how a waiting participant rests
 * @COUPLED_PTHREAD_SPIN: busy-wait with the CPU's pause hint; for threads
 *                        that each have a core of their own
 * @COUPLED_PTHREAD_FUTEX: spin a little, then sleep in futex(2) (Linux;
 *                         elsewhere the same as @COUPLED_PTHREAD_CONDVAR);
 *                         the default where there is futex(2)
 * @COUPLED_PTHREAD_CONDVAR: a mutex and a condition variable per
 *                           participant; portable
 *
 * Chosen per group with coupled_pthread_set_strategy().
 */
enum coupled_pthread_strategy {
	COUPLED_PTHREAD_SPIN = 0,
	COUPLED_PTHREAD_FUTEX = 1,
	COUPLED_PTHREAD_CONDVAR = 2
};

/*
 * Turns of the spin phase of the FUTEX strategy before it sleeps (each a
 * sched_yield(); with a deadline the clock is read between turns).
 */
#ifndef COUPLED_PTHREAD_SPIN_TURNS
#define COUPLED_PTHREAD_SPIN_TURNS 200u
#endif

/*
 * After its turns, the FUTEX strategy's spin phase goes on for twice what
 * its last sleeps cost to wake up from (the participant's own estimate,
 * measured from the waker's FUTEX_WAKE to the sleeper's return), by
 * default at most this many microseconds (a group may set its own cap:
 * coupled_pthread_set_spin_extension()).  Spinning as long as a sleep costs before
 * sleeping bounds a wait at twice its best (the rule of spin-then-block);
 * it keeps a host whose wake-ups are slow from turning every wait into a
 * sleep that makes the sleeper late for the next round (a sleep convoy:
 * docs/benchmarks.md).  0 turns the extension off.
 */
#ifndef COUPLED_PTHREAD_SPIN_MAX_US
#define COUPLED_PTHREAD_SPIN_MAX_US 10000u
#endif

/*
 * The clock of the adapter (coupled_adapter_now()) and of its wake-cost
 * estimate, in nanoseconds, as a macro that a checker may replace with a
 * model before including this file (the Relacy check and the wake-cost
 * test do).
 */
#ifndef COUPLED_PTHREAD_NOW_NS
#define COUPLED_PTHREAD_NOW_NS() coupled__pthread_monotonic_ns()
#endif

/*
 * The yield of the FUTEX and CONDVAR strategies' busy turns, as a macro that
 * a program may replace before including this file (bench/bench_main.cc
 * counts the turns).
 */
#ifndef COUPLED_PTHREAD_YIELD
#define COUPLED_PTHREAD_YIELD() ((void)sched_yield())
#endif

/**
 * typedef coupled_pthread_work_fn - optional extra "work pending" check
 * @arg: the argument given to coupled_pthread_set_work_check()
 * @self: the participant asking
 *
 * Return: true if @self has work and must not enter the shared action.
 */
typedef bool (*coupled_pthread_work_fn)(void *arg, uint32_t self);

/**
 * struct coupled_adapter_group - per-group adapter state
 * @strategy: the wait strategy (enum coupled_pthread_strategy); set before
 *            participants run, read-only afterwards
 * @work_fn: optional extra work check, or NULL
 * @work_arg: argument of @work_fn
 * @spin_max_us: the cap of the futex spin phase's extension, in
 *               microseconds (coupled_pthread_set_spin_extension()); set
 *               before participants run, read-only afterwards
 */
struct coupled_adapter_group {
	enum coupled_pthread_strategy strategy;
	uint32_t spin_max_us;
	coupled_pthread_work_fn work_fn;
	void *work_arg;
};

/**
 * struct coupled_adapter_slot - per-participant adapter state
 * @wake_seq: incremented by every wake; the futex word of the FUTEX strategy
 * @sleeping: 1 while the owner may be asleep in futex(2)
 * @wake_stamp_us: the clock (in microseconds, low 32 bits) of the last
 *                 FUTEX_WAKE of @wake_seq; written by wakers
 * @wake_cost_us: the owner's estimate of what a futex sleep costs to wake
 *                up from, in microseconds (owner only)
 * @work: simulated pending work; > 0 means work is pending
 * @lock: protects the sleep of the CONDVAR strategy
 * @cond: signalled by wakes of the CONDVAR strategy
 */
struct coupled_adapter_slot {
	coupled_atomic_u32 wake_seq;
	coupled_atomic_u32 sleeping;
	coupled_atomic_u32 wake_stamp_us;
	uint32_t wake_cost_us;
	coupled_atomic_u32 work;
	pthread_mutex_t lock;
	pthread_cond_t cond;
#if COUPLED_PTHREAD_USDT
	uint64_t usdt_enter_ns; /* the owner's last traced entry (owner only) */
#endif
};

#if COUPLED_PTHREAD_USDT
/*
 * USDT probes (provider "coupled"): the core's trace points
 * (coupled/trace.h) as SystemTap-style static probes, which bpftrace,
 * perf and bcc attach to without the program's help.  Each probe is one
 * nop and an ELF note (.note.stapsdt) that names it and says where its
 * arguments are; the arguments are all 64-bit, the first the group's
 * address (so a tool can keep per-group tables):
 *
 *   coupled:enter    group self request
 *   coupled:commit   group self generation param members wait_ns
 *   coupled:abort    group self reason wait_ns
 *   coupled:retry, coupled:restart, coupled:join, coupled:leave
 *                    group id
 *   coupled:domain   leaf core depth
 *
 * wait_ns (the call's start to its commit or abort) costs two clock
 * reads, so commit and abort carry a semaphore, one they share: a tracer
 * that attaches to either increments it, and only then are the clocks
 * read (one load and a branch at the start of a call, one at its end).
 * A semaphore must exist once per binary (a tool finds it by the probe's
 * note), but this is a header: it is a weak, hidden definition in every
 * file that includes it, which the linker merges into one per executable
 * or shared object.  The tracer writes it (through the process's memory,
 * outside the C program), hence volatile reads.
 *
 * On by default on x86-64 and AArch64 with GCC or Clang (ELF); elsewhere,
 * or with COUPLED_PTHREAD_USDT defined to 0, the probes are absent.
 * examples/usdt/coupled.bt is a bpftrace script that uses them.
 */
#if defined(__LP64__)
#define COUPLED__PTHREAD_USDT_ADDR ".8byte"
#else
#define COUPLED__PTHREAD_USDT_ADDR ".4byte"
#endif

/*
 * COUPLED__PTHREAD_USDT_NOTE() - the probe site and its note; @name a string
 * literal, @sem the semaphore's symbol as a string ("0" for none), @args
 * the argument specification ("8@%[a0] 8@%[a1]"...).
 */
#define COUPLED__PTHREAD_USDT_NOTE(name, sem, args)                 \
	"990: nop\n"                                                \
	".pushsection .note.stapsdt,\"?\",\"note\"\n"               \
	".balign 4\n"                                               \
	".4byte 992f-991f, 994f-993f, 3\n"                          \
	"991: .asciz \"stapsdt\"\n"                                 \
	"992: .balign 4\n"                                          \
	"993: " COUPLED__PTHREAD_USDT_ADDR " 990b"                  \
	"\n" COUPLED__PTHREAD_USDT_ADDR                             \
	" _.stapsdt.base\n" COUPLED__PTHREAD_USDT_ADDR " " sem "\n" \
	".asciz \"coupled\"\n"                                      \
	".asciz \"" name "\"\n"                                     \
	".asciz \"" args "\"\n"                                     \
	"994: .balign 4\n"                                          \
	".popsection\n"                                             \
	".ifndef _.stapsdt.base\n"                                  \
	".pushsection "                                             \
	".stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n"  \
	".weak _.stapsdt.base\n"                                    \
	".hidden _.stapsdt.base\n"                                  \
	"_.stapsdt.base: .space 1\n"                                \
	".size _.stapsdt.base, 1\n"                                 \
	".popsection\n"                                             \
	".endif\n"

#define COUPLED__PTHREAD_USDT_U64(x) ((uint64_t)(x))
#define COUPLED__PTHREAD_USDT3(name, sem, a, b, c)                         \
	__asm__ __volatile__(COUPLED__PTHREAD_USDT_NOTE(name, sem,         \
							"8@%[a0] 8@%[a1] " \
							"8@%[a2]")         \
			     :                                             \
			     : [a0] "nor"(COUPLED__PTHREAD_USDT_U64(a)),   \
			       [a1] "nor"(COUPLED__PTHREAD_USDT_U64(b)),   \
			       [a2] "nor"(COUPLED__PTHREAD_USDT_U64(c)))
#define COUPLED__PTHREAD_USDT2(name, a, b)                                 \
	__asm__ __volatile__(COUPLED__PTHREAD_USDT_NOTE(name, "0",         \
							"8@%[a0] 8@%[a1]") \
			     :                                             \
			     : [a0] "nor"(COUPLED__PTHREAD_USDT_U64(a)),   \
			       [a1] "nor"(COUPLED__PTHREAD_USDT_U64(b)))

/* The semaphore of commit and abort: one per binary (weak, hidden). */
__attribute__((weak, visibility("hidden"),
	       section(".probes"))) volatile unsigned short
	coupled_pthread_usdt_semaphore;
#define COUPLED__PTHREAD_USDT_WAIT(g, self)   \
	(coupled_adapter_now(&(g)->adapter) - \
	 (g)->slots[(self)].adapter.usdt_enter_ns)

#define COUPLED_TRACE_ENTER(g, self, request)                                \
	do {                                                                 \
		if (__builtin_expect(coupled_pthread_usdt_semaphore, 0))     \
			(g)->slots[(self)].adapter.usdt_enter_ns =           \
				coupled_adapter_now(&(g)->adapter);          \
		COUPLED__PTHREAD_USDT3("enter", "0", (uintptr_t)(g), (self), \
				       (int64_t)(request));                  \
	} while (0)
#define COUPLED_TRACE_COMMIT(round)                                          \
	do {                                                                 \
		uint64_t coupled__w =                                        \
			__builtin_expect(coupled_pthread_usdt_semaphore, 0)  \
				? COUPLED__PTHREAD_USDT_WAIT((round)->group, \
							     (round)->self)  \
				: 0u;                                        \
		__asm__ __volatile__(COUPLED__PTHREAD_USDT_NOTE("commit",    \
								"coupled_"   \
								"pthread_"   \
								"usdt_"      \
								"semaphore", \
								"8@%[a0] "   \
								"8@%[a1] "   \
								"8@%[a2] "   \
								"8@%[a3] "   \
								"8@%[a4] "   \
								"8@%[a5]")   \
				     :                                       \
				     : [a0] "nor"(COUPLED__PTHREAD_USDT_U64( \
					       (uintptr_t)(round)->group)),  \
				       [a1] "nor"(COUPLED__PTHREAD_USDT_U64( \
					       (round)->self)),              \
				       [a2] "nor"(COUPLED__PTHREAD_USDT_U64( \
					       (round)->generation)),        \
				       [a3] "nor"(COUPLED__PTHREAD_USDT_U64( \
					       (int64_t)(round)->param)),    \
				       [a4] "nor"(COUPLED__PTHREAD_USDT_U64( \
					       (round)->members)),           \
				       [a5] "nor"(coupled__w));              \
	} while (0)
#define COUPLED_TRACE_ABORT(g, self, reason)                                  \
	do {                                                                  \
		uint64_t coupled__w =                                         \
			__builtin_expect(coupled_pthread_usdt_semaphore, 0)   \
				? COUPLED__PTHREAD_USDT_WAIT((g), (self))     \
				: 0u;                                         \
		__asm__ __volatile__(                                         \
			COUPLED__PTHREAD_USDT_NOTE("abort",                   \
						   "coupled_pthread_usdt_"    \
						   "semaphore",               \
						   "8@%[a0] 8@%[a1] 8@%[a2] " \
						   "8@%[a3]")                 \
			:                                                     \
			: [a0] "nor"(                                         \
				  COUPLED__PTHREAD_USDT_U64((uintptr_t)(g))), \
			  [a1] "nor"(COUPLED__PTHREAD_USDT_U64(self)),        \
			  [a2] "nor"(COUPLED__PTHREAD_USDT_U64(               \
				  (int64_t)(reason))),                        \
			  [a3] "nor"(coupled__w));                            \
	} while (0)
#define COUPLED_TRACE_RETRY(g, self) \
	COUPLED__PTHREAD_USDT2("retry", (uintptr_t)(g), (self))
#define COUPLED_TRACE_RESTART(g, self) \
	COUPLED__PTHREAD_USDT2("restart", (uintptr_t)(g), (self))
#define COUPLED_TRACE_JOIN(g, id) \
	COUPLED__PTHREAD_USDT2("join", (uintptr_t)(g), (id))
#define COUPLED_TRACE_LEAVE(g, id) \
	COUPLED__PTHREAD_USDT2("leave", (uintptr_t)(g), (id))
#define COUPLED_TRACE_DOMAIN(leaf, core, depth)                          \
	COUPLED__PTHREAD_USDT3("domain", "0", (uintptr_t)(leaf), (core), \
			       (depth))
#endif /* COUPLED_PTHREAD_USDT */

/**
 * coupled_adapter_group_init() - initialise the group's adapter state
 * @ag: adapter state embedded in the group
 * @capacity: the group's capacity (unused)
 *
 * The futex strategy where there is one, else condvar; no work check; the
 * spin phase's extension capped at COUPLED_PTHREAD_SPIN_MAX_US.
 *
 * Context: called once by coupled_group_init(), before any thread runs.
 */
static inline void coupled_adapter_group_init(struct coupled_adapter_group *ag,
					      uint32_t capacity)
{
	(void)capacity;
	ag->strategy = COUPLED_PTHREAD_HAVE_FUTEX ? COUPLED_PTHREAD_FUTEX
						  : COUPLED_PTHREAD_CONDVAR;
	ag->work_fn = 0;
	ag->work_arg = 0;
	ag->spin_max_us = COUPLED_PTHREAD_SPIN_MAX_US;
}

/**
 * coupled_adapter_slot_init() - initialise one participant's adapter state
 * @ag: the group's adapter state (unused)
 * @as: adapter state embedded in the participant's slot
 * @id: the participant's id (unused)
 *
 * Context: called by coupled_group_init() for every id, before any thread
 * runs.
 */
static inline void coupled_adapter_slot_init(struct coupled_adapter_group *ag,
					     struct coupled_adapter_slot *as,
					     uint32_t id)
{
	pthread_condattr_t attr;

	(void)ag;
	(void)id;
	coupled_atomic_init(&as->wake_seq, 0u);
	coupled_atomic_init(&as->sleeping, 0u);
	coupled_atomic_init(&as->wake_stamp_us, 0u);
	as->wake_cost_us = 0u;
	coupled_atomic_init(&as->work, 0u);
	pthread_mutex_init(&as->lock, 0);
	/* Timed waits use the same clock as coupled_adapter_now(). */
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&as->cond, &attr);
	pthread_condattr_destroy(&attr);
}

/**
 * coupled_pthread_set_strategy() - choose how a group's participants wait
 * @ag: the group's adapter state (coupled_group_adapter())
 * @strategy: one of enum coupled_pthread_strategy
 *
 * Context: after coupled_group_init(), before any participant runs.
 * Return: 0, or COUPLED_EINVAL for a null @ag or an unknown strategy
 * (nothing changes).
 */
static inline int coupled_pthread_set_strategy(struct coupled_adapter_group *ag,
					       int strategy)
{
	if (!ag || strategy < COUPLED_PTHREAD_SPIN ||
	    strategy > COUPLED_PTHREAD_CONDVAR)
		return COUPLED_EINVAL;
	if (strategy == COUPLED_PTHREAD_FUTEX && !COUPLED_PTHREAD_HAVE_FUTEX)
		strategy = COUPLED_PTHREAD_CONDVAR;
	ag->strategy = (enum coupled_pthread_strategy)strategy;
	return 0;
}

/**
 * coupled_pthread_set_spin_extension() - cap the futex spin phase's extension
 * @ag: the group's adapter state (coupled_group_adapter())
 * @max_us: the longest the extension may last, in microseconds; 0 turns it
 *          off (the spin phase is COUPLED_PTHREAD_SPIN_TURNS yields alone)
 *
 * The futex strategy spins its turns, then goes on yielding for twice the
 * participant's measured wake-up cost before it sleeps, so that a host
 * whose wake-ups are slow does not turn every wait into a sleep.  A program
 * that would rather sleep than spin (a power budget, CPUs shared with
 * other work) sets a lower cap; the default is COUPLED_PTHREAD_SPIN_MAX_US.
 * The other strategies ignore it.
 *
 * Context: after coupled_group_init(), before any participant runs.
 * Return: 0, or COUPLED_EINVAL for a null @ag or a cap above 1 s (nothing
 * changes).
 */
static inline int
coupled_pthread_set_spin_extension(struct coupled_adapter_group *ag,
				   uint32_t max_us)
{
	if (!ag || max_us > 1000000u)
		return COUPLED_EINVAL;
	ag->spin_max_us = max_us;
	return 0;
}

/**
 * coupled_pthread_strategy_name() - printable name of a strategy
 * @strategy: one of enum coupled_pthread_strategy
 *
 * Return: a static string.
 */
static inline const char *coupled_pthread_strategy_name(int strategy)
{
	switch (strategy) {
	case COUPLED_PTHREAD_SPIN: return "spin";
	case COUPLED_PTHREAD_FUTEX: return "futex";
	case COUPLED_PTHREAD_CONDVAR: return "condvar";
	default: return "unknown";
	}
}

/**
 * coupled_pthread_set_work_check() - install an extra "work pending" check
 * @ag: the group's adapter state
 * @fn: the check, or NULL to remove it
 * @arg: its first argument
 *
 * Context: before any participant runs.
 */
static inline void
coupled_pthread_set_work_check(struct coupled_adapter_group *ag,
			       coupled_pthread_work_fn fn, void *arg)
{
	ag->work_fn = fn;
	ag->work_arg = arg;
}

/**
 * coupled_adapter_relax() - one turn of a busy wait
 * @ag: the group's adapter state
 *
 * The pause instruction for the spin strategy; sched_yield() for the others,
 * whose threads may outnumber the processors.
 *
 * Context: any thread of the group.
 */
static inline void coupled_adapter_relax(struct coupled_adapter_group *ag)
{
	if (ag->strategy != COUPLED_PTHREAD_SPIN) {
		/* Oversubscribed threads must let the others run. */
		COUPLED_PTHREAD_YIELD();
		return;
	}
	coupled_cpu_relax();
}

/* CLOCK_MONOTONIC in nanoseconds: COUPLED_PTHREAD_NOW_NS() by default. */
static inline uint64_t coupled__pthread_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/**
 * coupled_adapter_now() - the adapter's clock
 * @ag: the group's adapter state (unused)
 *
 * Context: any.
 * Return: COUPLED_PTHREAD_NOW_NS(): CLOCK_MONOTONIC in nanoseconds unless a
 * checker replaced it.
 */
static inline uint64_t coupled_adapter_now(struct coupled_adapter_group *ag)
{
	(void)ag;
	return COUPLED_PTHREAD_NOW_NS();
}

#if COUPLED_ADAPTER_HAS_CONTEXT
/**
 * coupled_adapter_context() - the calling thread's id
 * @ag: the group's adapter state (unused)
 *
 * The kernel's thread id (gettid()), fetched once per thread and cached in
 * a thread-local variable: one thread-local load per call after the first.
 * The core stores it in the caller's slot for the duration of
 * coupled_enter(), so that coupled_join() and coupled_leave() from inside
 * that call (an action, should_abort, the work check, a signal handler) are
 * refused with COUPLED_EPERM instead of hanging.
 *
 * Context: any thread of the process.
 * Return: a nonzero id, unique among the process's live threads.
 */
static inline uint32_t coupled_adapter_context(struct coupled_adapter_group *ag)
{
	static COUPLED__PTHREAD_TLS uint32_t tid;

	(void)ag;
	if (!tid)
		tid = (uint32_t)syscall(SYS_gettid);
	return tid;
}
#endif

/**
 * coupled_adapter_wait_prepare() - start a wait for a wake-up
 * @ag: the group's adapter state (unused)
 * @as: the calling participant's adapter state
 * @self: the calling participant's id (unused)
 *
 * Context: the participant's own thread, waiting for its round.
 * Return: the token for coupled_adapter_wait(): the wake counter.
 */
static inline uint32_t
coupled_adapter_wait_prepare(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	(void)ag;
	(void)self;
	/*
	 * acquire: pairs with the release increment of a wake, so what the
	 * waker did before it (direct: the word's next generation or the
	 * stop bit; settled: the core's poke count) is visible after.
	 */
	return coupled_load(&as->wake_seq, COUPLED_ACQUIRE);
}

#if COUPLED_PTHREAD_HAVE_FUTEX
/*
 * The two futex(2) operations, as macros that a checker may replace with a
 * model before including this file (tests/verify/relacy/relacy_pthread.cpp does):
 * sleep while *@word equals @val, at most for the relative @timeout (NULL:
 * no limit); wake one sleeper of @word.
 */
#ifndef COUPLED_PTHREAD_FUTEX_WAIT
#define COUPLED_PTHREAD_FUTEX_WAIT(word, val, timeout)        \
	((void)syscall(SYS_futex, (uint32_t *)(void *)(word), \
		       FUTEX_WAIT_PRIVATE, (val), (timeout), 0, 0))
#endif
#ifndef COUPLED_PTHREAD_FUTEX_WAKE
#define COUPLED_PTHREAD_FUTEX_WAKE(word)                      \
	((void)syscall(SYS_futex, (uint32_t *)(void *)(word), \
		       FUTEX_WAKE_PRIVATE, 1, 0, 0, 0))
#endif

/**
 * coupled__pthread_futex_sleep() - FUTEX_WAIT on a wake counter
 * @word: the wake counter
 * @token: sleep only while @word still holds it
 * @deadline: absolute coupled_adapter_now() time to wake by, 0 for none
 * @now: coupled_adapter_now() when the caller last looked (with @deadline)
 *
 * Context: the participant's own thread; returns on a wake, at the deadline,
 * on a signal, or at once if @word moved.
 */
static inline void coupled__pthread_futex_sleep(coupled_atomic_u32 *word,
						uint32_t token,
						uint64_t deadline, uint64_t now)
{
	struct timespec rel, *timeout = 0;

	if (deadline) {
		uint64_t left = deadline > now ? deadline - now : 0;

		rel.tv_sec = (time_t)(left / 1000000000u);
		rel.tv_nsec = (long)(left % 1000000000u);
		timeout = &rel;
	}
	/* The kernel compares the word with token: no wake is lost. */
	COUPLED_PTHREAD_FUTEX_WAIT(word, token, timeout);
}
#endif

#if COUPLED_PTHREAD_HAVE_FUTEX
/**
 * coupled__pthread_futex_spin() - the FUTEX strategy's spin phase
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @token: the value coupled_adapter_wait_prepare() returned
 * @deadline: absolute coupled_adapter_now() time to return by, 0 for none
 *
 * COUPLED_PTHREAD_SPIN_TURNS yields, then more yields for twice the
 * participant's wake-cost estimate (at most @ag->spin_max_us),
 * looking at the wake counter before each.
 *
 * Context: coupled_adapter_wait(), the participant's own thread.
 * Return: true if the wait is over (a wake came or the deadline passed),
 * false if the participant should sleep.
 */
static inline bool coupled__pthread_futex_spin(struct coupled_adapter_group *ag,
					       struct coupled_adapter_slot *as,
					       uint32_t token,
					       uint64_t deadline)
{
	uint64_t extra_us = 2u * (uint64_t)as->wake_cost_us, now, end;
	uint32_t turn;

	for (turn = 0; turn != COUPLED_PTHREAD_SPIN_TURNS; turn++) {
		/*
		 * relaxed: only decides to return early, which is always
		 * allowed; the caller's next wait_prepare() acquires what the
		 * wake published.
		 */
		if (coupled_load(&as->wake_seq, COUPLED_RELAXED) != token)
			return true;
		/*
		 * On a busy CPU one yield can hand a whole time slice to
		 * another thread: look at the clock between turns, or 200
		 * turns overshoot a deadline by half a second.
		 */
		if (deadline && coupled_adapter_now(ag) >= deadline)
			return true;
		COUPLED_PTHREAD_YIELD();
	}
	if (extra_us > ag->spin_max_us)
		extra_us = ag->spin_max_us;
	now = coupled_adapter_now(ag);
	for (end = now + extra_us * 1000u; now < end;
	     now = coupled_adapter_now(ag)) {
		/* relaxed: as in the turns above. */
		if (coupled_load(&as->wake_seq, COUPLED_RELAXED) != token)
			return true;
		if (deadline && now >= deadline)
			return true;
		COUPLED_PTHREAD_YIELD();
	}
	return false;
}

/**
 * coupled__pthread_learn_wake_cost() - fold one sleep into the estimate
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state, just back from FUTEX_WAIT
 * @slept_at: coupled_adapter_now() just before the sleep
 *
 * If a FUTEX_WAKE was stamped during the sleep, the time from that stamp
 * to now moves @as->wake_cost_us a quarter of the way towards it (a word
 * that moved just before FUTEX_WAIT, with its wake stamped, teaches a cost
 * near 0, which it was).  A sleep that no wake stamped (its deadline, a
 * signal) teaches nothing.
 *
 * Context: coupled_adapter_wait(), the participant's own thread.
 */
static inline void
coupled__pthread_learn_wake_cost(struct coupled_adapter_group *ag,
				 struct coupled_adapter_slot *as,
				 uint64_t slept_at)
{
	uint32_t from = (uint32_t)(slept_at / 1000u);
	uint32_t to = (uint32_t)(coupled_adapter_now(ag) / 1000u);
	/*
	 * relaxed: a statistic; a stale stamp falls outside the sleep and is
	 * ignored, and nothing else is read through it.
	 */
	uint32_t stamp = coupled_load(&as->wake_stamp_us, COUPLED_RELAXED);
	uint32_t cost = to - stamp, est = as->wake_cost_us;

	/* Modular: the stamp must lie within [from, to]. */
	if ((uint32_t)(stamp - from) > (uint32_t)(to - from))
		return;
	as->wake_cost_us = cost >= est ? est + (cost - est) / 4u
				       : est - (est - cost) / 4u;
}

/**
 * coupled__pthread_futex_rest() - the FUTEX strategy's sleep
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @token: the value coupled_adapter_wait_prepare() returned
 * @deadline: absolute coupled_adapter_now() time to return by, 0 for none
 *
 * Context: coupled_adapter_wait(), after a spin phase that did not end
 * the wait.
 */
static inline void coupled__pthread_futex_rest(struct coupled_adapter_group *ag,
					       struct coupled_adapter_slot *as,
					       uint32_t token,
					       uint64_t deadline)
{
	/*
	 * seq_cst, with the seq_cst load below: a Dekker pair with
	 * coupled_adapter_wake() (seq_cst increment, then seq_cst load of
	 * sleeping): either the waker sees us sleeping and calls futex_wake,
	 * or we see its increment and do not sleep.
	 */
	coupled_store(&as->sleeping, 1u, COUPLED_SEQ_CST);
	if (coupled_load(&as->wake_seq, COUPLED_SEQ_CST) == token) {
		uint64_t now = coupled_adapter_now(ag);

		if (!deadline || now < deadline) {
			coupled__pthread_futex_sleep(&as->wake_seq, token,
						     deadline, now);
			coupled__pthread_learn_wake_cost(ag, as, now);
		}
	}
	/* relaxed: only a hint that saves the waker a syscall. */
	coupled_store(&as->sleeping, 0u, COUPLED_RELAXED);
}
#endif

/**
 * coupled_adapter_wait() - rest until woken, by the deadline at the latest
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @self: the calling participant's id (unused)
 * @token: the value coupled_adapter_wait_prepare() returned
 * @deadline: absolute coupled_adapter_now() time to return by, 0 for none
 *
 * Spin: one pause, then return.  Futex: the spin phase (up to
 * COUPLED_PTHREAD_SPIN_TURNS yields, then yields for twice the measured
 * wake-up cost; the clock is read between them when @deadline is set),
 * then FUTEX_WAIT on the wake counter.  Condvar: pthread_cond_(timed)wait()
 * while the counter holds @token.  May return early.
 *
 * Context: the participant's own thread, waiting for its round, counted as
 * waiting.
 */
static inline void coupled_adapter_wait(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *as,
					uint32_t self, uint32_t token,
					uint64_t deadline)
{
	(void)self;
	switch (ag->strategy) {
	case COUPLED_PTHREAD_SPIN: coupled_adapter_relax(ag); return;
	case COUPLED_PTHREAD_FUTEX:
#if COUPLED_PTHREAD_HAVE_FUTEX
		if (!coupled__pthread_futex_spin(ag, as, token, deadline))
			coupled__pthread_futex_rest(ag, as, token, deadline);
		return;
#endif
		/* fall through: no futex here */
	case COUPLED_PTHREAD_CONDVAR:
	default:
		pthread_mutex_lock(&as->lock);
		/*
		 * relaxed: the mutex orders it against the waker's increment,
		 * which is done with the mutex held.
		 */
		while (coupled_load(&as->wake_seq, COUPLED_RELAXED) == token) {
			if (deadline) {
				struct timespec ts;

				ts.tv_sec = (time_t)(deadline / 1000000000u);
				ts.tv_nsec = (long)(deadline % 1000000000u);
				if (pthread_cond_timedwait(&as->cond, &as->lock,
							   &ts) == ETIMEDOUT)
					break;
			} else {
				pthread_cond_wait(&as->cond, &as->lock);
			}
		}
		pthread_mutex_unlock(&as->lock);
		return;
	}
}

/**
 * coupled_adapter_wake_is_noop() - does coupled_adapter_wake() do nothing?
 * @ag: the group's adapter state
 *
 * Context: any; the strategy is set before the group is shared.
 * Return: true for the spin strategy, whose waiters poll the group's word.
 */
static inline bool
coupled_adapter_wake_is_noop(struct coupled_adapter_group *ag)
{
	return ag->strategy == COUPLED_PTHREAD_SPIN;
}

/**
 * coupled_adapter_wake() - wake a participant
 * @ag: the group's adapter state
 * @target: the target participant's adapter state
 * @target_id: the target's id (unused)
 *
 * Spin: nothing.  Futex: increment the wake counter, FUTEX_WAKE if the
 * target may sleep.  Condvar: increment and signal under the mutex.
 *
 * Context: any thread; tolerates a target that is not waiting and
 * concurrent or repeated wakes.
 */
static inline void coupled_adapter_wake(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *target,
					uint32_t target_id)
{
	(void)target_id;
	switch (ag->strategy) {
	case COUPLED_PTHREAD_SPIN:
		/*
		 * Nothing: the spin strategy's wait never sleeps, and the
		 * spinning target re-reads the core's state itself (direct:
		 * the word; settled: its poke counter).
		 */
		return;
	case COUPLED_PTHREAD_FUTEX:
#if COUPLED_PTHREAD_HAVE_FUTEX
		/*
		 * seq_cst: the Dekker pair with the waiter's sleeping flag
		 * (see coupled_adapter_wait()); also a release, pairing with
		 * the acquire in wait_prepare.
		 */
		(void)coupled_fetch_add(&target->wake_seq, 1u, COUPLED_SEQ_CST);
		/* seq_cst: second half of that pair. */
		if (!coupled_load(&target->sleeping, COUPLED_SEQ_CST))
			return;
		/*
		 * relaxed: a statistic for the sleeper's wake-cost estimate
		 * (coupled__pthread_learn_wake_cost()), which checks that the
		 * stamp falls within its sleep.
		 */
		coupled_store(&target->wake_stamp_us,
			      (uint32_t)(coupled_adapter_now(ag) / 1000u),
			      COUPLED_RELAXED);
		COUPLED_PTHREAD_FUTEX_WAKE(&target->wake_seq);
		return;
#endif
		/* fall through: no futex here */
	case COUPLED_PTHREAD_CONDVAR:
	default:
		/*
		 * Under the mutex, so that the waiter's check and its sleep
		 * cannot fall between this increment and the signal.
		 */
		pthread_mutex_lock(&target->lock);
		/*
		 * release: pairs with the acquire in wait_prepare, which reads
		 * it outside the mutex (the waiter's check under the mutex is
		 * ordered by the mutex itself).
		 */
		(void)coupled_fetch_add(&target->wake_seq, 1u, COUPLED_RELEASE);
		pthread_cond_signal(&target->cond);
		pthread_mutex_unlock(&target->lock);
		return;
	}
}

/**
 * coupled_adapter_work_pending() - has the participant simulated work?
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @self: the calling participant's id
 *
 * Context: the participant's own thread.
 * Return: true while coupled_pthread_raise_work() was called more often
 * than coupled_pthread_clear_work(), or when the work check says so.
 */
static inline bool
coupled_adapter_work_pending(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	/* relaxed: a simulated interrupt flag; nothing is published by it. */
	if (coupled_load(&as->work, COUPLED_RELAXED))
		return true;
	return ag->work_fn && ag->work_fn(ag->work_arg, self);
}

/**
 * coupled_pthread_raise_work() - simulate an interrupt: work is pending
 * @ag: the group's adapter state
 * @as: the participant's adapter state (coupled_participant_adapter())
 * @id: the participant's id
 *
 * The participant aborts with COUPLED_ABORT_WORK wherever it still can, until
 * coupled_pthread_clear_work() is called as often.  Wakes it if it rests.
 */
static inline void coupled_pthread_raise_work(struct coupled_adapter_group *ag,
					      struct coupled_adapter_slot *as,
					      uint32_t id)
{
	/* relaxed: the wake below orders what matters. */
	(void)coupled_fetch_add(&as->work, 1u, COUPLED_RELAXED);
	coupled_adapter_wake(ag, as, id);
}

/**
 * coupled_pthread_clear_work() - the simulated work has been handled
 * @as: the participant's adapter state
 */
static inline void coupled_pthread_clear_work(struct coupled_adapter_slot *as)
{
	/* relaxed: as in coupled_pthread_raise_work(). */
	(void)coupled_fetch_sub(&as->work, 1u, COUPLED_RELAXED);
}

#endif /* COUPLED_ADAPTER_PTHREAD_H */

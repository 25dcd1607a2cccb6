/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * kshim_relacy.h - a user-space stand-in, built on Relacy, for the kernel
 * primitives that the Linux adapter (<coupled/adapter/linux.h>) and the
 * kernel atomics back-end (coupled/atomic/linux.h) use, so that their real
 * code runs under the C++ relaxed memory model
 * (tests/verify/relacy/relacy_linux.cpp).  The headers next to it (<linux/atomic.h>,
 * <asm/barrier.h>, ...) all include this file.
 *
 * Each primitive gives exactly what Documentation/atomic_t.txt and
 * Documentation/memory-barriers.txt promise, no more:
 *   atomic_read/atomic_set                 relaxed load/store
 *   atomic_read_acquire/atomic_set_release acquire load / release store
 *   *_relaxed, *_acquire, *_release RMWs   the RMW with that order
 *   value-returning RMW without suffix     fully ordered: smp_mb(), relaxed
 *                                          RMW, smp_mb()
 *   atomic_try_cmpxchg (fully ordered)     on success as above; a failed
 *                                          one orders nothing
 *   smp_mb()                               a seq_cst fence
 * Cross-CPU calls: one Relacy thread per CPU (thread i is CPU i);
 * smp_call_function_single_async() follows kernel/smp.c: a plain check of
 * the descriptor's lock flag (-EBUSY if set), set it, -ENXIO (and unlock,
 * a release) for an offline CPU, else queue the descriptor (a fully ordered
 * xchg, as llist_add's cmpxchg) and raise the IPI.  The target handles its
 * queue where it has interrupts enabled (kshim_handle_ipi()): a fully
 * ordered xchg empties it (llist_del_all), then for the asynchronous
 * descriptor: read func and info, unlock (release), call func.
 */
#ifndef COUPLED_KSHIM_RELACY_H
#define COUPLED_KSHIM_RELACY_H

#include <relacy/relacy.hpp>

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef __always_inline
#define __always_inline inline
#endif
#define WRITE_ONCE(x, v) ((x) = (v))
#define READ_ONCE(x) (x)

typedef uint32_t u32;
typedef int32_t s32;

/* --- atomic_t ----------------------------------------------------------- */

typedef struct {
	rl::atomic<int> counter;
} atomic_t;

#define smp_mb() rl::atomic_thread_fence(rl::mo_seq_cst, $)

#define atomic_read(v) ((v)->counter.load(rl::mo_relaxed, $))
#define atomic_set(v, i) ((v)->counter.store((i), rl::mo_relaxed, $))
#define atomic_read_acquire(v) ((v)->counter.load(rl::mo_acquire, $))
#define atomic_set_release(v, i) ((v)->counter.store((i), rl::mo_release, $))

static inline int kshim_full_fetch_add(atomic_t *v, int i,
				       rl::debug_info_param info)
{
	int old;

	rl::atomic_thread_fence(rl::mo_seq_cst, info);
	old = v->counter.fetch_add(i, rl::mo_relaxed, info);
	rl::atomic_thread_fence(rl::mo_seq_cst, info);
	return old;
}

static inline int kshim_full_xchg(atomic_t *v, int i, rl::debug_info_param info)
{
	int old;

	rl::atomic_thread_fence(rl::mo_seq_cst, info);
	old = v->counter.exchange(i, rl::mo_relaxed, info);
	rl::atomic_thread_fence(rl::mo_seq_cst, info);
	return old;
}

static inline bool kshim_full_try_cmpxchg(atomic_t *v, int *old, int i,
					  rl::debug_info_param info)
{
	bool ok;

	rl::atomic_thread_fence(rl::mo_seq_cst, info);
	ok = v->counter.compare_exchange_strong(*old, i, rl::mo_relaxed, info,
						rl::mo_relaxed, info);
	if (ok)
		rl::atomic_thread_fence(rl::mo_seq_cst, info);
	return ok;
}

/* An atomic_t read-modify-write @op with the one order @mo (the suffix). */
#define KSHIM_RMW(v, op, i, mo) ((v)->counter.op((i), rl::mo_##mo, $))

#define atomic_fetch_add(i, v) kshim_full_fetch_add((v), (i), $)
#define atomic_fetch_add_relaxed(i, v) KSHIM_RMW(v, fetch_add, i, relaxed)
#define atomic_fetch_add_acquire(i, v) KSHIM_RMW(v, fetch_add, i, acquire)
#define atomic_fetch_add_release(i, v) KSHIM_RMW(v, fetch_add, i, release)

#define atomic_xchg(v, i) kshim_full_xchg((v), (i), $)
#define atomic_xchg_relaxed(v, i) KSHIM_RMW(v, exchange, i, relaxed)
#define atomic_xchg_acquire(v, i) KSHIM_RMW(v, exchange, i, acquire)
#define atomic_xchg_release(v, i) KSHIM_RMW(v, exchange, i, release)

#define atomic_try_cmpxchg(v, o, i) kshim_full_try_cmpxchg((v), (o), (i), $)
/* A try_cmpxchg with the one order @mo on success; a failure is relaxed. */
#define KSHIM_TRY_CMPXCHG(v, o, i, mo)                                   \
	((v)->counter.compare_exchange_strong(*(o), (i), rl::mo_##mo, $, \
					      rl::mo_relaxed, $))
#define atomic_try_cmpxchg_relaxed(v, o, i) KSHIM_TRY_CMPXCHG(v, o, i, relaxed)
#define atomic_try_cmpxchg_acquire(v, o, i) KSHIM_TRY_CMPXCHG(v, o, i, acquire)
#define atomic_try_cmpxchg_release(v, o, i) KSHIM_TRY_CMPXCHG(v, o, i, release)

/* --- CPUs and cross-CPU calls ------------------------------------------- */

enum { KSHIM_CPUS = 3, CSD_FLAG_LOCK = 1 };

typedef void (*smp_call_func_t)(void *info);

typedef struct {
	rl::atomic<int> flags; /* plain in the kernel: read relaxed here */
	smp_call_func_t func;
	void *info;
	rl::var<int> live; /* plain data of the descriptor (kfree) */
} call_single_data_t;

struct kshim_cpus {
	bool online[KSHIM_CPUS];
	atomic_t queue[KSHIM_CPUS];          /* 0, or 1 + a csd index */
	call_single_data_t *csd[KSHIM_CPUS]; /* the csds the test uses */
	unsigned busy_refusals;
};

extern kshim_cpus *g_kshim;

static const unsigned nr_cpu_ids = KSHIM_CPUS;

/* Initialise a descriptor and register it with the model. */
static inline void kshim_init_csd(call_single_data_t *c, smp_call_func_t f,
				  void *info)
{
	unsigned i;

	c->flags.store(0, rl::mo_relaxed, $);
	c->func = f;
	c->info = info;
	c->live($) = 1;
	for (i = 0; i < KSHIM_CPUS && g_kshim->csd[i]; i++)
		;
	RL_ASSERT(i < KSHIM_CPUS);
	g_kshim->csd[i] = c;
}
#define INIT_CSD(c, f, i) kshim_init_csd((c), (f), (i))

static inline unsigned kshim_csd_index(call_single_data_t *c)
{
	for (unsigned i = 0; i < KSHIM_CPUS; i++)
		if (g_kshim->csd[i] == c)
			return i;
	RL_ASSERT(!"unknown call descriptor");
	return 0;
}

/* Start a test: every CPU online, nothing queued, no descriptor. */
static inline void kshim_reset(kshim_cpus *k)
{
	g_kshim = k;
	for (unsigned i = 0; i < KSHIM_CPUS; i++) {
		k->online[i] = true;
		atomic_set(&k->queue[i], 0);
		k->csd[i] = NULL;
	}
	k->busy_refusals = 0;
}

static inline int smp_call_function_single_async(int cpu,
						 call_single_data_t *csd)
{
	/* kernel/smp.c: a plain check of the lock flag. */
	if (csd->flags.load(rl::mo_relaxed, $) & CSD_FLAG_LOCK) {
		g_kshim->busy_refusals++;
		return -EBUSY;
	}
	csd->flags.store(CSD_FLAG_LOCK, rl::mo_relaxed, $);
	if (!g_kshim->online[cpu]) {
		/* generic_exec_single(): csd_unlock(), a release. */
		csd->flags.store(0, rl::mo_release, $);
		return -ENXIO;
	}
	/* llist_add (a fully ordered cmpxchg), then the IPI. */
	(void)kshim_full_xchg(&g_kshim->queue[cpu],
			      1 + (int)kshim_csd_index(csd), $);
	return 0;
}

/* The target CPU with interrupts enabled: run its queued calls. */
static inline bool kshim_handle_ipi(unsigned cpu)
{
	int q = kshim_full_xchg(&g_kshim->queue[cpu], 0, $); /* llist_del_all */
	call_single_data_t *csd;
	smp_call_func_t func;
	void *info;

	if (!q)
		return false;
	csd = g_kshim->csd[q - 1];
	RL_ASSERT(csd->live($) == 1); /* the descriptor was not freed */
	func = csd->func;
	info = csd->info;
	/* csd_unlock() before an asynchronous call's function. */
	csd->flags.store(0, rl::mo_release, $);
	func(info);
	return true;
}

static inline bool kshim_ipi_pending(unsigned cpu)
{
	return atomic_read(&g_kshim->queue[cpu]) != 0;
}

#define smp_processor_id() ((unsigned)rl::thread_index())
#define preempt_disable() ((void)0)
#define preempt_enable() ((void)0)
#define cpu_relax() rl::yield(1, $)
#define cond_resched() rl::yield(1, $)
#define need_resched() false
#define ktime_get_mono_fast_ns() ((uint64_t)0)

#endif /* COUPLED_KSHIM_RELACY_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled_adapter_linux.h - the Linux kernel adapter.
 *
 * Selected with -DCOUPLED_ADAPTER_LINUX (coupled/adapter.h then includes this
 * file).  For kernel code only: modules and built-in drivers.  It gives the
 * core two things:
 *
 *  1. The atomics layer (COUPLED_ATOMIC_CUSTOM): every coupled_atomic_* type
 *     is a wrapper around atomic_t and every coupled_* operation maps onto a
 *     kernel atomic of equal or stronger order, so the kernel build never
 *     includes <stdatomic.h>.  The table of mappings is below; each line
 *     says why the kernel primitive gives at least the named C11 order.
 *
 *  2. The platform hooks of docs/adapters.md:
 *       poke         an asynchronous cross-CPU call to the target CPU
 *                    (smp_call_function_single_async()), one per-slot call
 *                    descriptor guarded by a busy flag so that a descriptor
 *                    is never reused while in flight;
 *       work pending need_resched();
 *       safe state   a callback of the driver (coupled_linux_set_safe_state()),
 *                    entered with interrupts disabled; by default cpu_relax();
 *       relax        cpu_relax();
 *       clock        ktime_get_mono_fast_ns() (usable with interrupts off and
 *                    in idle);
 *       context      none (COUPLED_ADAPTER_HAS_CONTEXT 0): a CPU number does
 *                    not name a preemptible caller, which may migrate, and
 *                    every CPU's idle task has pid 0, so coupled_join() or
 *                    coupled_leave() called from inside a call of the same
 *                    group (an action) is not detected and hangs, as their
 *                    kernel-doc says.
 *
 * Interrupts: the core is called the way cpuidle calls an ->enter() method,
 * with interrupts disabled on the local CPU, and it returns with them still
 * disabled.  Only the safe-state callback may open them, for the duration of
 * the wait (x86 "sti; hlt", ARM "wfi" which wakes on a pending interrupt even
 * when masked).
 *
 * Why a poke between coupled_adapter_wait_prepare() and coupled_adapter_wait()
 * is never lost (the one hard rule of the contract):
 *   - a poke first increments the target's poke counter (in the core), then
 *     calls coupled_adapter_wake(), which either sends an IPI or finds one
 *     already in flight (busy flag set) that the target has not handled yet;
 *   - the target keeps interrupts disabled from before wait_prepare until its
 *     safe state, so such an IPI cannot be delivered in between: it stays
 *     pending in the interrupt controller;
 *   - the safe state must return when an interrupt is pending (the contract
 *     of the callback: "sti; hlt" takes the pending IPI right after sti and
 *     hlt returns; "wfi" completes at once), so coupled_adapter_wait()
 *     returns and the core re-reads the poke counter;
 *   - the busy flag is cleared by the IPI handler with a fully ordered xchg
 *     and set by the waker with a fully ordered xchg: if the waker saw "busy"
 *     the handler's clear comes later in the flag's order, so the target
 *     reads the poke counter after the waker's increment and sees it.
 *   The token is therefore unused (0).
 *
 * Lifetime: a call descriptor may be in flight after the group's last
 * member left; coupled_linux_slot_quiesce() waits until the descriptor of a
 * slot is idle; call it for every slot before the group's memory is freed.
 */
#ifndef COUPLED_ADAPTER_LINUX_H
#define COUPLED_ADAPTER_LINUX_H

#ifndef __KERNEL__
#error "coupled_adapter_linux.h is for kernel code (build a module with Kbuild)"
#endif

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#include <asm/barrier.h>
#include <asm/processor.h>

/* ------------------------------------------------------------------------ */
/* The atomics layer                                                        */
/* ------------------------------------------------------------------------ */

#define COUPLED_ATOMIC_CUSTOM 1

/*
 * Two distinct wrapper types, so that coupled_load() can return the right
 * signedness (the core compares loads with uint32_t and int32_t values).
 */
typedef struct {
	atomic_t v;
} coupled_atomic_u32;

typedef struct {
	atomic_t v;
} coupled_atomic_i32;

/* The orders are compile-time constants; every switch below folds away. */
#define COUPLED_RELAXED 0
#define COUPLED_ACQUIRE 2
#define COUPLED_RELEASE 3
#define COUPLED_ACQ_REL 4
#define COUPLED_SEQ_CST 5

/* Cast a raw int result to the value type of the object @p points to. */
#ifndef __cplusplus
#define coupled__lk_value(p, x)                                          \
	_Generic((p), coupled_atomic_u32 * : (uint32_t)(x),              \
		 default : (int32_t)(x))
#else
/*
 * C++ has no _Generic; overloads do the same.  Only for the relaxed-memory
 * check of this file on a user-space stand-in of the kernel
 * (tests/relacy/relacy_linux.cpp): kernel code is C.
 */
static inline uint32_t coupled__lk_cast(const coupled_atomic_u32 *p, int x)
{
	(void)p;
	return (uint32_t)x;
}
static inline int32_t coupled__lk_cast(const coupled_atomic_i32 *p, int x)
{
	(void)p;
	return (int32_t)x;
}
#define coupled__lk_value(p, x) coupled__lk_cast((p), (x))
#endif

/**
 * coupled__lk_load() - load with a C11 order
 * @v: the kernel atomic
 * @mo: a COUPLED_* order (a constant)
 *
 * Context: any.
 * Return: the value read.
 */
static __always_inline int coupled__lk_load(const atomic_t *v, int mo)
{
	switch (mo) {
	case COUPLED_RELAXED:
		/* relaxed: atomic_read() is a READ_ONCE(), single-copy atomic. */
		return atomic_read(v);
	case COUPLED_ACQUIRE:
	case COUPLED_ACQ_REL:
		/* acquire: atomic_read_acquire() is smp_load_acquire(). */
		return atomic_read_acquire(v);
	default:
		/*
		 * seq_cst: leading smp_mb() orders every earlier access
		 * (including a seq_cst store's) before the load; the acquire
		 * load orders it before everything later.  This is the
		 * leading-fence mapping: a seq_cst store then a seq_cst load
		 * (the core's Dekker pairs) is ordered by this smp_mb().
		 */
		smp_mb();
		return atomic_read_acquire(v);
	}
}

/**
 * coupled__lk_store() - store with a C11 order
 * @v: the kernel atomic
 * @i: the value
 * @mo: a COUPLED_* order (a constant)
 *
 * Context: any.
 */
static __always_inline void coupled__lk_store(atomic_t *v, int i, int mo)
{
	switch (mo) {
	case COUPLED_RELAXED:
		/* relaxed: atomic_set() is a WRITE_ONCE(). */
		atomic_set(v, i);
		return;
	case COUPLED_RELEASE:
		/* release: atomic_set_release() is smp_store_release(). */
		atomic_set_release(v, i);
		return;
	default:
		/*
		 * seq_cst (acquire/acq_rel are not valid for a store; they get
		 * the strongest): the leading smp_mb() orders every earlier
		 * access before the store.  No trailing one: in the
		 * leading-fence mapping every seq_cst load and every fully
		 * ordered RMW starts with its own smp_mb(), which orders this
		 * store before it (the relaxed-memory check of this mapping,
		 * tests/relacy/relacy_linux.cpp, finds either barrier
		 * redundant given the other).
		 */
		smp_mb();
		atomic_set(v, i);
		return;
	}
}

/**
 * coupled__lk_fetch_add() - fetch-and-add with a C11 order
 * @v: the kernel atomic
 * @i: the addend (may be negative)
 * @mo: a COUPLED_* order (a constant)
 *
 * Context: any.
 * Return: the value before the addition.
 */
static __always_inline int coupled__lk_fetch_add(atomic_t *v, int i, int mo)
{
	switch (mo) {
	case COUPLED_RELAXED:
		/* relaxed: the _relaxed variant is atomic, with no ordering. */
		return atomic_fetch_add_relaxed(i, v);
	case COUPLED_ACQUIRE:
		/* acquire: the _acquire variant is an ACQUIRE RMW. */
		return atomic_fetch_add_acquire(i, v);
	case COUPLED_RELEASE:
		/* release: the _release variant is a RELEASE RMW. */
		return atomic_fetch_add_release(i, v);
	default:
		/*
		 * acq_rel and seq_cst: a value-returning atomic without
		 * suffix is fully ordered (smp_mb() before and after, see
		 * Documentation/atomic_t.txt), stronger than both.
		 */
		return atomic_fetch_add(i, v);
	}
}

/**
 * coupled__lk_xchg() - exchange with a C11 order
 * @v: the kernel atomic
 * @i: the new value
 * @mo: a COUPLED_* order (a constant)
 *
 * Context: any.
 * Return: the previous value.
 */
static __always_inline int coupled__lk_xchg(atomic_t *v, int i, int mo)
{
	switch (mo) {
	case COUPLED_RELAXED:
		/* relaxed: atomic, no ordering. */
		return atomic_xchg_relaxed(v, i);
	case COUPLED_ACQUIRE:
		/* acquire: an ACQUIRE RMW. */
		return atomic_xchg_acquire(v, i);
	case COUPLED_RELEASE:
		/* release: a RELEASE RMW. */
		return atomic_xchg_release(v, i);
	default:
		/* acq_rel, seq_cst: atomic_xchg() is fully ordered. */
		return atomic_xchg(v, i);
	}
}

/**
 * coupled__lk_cas() - strong compare-and-swap with C11 orders
 * @v: the kernel atomic
 * @old: in: the expected value; out: the value found on failure
 * @desired: the value to store on success
 * @mo_ok: the order on success (a constant)
 * @mo_fail: the order on failure (a constant)
 *
 * Context: any.
 * Return: true if @desired was stored.
 */
static __always_inline bool coupled__lk_cas(atomic_t *v, int *old,
					    int desired, int mo_ok,
					    int mo_fail)
{
	bool ok;

	switch (mo_ok) {
	case COUPLED_RELAXED:
		/* relaxed: the _relaxed try_cmpxchg is atomic, unordered. */
		ok = atomic_try_cmpxchg_relaxed(v, old, desired);
		break;
	case COUPLED_ACQUIRE:
		/* acquire: ACQUIRE on success. */
		ok = atomic_try_cmpxchg_acquire(v, old, desired);
		break;
	case COUPLED_RELEASE:
		/* release: RELEASE on success. */
		ok = atomic_try_cmpxchg_release(v, old, desired);
		break;
	default:
		/* acq_rel, seq_cst: fully ordered on success. */
		ok = atomic_try_cmpxchg(v, old, desired);
		break;
	}
	/*
	 * A failed kernel cmpxchg implies no ordering at all; a failure
	 * order above relaxed (C11 allows up to acquire, the core only ever
	 * asks for relaxed) gets a full barrier, which is stronger.
	 */
	if (!ok && mo_fail != COUPLED_RELAXED)
		smp_mb();
	return ok;
}

#define coupled_atomic_init(p, val) atomic_set(&(p)->v, (int)(val))
#define coupled_load(p, mo) coupled__lk_value((p), coupled__lk_load(&(p)->v, (mo)))
#define coupled_store(p, val, mo) coupled__lk_store(&(p)->v, (int)(val), (mo))
#define coupled_fetch_add(p, val, mo)                                     \
	(COUPLED_ATOMIC_ON_RMW(),                                         \
	 coupled__lk_value((p), coupled__lk_fetch_add(&(p)->v, (int)(val), \
						      (mo))))
#define coupled_fetch_sub(p, val, mo)                                     \
	(COUPLED_ATOMIC_ON_RMW(),                                         \
	 coupled__lk_value((p), coupled__lk_fetch_add(&(p)->v,            \
						      -(int)(val), (mo))))
#define coupled_exchange(p, val, mo)                                      \
	(COUPLED_ATOMIC_ON_RMW(),                                         \
	 coupled__lk_value((p), coupled__lk_xchg(&(p)->v, (int)(val), (mo))))
/* Strong compare-and-swap; *expected is updated on failure. */
#define coupled_cas(p, expected, desired, mo_ok, mo_fail)                 \
	(COUPLED_ATOMIC_ON_RMW(),                                         \
	 coupled__lk_cas(&(p)->v, (int *)(void *)(expected), (int)(desired), \
			 (mo_ok), (mo_fail)))

#include "coupled/atomic.h"

/* ------------------------------------------------------------------------ */
/* The platform hooks                                                       */
/* ------------------------------------------------------------------------ */

#define COUPLED_ADAPTER_NAME "linux"
/* coupled_adapter_now() is ktime_get_mono_fast_ns(): nanoseconds. */
#define COUPLED_ADAPTER_HAS_CLOCK 1

/**
 * typedef coupled_linux_safe_fn - the driver's safe state
 * @arg: the argument given to coupled_linux_set_safe_state()
 *
 * Entered with interrupts disabled on the local CPU; must return with them
 * disabled; must return when an interrupt is pending (it may open
 * interrupts while it rests, e.g. "sti; hlt", or rest with them masked in a
 * state that a pending interrupt ends, e.g. "wfi").  It may return early.
 */
typedef void (*coupled_linux_safe_fn)(void *arg);

/**
 * struct coupled_adapter_group - per-group adapter state
 * @safe_state: the driver's safe state, or NULL to spin with cpu_relax()
 * @safe_arg: argument of @safe_state
 */
struct coupled_adapter_group {
	coupled_linux_safe_fn safe_state;
	void *safe_arg;
};

/**
 * struct coupled_adapter_slot - per-participant adapter state
 * @csd: the call descriptor of pokes to this participant
 * @busy: 1 from the moment a waker owns @csd until its IPI handler ran
 * @cpu: the CPU this participant runs on (the target of its pokes)
 */
struct coupled_adapter_slot {
	call_single_data_t csd;
	atomic_t busy;
	unsigned int cpu;
};

/**
 * coupled__linux_poke_ipi() - handler of a poke IPI
 * @info: the target's struct coupled_adapter_slot
 *
 * The interrupt itself is the wake-up (it ends the safe state); the handler
 * only hands the descriptor back.
 *
 * Context: hard interrupt on the target CPU (or the local call path).
 */
static inline void coupled__linux_poke_ipi(void *info)
{
	struct coupled_adapter_slot *as = (struct coupled_adapter_slot *)info;

	/*
	 * fully ordered (xchg): pairs with the waker's xchg in
	 * coupled_adapter_wake(); a waker that saw busy == 1 is earlier in
	 * the flag's order, so its poke-counter increment is visible to
	 * everything this CPU does after the handler.  Last access to @as.
	 */
	(void)atomic_xchg(&as->busy, 0);
}

/**
 * coupled_adapter_group_init() - initialise the group's adapter state
 * @ag: adapter state embedded in the group
 * @capacity: the group's capacity (unused)
 *
 * Context: coupled_group_init(), before any participant runs.
 */
static inline void coupled_adapter_group_init(struct coupled_adapter_group *ag,
					      uint32_t capacity)
{
	(void)capacity;
	ag->safe_state = NULL;
	ag->safe_arg = NULL;
}

/**
 * coupled_adapter_slot_init() - initialise one participant's adapter state
 * @ag: the group's adapter state (unused)
 * @as: adapter state embedded in the participant's slot
 * @id: the participant's id; the default target CPU is @id
 *
 * Context: coupled_group_init(), before any participant runs.
 */
static inline void coupled_adapter_slot_init(struct coupled_adapter_group *ag,
					     struct coupled_adapter_slot *as,
					     uint32_t id)
{
	(void)ag;
	INIT_CSD(&as->csd, coupled__linux_poke_ipi, as);
	atomic_set(&as->busy, 0);
	as->cpu = id;
}

/**
 * coupled_linux_set_safe_state() - install the driver's safe state
 * @ag: the group's adapter state (coupled_group_adapter())
 * @fn: the safe state, or NULL to spin
 * @arg: its argument
 *
 * Context: after coupled_group_init(), before any participant runs.
 */
static inline void coupled_linux_set_safe_state(struct coupled_adapter_group *ag,
						coupled_linux_safe_fn fn,
						void *arg)
{
	ag->safe_state = fn;
	ag->safe_arg = arg;
}

/**
 * coupled_linux_set_cpu() - say which CPU a participant runs on
 * @as: the participant's adapter state (coupled_participant_adapter())
 * @cpu: its CPU
 *
 * Context: before the participant becomes a member (pokes go to @cpu).
 * Return: 0, or -EINVAL for a null @as or an impossible @cpu.
 */
static inline int coupled_linux_set_cpu(struct coupled_adapter_slot *as,
					unsigned int cpu)
{
	if (!as || cpu >= nr_cpu_ids)
		return -EINVAL;
	as->cpu = cpu;
	return 0;
}

/**
 * coupled_linux_slot_quiesce() - wait until a slot's call descriptor is idle
 * @as: the participant's adapter state
 *
 * Context: process context, after the participant left the group and nobody
 * can poke it any more; may sleep briefly (cond_resched()).  Needed before
 * the slot's memory is freed: an IPI still queued would use it.
 */
static inline void coupled_linux_slot_quiesce(struct coupled_adapter_slot *as)
{
	/* acquire: pairs with the handler's xchg; after it @as is unused. */
	while (atomic_read_acquire(&as->busy))
		cond_resched();
}

/**
 * coupled_adapter_relax() - one turn of a busy wait
 * @ag: the group's adapter state (unused)
 *
 * cpu_relax() is "pause" on x86 (which QEMU's single-threaded TCG also takes
 * as a hint to run another vCPU) and "yield" on ARM.
 *
 * Context: any, including interrupts disabled.
 */
static inline void coupled_adapter_relax(struct coupled_adapter_group *ag)
{
	(void)ag;
	cpu_relax();
}

/**
 * coupled_adapter_wait_prepare() - start a wait
 * @ag: the group's adapter state (unused)
 * @as: the caller's adapter state (unused)
 * @self: the caller's id (unused)
 *
 * Nothing to record: a poke after this point leaves an interrupt pending
 * (see the top of this file), which the safe state honours.
 *
 * Context: interrupts disabled, phase 1.
 * Return: 0.
 */
static inline uint32_t coupled_adapter_wait_prepare(
	struct coupled_adapter_group *ag, struct coupled_adapter_slot *as,
	uint32_t self)
{
	(void)ag;
	(void)as;
	(void)self;
	return 0;
}

/**
 * coupled_adapter_wait() - rest in the driver's safe state
 * @ag: the group's adapter state
 * @as: the caller's adapter state (unused)
 * @self: the caller's id (unused)
 * @token: unused (0)
 * @deadline: coupled_adapter_now() time to return by, 0 for none
 *
 * With a deadline it only relaxes, so that it returns in time whatever the
 * safe state's wake-up sources are; without one it enters the safe state,
 * which returns on any interrupt, in particular on a poke's IPI.
 *
 * Context: interrupts disabled on entry and on return.
 */
static inline void coupled_adapter_wait(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *as,
					uint32_t self, uint32_t token,
					uint64_t deadline)
{
	(void)as;
	(void)self;
	(void)token;
	if (deadline || !ag->safe_state) {
		cpu_relax();
		return;
	}
	ag->safe_state(ag->safe_arg);
}

/**
 * coupled_adapter_wake() - poke a participant's CPU
 * @ag: the group's adapter state (unused)
 * @target: the target's adapter state
 * @target_id: the target's id (unused; @target->cpu is the CPU)
 *
 * Sends an asynchronous IPI to the target CPU unless one is already in
 * flight, and never to the calling CPU (the target's context is then not
 * running, so it rests nowhere; it reads its poke counter when it enters).
 *
 * Context: any, including interrupts disabled (the asynchronous call never
 * waits).
 */
static inline void coupled_adapter_wake(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *target,
					uint32_t target_id)
{
	unsigned int cpu = target->cpu;

	(void)ag;
	(void)target_id;
	preempt_disable();
	if (cpu == smp_processor_id()) {
		preempt_enable();
		return;
	}
	/*
	 * fully ordered (xchg): orders the core's poke-counter increment
	 * before the flag, pairing with the handler's xchg (see the top of
	 * this file); 1 means an IPI is in flight and will wake the target.
	 */
	if (!atomic_xchg(&target->busy, 1)) {
		/*
		 * Fails only for an offline CPU (-ENXIO; it is no member any
		 * more, nothing to wake) or a locked descriptor (-EBUSY;
		 * impossible while we own busy).  Give the descriptor back.
		 */
		if (smp_call_function_single_async((int)cpu, &target->csd))
			/* release: nothing to publish but the free descriptor. */
			atomic_set_release(&target->busy, 0);
	}
	preempt_enable();
}

/**
 * coupled_adapter_work_pending() - does this CPU have something to run?
 * @ag: the group's adapter state (unused)
 * @as: the caller's adapter state (unused)
 * @self: the caller's id (unused)
 *
 * Context: the participant's own CPU.
 * Return: need_resched().
 */
static inline bool coupled_adapter_work_pending(
	struct coupled_adapter_group *ag, struct coupled_adapter_slot *as,
	uint32_t self)
{
	(void)ag;
	(void)as;
	(void)self;
	return need_resched();
}

/**
 * coupled_adapter_now() - the adapter's clock
 * @ag: the group's adapter state (unused)
 *
 * Context: any; NMI-safe.
 * Return: CLOCK_MONOTONIC in nanoseconds.
 */
static inline uint64_t coupled_adapter_now(struct coupled_adapter_group *ag)
{
	(void)ag;
	return ktime_get_mono_fast_ns();
}

#endif /* COUPLED_ADAPTER_LINUX_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/adapter/linux.h - the Linux kernel adapter.
 *
 * Selected with -DCOUPLED_ADAPTER_LINUX (coupled/adapter.h then includes this
 * file).  For kernel code only: modules and built-in drivers.  The core's
 * atomics come from the kernel atomics back-end, coupled/atomic/linux.h
 * (atomic.h selects it under __KERNEL__), so the kernel build never includes
 * <stdatomic.h>.  This file gives the core the platform hooks of
 * docs/adapters.md:
 *       poke         an asynchronous cross-CPU call to the target CPU
 *                    (smp_call_function_single_async()), one per-slot call
 *                    descriptor guarded by a busy flag so that a descriptor
 *                    is never reused while in flight;
 *       work pending need_resched();
 *       safe state   a callback of the driver (coupled_linux_set_safe_state()),
 *                    entered with interrupts disabled; by default cpu_relax();
 *       relax        cpu_relax() (coupled_cpu_relax(), coupled/relax.h);
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

#ifndef COUPLED__ADAPTER_SELECTING
#error "do not include <coupled/adapter/linux.h> directly: define COUPLED_ADAPTER_LINUX and include <coupled/coupled.h>"
#endif
#ifndef __KERNEL__
#error "the coupled linux adapter is for kernel code (build a module with Kbuild)"
#endif

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#include <asm/barrier.h>
#if defined(CONFIG_ARM64)
#include <asm/cpufeature.h>
#endif

#include <coupled/atomic.h>
#include <coupled/errno.h>
#include <coupled/relax.h>
#include <coupled/types.h>

/* ------------------------------------------------------------------------ */
/* The platform hooks                                                       */
/* ------------------------------------------------------------------------ */

#define COUPLED_ADAPTER_NAME "linux"
/*
 * Wake-ups: a poke is an IPI that stays pending while the CPU has interrupts off: the settled protocol makes sure every CPU handled its poke before the round commits.
 */
#define COUPLED_ADAPTER_WAKE_CAN_BE_LOST 1
/* coupled_adapter_now() is ktime_get_mono_fast_ns(): nanoseconds. */
#define COUPLED_ADAPTER_HAS_CLOCK 1
/*
 * The shared hooks (coupled/adapter/common_hooks.h): relax is cpu_relax()
 * ("pause" on x86, "yield" on ARM); wait_prepare records nothing, since a
 * poke after it leaves an interrupt pending (the top of this file).
 */
#define COUPLED__ADAPTER_PAUSE() coupled_cpu_relax()
#define COUPLED__ADAPTER_NO_WAIT_TOKEN 1

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
#ifdef COUPLED_LINUX_TRACE
	u64 trace_enter_ns; /* the owner's last traced entry (owner only) */
#endif
};

#ifdef COUPLED_LINUX_TRACE
/*
 * Tracing (COUPLED_LINUX_TRACE defined by the including code): the core's
 * trace points (coupled/trace.h) become the events of
 * coupled/tracepoints/coupled.h.  Each costs one static branch while its
 * event is off; the entry time (for the wait_ns of commit and abort) is
 * read only while one of those two is on.  The core may run where RCU is
 * not watching (a cpuidle ->enter), and a module has no _rcuidle variant
 * of a trace event: there an enabled event makes RCU watch for the
 * instant of the event (ct_idle_exit(), ct_idle_enter() after, as a
 * driver with CPUIDLE_FLAG_RCU_IDLE does around its own work).  The
 * fields the macros touch are the owner's own (its slot, its round).
 */
#include <linux/context_tracking.h>
#include <linux/rcupdate.h>
#include <coupled/tracepoints/coupled.h>

#define COUPLED__LINUX_TRACE(event, ...)                         \
	do {                                                     \
		if (trace_coupled_##event##_enabled()) {         \
			bool coupled__idle = !rcu_is_watching(); \
			if (coupled__idle)                       \
				ct_idle_exit();                  \
			trace_coupled_##event(__VA_ARGS__);      \
			if (coupled__idle)                       \
				ct_idle_enter();                 \
		}                                                \
	} while (0)
#define COUPLED__LINUX_TRACE_WAIT(g, self) \
	(ktime_get_mono_fast_ns() - (g)->slots[(self)].adapter.trace_enter_ns)

#define COUPLED_TRACE_ENTER(g, self, request)                        \
	do {                                                         \
		if (trace_coupled_commit_enabled() ||                \
		    trace_coupled_abort_enabled())                   \
			(g)->slots[(self)].adapter.trace_enter_ns =  \
				ktime_get_mono_fast_ns();            \
		COUPLED__LINUX_TRACE(enter, (g), (self), (request)); \
	} while (0)
#define COUPLED_TRACE_COMMIT(round)                                         \
	COUPLED__LINUX_TRACE(                                               \
		commit, (round)->group, (round)->self, (round)->generation, \
		(round)->param, (round)->members,                           \
		COUPLED__LINUX_TRACE_WAIT((round)->group, (round)->self))
#define COUPLED_TRACE_ABORT(g, self, reason)               \
	COUPLED__LINUX_TRACE(abort, (g), (self), (reason), \
			     COUPLED__LINUX_TRACE_WAIT((g), (self)))
#define COUPLED_TRACE_RETRY(g, self) COUPLED__LINUX_TRACE(retry, (g), (self))
#define COUPLED_TRACE_RESTART(g, self) \
	COUPLED__LINUX_TRACE(restart, (g), (self))
#define COUPLED_TRACE_JOIN(g, id) COUPLED__LINUX_TRACE(join, (g), (id))
#define COUPLED_TRACE_LEAVE(g, id) COUPLED__LINUX_TRACE(leave, (g), (id))
#define COUPLED_TRACE_DOMAIN(leaf, core, depth) \
	COUPLED__LINUX_TRACE(domain, (leaf), (core), (depth))
#endif /* COUPLED_LINUX_TRACE */

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
static inline void
coupled_linux_set_safe_state(struct coupled_adapter_group *ag,
			     coupled_linux_safe_fn fn, void *arg)
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
 * Return: 0, or COUPLED_EINVAL (-EINVAL) for a null @as or an impossible
 * @cpu.
 */
static inline int coupled_linux_set_cpu(struct coupled_adapter_slot *as,
					unsigned int cpu)
{
	if (!as || cpu >= nr_cpu_ids)
		return COUPLED_EINVAL;
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
 * coupled_linux_wait_for_interrupt() - a safe state for any architecture
 *
 * Rests until an interrupt is pending and takes it before returning, so that
 * a poke's IPI is handled here, in the wait, and not carried into whatever
 * the caller enters next (on ARM an IPI left pending ends the next WFI, in
 * particular the coupled state's, at once):
 *   - x86: "sti; hlt" (raw_safe_halt()); the interrupt is taken after hlt;
 *   - ARM and arm64: "dsb; wfi" with interrupts masked (WFI completes when an
 *     interrupt is pending, masked or not), then interrupts open for one
 *     instruction, which takes it.  An arm64 kernel that masks interrupts by
 *     GIC priority (pseudo-NMI) would not leave WFI on a masked one, so it
 *     only opens them for that instant: an early return, which the safe
 *     state's contract allows;
 *   - elsewhere: interrupts open for an instant around cpu_relax().
 * Suitable as the callback of coupled_linux_set_safe_state() (through a
 * wrapper taking the argument) and as a cpuidle driver's safe state.
 *
 * Context: interrupts disabled on entry and on return; a CPU's idle path or
 * a thread that called local_irq_disable().
 */
static inline void coupled_linux_wait_for_interrupt(void)
{
#if defined(CONFIG_X86)
	raw_safe_halt();
#elif defined(CONFIG_ARM64)
	if (!system_uses_irq_prio_masking()) {
		dsb(sy);
		wfi();
	}
	raw_local_irq_enable();
#elif defined(CONFIG_ARM)
	dsb();
	wfi();
	raw_local_irq_enable();
#else
	raw_local_irq_enable();
	cpu_relax();
#endif
	raw_local_irq_disable();
}

/* coupled_adapter_relax() and _wait_prepare(): the shared ones. */
#include <coupled/adapter/common_hooks.h>

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
		coupled_cpu_relax();
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
static inline bool
coupled_adapter_work_pending(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
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

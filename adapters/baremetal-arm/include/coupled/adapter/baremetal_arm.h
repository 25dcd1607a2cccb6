/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/adapter/baremetal_arm.h - the bare-metal ARM adapter.
 *
 * For firmware with no kernel underneath: the cores of a cluster meet in
 * shared memory and rest in WFE or WFI.  Targets: ARMv7-A (ARM or Thumb),
 * ARMv8-A AArch64 (with or without LSE atomics: the atomics come from C11,
 * so -march=armv8.1-a turns them into LDADD/CAS without a change here), and
 * the M profile (ARMv7-M, ARMv8-M Mainline) for multi-core MCUs.  No libc:
 * the header needs only the freestanding headers and coupled/atomic.h.
 * Selected with -DCOUPLED_ADAPTER_BAREMETAL_ARM (coupled/adapter.h then
 * includes this file).
 *
 * Two wait strategies, chosen per group before it is shared:
 *
 * COUPLED_ARM_WAIT_WFE (default)
 *   wait = WFE, wake = DSB then SEV, relax = YIELD.  No wake-up is lost
 *   because of the event register: SEV sets it on every core, WFE clears it
 *   and returns at once if it was set, and nothing between the core's last
 *   check and the WFE executes a WFE (the firmware's hooks must not either).
 *   So a SEV that lands after the check and before the WFE makes that WFE
 *   return, and a SEV before the check is seen by the check itself: the
 *   poke counter the core reads was written before the DSB that precedes
 *   the SEV.  The wake costs no atomic operation of its own.
 *
 * COUPLED_ARM_WAIT_WFI_SGI
 *   wait = WFI with IRQs masked, wake = an RMW on the target's wake counter,
 *   DSB, then a software-generated interrupt (SGI) to the target core.  The
 *   counter is what makes it safe: the waiter masks IRQs, re-reads the
 *   counter and only then executes WFI.  An SGI taken (and acknowledged by
 *   the firmware's IRQ handler) before the mask was set has already bumped
 *   the counter, so the re-check returns; an SGI after the mask stays
 *   pending, and WFI does not sleep while an interrupt is pending, masked or
 *   not.  IRQs are restored after WFI, so the firmware's handler then takes
 *   and acknowledges the SGI.  If the caller itself runs with IRQs masked
 *   (cpuidle style), the SGI stays pending and later WFIs return at once: a
 *   busy wait, correct but not asleep; supply @ack in struct coupled_arm_ipi
 *   to consume it.
 *   The SGI goes through a GICv2 distributor (GICD_SGIR) by default, or
 *   through a send hook (GICv3 system registers, an M-profile mailbox).
 *
 * A build that defines COUPLED_ARM_WFE_ONLY to 1 leaves the WFI strategy
 * out; its wake-ups then cannot be lost, and its groups run the direct
 * protocol instead of the settled one (coupled/protocol.h).
 *
 * Work pending (the need_resched() analog) is a hook the firmware supplies,
 * e.g. a check of the GIC's pending registers.  The clock is the generic
 * timer's virtual counter (A profile); the M profile has no clock here.
 * With a deadline, the wait does not sleep (nothing would wake it at the
 * deadline) but yields and returns.
 *
 * The instructions are macros a host test may replace with a model
 * (tests/adapters/baremetal-arm/event_model/): COUPLED_ARM_WFE, _SEV, _WFI, _DSB, _YIELD,
 * _IRQ_SAVE, _IRQ_RESTORE, _COUNTER.  Define COUPLED_ARM_INSTRUCTIONS_PROVIDED
 * after defining all of them to build this header on a non-ARM host.
 * COUPLED_ARM_CPU_ID() names the calling core (default on the A profile:
 * its MPIDR affinity); with it, coupled_join() and coupled_leave() called
 * from inside a call of the same group on the same core (an action, a hook,
 * an interrupt handler) are refused with COUPLED_EPERM instead of hanging.
 * The M profile has no MPIDR: define it (e.g. from a CPUID mailbox) to get
 * the check there.
 *
 * Context of every hook: whatever exception level the firmware runs the
 * group at (EL1/SVC, EL2, EL3, or Thread/Handler mode on M); all cores of a
 * group must run at one level, with the group in normal, cacheable, shared
 * memory on real hardware (exclusives need it).  See docs/baremetal-arm.md.
 */
#ifndef COUPLED_ADAPTER_BAREMETAL_ARM_H
#define COUPLED_ADAPTER_BAREMETAL_ARM_H

#ifndef COUPLED__ADAPTER_SELECTING
#error "do not include <coupled/adapter/baremetal_arm.h> directly: define COUPLED_ADAPTER_BAREMETAL_ARM and include <coupled/coupled.h>"
#endif

#include <coupled/atomic.h>
#include <coupled/errno.h>
#include <coupled/relax.h>
#include <coupled/types.h>

#define COUPLED_ADAPTER_NAME "baremetal-arm"
/*
 * COUPLED_ARM_WFE_ONLY, defined to 1 by the build, leaves the WFI strategy
 * out: coupled_arm_set_wfi_sgi() then refuses and every group waits in WFE.
 */
#ifndef COUPLED_ARM_WFE_ONLY
#define COUPLED_ARM_WFE_ONLY 0
#endif
/*
 * Wake-ups (coupled/adapter.h): a SEV after the waiter's last check is
 * latched by the event register and ends the WFE, and what it leaves behind
 * is at most one early return of a later WFE, which every WFE loop
 * tolerates; so with WFE alone no wake-up is lost and the group gets the
 * direct protocol.  With the WFI strategy in the build, a wake is a
 * software-generated interrupt that can stay pending into the action (a
 * caller with IRQs masked, cpuidle style): the settled protocol.
 */
#if COUPLED_ARM_WFE_ONLY
#define COUPLED_ADAPTER_WAKE_CAN_BE_LOST 0
#else
#define COUPLED_ADAPTER_WAKE_CAN_BE_LOST 1
#endif

/* --- the instructions -------------------------------------------------------- */

#if defined(COUPLED_ARM_INSTRUCTIONS_PROVIDED)
/* A host model defined every COUPLED_ARM_* instruction macro. */
#elif defined(__GNUC__) && (defined(__arm__) || defined(__aarch64__))

#if defined(__aarch64__)
#define COUPLED__ARM_PROFILE_A 1
#elif defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define COUPLED__ARM_PROFILE_M 1
#elif defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'A'
#define COUPLED__ARM_PROFILE_A 1
#else
#error "coupled baremetal-arm: needs an A- or M-profile target (ARMv7 or later)"
#endif

#ifndef COUPLED_ARM_WFE
#define COUPLED_ARM_WFE() __asm__ __volatile__("wfe" ::: "memory")
#endif
#ifndef COUPLED_ARM_SEV
#define COUPLED_ARM_SEV() __asm__ __volatile__("sev" ::: "memory")
#endif
#ifndef COUPLED_ARM_WFI
#define COUPLED_ARM_WFI() __asm__ __volatile__("wfi" ::: "memory")
#endif
#ifndef COUPLED_ARM_DSB
#if defined(__aarch64__)
/* Inner shareable: the cores of a cluster; the GIC write is ordered too. */
#define COUPLED_ARM_DSB() __asm__ __volatile__("dsb ish" ::: "memory")
#else
#define COUPLED_ARM_DSB() __asm__ __volatile__("dsb" ::: "memory")
#endif
#endif
#ifndef COUPLED_ARM_YIELD
#define COUPLED_ARM_YIELD() coupled_cpu_relax()
#endif

#ifndef COUPLED_ARM_IRQ_SAVE
/* Returns the previous mask state and masks IRQs. */
static inline unsigned long coupled__arm_irq_save(void)
{
	unsigned long flags;
#if defined(__aarch64__)
	__asm__ __volatile__("mrs %0, daif\n\tmsr daifset, #2"
			     : "=r"(flags)
			     :
			     : "memory");
#elif defined(COUPLED__ARM_PROFILE_M)
	__asm__ __volatile__("mrs %0, primask\n\tcpsid i"
			     : "=r"(flags)
			     :
			     : "memory");
#else
	__asm__ __volatile__("mrs %0, cpsr\n\tcpsid i"
			     : "=r"(flags)
			     :
			     : "memory");
#endif
	return flags;
}

static inline void coupled__arm_irq_restore(unsigned long flags)
{
#if defined(__aarch64__)
	__asm__ __volatile__("msr daif, %0" : : "r"(flags) : "memory");
#elif defined(COUPLED__ARM_PROFILE_M)
	__asm__ __volatile__("msr primask, %0" : : "r"(flags) : "memory");
#else
	__asm__ __volatile__("msr cpsr_c, %0" : : "r"(flags) : "memory");
#endif
}
#define COUPLED_ARM_IRQ_SAVE() coupled__arm_irq_save()
#define COUPLED_ARM_IRQ_RESTORE(flags) coupled__arm_irq_restore(flags)
#endif /* COUPLED_ARM_IRQ_SAVE */

#ifndef COUPLED_ARM_COUNTER
#if defined(COUPLED__ARM_PROFILE_A)
/* The generic timer's virtual count (CNTVCT), in its own ticks. */
static inline uint64_t coupled__arm_counter(void)
{
#if defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0"
			     : "=r"(v)
			     :
			     : "memory");
	return v;
#else
	uint32_t lo, hi;

	__asm__ __volatile__("isb\n\tmrrc p15, 1, %0, %1, c14"
			     : "=r"(lo), "=r"(hi)
			     :
			     : "memory");
	return ((uint64_t)hi << 32) | lo;
#endif
}
#define COUPLED_ARM_COUNTER() coupled__arm_counter()
#endif
#endif /* COUPLED_ARM_COUNTER */

#ifndef COUPLED_ARM_CPU_ID
#if defined(COUPLED__ARM_PROFILE_A)
/*
 * The calling core's MPIDR affinity Aff2.Aff1.Aff0 (24 bits; Aff3, used by
 * multi-chip AArch64 systems only, is left out).  Readable at EL1 and up.
 */
static inline uint32_t coupled__arm_cpu_id(void)
{
#if defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("mrs %0, mpidr_el1" : "=r"(v));
	return (uint32_t)v & 0x00ffffffu;
#else
	uint32_t v;

	__asm__ __volatile__("mrc p15, 0, %0, c0, c0, 5" : "=r"(v));
	return v & 0x00ffffffu;
#endif
}
#define COUPLED_ARM_CPU_ID() coupled__arm_cpu_id()
#endif
#endif /* COUPLED_ARM_CPU_ID */

#else
#error "coupled baremetal-arm: not an ARM target (a host model must define COUPLED_ARM_INSTRUCTIONS_PROVIDED)"
#endif /* instructions */

#if defined(COUPLED_ARM_COUNTER)
#define COUPLED_ADAPTER_HAS_CLOCK 1
#else
#define COUPLED_ADAPTER_HAS_CLOCK 0
#endif
/* coupled_adapter_context(): where the calling core can be named. */
#if defined(COUPLED_ARM_CPU_ID)
#define COUPLED_ADAPTER_HAS_CONTEXT 1
#else
#define COUPLED_ADAPTER_HAS_CONTEXT 0
#endif

/* --- adapter state ------------------------------------------------------------ */

/* Wait strategies: the value of struct coupled_adapter_group.strategy. */
#define COUPLED_ARM_WAIT_WFE 0u
#define COUPLED_ARM_WAIT_WFI_SGI 1u

/* GICv2: offset of the software-generated interrupt register. */
#define COUPLED__ARM_GICD_SGIR 0xf00u

/**
 * struct coupled_arm_ipi - how the WFI strategy interrupts a core
 * @send: sends the wake interrupt to participant @target (e.g. GICv3's
 *        ICC_SGI1R_EL1); NULL uses the GICv2 distributor at @gicd_base
 * @ack: optional; called after WFI with IRQs masked, to consume a wake
 *       interrupt the caller's masked IRQs would leave pending
 * @arg: first argument of @send and @ack
 * @gicd_base: GICv2 distributor base address, when @send is NULL
 * @sgi_id: the SGI number (0..15) used for wakes
 */
struct coupled_arm_ipi {
	void (*send)(void *arg, uint32_t target);
	void (*ack)(void *arg, uint32_t self);
	void *arg;
	uintptr_t gicd_base;
	uint32_t sgi_id;
};

/**
 * typedef coupled_arm_work_fn - the firmware's "work pending" check
 * @arg: the argument given to coupled_arm_set_work_hook()
 * @self: the participant asking
 *
 * Polled in phases 1 and 2: cheap, never blocking, and never executing WFE
 * (that would eat a wake-up of the WFE strategy).
 *
 * Return: true if @self has work to do and must not enter the shared action.
 */
typedef bool (*coupled_arm_work_fn)(void *arg, uint32_t self);

/**
 * struct coupled_adapter_group - per-group state of the bare-metal adapter
 *
 * Written by coupled_group_init() and the coupled_arm_set_*() calls only,
 * before the group is shared with other cores; read-only afterwards, so
 * plain fields suffice (whatever publishes the group to the other cores,
 * e.g. starting them with PSCI CPU_ON, publishes these too).
 */
struct coupled_adapter_group {
	uint32_t strategy;
	coupled_arm_work_fn work_pending;
	void *work_arg;
	struct coupled_arm_ipi ipi;
};

/**
 * struct coupled_adapter_slot - per-participant state
 * @wake_seq: wakes sent to this participant (WFI strategy only)
 * @gic_target: the participant's GICv2 CPU interface number (0..7)
 */
struct coupled_adapter_slot {
	coupled_atomic_u32 wake_seq;
	uint32_t gic_target;
};

/**
 * coupled__arm_uses_wfi() - whether the group waits in WFI (the SGI strategy)
 * @ag: the group's adapter state
 *
 * Context: any.
 * Return: true for COUPLED_ARM_WAIT_WFI_SGI; always false when the build
 * leaves that strategy out (COUPLED_ARM_WFE_ONLY).
 */
static inline bool coupled__arm_uses_wfi(const struct coupled_adapter_group *ag)
{
#if COUPLED_ARM_WFE_ONLY
	(void)ag;
	return false;
#else
	return ag->strategy == COUPLED_ARM_WAIT_WFI_SGI;
#endif
}

/* --- configuration (before the group is shared) -------------------------------- */

/**
 * coupled_arm_set_wfe() - select the WFE/SEV wait strategy (the default)
 * @ag: the group's adapter state (coupled_group_adapter())
 *
 * Context: after coupled_group_init(), before any other core uses the group.
 * Return: 0, or COUPLED_EINVAL for a null @ag.
 */
static inline int coupled_arm_set_wfe(struct coupled_adapter_group *ag)
{
	if (!ag)
		return COUPLED_EINVAL;
	ag->strategy = COUPLED_ARM_WAIT_WFE;
	return 0;
}

/**
 * coupled_arm_set_wfi_sgi() - select the WFI + software-interrupt strategy
 * @ag: the group's adapter state
 * @ipi: how to interrupt a core (copied)
 *
 * The firmware must route the SGI to each core as an IRQ and acknowledge it
 * in its IRQ handler (or through @ipi->ack).  With the GICv2 default, set
 * each participant's CPU interface with coupled_arm_set_gic_target().
 *
 * Context: after coupled_group_init(), before any other core uses the group.
 * Return: 0, or COUPLED_EINVAL for a null pointer, an SGI number above
 * 15, or neither a send hook nor a distributor address; COUPLED_EOPNOTSUPP
 * in a build with COUPLED_ARM_WFE_ONLY (its groups run the direct protocol,
 * which this strategy's wake-ups would break); nothing changes on error.
 */
static inline int coupled_arm_set_wfi_sgi(struct coupled_adapter_group *ag,
					  const struct coupled_arm_ipi *ipi)
{
	if (COUPLED_ARM_WFE_ONLY)
		return COUPLED_EOPNOTSUPP;
	if (!ag || !ipi || ipi->sgi_id > 15u ||
	    (!ipi->send && ipi->gicd_base == 0u))
		return COUPLED_EINVAL;
	ag->ipi = *ipi;
	ag->strategy = COUPLED_ARM_WAIT_WFI_SGI;
	return 0;
}

/**
 * coupled_arm_set_gic_target() - a participant's GICv2 CPU interface
 * @as: the participant's adapter state (coupled_participant_adapter())
 * @cpu_interface: its CPU interface number, 0..7 (GICD_ITARGETSR numbering)
 *
 * Context: before the group is shared.
 * Return: 0, or COUPLED_EINVAL for a null @as or a number above 7.
 */
static inline int coupled_arm_set_gic_target(struct coupled_adapter_slot *as,
					     uint32_t cpu_interface)
{
	if (!as || cpu_interface > 7u)
		return COUPLED_EINVAL;
	as->gic_target = cpu_interface;
	return 0;
}

/**
 * coupled_arm_set_work_hook() - install the firmware's work check
 * @ag: the group's adapter state
 * @fn: polled by each participant in phases 1 and 2; NULL for none.  It must
 *      be cheap, must not block and must not execute WFE (that would eat a
 *      wake-up of the WFE strategy).
 * @arg: first argument of @fn
 *
 * Context: before the group is shared.
 * Return: 0, or COUPLED_EINVAL for a null @ag.
 */
static inline int coupled_arm_set_work_hook(struct coupled_adapter_group *ag,
					    coupled_arm_work_fn fn, void *arg)
{
	if (!ag)
		return COUPLED_EINVAL;
	ag->work_pending = fn;
	ag->work_arg = arg;
	return 0;
}

/* --- the adapter contract (docs/adapters.md) ------------------------------------ */

/**
 * coupled_adapter_group_init() - initialise the group's adapter state
 * @ag: adapter state embedded in the group
 * @capacity: the group's capacity
 *
 * WFE strategy, no work hook.
 *
 * Context: called once by coupled_group_init(), before any participant runs.
 */
static inline void coupled_adapter_group_init(struct coupled_adapter_group *ag,
					      uint32_t capacity)
{
	(void)capacity;
	ag->strategy = COUPLED_ARM_WAIT_WFE;
	ag->work_pending = NULL;
	ag->work_arg = NULL;
	ag->ipi.send = NULL;
	ag->ipi.ack = NULL;
	ag->ipi.arg = NULL;
	ag->ipi.gicd_base = 0u;
	ag->ipi.sgi_id = 0u;
}

/**
 * coupled_adapter_slot_init() - initialise one participant's adapter state
 * @ag: the group's adapter state
 * @as: adapter state embedded in the participant's slot
 * @id: the participant's id; its GIC CPU interface defaults to @id & 7
 *
 * Context: called by coupled_group_init() for every id, before any
 * participant runs.
 */
static inline void coupled_adapter_slot_init(struct coupled_adapter_group *ag,
					     struct coupled_adapter_slot *as,
					     uint32_t id)
{
	(void)ag;
	coupled_atomic_init(&as->wake_seq, 0u);
	as->gic_target = id & 7u;
}

/* coupled_adapter_relax() (YIELD) and _work_pending(): the shared ones. */
#define COUPLED__ADAPTER_PAUSE() COUPLED_ARM_YIELD()
#define COUPLED__ADAPTER_WORK_HOOK 1
#include <coupled/adapter/common_hooks.h>

/**
 * coupled_adapter_wait_prepare() - start a wait for a wake-up
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @self: the calling participant's id
 *
 * Return: the token for coupled_adapter_wait(): the wake counter (WFI
 * strategy) or 0 (WFE: the event register keeps the wake instead).
 */
static inline uint32_t
coupled_adapter_wait_prepare(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	(void)self;
	if (!coupled__arm_uses_wfi(ag))
		return 0u;
	/*
	 * acquire: pairs with the release increment in coupled_adapter_wake(),
	 * so the core's poke counter, bumped before that wake, is visible.
	 */
	return coupled_load(&as->wake_seq, COUPLED_ACQUIRE);
}

/**
 * coupled_adapter_wait() - rest in WFE or WFI until woken
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @self: the calling participant's id
 * @token: the value coupled_adapter_wait_prepare() returned
 * @deadline: absolute counter time to return by, or 0 for none
 *
 * May return spuriously (any event or interrupt; the core re-checks).  With
 * a deadline it only yields: neither WFE nor WFI would wake at the deadline
 * without a timer the firmware owns.
 *
 * Context: the participant's wait for its round, counted as waiting.  The
 * WFI strategy masks IRQs around its check and WFI and restores the caller's
 * mask afterwards.
 */
static inline void coupled_adapter_wait(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *as,
					uint32_t self, uint32_t token,
					uint64_t deadline)
{
	unsigned long flags;

	if (deadline != 0u) {
		COUPLED_ARM_YIELD();
		return;
	}
	if (!coupled__arm_uses_wfi(ag)) {
		/*
		 * The event register: a SEV since the core's last check (which
		 * came after wait_prepare) was latched and makes this return.
		 */
		COUPLED_ARM_WFE();
		return;
	}
	flags = COUPLED_ARM_IRQ_SAVE();
	/*
	 * relaxed: with IRQs masked, either this load sees a wake that
	 * happened before the mask, or that wake's SGI is still pending and
	 * keeps WFI from sleeping.  The acquire load in wait_prepare (or the
	 * core's own acquire of its poke counter) orders the data.
	 */
	if (coupled_load(&as->wake_seq, COUPLED_RELAXED) == token) {
		/* Let the caller's stores drain before sleeping (as Linux). */
		COUPLED_ARM_DSB();
		COUPLED_ARM_WFI();
		if (ag->ipi.ack)
			ag->ipi.ack(ag->ipi.arg, self);
	}
	COUPLED_ARM_IRQ_RESTORE(flags);
}

/**
 * coupled_adapter_wake() - wake a participant out of WFE or WFI
 * @ag: the group's adapter state
 * @target: the target participant's adapter state
 * @target_id: the target's id
 *
 * WFE: DSB then SEV.  The DSB makes what the caller just stored for the
 * target (its poke counter in the settled protocol, the group's word in the
 * direct one) observable before the event leaves; it pairs with the
 * target's acquire load of it after its WFE returns.  SEV wakes every core of
 * the shareability domain; the others see a spurious return.
 *
 * WFI: release increment of the target's wake counter, DSB, SGI.
 *
 * Context: any; tolerates a target that is not waiting and repeated wakes.
 */
static inline void coupled_adapter_wake(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *target,
					uint32_t target_id)
{
	if (!coupled__arm_uses_wfi(ag)) {
		COUPLED_ARM_DSB();
		COUPLED_ARM_SEV();
		return;
	}
	/*
	 * release: pairs with the acquire in coupled_adapter_wait_prepare();
	 * an RMW because wakers race.
	 */
	(void)coupled_fetch_add(&target->wake_seq, 1u, COUPLED_RELEASE);
	/*
	 * The counter must be observable before the interrupt arrives: an
	 * interrupt taken before the waiter masks IRQs is acknowledged by the
	 * firmware, and then only the counter tells the waiter not to sleep.
	 */
	COUPLED_ARM_DSB();
	if (ag->ipi.send) {
		ag->ipi.send(ag->ipi.arg, target_id);
	} else {
		volatile uint32_t *sgir =
			(volatile uint32_t *)(ag->ipi.gicd_base +
					      COUPLED__ARM_GICD_SGIR);

		/* TargetListFilter 0: the CPUs in the target list. */
		*sgir = (1u << (16u + target->gic_target)) | ag->ipi.sgi_id;
	}
}

#if COUPLED_ADAPTER_HAS_CONTEXT
/**
 * coupled_adapter_context() - name the calling core
 * @ag: the group's adapter state (unused)
 *
 * Every execution on a core (its main flow, its interrupt handlers) is one
 * execution context, so that a handler that interrupts a participant inside
 * coupled_enter() must not wait for a membership change either.
 *
 * Context: any.
 * Return: COUPLED_ARM_CPU_ID() + 1 (nonzero).
 */
static inline uint32_t coupled_adapter_context(struct coupled_adapter_group *ag)
{
	(void)ag;
	return (uint32_t)COUPLED_ARM_CPU_ID() + 1u;
}
#endif

/**
 * coupled_adapter_now() - the generic timer's virtual count
 * @ag: the group's adapter state
 *
 * Return: counter ticks (CNTFRQ per second), or 0 without a clock.
 */
static inline uint64_t coupled_adapter_now(struct coupled_adapter_group *ag)
{
	(void)ag;
#if COUPLED_ADAPTER_HAS_CLOCK
	return COUPLED_ARM_COUNTER();
#else
	return 0u;
#endif
}

#endif /* COUPLED_ADAPTER_BAREMETAL_ARM_H */

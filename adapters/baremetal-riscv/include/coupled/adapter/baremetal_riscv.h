/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/adapter/baremetal_riscv.h - the bare-metal RISC-V adapter.
 *
 * For firmware with no kernel underneath, in machine mode (M-mode): the
 * harts of a cluster meet in shared memory, rest in WFI and wake each other
 * with the CLINT's machine software interrupt (MSIP); the clock is the
 * CLINT's mtime.  RV64 and RV32 with the A extension (the atomics come from
 * C11: AMOs and LR/SC).  No libc: the header needs only the freestanding
 * headers and coupled/atomic.h.  Selected with
 * -DCOUPLED_ADAPTER_BAREMETAL_RISCV (coupled/adapter.h then includes this
 * file).
 *
 * Why M-mode with the CLINT.  It is what a hart has of its own, with no
 * firmware below it: MSIP (one word per hart at CLINT + 4 * hartid) is the
 * inter-hart interrupt, mtime (CLINT + 0xbff8) the clock, mhartid the
 * hart's name, and mstatus.MIE the interrupt mask the wait needs.  The same
 * code runs on QEMU virt with -bios none (every hart starts in M-mode at
 * the image) and on a board whose boot ROM hands over in M-mode.  Under an
 * SBI firmware (OpenSBI) the firmware owns M-mode and the CLINT; S-mode
 * code would wait in WFI with sstatus.SIE clear and be woken by an SBI
 * IPI (sbi_send_ipi, which the firmware turns into the target's SSIP): the
 * same argument with other registers, reachable here through the send and
 * clear hooks of struct coupled_riscv_ipi and COUPLED_RISCV_IRQ_SAVE/
 * _RESTORE, COUPLED_RISCV_HART_ID and COUPLED_RISCV_TIME (see
 * docs/baremetal-riscv.md).
 *
 * Two wait strategies, chosen per group before it is shared:
 *
 * COUPLED_RISCV_WAIT_SPIN (default)
 *   wait = one pause (Zihintpause, a no-op hint elsewhere), wake = nothing:
 *   the waiter re-reads its poke counter or the group's word itself.
 *
 * COUPLED_RISCV_WAIT_WFI (coupled_riscv_set_ipi())
 *   wait = WFI with mstatus.MIE clear, wake = a release increment of the
 *   target's wake counter, FENCE w,o, then MSIP of the target hart set to 1.
 *   The counter is what makes it safe: the waiter clears MIE, re-reads the
 *   counter and only then executes WFI.  An MSIP taken (and cleared by the
 *   firmware's trap handler) before MIE was cleared came after its
 *   increment, so the re-check returns; one set after stays pending, and
 *   WFI does not sleep while an interrupt that mie enables is pending,
 *   whatever mstatus.MIE says (the privileged spec: WFI is unaffected by
 *   the global enable bits).  So every hart of a WFI group must have
 *   mie.MSIE set.  MIE is put back after WFI: a caller that runs with
 *   interrupts on has its trap handler take the MSIP and clear it; a
 *   caller with MIE clear (cpuidle style) cannot, so the adapter clears the
 *   hart's own MSIP itself after WFI, then FENCE o,r before the next look
 *   at the counter (a wake whose MSIP the clear erased was counted before
 *   it: see coupled__riscv_clear_own()).
 *
 * Wake-ups (COUPLED_ADAPTER_WAKE_CAN_BE_LOST): an MSIP can be set after its
 * target already left the wait (the target saw the news in memory first),
 * and then it stays pending into the action when the target runs with MIE
 * clear: a WFI there returns at once.  That is a wake that outlives its
 * wait, so the adapter declares 1 and its groups run the settled protocol.
 *
 * Work pending (the need_resched() analog) is a hook the firmware supplies,
 * e.g. a look at the PLIC's pending bits or at mip.  With a deadline, the
 * wait does not sleep (nothing would wake it at the deadline without a
 * timer the firmware owns) but pauses and returns.
 *
 * The instructions are macros a host model may replace
 * (tests/verify/relacy/relacy_riscv.cpp): COUPLED_RISCV_WFI, _PAUSE,
 * _FENCE_W_O, _FENCE_O_R, _IRQ_SAVE, _IRQ_RESTORE, _MMIO_WRITE32, _TIME
 * and _HART_ID.  Define COUPLED_RISCV_INSTRUCTIONS_PROVIDED after defining
 * all of them to build this header on another host.
 *
 * Memory orders on RVWMO, as the compilers turn the C11 orders into code
 * (A extension, -O2): a relaxed load is a plain lw; an acquire load is lw
 * then FENCE r,rw (clang 14) or FENCE iorw,iorw (gcc 12); a release RMW is
 * amoadd.w.rl (clang) or FENCE iorw,ow; amoadd.w (gcc 12, whose fences
 * also order I/O).  The two fences this adapter adds are explicit: FENCE
 * w,o in the wake (the counter and everything before it, written to
 * memory, before the MSIP store to the CLINT, an I/O region: amoadd.w.rl
 * alone orders nothing after the AMO) and FENCE o,r after the own MSIP
 * clear (the clear before the next read of the counter).
 *
 * Context of every hook: M-mode, all harts of a group in it; the group in
 * memory every hart sees coherently (main memory with the A extension's
 * AMOs and LR/SC: a PMA of the platform).  See docs/baremetal-riscv.md.
 */
#ifndef COUPLED_ADAPTER_BAREMETAL_RISCV_H
#define COUPLED_ADAPTER_BAREMETAL_RISCV_H

#ifndef COUPLED__ADAPTER_SELECTING
#error "do not include <coupled/adapter/baremetal_riscv.h> directly: define COUPLED_ADAPTER_BAREMETAL_RISCV and include <coupled/coupled.h>"
#endif

#include <coupled/atomic.h>
#include <coupled/errno.h>
#include <coupled/relax.h>
#include <coupled/types.h>

#define COUPLED_ADAPTER_NAME "baremetal-riscv"
/*
 * Wake-ups (coupled/adapter.h): an MSIP can stay pending after the wait it
 * was meant for, into the action (above): the settled protocol.
 */
#define COUPLED_ADAPTER_WAKE_CAN_BE_LOST 1
#define COUPLED_ADAPTER_HAS_CLOCK 1
#define COUPLED_ADAPTER_HAS_CONTEXT 1

/* mstatus.MIE and the CLINT's layout (SiFive CLINT, ACLINT MSWI/MTIMER). */
#define COUPLED__RISCV_MSTATUS_MIE 0x8ul
#define COUPLED__RISCV_CLINT_MSIP 0x0u
#define COUPLED__RISCV_CLINT_MTIME 0xbff8u

/* --- the instructions -------------------------------------------------------- */

#if defined(COUPLED_RISCV_INSTRUCTIONS_PROVIDED)
/* A host model defined every COUPLED_RISCV_* instruction macro. */
#elif defined(__GNUC__) && defined(__riscv)

#ifndef COUPLED_RISCV_WFI
#define COUPLED_RISCV_WFI() __asm__ __volatile__("wfi" ::: "memory")
#endif
#ifndef COUPLED_RISCV_PAUSE
/*
 * Zihintpause's PAUSE (FENCE w,0): a hint, a no-op on harts without it;
 * encoded by hand so that no -march extension is needed to assemble it.
 */
#define COUPLED_RISCV_PAUSE() \
	__asm__ __volatile__(".4byte 0x0100000f" ::: "memory")
#endif
#ifndef COUPLED_RISCV_FENCE_W_O
#define COUPLED_RISCV_FENCE_W_O() __asm__ __volatile__("fence w,o" ::: "memory")
#endif
#ifndef COUPLED_RISCV_FENCE_O_R
#define COUPLED_RISCV_FENCE_O_R() __asm__ __volatile__("fence o,r" ::: "memory")
#endif
#ifndef COUPLED_RISCV_IRQ_SAVE
/* Clears mstatus.MIE; returns the previous mstatus. */
static inline unsigned long coupled__riscv_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("csrrci %0, mstatus, 8"
			     : "=r"(flags)
			     :
			     : "memory");
	return flags;
}

/* Sets mstatus.MIE again if @flags (a previous mstatus) had it set. */
static inline void coupled__riscv_irq_restore(unsigned long flags)
{
	if (flags & COUPLED__RISCV_MSTATUS_MIE)
		__asm__ __volatile__("csrsi mstatus, 8" ::: "memory");
}
#define COUPLED_RISCV_IRQ_SAVE() coupled__riscv_irq_save()
#define COUPLED_RISCV_IRQ_RESTORE(flags) coupled__riscv_irq_restore(flags)
#endif /* COUPLED_RISCV_IRQ_SAVE */
#ifndef COUPLED_RISCV_MMIO_WRITE32
#define COUPLED_RISCV_MMIO_WRITE32(addr, v) \
	(*(volatile uint32_t *)(addr) = (uint32_t)(v))
#endif
#ifndef COUPLED_RISCV_HART_ID
static inline uint32_t coupled__riscv_hart_id(void)
{
	unsigned long v;

	__asm__ __volatile__("csrr %0, mhartid" : "=r"(v));
	return (uint32_t)v;
}
#define COUPLED_RISCV_HART_ID() coupled__riscv_hart_id()
#endif
#ifndef COUPLED_RISCV_TIME
/*
 * mtime, from the CLINT at @clint_base, or the time CSR when none is given
 * (implemented by some harts in M-mode, trapped and emulated on others).
 */
static inline uint64_t coupled__riscv_time(uintptr_t clint_base)
{
#if __riscv_xlen == 32
	uint32_t hi, lo, hi2;

	do {
		if (clint_base) {
			volatile uint32_t *mt =
				(volatile uint32_t
					 *)(clint_base +
					    COUPLED__RISCV_CLINT_MTIME);

			hi = mt[1];
			lo = mt[0];
			hi2 = mt[1];
		} else {
			__asm__ __volatile__("csrr %0, timeh\n\tcsrr %1, "
					     "time\n\t"
					     "csrr %2, timeh"
					     : "=r"(hi), "=r"(lo), "=r"(hi2));
		}
	} while (hi != hi2);
	return ((uint64_t)hi << 32) | lo;
#else
	uint64_t v;

	if (clint_base)
		return *(volatile uint64_t *)(clint_base +
					      COUPLED__RISCV_CLINT_MTIME);
	__asm__ __volatile__("csrr %0, time" : "=r"(v));
	return v;
#endif
}
#define COUPLED_RISCV_TIME(clint_base) coupled__riscv_time(clint_base)
#endif /* COUPLED_RISCV_TIME */

#else
#error "coupled baremetal-riscv: not a RISC-V target (a host model must define COUPLED_RISCV_INSTRUCTIONS_PROVIDED)"
#endif /* instructions */

/* --- adapter state ------------------------------------------------------------ */

/* Wait strategies: the value of struct coupled_adapter_group.strategy. */
#define COUPLED_RISCV_WAIT_SPIN 0u
#define COUPLED_RISCV_WAIT_WFI 1u

/**
 * struct coupled_riscv_ipi - how the WFI strategy interrupts a hart
 * @send: sets the wake interrupt pending on hart @hart (an ACLINT SSWI, an
 *        SBI IPI); NULL writes 1 to the CLINT's MSIP of @hart
 * @clear: clears the calling hart's own wake interrupt; NULL writes 0 to
 *         the CLINT's MSIP of @hart.  Give both hooks or neither.
 * @arg: first argument of @send and @clear
 * @clint_base: the CLINT's base address: MSIP (without hooks) and mtime
 *              (the clock); 0 with hooks and a clock from the time CSR
 */
struct coupled_riscv_ipi {
	void (*send)(void *arg, uint32_t hart);
	void (*clear)(void *arg, uint32_t hart);
	void *arg;
	uintptr_t clint_base;
};

/**
 * typedef coupled_riscv_work_fn - the firmware's "work pending" check
 * @arg: the argument given to coupled_riscv_set_work_hook()
 * @self: the participant asking
 *
 * Polled in phases 1 and 2: cheap and never blocking.
 *
 * Return: true if @self has work to do and must not enter the shared action.
 */
typedef bool (*coupled_riscv_work_fn)(void *arg, uint32_t self);

/**
 * struct coupled_adapter_group - per-group state of the bare-metal adapter
 *
 * Written by coupled_group_init() and the coupled_riscv_set_*() calls only,
 * before the group is shared with other harts; read-only afterwards, so
 * plain fields suffice (whatever releases the other harts publishes them).
 */
struct coupled_adapter_group {
	uint32_t strategy;
	coupled_riscv_work_fn work_pending;
	void *work_arg;
	struct coupled_riscv_ipi ipi;
};

/**
 * struct coupled_adapter_slot - per-participant state
 * @wake_seq: wakes sent to this participant (WFI strategy only)
 * @hart: the participant's hart id (mhartid), where its MSIP is
 */
struct coupled_adapter_slot {
	coupled_atomic_u32 wake_seq;
	uint32_t hart;
};

/* --- configuration (before the group is shared) -------------------------------- */

/**
 * coupled_riscv_set_spin() - select the spin strategy (the default)
 * @ag: the group's adapter state (coupled_group_adapter())
 *
 * Context: after coupled_group_init(), before any other hart uses the group.
 * Return: 0, or COUPLED_EINVAL for a null @ag.
 */
static inline int coupled_riscv_set_spin(struct coupled_adapter_group *ag)
{
	if (!ag)
		return COUPLED_EINVAL;
	ag->strategy = COUPLED_RISCV_WAIT_SPIN;
	return 0;
}

/**
 * coupled_riscv_set_ipi() - select the WFI + machine software interrupt strategy
 * @ag: the group's adapter state
 * @ipi: how to interrupt a hart, and where the clock is (copied)
 *
 * Every hart of the group must have mie.MSIE set; a hart that calls with
 * mstatus.MIE set must clear its MSIP in its trap handler.  Set each
 * participant's hart id with coupled_riscv_set_hart() if it is not its id.
 *
 * Context: after coupled_group_init(), before any other hart uses the group.
 * Return: 0, or COUPLED_EINVAL for a null pointer, one hook without the
 * other, or neither hooks nor a CLINT address; nothing changes on error.
 */
static inline int coupled_riscv_set_ipi(struct coupled_adapter_group *ag,
					const struct coupled_riscv_ipi *ipi)
{
	if (!ag || !ipi || !ipi->send != !ipi->clear ||
	    (!ipi->send && ipi->clint_base == 0u))
		return COUPLED_EINVAL;
	ag->ipi = *ipi;
	ag->strategy = COUPLED_RISCV_WAIT_WFI;
	return 0;
}

/**
 * coupled_riscv_set_clock() - where the clock is, for any strategy
 * @ag: the group's adapter state
 * @clint_base: the CLINT's base address (mtime at +0xbff8); 0 for the time
 *              CSR
 *
 * Context: before the group is shared.
 * Return: 0, or COUPLED_EINVAL for a null @ag.
 */
static inline int coupled_riscv_set_clock(struct coupled_adapter_group *ag,
					  uintptr_t clint_base)
{
	if (!ag)
		return COUPLED_EINVAL;
	ag->ipi.clint_base = clint_base;
	return 0;
}

/**
 * coupled_riscv_set_hart() - a participant's hart id
 * @as: the participant's adapter state (coupled_participant_adapter())
 * @hart: its mhartid, below 4095 (the CLINT's MSIP words)
 *
 * Context: before the group is shared.
 * Return: 0, or COUPLED_EINVAL for a null @as or a hart id of 4095 or more.
 */
static inline int coupled_riscv_set_hart(struct coupled_adapter_slot *as,
					 uint32_t hart)
{
	if (!as || hart >= 4095u)
		return COUPLED_EINVAL;
	as->hart = hart;
	return 0;
}

/**
 * coupled_riscv_set_work_hook() - install the firmware's work check
 * @ag: the group's adapter state
 * @fn: polled by each participant in phases 1 and 2; NULL for none.  It must
 *      be cheap and must not block.
 * @arg: first argument of @fn
 *
 * Context: before the group is shared.
 * Return: 0, or COUPLED_EINVAL for a null @ag.
 */
static inline int coupled_riscv_set_work_hook(struct coupled_adapter_group *ag,
					      coupled_riscv_work_fn fn,
					      void *arg)
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
 * Spin strategy, no work hook, the time CSR as the clock.
 *
 * Context: called once by coupled_group_init(), before any participant runs.
 */
static inline void coupled_adapter_group_init(struct coupled_adapter_group *ag,
					      uint32_t capacity)
{
	(void)capacity;
	ag->work_pending = NULL;
	ag->work_arg = NULL;
	ag->ipi.send = NULL;
	ag->ipi.clear = NULL;
	ag->ipi.arg = NULL;
	ag->strategy = COUPLED_RISCV_WAIT_SPIN;
	ag->ipi.clint_base = 0u;
}

/**
 * coupled_adapter_slot_init() - initialise one participant's adapter state
 * @ag: the group's adapter state
 * @as: adapter state embedded in the participant's slot
 * @id: the participant's id; its hart id defaults to @id
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
	as->hart = id;
}

/* coupled_adapter_relax() (PAUSE) and _work_pending(): the shared ones. */
#define COUPLED__ADAPTER_PAUSE() COUPLED_RISCV_PAUSE()
#define COUPLED__ADAPTER_WORK_HOOK 1
#include <coupled/adapter/common_hooks.h>

/**
 * coupled_adapter_wait_prepare() - start a wait for a wake-up
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @self: the calling participant's id
 *
 * Return: the token for coupled_adapter_wait(): the wake counter (WFI
 * strategy) or 0 (spin: nothing to remember).
 */
static inline uint32_t
coupled_adapter_wait_prepare(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	(void)self;
	if (ag->strategy != COUPLED_RISCV_WAIT_WFI)
		return 0u;
	/*
	 * acquire (lw; fence r,rw): pairs with the release increment in
	 * coupled_adapter_wake(), so the poke counter or word the waker
	 * stored before that wake is visible to the check that follows.
	 */
	return coupled_load(&as->wake_seq, COUPLED_ACQUIRE);
}

/**
 * coupled__riscv_msip() - set or clear a hart's wake interrupt
 * @ag: the group's adapter state
 * @hart: the hart whose wake interrupt changes
 * @pending: 1 to send it (the @send hook), 0 to clear it (the @clear hook)
 *
 * Through the hook of struct coupled_riscv_ipi when the firmware gave one,
 * else a store of @pending to the CLINT's MSIP word of @hart.
 *
 * Context: the WFI strategy's wake (1) and wait (0, the own hart).
 */
static inline void coupled__riscv_msip(struct coupled_adapter_group *ag,
				       uint32_t hart, uint32_t pending)
{
	void (*hook)(void *, uint32_t) = pending ? ag->ipi.send : ag->ipi.clear;

	if (hook)
		hook(ag->ipi.arg, hart);
	else
		COUPLED_RISCV_MMIO_WRITE32(ag->ipi.clint_base +
						   COUPLED__RISCV_CLINT_MSIP +
						   4u * hart,
					   pending);
}

/**
 * coupled__riscv_clear_own() - clear the calling hart's wake interrupt
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 *
 * For a caller with mstatus.MIE clear, whose trap handler cannot: else the
 * MSIP stays pending and every later WFI returns at once.  A wake whose
 * MSIP this store erases made its counter increment observable before its
 * MSIP store (FENCE w,o); the FENCE o,r after the clear orders the clear
 * before the next read of the counter, so that read sees the increment
 * (the CLINT's MSIP word is one location: the waker's store came before
 * the clear, and RVWMO's global memory order carries the fences' orders
 * through it).
 *
 * Context: the wait, with mstatus.MIE clear.
 */
static inline void coupled__riscv_clear_own(struct coupled_adapter_group *ag,
					    struct coupled_adapter_slot *as)
{
	coupled__riscv_msip(ag, as->hart, 0u);
	COUPLED_RISCV_FENCE_O_R();
}

/**
 * coupled_adapter_wait() - rest in WFI until woken (or pause once)
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @self: the calling participant's id
 * @token: the value coupled_adapter_wait_prepare() returned
 * @deadline: absolute mtime to return by, or 0 for none
 *
 * May return spuriously (any interrupt mie enables; the hart re-checks).
 * With a deadline it only pauses: WFI would not wake at the deadline without
 * a timer the firmware owns.
 *
 * Context: the participant's wait for its round, counted as waiting.  The
 * WFI strategy clears mstatus.MIE around its check and WFI and restores it
 * afterwards.
 */
static inline void coupled_adapter_wait(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *as,
					uint32_t self, uint32_t token,
					uint64_t deadline)
{
	unsigned long flags;

	(void)self;
	if (deadline != 0u || ag->strategy != COUPLED_RISCV_WAIT_WFI) {
		COUPLED_RISCV_PAUSE();
		return;
	}
	flags = COUPLED_RISCV_IRQ_SAVE();
	/*
	 * relaxed (lw): with MIE clear, either this load sees a wake whose
	 * MSIP was taken before the mask, or that wake's MSIP is still
	 * pending (or arrives later) and keeps WFI from sleeping.  The
	 * acquire in wait_prepare (or the core's own acquire of its poke
	 * counter) orders the data.
	 */
	if (coupled_load(&as->wake_seq, COUPLED_RELAXED) == token) {
		COUPLED_RISCV_WFI();
		if (!(flags & COUPLED__RISCV_MSTATUS_MIE))
			coupled__riscv_clear_own(ag, as);
	}
	COUPLED_RISCV_IRQ_RESTORE(flags);
}

/**
 * coupled_adapter_wake() - wake a participant out of WFI
 * @ag: the group's adapter state
 * @target: the target participant's adapter state
 * @target_id: the target's id
 *
 * WFI: release increment of the target's wake counter, FENCE w,o, MSIP of
 * the target's hart.  Spin: nothing (the target reads memory itself).
 *
 * Context: any; tolerates a target that is not waiting and repeated wakes.
 */
static inline void coupled_adapter_wake(struct coupled_adapter_group *ag,
					struct coupled_adapter_slot *target,
					uint32_t target_id)
{
	(void)target_id;
	if (ag->strategy != COUPLED_RISCV_WAIT_WFI)
		return;
	/*
	 * release (amoadd.w.rl): pairs with the acquire in
	 * coupled_adapter_wait_prepare(); an RMW because wakers race.
	 */
	(void)coupled_fetch_add(&target->wake_seq, 1u, COUPLED_RELEASE);
	/*
	 * The counter must be observable before the interrupt arrives: an
	 * MSIP taken before the waiter clears MIE is cleared by the trap
	 * handler, and then only the counter tells the waiter not to sleep.
	 * FENCE w,o: the memory writes before it (the counter's AMO, the
	 * caller's poke) before the MSIP store to the CLINT.
	 */
	COUPLED_RISCV_FENCE_W_O();
	coupled__riscv_msip(ag, target->hart, 1u);
}

/**
 * coupled_adapter_context() - name the calling hart
 * @ag: the group's adapter state (unused)
 *
 * Every execution on a hart (its main flow, its trap handlers) is one
 * execution context, so that a handler that interrupts a participant inside
 * coupled_enter() must not wait for a membership change either.
 *
 * Context: M-mode (mhartid).
 * Return: COUPLED_RISCV_HART_ID() + 1 (nonzero).
 */
static inline uint32_t coupled_adapter_context(struct coupled_adapter_group *ag)
{
	(void)ag;
	return (uint32_t)COUPLED_RISCV_HART_ID() + 1u;
}

/**
 * coupled_adapter_now() - mtime
 * @ag: the group's adapter state
 *
 * Return: mtime ticks (the platform's timebase; 10 MHz on QEMU virt), from
 * the CLINT given to coupled_riscv_set_ipi() or coupled_riscv_set_clock(),
 * else from the time CSR.
 */
static inline uint64_t coupled_adapter_now(struct coupled_adapter_group *ag)
{
	return COUPLED_RISCV_TIME(ag->ipi.clint_base);
}

#endif /* COUPLED_ADAPTER_BAREMETAL_RISCV_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/adapter/common_hooks.h - hooks of the adapter contract whose logic
 * several adapters share, written once.  Private to the adapters: an adapter
 * header includes it after its own struct coupled_adapter_group and
 * coupled_adapter_slot, having defined what it wants from here:
 *
 *   COUPLED__ADAPTER_PAUSE()         the adapter's pause hint:
 *                                    coupled_adapter_relax() calls it
 *   COUPLED__ADAPTER_NO_WAIT_TOKEN   coupled_adapter_wait_prepare() records
 *                                    nothing and returns 0
 *   COUPLED__ADAPTER_WORK_HOOK       coupled_adapter_work_pending() asks the
 *                                    group's work_pending(work_arg, self)
 *                                    hook, NULL for none
 *
 * The adapter defines every other hook itself, so that opening it shows
 * what is its platform's.  Freestanding: nothing but the adapter's types.
 * The man pages (packaging/man/mkman.py) follow this include and document
 * these hooks for each adapter that takes them.
 */
#ifndef COUPLED_ADAPTER_COMMON_HOOKS_H
#define COUPLED_ADAPTER_COMMON_HOOKS_H

#ifndef COUPLED__ADAPTER_SELECTING
#error "do not include <coupled/adapter/common_hooks.h> directly: include <coupled/coupled.h>, whose adapter includes it"
#endif

#include "../types.h"

#ifdef COUPLED__ADAPTER_PAUSE
/**
 * coupled_adapter_relax() - pause inside a spin loop
 * @ag: the group's adapter state
 *
 * One turn of a busy wait: the adapter's pause hint (cpu_relax(): "pause" on
 * x86, which QEMU's single-threaded TCG also takes as a hint to run another
 * vCPU; YIELD on ARM, which also lets an emulator or an SMT core run the
 * participant being waited for; PAUSE on RISC-V).  It returns at once.
 *
 * Context: any, including interrupts disabled; called in every busy-wait of
 * the protocol (ready phase, exit, membership change).  Must not block for
 * long; may yield the processor.
 */
static inline void coupled_adapter_relax(struct coupled_adapter_group *ag)
{
	(void)ag;
	COUPLED__ADAPTER_PAUSE();
}
#endif

#ifdef COUPLED__ADAPTER_NO_WAIT_TOKEN
/**
 * coupled_adapter_wait_prepare() - start a wait for a wake-up
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @self: the calling participant's id
 *
 * Called before the core checks its wake-up conditions (the word, aborts;
 * in the settled variant also its pokes).  A coupled_adapter_wake() of
 * @self that happens after this call must make the matching
 * coupled_adapter_wait() return.  Here nothing needs recording: the
 * adapter's wait only relaxes (spin), or a wake after this point leaves an
 * interrupt pending, which its safe state honours (linux).
 *
 * Context: only while waiting for a round (with interrupts disabled in the
 * linux adapter).
 * Return: a token handed to coupled_adapter_wait(); always 0 here.
 */
static inline uint32_t
coupled_adapter_wait_prepare(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	(void)ag;
	(void)as;
	(void)self;
	return 0;
}
#endif

#ifdef COUPLED__ADAPTER_WORK_HOOK
/**
 * coupled_adapter_work_pending() - the firmware's work check
 * @ag: the group's adapter state
 * @as: the calling participant's adapter state
 * @self: the calling participant's id
 *
 * Return: the hook's answer, or false without a hook.
 */
static inline bool
coupled_adapter_work_pending(struct coupled_adapter_group *ag,
			     struct coupled_adapter_slot *as, uint32_t self)
{
	(void)as;
	return ag->work_pending ? ag->work_pending(ag->work_arg, self) : false;
}
#endif

#endif /* COUPLED_ADAPTER_COMMON_HOOKS_H */

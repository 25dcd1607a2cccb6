/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * arch_compat.h - what the test modules need from the architecture and only
 * x86 provides, for the ARM kernels (forced in by Kbuild on every
 * architecture but x86).
 *
 * safe_halt() (<linux/irqflags.h>) expands to arch_safe_halt(), which only
 * x86 defines ("sti; hlt": interrupts on, wait for one).  Here it is "dsb;
 * wfi" with interrupts masked (WFI completes when one is pending, masked or
 * not), then interrupts on, so the pending one is taken; the caller disables
 * them again, as after x86's.  New code uses the adapter's
 * coupled_linux_wait_for_interrupt() instead.
 */
#ifndef COUPLED_TEST_ARCH_COMPAT_H
#define COUPLED_TEST_ARCH_COMPAT_H

#if !defined(CONFIG_X86)
#include <linux/irqflags.h>
#include <asm/barrier.h>

/**
 * arch_safe_halt() - wait for an interrupt, then enable interrupts
 *
 * Context: interrupts disabled on entry, enabled on return.
 */
static inline void arch_safe_halt(void)
{
#if defined(CONFIG_ARM64)
	dsb(sy);
	wfi();
#elif defined(CONFIG_ARM)
	dsb();
	wfi();
#endif
	raw_local_irq_enable();
}
#endif

#endif /* COUPLED_TEST_ARCH_COMPAT_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/relax.h - the processor's hint for one turn of a busy wait.
 *
 * coupled_cpu_relax() is what the adapters' coupled_adapter_relax() builds
 * on: the kernel's cpu_relax() in kernel code; elsewhere "pause" on x86,
 * "yield" on ARM (A and M profile, AArch32 and AArch64), and on any other
 * target a compiler barrier, so that a spinning loop still re-reads memory
 * through its atomics and is not folded away.
 */
#ifndef COUPLED_RELAX_H
#define COUPLED_RELAX_H

#ifdef __KERNEL__
#include <asm/processor.h>
#endif

/**
 * coupled_cpu_relax() - pause inside a spin loop
 *
 * Context: any, including interrupts disabled; returns at once.
 */
static inline void coupled_cpu_relax(void)
{
#if defined(__KERNEL__)
	cpu_relax();
#elif defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
	__builtin_ia32_pause();
#elif defined(__GNUC__) && (defined(__aarch64__) || defined(__arm__))
	__asm__ __volatile__("yield" ::: "memory");
#elif defined(__GNUC__)
	__asm__ __volatile__("" ::: "memory");
#endif
}

#endif /* COUPLED_RELAX_H */

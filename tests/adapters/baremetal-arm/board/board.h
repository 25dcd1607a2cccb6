/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * board.h - minimal board support for QEMU "virt" (ARMv7-A and AArch64).
 *
 * Kept separate from the coupled adapter: this is only what a test image
 * needs to run on the emulated machine.
 *
 *   - start-up: core 0 zeroes .bss, initialises the PL011 UART and the GICv2
 *     distributor, then powers on cores 1..BOARD_MAX_CPUS-1 through PSCI
 *     CPU_ON (HVC conduit; build with -DBOARD_PSCI_CONDUIT_SMC to use SMC,
 *     which is UNDEF on plain "virt" and must fail loudly).  Every core gets
 *     its own 16 KiB stack, the BSP vector table and its GIC CPU interface,
 *     then app_main(cpu) runs on all of them with IRQs masked;
 *   - output on the PL011 at 0x09000000 (polled);
 *   - semihosting SYS_EXIT_EXTENDED so that the exit status of the image is
 *     the exit status of QEMU (needs -semihosting-config enable=on,target=native);
 *   - any unexpected exception prints a line and exits with BOARD_EXIT_FATAL.
 *
 * Exit statuses used by the BSP itself (applications use 0 and 1):
 *   BOARD_EXIT_FATAL (2)   unexpected exception, bring-up failure, wrong EL
 *   BOARD_EXIT_RETURNED (3) app_main returned on core 0 without board_exit
 * When app_main returns on a secondary core, that core parks in WFI.
 *
 * Build options (-D): BOARD_MMU (identity map, caches on; set by
 * build_image.sh --mmu), BOARD_PSCI_CONDUIT_SMC (negative test),
 * BOARD_QUIET (no start-up banner).
 */
#ifndef COUPLED_TESTS_ARM_BOARD_H
#define COUPLED_TESTS_ARM_BOARD_H

#include <stdint.h>

#define BOARD_MAX_CPUS 4

#define BOARD_EXIT_FATAL 2
#define BOARD_EXIT_RETURNED 3

void board_putc(char c); /* PL011 at 0x09000000, polled; '\n' is sent as CR LF */
void board_puts(const char *s); /* no locking; callers serialise */
void board_put_u64(uint64_t v); /* decimal */
void board_exit(int status)
	__attribute__((noreturn)); /* semihosting SYS_EXIT_EXTENDED; 0 = pass */
uint32_t
board_cpu_count(void);        /* cores brought up (PSCI CPU_ON successes + 1) */
uint64_t board_counter(void); /* generic timer virtual count CNTVCT */
uint64_t board_counter_freq(void); /* CNTFRQ */

/* GICv2 (QEMU virt default: distributor 0x08000000, CPU interface 0x08010000) */
/* Send SGI sgi_id (0..15) to core target_cpu (a core index, mapped through
 * board_gic_cpu_interface(); identical on virt).  Issues DSB first, so plain
 * stores made before the call are visible to the target's handler. */
void board_gic_send_sgi(uint32_t target_cpu, uint32_t sgi_id);
uint32_t board_gic_cpu_interface(
	uint32_t cpu); /* from GICD_ITARGETSR0, read per core at init */

void board_irq_enable(void);
void board_irq_disable(void);
unsigned long
board_irq_save(void); /* masks IRQ, returns the previous mask state */
void board_irq_restore(unsigned long flags);

/* Weak hook: called from the IRQ handler for every acknowledged interrupt
 * id (after GICC_IAR, before GICC_EOIR), IRQs masked, on the interrupted
 * core's stack.  The default does nothing. */
void board_on_irq(uint32_t cpu, uint32_t irq_id);

/* Provided by the application: runs on every core, cpu = 0..count-1, own
 * stack, IRQs masked, GIC CPU interface on, SGIs 0-15 enabled. */
void app_main(uint32_t cpu);

/* ---- extras (not needed by the adapter) ---- */
uint32_t board_cpu_id(
	void); /* index of the calling core (kept in TPIDR_EL1 / TPIDRPRW) */
void board_put_hex(uint64_t v); /* "0x" + 16 hex digits */

static inline void board_wfe(void)
{
	__asm__ volatile("wfe" ::: "memory");
}
static inline void board_wfi(void)
{
	__asm__ volatile("wfi" ::: "memory");
}
static inline void board_yield(void)
{
	__asm__ volatile("yield" ::: "memory");
}
/* DSB then SEV: the stores before it are visible before the event. */
static inline void board_sev(void)
{
	__asm__ volatile("dsb ish\n\tsev" ::: "memory");
}

#endif /* COUPLED_TESTS_ARM_BOARD_H */

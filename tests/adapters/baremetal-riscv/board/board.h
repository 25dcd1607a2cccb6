/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * board.h - minimal board support for QEMU "virt" RISC-V in M-mode
 * (qemu-system-riscv64 -M virt -bios none).
 *
 * The interface of tests/adapters/baremetal-arm/board/board.h, so that the
 * bare-metal torture sources (tests/adapters/baremetal-arm/torture/) run
 * here unchanged but for their adapter calls, which torture_port.h names
 * (BOARD_TORTURE_PORT below).  Test infrastructure, kept apart from the
 * adapter in adapters/baremetal-riscv/.
 *
 *   - start-up: every hart starts at _start; hart 0 zeroes .bss, then
 *     releases harts 1..BOARD_MAX_CPUS-1 and waits for them; app_main(cpu)
 *     runs on all of them with cpu = mhartid, mstatus.MIE clear, mie.MSIE
 *     set (the adapter's wake) and the hart's mtimecmp at 0;
 *   - output on the NS16550A UART at 0x10000000 (polled);
 *   - exit through QEMU's "sifive_test" device at 0x100000: the status is
 *     QEMU's exit status;
 *   - the trap vector takes the machine software interrupt (clears the
 *     hart's MSIP, calls board_on_irq(hart, 3)); any other trap prints a
 *     line and exits with BOARD_EXIT_FATAL.
 *
 * board_yield() is what single-threaded TCG needs from every wait loop: it
 * switches harts only when one executes WFI (or every 100 ms of host
 * time), and PAUSE is no WFI.  So the yield is a WFI that cannot sleep:
 * mtimecmp is 0, so the timer interrupt is always pending, and the yield
 * enables it in mie around one WFI with mstatus.MIE clear (WFI returns at
 * once with an enabled interrupt pending; the trap is never taken).  The
 * adapter's relax (COUPLED_RISCV_PAUSE) is this yield in the test images.
 */
#ifndef COUPLED_TESTS_RISCV_BOARD_H
#define COUPLED_TESTS_RISCV_BOARD_H

#include <stdint.h>

#define BOARD_MAX_CPUS 4

#define BOARD_EXIT_FATAL 2
#define BOARD_EXIT_RETURNED 3

/* QEMU virt's CLINT (MSIP at +4*hart, mtimecmp at +0x4000, mtime at +0xbff8). */
#define BOARD_CLINT_BASE 0x2000000u
/* mcause of the machine software interrupt (the interrupt bit aside). */
#define BOARD_IRQ_MSI 3u

void board_putc(char c);        /* '\n' is sent as CR LF */
void board_puts(const char *s); /* no locking; callers serialise */
void board_put_u64(uint64_t v); /* decimal */
void board_put_hex(uint64_t v); /* "0x" + 16 hex digits */
void board_exit(int status) __attribute__((noreturn)); /* 0 = pass */
uint32_t board_cpu_count(void);                        /* harts brought up */
uint32_t board_cpu_id(void);                           /* mhartid */
uint64_t board_counter(void);                          /* mtime */
uint64_t board_counter_freq(void);                     /* 10 MHz on virt */
void board_send_msi(uint32_t hart);                    /* MSIP of @hart set */

void board_irq_enable(void);  /* mstatus.MIE set */
void board_irq_disable(void); /* mstatus.MIE clear */

/* Weak: called by the trap handler for each interrupt taken (MIE clear). */
void board_on_irq(uint32_t cpu, uint32_t irq_id);

/* Provided by the application: runs on every hart, cpu = 0..count-1. */
void app_main(uint32_t cpu);

/* One turn of a wait loop that lets single-threaded TCG run the others. */
static inline void board_yield(void)
{
	unsigned long s, mtie = 0x80; /* mie.MTIE */

	__asm__ volatile("csrrci %0, mstatus, 8" : "=r"(s)::"memory");
	__asm__ volatile("csrs mie, %0\n\twfi\n\tcsrc mie, %0" ::"r"(mtie)
			 : "memory");
	if (s & 8u)
		__asm__ volatile("csrsi mstatus, 8" ::: "memory");
}

/* The names the torture sources use for their own waits. */
static inline void board_wfe(void)
{
	board_yield();
}
/* The stores before it are visible before the others' next look. */
static inline void board_sev(void)
{
	__asm__ volatile("fence rw,rw" ::: "memory");
}
#define APP_WFE() board_yield()
#define APP_SEV() board_sev()

/* The adapter's relax in the test images (see above). */
#define COUPLED_RISCV_PAUSE() board_yield()

/* What the torture sources need of the RISC-V adapter. */
#define BOARD_TORTURE_PORT "torture_port.h"
#if __riscv_xlen == 64
#define TORTURE_ARCH "rv64"
#else
#define TORTURE_ARCH "rv32"
#endif
#define TORTURE_ATOMICS "amo"
#define TORTURE_WAKE_SGI BOARD_IRQ_MSI

#endif /* COUPLED_TESTS_RISCV_BOARD_H */

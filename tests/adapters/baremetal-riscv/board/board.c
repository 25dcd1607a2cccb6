/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * board.c - QEMU "virt" RISC-V board support in M-mode: UART, CLINT, the
 * bring-up of the harts, the exit device, the trap handler.  The entry and
 * the trap vector are in start.S.
 */
#include "board.h"
#include "board_common.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#if !defined(__riscv)
#error "board.c is for RISC-V"
#endif

#define UART_BASE 0x10000000u
#define UART_THR 0u
#define UART_LSR 5u
#define UART_LSR_THRE 0x20u

#define TEST_BASE 0x100000u /* sifive_test: the exit device */
#define TEST_PASS 0x5555u
#define TEST_FAIL 0x3333u

#define CLINT_MSIP(h) (BOARD_CLINT_BASE + 4u * (h))
#define CLINT_MTIMECMP(h) (BOARD_CLINT_BASE + 0x4000u + 8u * (h))
#define CLINT_MTIME (BOARD_CLINT_BASE + 0xbff8u)

#define MIE_MSIE (1ul << 3)
#define MCAUSE_INT (1ul << (__riscv_xlen - 1))

/* Seconds hart 0 waits for the others to come in. */
#define BOARD_ARRIVAL_TIMEOUT_S 5u
#define BOARD_TIMEBASE 10000000u /* virt's mtime frequency */

static inline void mmio_write32(uintptr_t addr, uint32_t v)
{
	*(volatile uint32_t *)addr = v;
}

static inline uint8_t mmio_read8(uintptr_t addr)
{
	return *(volatile uint8_t *)addr;
}

/* ------------------------------------------------------------------ */
/* Output and exit                                                     */
/* ------------------------------------------------------------------ */

void board_uart_tx(uint8_t c)
{
	while (!(mmio_read8(UART_BASE + UART_LSR) & UART_LSR_THRE))
		;
	*(volatile uint8_t *)(uintptr_t)(UART_BASE + UART_THR) = c;
}

void board_exit(int status)
{
	uint32_t v = status == 0 ? TEST_PASS
				 : ((uint32_t)status << 16) | TEST_FAIL;

	__asm__ volatile("fence iorw,iorw" ::: "memory");
	mmio_write32(TEST_BASE, v);
	/* Only reached without the exit device. */
	board_puts("board: the exit device did not stop QEMU\n");
	for (;;)
		__asm__ volatile("wfi");
}

/* ------------------------------------------------------------------ */
/* Harts, clock, interrupts                                            */
/* ------------------------------------------------------------------ */

uint32_t board_cpu_id(void)
{
	unsigned long v;

	__asm__ volatile("csrr %0, mhartid" : "=r"(v));
	return (uint32_t)v;
}

uint64_t board_counter(void)
{
#if __riscv_xlen == 64
	return *(volatile uint64_t *)(uintptr_t)CLINT_MTIME;
#else
	volatile uint32_t *mt = (volatile uint32_t *)(uintptr_t)CLINT_MTIME;
	uint32_t hi, lo;

	do {
		hi = mt[1];
		lo = mt[0];
	} while (hi != mt[1]);
	return ((uint64_t)hi << 32) | lo;
#endif
}

uint64_t board_counter_freq(void)
{
	return BOARD_TIMEBASE;
}

void board_send_msi(uint32_t hart)
{
	__asm__ volatile("fence w,o" ::: "memory");
	mmio_write32(CLINT_MSIP(hart), 1u);
}

void board_irq_enable(void)
{
	__asm__ volatile("csrsi mstatus, 8" ::: "memory");
}

void board_irq_disable(void)
{
	__asm__ volatile("csrci mstatus, 8" ::: "memory");
}

__attribute__((weak)) void board_on_irq(uint32_t cpu, uint32_t irq_id)
{
	(void)cpu;
	(void)irq_id;
}

static const char *cause_name(unsigned long cause)
{
	switch (cause) {
	case 0: return "instruction address misaligned";
	case 1: return "instruction access fault";
	case 2: return "illegal instruction";
	case 3: return "breakpoint";
	case 4: return "load address misaligned";
	case 5: return "load access fault";
	case 6: return "store address misaligned";
	case 7: return "store access fault";
	case 11: return "ecall from M-mode";
	default: return "other";
	}
}

/* start.S's trap vector calls this (MIE clear, the interrupted stack). */
void board_trap_c(unsigned long cause, unsigned long epc, unsigned long tval);
void board_trap_c(unsigned long cause, unsigned long epc, unsigned long tval)
{
	uint32_t hart = board_cpu_id();

	if (cause == (MCAUSE_INT | BOARD_IRQ_MSI)) {
		/* Cleared before the handler: a later MSIP traps again. */
		mmio_write32(CLINT_MSIP(hart), 0u);
		__asm__ volatile("fence o,rw" ::: "memory");
		board_on_irq(hart, BOARD_IRQ_MSI);
		return;
	}
	board_puts("\nboard: unexpected trap on hart ");
	board_put_u64(hart);
	board_puts(": mcause=");
	board_put_hex(cause);
	board_puts(" (");
	board_puts(cause & MCAUSE_INT ? "interrupt" : cause_name(cause));
	board_puts(") mepc=");
	board_put_hex(epc);
	board_puts(" mtval=");
	board_put_hex(tval);
	board_puts("\n");
	board_exit(BOARD_EXIT_FATAL);
}

/* ------------------------------------------------------------------ */
/* Bring-up                                                            */
/* ------------------------------------------------------------------ */

/*
 * In .data, not .bss: the secondaries read them before hart 0 has zeroed
 * .bss.  Each is written by one side and read by the other.
 */
static atomic_uint board_bss_ready __attribute__((section(".data")));
static atomic_uint board_arrived __attribute__((section(".data"))); /* bits */
static atomic_uint board_go __attribute__((section(".data")));
static uint32_t board_ncpus __attribute__((section(".data"))) = 1;

uint32_t board_cpu_count(void)
{
	return board_ncpus;
}

extern char __bss_start[], __bss_end[];

/* Per hart, first: its timer compare at 0 (for board_yield), MSIE on. */
static void hart_init(uint32_t hart)
{
	unsigned long msie = MIE_MSIE;

	*(volatile uint64_t *)(uintptr_t)CLINT_MTIMECMP(hart) = 0u;
	mmio_write32(CLINT_MSIP(hart), 0u);
	__asm__ volatile("csrw mie, %0" ::"r"(msie) : "memory");
}

void board_hart_c(uint32_t hart) __attribute__((noreturn));
void board_hart_c(uint32_t hart)
{
	hart_init(hart);
	if (hart != 0) {
		/* acquire: pairs with hart 0's release after zeroing .bss. */
		while (!atomic_load_explicit(&board_bss_ready,
					     memory_order_acquire))
			board_yield();
		/* release: hart 0 reads the bit, then our stores. */
		atomic_fetch_or_explicit(&board_arrived, 1u << hart,
					 memory_order_release);
		/* acquire: pairs with hart 0's release of the count. */
		while (!atomic_load_explicit(&board_go, memory_order_acquire))
			board_yield();
		if (hart >= board_ncpus) {
			/* Came too late, or after a missing one: park. */
			for (;;)
				__asm__ volatile("wfi");
		}
		app_main(hart);
		for (;;)
			__asm__ volatile("wfi");
	}

	for (char *p = __bss_start; p < __bss_end; p++)
		*(volatile char *)p = 0;
	/* release: the zeroed .bss before any secondary's first use. */
	atomic_store_explicit(&board_bss_ready, 1u, memory_order_release);

	uint64_t deadline = board_counter() +
			    (uint64_t)BOARD_TIMEBASE * BOARD_ARRIVAL_TIMEOUT_S;
	const uint32_t all = ((1u << BOARD_MAX_CPUS) - 1u) & ~1u;
	uint32_t bits;

	/* acquire: pairs with each secondary's release of its bit. */
	while ((bits = atomic_load_explicit(&board_arrived,
					    memory_order_acquire)) != all &&
	       board_counter() < deadline)
		board_yield();
	/* The harts 1..n-1 that came, without a gap. */
	uint32_t n = 1;
	while (n < BOARD_MAX_CPUS && (bits & (1u << n)))
		n++;
	if (bits >> n) {
		board_puts("board: harts came in with a gap: ");
		board_put_hex(bits);
		board_puts("\n");
		board_exit(BOARD_EXIT_FATAL);
	}
	board_ncpus = n;
#ifndef BOARD_QUIET
	board_puts("board: qemu virt " TORTURE_ARCH " m-mode harts=");
	board_put_u64(n);
	board_puts(" timebase=");
	board_put_u64(BOARD_TIMEBASE);
	board_puts("\n");
#endif
	/* release: publishes board_ncpus. */
	atomic_store_explicit(&board_go, 1u, memory_order_release);
	app_main(0);
	board_puts("board: app_main returned on hart 0 without board_exit\n");
	board_exit(BOARD_EXIT_RETURNED);
}

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * board.c - QEMU "virt" board support: UART, GICv2, PSCI bring-up,
 * semihosting exit, exception reports, MMU tables.  Shared by ARMv7-A and
 * AArch64; the entry code and vectors are in start_armv7.S / start_aarch64.S.
 */
#include "board.h"
#include "board_common.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#if !defined(__aarch64__) && !defined(__arm__)
#error "board.c is for ARMv7-A or AArch64"
#endif

#define UART_BASE 0x09000000u
#define UART_DR 0x00u
#define UART_FR 0x18u
#define UART_IBRD 0x24u
#define UART_FBRD 0x28u
#define UART_LCRH 0x2cu
#define UART_CR 0x30u
#define UART_FR_BUSY (1u << 3)
#define UART_FR_TXFF (1u << 5)

#define GICD_BASE 0x08000000u
#define GICD_CTLR 0x000u
#define GICD_TYPER 0x004u
#define GICD_IGROUPR 0x080u
#define GICD_ISENABLER 0x100u
#define GICD_ICENABLER 0x180u
#define GICD_ICPENDR 0x280u
#define GICD_IPRIORITYR 0x400u
#define GICD_ITARGETSR 0x800u
#define GICD_SGIR 0xf00u

#define GICC_BASE 0x08010000u
#define GICC_CTLR 0x00u
#define GICC_PMR 0x04u
#define GICC_BPR 0x08u
#define GICC_IAR 0x0cu
#define GICC_EOIR 0x10u

#define PSCI_RET_SUCCESS 0
#define PSCI_RET_INVALID_PARAMS (-2)

/* Seconds core 0 waits for a started secondary to reach C. */
#define BOARD_ARRIVAL_TIMEOUT_S 20u

static inline void mmio_write32(uint32_t addr, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)addr = v;
}

static inline uint32_t mmio_read32(uint32_t addr)
{
	return *(volatile uint32_t *)(uintptr_t)addr;
}

static inline void dsb_ish(void)
{
	__asm__ volatile("dsb ish" ::: "memory");
}
static inline void dmb_ish(void)
{
	__asm__ volatile("dmb ish" ::: "memory");
}

/* ------------------------------------------------------------------ */
/* Per-architecture primitives                                         */
/* ------------------------------------------------------------------ */

#if defined(__aarch64__)

#define BOARD_ARCH_NAME "aarch64"
#define PSCI_FN_CPU_ON 0xC4000003u

/* The registers' widths and the instructions of the common functions below. */
typedef uint64_t cpu_id_reg;
typedef uint64_t counter_freq_reg;
#define ASM_CPU_ID "mrs %0, tpidr_el1"
#define ASM_COUNTER "isb\n\tmrs %0, cntvct_el0"
#define ASM_COUNTER_FREQ "mrs %0, cntfrq_el0"
#define ASM_IRQ_ENABLE "msr daifclr, #2"
#define ASM_IRQ_DISABLE "msr daifset, #2"
#define ASM_IRQ_SAVE "mrs %0, daif\n\tmsr daifset, #2"

void board_irq_restore(unsigned long flags)
{
	__asm__ volatile("msr daif, %0" ::"r"(flags) : "memory");
}

/* The PSCI and semihosting calls: registers, instructions, clobbers. */
typedef uint64_t arch_reg;
typedef int64_t arch_sreg;
#define ARCH_REG(n) "x" #n
#ifdef BOARD_PSCI_CONDUIT_SMC
#define ASM_PSCI_CALL "smc #0"
#else
#define ASM_PSCI_CALL "hvc #0"
#endif
/* SMCCC: x4-x17 are not preserved across the call. */
#define PSCI_CLOBBERS                                                          \
	"x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", \
		"x15", "x16", "x17", "memory"
#define ASM_SEMIHOST "hlt #0xf000"

#else /* __arm__ */

#define BOARD_ARCH_NAME "armv7"
#define PSCI_FN_CPU_ON 0x84000003u

#if defined(__thumb__)
#error "build the ARMv7-A board in ARM state (-marm): semihosting uses SVC 0x123456"
#endif

/* The registers' widths and the instructions of the common functions below. */
typedef uint32_t cpu_id_reg;
typedef uint32_t counter_freq_reg;
#define ASM_CPU_ID "mrc p15, 0, %0, c13, c0, 4" /* TPIDRPRW */
#define ASM_COUNTER "isb\n\tmrrc p15, 1, %Q0, %R0, c14"
#define ASM_COUNTER_FREQ "mrc p15, 0, %0, c14, c0, 0"
#define ASM_IRQ_ENABLE "cpsie i"
#define ASM_IRQ_DISABLE "cpsid i"
#define ASM_IRQ_SAVE "mrs %0, cpsr\n\tcpsid i"

void board_irq_restore(unsigned long flags)
{
	/* Only the control field (I, F, A are in it) is written back. */
	__asm__ volatile("msr cpsr_c, %0" ::"r"(flags) : "memory", "cc");
}

/* The PSCI and semihosting calls: registers, instructions, clobbers. */
typedef uint32_t arch_reg;
typedef int32_t arch_sreg;
#define ARCH_REG(n) "r" #n
#ifdef BOARD_PSCI_CONDUIT_SMC
#define ASM_PSCI_CALL ".arch_extension sec\n\tsmc #0"
#else
#define ASM_PSCI_CALL ".arch_extension virt\n\thvc #0"
#endif
#define PSCI_CLOBBERS "r12", "memory"
#define ASM_SEMIHOST "svc #0x123456"

#endif

static long psci_call(uint32_t fn, uintptr_t a1, uintptr_t a2, uintptr_t a3)
{
	register arch_reg r0 __asm__(ARCH_REG(0)) = fn;
	register arch_reg r1 __asm__(ARCH_REG(1)) = a1;
	register arch_reg r2 __asm__(ARCH_REG(2)) = a2;
	register arch_reg r3 __asm__(ARCH_REG(3)) = a3;
	__asm__ volatile(ASM_PSCI_CALL
			 : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3)
			 :
			 : PSCI_CLOBBERS);
	return (long)(arch_sreg)r0;
}

static void semihost_exit(int status)
{
	arch_reg block[2] = { 0x20026u /* ADP_Stopped_ApplicationExit */,
			      (arch_reg)(arch_sreg)status };
	register arch_reg r0 __asm__(ARCH_REG(0)) =
		0x20; /* SYS_EXIT_EXTENDED */
	register arch_reg r1 __asm__(ARCH_REG(1)) = (uintptr_t)block;
	__asm__ volatile(ASM_SEMIHOST : "+r"(r0) : "r"(r1) : "memory");
}

uint32_t board_cpu_id(void)
{
	cpu_id_reg v;
	__asm__ volatile(ASM_CPU_ID : "=r"(v));
	return (uint32_t)v;
}

uint64_t board_counter(void)
{
	uint64_t v;
	__asm__ volatile(ASM_COUNTER : "=r"(v)::"memory");
	return v;
}

uint64_t board_counter_freq(void)
{
	counter_freq_reg v;
	__asm__ volatile(ASM_COUNTER_FREQ : "=r"(v));
	return v;
}

void board_irq_enable(void)
{
	__asm__ volatile(ASM_IRQ_ENABLE ::: "memory");
}
void board_irq_disable(void)
{
	__asm__ volatile(ASM_IRQ_DISABLE ::: "memory");
}

unsigned long board_irq_save(void)
{
	unsigned long flags;
	__asm__ volatile(ASM_IRQ_SAVE : "=r"(flags)::"memory");
	return flags;
}

/* ------------------------------------------------------------------ */
/* UART and output                                                     */
/* ------------------------------------------------------------------ */

static void uart_init(void)
{
	mmio_write32(UART_BASE + UART_CR, 0);
	/* 115200 8N1 from a 24 MHz clock (QEMU ignores the divisor). */
	mmio_write32(UART_BASE + UART_IBRD, 13);
	mmio_write32(UART_BASE + UART_FBRD, 1);
	mmio_write32(UART_BASE + UART_LCRH,
		     (3u << 5) | (1u << 4)); /* 8 bits, FIFO */
	mmio_write32(UART_BASE + UART_CR, (1u << 0) | (1u << 8) | (1u << 9));
}

void board_uart_tx(uint8_t c)
{
	while (mmio_read32(UART_BASE + UART_FR) & UART_FR_TXFF)
		board_yield();
	mmio_write32(UART_BASE + UART_DR, c);
}

/* ------------------------------------------------------------------ */
/* Semihosting exit                                                    */
/* ------------------------------------------------------------------ */

static atomic_int board_exiting;

void board_exit(int status)
{
	atomic_store_explicit(&board_exiting, 1, memory_order_relaxed);
	while (mmio_read32(UART_BASE + UART_FR) & UART_FR_BUSY)
		board_yield();
	semihost_exit(status);
	/* Only reached if the semihosting call returned (it should not). */
	board_puts("board: semihosting exit returned\n");
	for (;;)
		board_wfi();
}

/* ------------------------------------------------------------------ */
/* Unexpected exceptions                                               */
/* ------------------------------------------------------------------ */

/* Prints "board: unexpected exception <kind> on cpu N"; returns only if a
 * report should follow.  An exception while exiting means the semihosting
 * trap itself was not handled by QEMU: say so and park (cannot exit). */
static void fatal_prologue(const char *kind)
{
	if (atomic_load_explicit(&board_exiting, memory_order_relaxed)) {
		board_puts("\nboard: semihosting exit trapped as an exception "
			   "(");
		board_puts(kind);
		board_puts("): run QEMU with -semihosting-config "
			   "enable=on,target=native; parking\n");
		for (;;)
			board_wfi();
	}
	board_puts("\nboard: unexpected exception ");
	board_puts(kind);
	board_puts(" on cpu ");
	board_put_u64(board_cpu_id());
}

/* Set around the PSCI call, so that the UNDEF of a wrong conduit is named. */
static volatile uint32_t board_in_psci;

static void put_field(const char *name, uint64_t v)
{
	board_putc(' ');
	board_puts(name);
	board_putc('=');
	board_put_hex_digits(v, 2 * (int)sizeof(uintptr_t));
}

static void fatal_psci_hint(void)
{
	if (board_in_psci && board_cpu_id() == 0)
		board_puts(" [during the PSCI CPU_ON call ("
#ifdef BOARD_PSCI_CONDUIT_SMC
			   "SMC"
#else
			   "HVC"
#endif
			   "): wrong conduit or no PSCI; QEMU virt at EL1 "
			   "wants HVC]");
}

#if defined(__aarch64__)

static const char *const aarch64_vector_names[16] = {
	"sync (EL1t)",
	"irq (EL1t)",
	"fiq (EL1t)",
	"serror (EL1t)",
	"sync",
	"irq",
	"fiq",
	"serror",
	"sync (lower EL, AArch64)",
	"irq (lower EL, AArch64)",
	"fiq (lower EL, AArch64)",
	"serror (lower EL, AArch64)",
	"sync (lower EL, AArch32)",
	"irq (lower EL, AArch32)",
	"fiq (lower EL, AArch32)",
	"serror (lower EL, AArch32)",
};

static const char *esr_class_name(uint32_t ec)
{
	switch (ec) {
	case 0x00: return "unknown reason / UNDEF instruction";
	case 0x01: return "WFI/WFE trapped";
	case 0x07: return "FP/SIMD access trapped";
	case 0x0e: return "illegal execution state";
	case 0x15: return "SVC";
	case 0x16: return "HVC";
	case 0x17: return "SMC";
	case 0x18: return "system register access trapped";
	case 0x20:
	case 0x21: return "instruction abort";
	case 0x22: return "PC alignment fault";
	case 0x24:
	case 0x25: return "data abort";
	case 0x26: return "SP alignment fault";
	case 0x2f: return "SError";
	case 0x3c: return "BRK";
	default: return "other";
	}
}

void board_fatal_c(uint64_t vector, uint64_t esr, uint64_t elr, uint64_t far,
		   uint64_t spsr);
void board_fatal_c(uint64_t vector, uint64_t esr, uint64_t elr, uint64_t far,
		   uint64_t spsr)
{
	fatal_prologue(aarch64_vector_names[vector & 15]);
	put_field("ESR", esr);
	put_field("ELR", elr);
	put_field("FAR", far);
	put_field("SPSR", spsr);
	board_puts(" (EC ");
	board_put_hex_digits(esr >> 26, 2);
	board_puts(": ");
	board_puts(esr_class_name((uint32_t)(esr >> 26) & 0x3f));
	board_puts(")");
	fatal_psci_hint();
#if defined(__ARM_FEATURE_ATOMICS)
	if ((esr >> 26) == 0)
		board_puts(" [LSE build: run it on a CPU with ARMv8.1 atomics, "
			   "e.g. -cpu cortex-a76 or max]");
#endif
	board_puts("\n");
	board_exit(BOARD_EXIT_FATAL);
}

#else

static const char *const armv7_vector_names[8] = {
	"reset",      "undef",      "svc", "prefetch abort",
	"data abort", "hyp/unused", "irq", "fiq",
};

void board_fatal_c(uint32_t vector, uint32_t lr, uint32_t spsr);
void board_fatal_c(uint32_t vector, uint32_t lr, uint32_t spsr)
{
	uint32_t dfsr, dfar, ifsr, ifar;
	uint32_t pc = lr;

	__asm__ volatile("mrc p15, 0, %0, c5, c0, 0" : "=r"(dfsr));
	__asm__ volatile("mrc p15, 0, %0, c6, c0, 0" : "=r"(dfar));
	__asm__ volatile("mrc p15, 0, %0, c5, c0, 1" : "=r"(ifsr));
	__asm__ volatile("mrc p15, 0, %0, c6, c0, 2" : "=r"(ifar));
	if (vector == 4)
		pc = lr - 8;
	else if (vector == 1 || vector == 2)
		pc = lr - ((spsr & (1u << 5)) ? 2u : 4u);
	else if (vector == 3)
		pc = lr - 4;

	fatal_prologue(armv7_vector_names[vector & 7]);
	put_field("PC", pc);
	put_field("SPSR", spsr);
	put_field("DFSR", dfsr);
	put_field("DFAR", dfar);
	put_field("IFSR", ifsr);
	put_field("IFAR", ifar);
	fatal_psci_hint();
	board_puts("\n");
	board_exit(BOARD_EXIT_FATAL);
}

#endif

/* ------------------------------------------------------------------ */
/* GICv2                                                               */
/* ------------------------------------------------------------------ */

static uint8_t board_gic_iface[BOARD_MAX_CPUS];

uint32_t board_gic_cpu_interface(uint32_t cpu)
{
	return cpu < BOARD_MAX_CPUS ? board_gic_iface[cpu] : 0;
}

void board_gic_send_sgi(uint32_t target_cpu, uint32_t sgi_id)
{
	uint32_t iface = board_gic_cpu_interface(target_cpu);

	dsb_ish();
	/* TargetListFilter 0: the CPUTargetList field selects the targets. */
	mmio_write32(GICD_BASE + GICD_SGIR,
		     (1u << (16 + (iface & 7))) | (sgi_id & 0xfu));
}

static void gic_dist_init(void)
{
	uint32_t lines = (mmio_read32(GICD_BASE + GICD_TYPER) & 0x1fu) + 1;

	mmio_write32(GICD_BASE + GICD_CTLR, 0);
	/* Shared peripheral interrupts: all off (the BSP uses none). */
	for (uint32_t i = 1; i < lines; i++) {
		mmio_write32(GICD_BASE + GICD_ICENABLER + 4 * i, 0xffffffffu);
		mmio_write32(GICD_BASE + GICD_ICPENDR + 4 * i, 0xffffffffu);
	}
	/* Group 0 and group 1 forwarding on.  On virt (no security
	 * extensions) everything stays group 0 and is signalled as IRQ. */
	mmio_write32(GICD_BASE + GICD_CTLR, 3);
}

/* Banked per core: SGI/PPI enables, groups, priorities; the CPU interface. */
static void gic_cpu_init(uint32_t cpu)
{
	uint32_t mask;
	uint32_t iface = cpu;

	mmio_write32(GICD_BASE + GICD_ICENABLER, 0xffff0000u); /* PPIs off */
	mmio_write32(GICD_BASE + GICD_IGROUPR, 0);             /* group 0 */
	for (uint32_t i = 0; i < 4; i++) /* SGI priority */
		mmio_write32(GICD_BASE + GICD_IPRIORITYR + 4 * i, 0xa0a0a0a0u);
	mmio_write32(GICD_BASE + GICD_ISENABLER, 0x0000ffffu); /* SGIs on */

	/* GICD_ITARGETSR0..7 read back this core's own interface bit. */
	mask = mmio_read32(GICD_BASE + GICD_ITARGETSR) & 0xffu;
	if (mask) {
		iface = 0;
		while (!(mask & 1u)) {
			mask >>= 1;
			iface++;
		}
	}
	if (cpu < BOARD_MAX_CPUS)
		board_gic_iface[cpu] = (uint8_t)iface;

	mmio_write32(GICC_BASE + GICC_PMR, 0xff); /* priority mask open */
	mmio_write32(GICC_BASE + GICC_BPR, 0);
	mmio_write32(GICC_BASE + GICC_CTLR,
		     3); /* EnableGrp0 | EnableGrp1, FIQEn = 0 */
}

__attribute__((weak)) void board_on_irq(uint32_t cpu, uint32_t irq_id)
{
	(void)cpu;
	(void)irq_id;
}

/* Called from the IRQ vector with IRQs masked. */
void board_irq_c(void);
void board_irq_c(void)
{
	uint32_t cpu = board_cpu_id();

	for (;;) {
		uint32_t iar = mmio_read32(GICC_BASE + GICC_IAR);
		uint32_t id = iar & 0x3ffu;

		if (id >= 1020) /* 1023: spurious, nothing pending */
			break;
		/* The sender wrote its data before GICD_SGIR: read it after IAR. */
		dmb_ish();
		board_on_irq(cpu, id);
		mmio_write32(GICC_BASE + GICC_EOIR, iar);
	}
}

/* ------------------------------------------------------------------ */
/* MMU: identity map (BOARD_MMU)                                       */
/* ------------------------------------------------------------------ */

#define BOARD_RAM_BASE 0x40000000u
#define BOARD_RAM_SIZE (128u << 20) /* QEMU virt default -m 128M */

#ifdef BOARD_MMU
#if defined(__aarch64__)
/*
 * 4 KiB granule, 4 GiB of VA (TCR_EL1.T0SZ = 32, lookup starts at level 1):
 *   0x00000000-0x3fffffff  one 1 GiB block, Device-nGnRE, never executable
 *                          (flash, GIC, UART, ...)
 *   0x40000000-+128 MiB    2 MiB blocks, Normal write-back RW-allocate,
 *                          inner shareable
 *   everything else        unmapped (translation fault)
 * MAIR_EL1: attr0 Device-nGnRnE, attr1 Device-nGnRE, attr2 Normal WB.
 */
uint64_t board_ttb_l1[512] __attribute__((aligned(4096)));
static uint64_t board_ttb_l2_ram[512] __attribute__((aligned(4096)));

#define PTE_BLOCK 1ull
#define PTE_TABLE 3ull
#define PTE_ATTR(i) ((uint64_t)(i) << 2)
#define PTE_ISH (3ull << 8)
#define PTE_AF (1ull << 10)
#define PTE_PXN (1ull << 53)
#define PTE_UXN (1ull << 54)

void board_mmu_build(void);
void board_mmu_build(void)
{
	board_ttb_l1[0] = 0x00000000ull | PTE_BLOCK | PTE_ATTR(1) | PTE_AF |
			  PTE_PXN | PTE_UXN;
	for (uint32_t i = 0; i < BOARD_RAM_SIZE / (2u << 20); i++)
		board_ttb_l2_ram[i] =
			(BOARD_RAM_BASE + (uint64_t)i * (2u << 20)) |
			PTE_BLOCK | PTE_ATTR(2) | PTE_ISH | PTE_AF;
	board_ttb_l1[1] = (uintptr_t)board_ttb_l2_ram | PTE_TABLE;
	dsb_ish();
}
#else
/*
 * Short-descriptor format, 1 MiB sections, TTBCR.N = 0:
 *   0x00000000-0x3fffffff  shareable Device, execute-never
 *   0x40000000-+128 MiB    Normal write-back write-allocate, shareable
 *   everything else        fault
 * Domain 0, client.
 */
uint32_t board_ttb_l1[4096] __attribute__((aligned(16384)));

#define SECT 2u
#define SECT_B (1u << 2)
#define SECT_C (1u << 3)
#define SECT_XN (1u << 4)
#define SECT_AP_RW (1u << 10) /* AP[1:0] = 01: PL1 read/write */
#define SECT_TEX(x) ((uint32_t)(x) << 12)
#define SECT_S (1u << 16)

void board_mmu_build(void);
void board_mmu_build(void)
{
	for (uint32_t i = 0; i < 0x400u; i++)
		board_ttb_l1[i] = (i << 20) | SECT | SECT_B | SECT_XN |
				  SECT_AP_RW;
	for (uint32_t i = 0; i < BOARD_RAM_SIZE >> 20; i++)
		board_ttb_l1[(BOARD_RAM_BASE >> 20) + i] =
			(BOARD_RAM_BASE + (i << 20)) | SECT | SECT_TEX(1) |
			SECT_C | SECT_B | SECT_S | SECT_AP_RW;
	dsb_ish();
}
#endif
#endif

/* SCTLR.M (and C): is this core running with the MMU and D-cache on? */
static bool board_mmu_on(void)
{
#if defined(__aarch64__)
	uint64_t sctlr;
	__asm__ volatile("mrs %0, sctlr_el1" : "=r"(sctlr));
#else
	uint32_t sctlr;
	__asm__ volatile("mrc p15, 0, %0, c1, c0, 0" : "=r"(sctlr));
#endif
	return (sctlr & 5u) == 5u;
}

/* ------------------------------------------------------------------ */
/* Bring-up                                                            */
/* ------------------------------------------------------------------ */

extern char board_secondary_entry[]; /* start_*.S: PSCI CPU_ON entry point */

static uint32_t board_ncpus = 1;
static atomic_uint board_arrived; /* secondaries that reached C */
static atomic_uint board_go;      /* set once board_ncpus is final */

uint32_t board_cpu_count(void)
{
	return board_ncpus;
}

/* MPIDR affinity of core index i on virt (8 cores per cluster with GICv2). */
static uintptr_t virt_mpidr(uint32_t i)
{
	return ((uintptr_t)(i / 8u) << 8) | (i % 8u);
}

/* Current exception level / mode is wrong: start_*.S calls this. */
void board_bad_mode_c(uint32_t value);
void board_bad_mode_c(uint32_t value)
{
	uart_init();
#if defined(__aarch64__)
	board_puts("board: started at EL");
	board_put_u64(value);
	board_puts(", expected EL1 (QEMU virt without "
		   "virtualization=on/secure=on)\n");
#else
	board_puts("board: started in CPSR mode ");
	board_put_hex_digits(value, 2);
	board_puts(", expected SVC (0x13) (QEMU virt without "
		   "virtualization=on/secure=on)\n");
#endif
	board_exit(BOARD_EXIT_FATAL);
}

void board_primary_c(void) __attribute__((noreturn));
void board_primary_c(void)
{
	uint32_t started = 1;

	uart_init();
	gic_dist_init();
	gic_cpu_init(0);

	for (uint32_t i = 1; i < BOARD_MAX_CPUS; i++) {
		board_in_psci = 1;
		long rc = psci_call(PSCI_FN_CPU_ON, virt_mpidr(i),
				    (uintptr_t)board_secondary_entry, i);
		board_in_psci = 0;
		if (rc != PSCI_RET_SUCCESS) {
			/* INVALID_PARAMETERS: no such core (-smp < 4), the
			 * normal end.  Anything else is worth a line. */
			if (rc != PSCI_RET_INVALID_PARAMS) {
				board_puts("board: PSCI CPU_ON for cpu ");
				board_put_u64(i);
				board_puts(" returned ");
				board_put_hex((uint64_t)(int64_t)rc);
				board_puts("; stopping the bring-up\n");
			}
			break;
		}
		started++;
	}
	board_ncpus = started;

	/* Wait (WFE, bounded) until every started secondary is in C with its
	 * GIC CPU interface up. */
	uint64_t freq = board_counter_freq();
	uint64_t deadline = board_counter() + freq * BOARD_ARRIVAL_TIMEOUT_S;
	while (atomic_load_explicit(&board_arrived, memory_order_acquire) !=
	       started - 1) {
		if (board_counter() > deadline) {
			board_puts("board: only ");
			board_put_u64(atomic_load(&board_arrived));
			board_puts(" of ");
			board_put_u64(started - 1);
			board_puts(" secondaries reached C\n");
			board_exit(BOARD_EXIT_FATAL);
		}
		board_wfe();
	}

#ifdef BOARD_MMU
	if (!board_mmu_on()) {
		board_puts("board: BOARD_MMU build but SCTLR.M is clear\n");
		board_exit(BOARD_EXIT_FATAL);
	}
#endif
#ifndef BOARD_QUIET
	board_puts("board: qemu virt " BOARD_ARCH_NAME
#if defined(__ARM_FEATURE_ATOMICS)
		   " lse"
#endif
		   " mmu=");
	board_puts(board_mmu_on() ? "on" : "off");
	board_puts(" cpus=");
	board_put_u64(started);
	board_puts(" cntfrq=");
	board_put_u64(freq);
	board_puts("\n");
#endif

	atomic_store_explicit(&board_go, 1, memory_order_release);
	board_sev();

	app_main(0);
	board_puts("board: app_main returned on cpu 0 without board_exit\n");
	board_exit(BOARD_EXIT_RETURNED);
}

void board_secondary_c(uint32_t cpu) __attribute__((noreturn));
void board_secondary_c(uint32_t cpu)
{
#ifdef BOARD_MMU
	if (!board_mmu_on()) {
		board_puts("board: BOARD_MMU build but SCTLR.M is clear on a "
			   "secondary\n");
		board_exit(BOARD_EXIT_FATAL);
	}
#endif
	gic_cpu_init(cpu);
	atomic_fetch_add_explicit(&board_arrived, 1, memory_order_release);
	board_sev();
	while (!atomic_load_explicit(&board_go, memory_order_acquire))
		board_wfe();

	app_main(cpu);
	/* Returned: park this core for good (IRQs masked; WFI may still wake). */
	board_irq_disable();
	for (;;)
		board_wfi();
}

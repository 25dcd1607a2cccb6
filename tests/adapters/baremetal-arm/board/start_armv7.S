/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * start_armv7.S - entry, secondary entry, vectors and MMU switch-on for
 * QEMU "virt" (ARMv7-A, ARM state, PL1 SVC mode).
 *
 * Core 0 enters at _start; cores 1..3 at board_secondary_entry through PSCI
 * CPU_ON with r0 = context id = core index.  Each core keeps its index in
 * TPIDRPRW and runs in SVC mode on the 16 KiB stack at
 * __board_stacks_end - index * 16 KiB.  IRQs are handled on that same SVC
 * stack (SRS/RFE), so the IRQ, abort and undef modes need no stacks of
 * their own; fatal exceptions switch to a 1 KiB per-core emergency stack.
 */

#define BOARD_STACK_SHIFT 14 /* 16 KiB per core; keep in sync with board.ld */
#define BOARD_FATAL_STACK_SHIFT 10
#define MODE_SVC 0x13

	.syntax unified
	.arm

	.section .text.boot, "ax"
	.global _start
	.type _start, %function
_start:
	cpsid	aif
	/* Only core 0 (MPIDR Aff1.Aff0 = 0) may come in here; with
	 * secure=on every core enters at _start: park the others. */
	mrc	p15, 0, r1, c0, c0, 5
	ubfx	r1, r1, #0, #16
	cmp	r1, #0
	bne	8f
	mov	r0, #0
	/* Core 0 on, the others parked; then the secondaries' entry. */
#include "start_entry.inc"
	cpsid	aif
	/* fall through, r0 = core index */
board_common_entry:
	mcr	p15, 0, r0, c13, c0, 4		/* TPIDRPRW = core index */
	ldr	r1, =__board_stacks_end
	sub	sp, r1, r0, lsl #BOARD_STACK_SHIFT
	ldr	r1, =board_vectors
	mcr	p15, 0, r1, c12, c0, 0		/* VBAR */
	mrc	p15, 0, r1, c1, c0, 0		/* SCTLR */
	bic	r1, r1, #(1 << 13)		/* V = 0: vectors at VBAR */
	bic	r1, r1, #(1 << 30)		/* TE = 0: exceptions in ARM state */
	mcr	p15, 0, r1, c1, c0, 0
	isb
	cmp	r0, #0
	bne	2f

	/* Core 0: must be in SVC mode (not HYP, not monitor). */
	mrs	r1, cpsr
	and	r1, r1, #0x1f
	cmp	r1, #MODE_SVC
	beq	1f
	mov	r0, r1
	bl	board_bad_mode_c
1:
	/* Zero .bss (16-byte aligned, see board.ld). */
	ldr	r1, =__bss_start
	ldr	r2, =__bss_end
	mov	r3, #0
3:	cmp	r1, r2
	strlo	r3, [r1], #4
	blo	3b
	/* Into C (START_CPU_ID: the core number, as board_cpu_id()). */
#define START_CPU_ID mrc	p15, 0, r0, c13, c0, 4
#include "start_cores.inc"
	.size board_secondary_entry, . - board_secondary_entry
	.ltorg

#ifdef BOARD_MMU
/*
 * Identity map from board_ttb_l1 (built by board_mmu_build on core 0),
 * then the MMU, caches and branch prediction on.  Caches are assumed
 * invalid on entry (PSCI CPU_ON and QEMU guarantee it).  ACTLR.SMP (bit 6,
 * coherency on Cortex-A15/A7) is set when writable; on QEMU it is RAZ/WI.
 *   TTBCR = 0 (TTBR0 only, short descriptors)
 *   TTBR0 = table | IRGN WB-WA (bit 6) | RGN WB-WA (01 << 3) | S (bit 1)
 *   DACR: domain 0 client
 */
	.text
	.global board_mmu_enable
	.type board_mmu_enable, %function
board_mmu_enable:
	mrc	p15, 0, r1, c1, c0, 1		/* ACTLR */
	orr	r1, r1, #(1 << 6)
	mcr	p15, 0, r1, c1, c0, 1
	mov	r1, #0
	mcr	p15, 0, r1, c2, c0, 2		/* TTBCR */
	ldr	r1, =board_ttb_l1
	orr	r1, r1, #0x4a
	mcr	p15, 0, r1, c2, c0, 0		/* TTBR0 */
	mov	r1, #1
	mcr	p15, 0, r1, c3, c0, 0		/* DACR */
	isb
	mov	r1, #0
	mcr	p15, 0, r1, c8, c7, 0		/* TLBIALL */
	mcr	p15, 0, r1, c7, c5, 0		/* ICIALLU */
	mcr	p15, 0, r1, c7, c5, 6		/* BPIALL */
	dsb
	isb
	mrc	p15, 0, r1, c1, c0, 0		/* SCTLR */
	orr	r1, r1, #(1 << 0)		/* M */
	orr	r1, r1, #(1 << 2)		/* C */
	orr	r1, r1, #(1 << 11)		/* Z */
	orr	r1, r1, #(1 << 12)		/* I */
	bic	r1, r1, #(1 << 28)		/* TRE = 0 */
	bic	r1, r1, #(1 << 29)		/* AFE = 0 */
	mcr	p15, 0, r1, c1, c0, 0
	isb
	bx	lr
	.size board_mmu_enable, . - board_mmu_enable
	.ltorg
#endif

/* Vector table: IRQ is handled, everything else is fatal. */
	.section .text.vectors, "ax"
	.balign	32
	.global board_vectors
board_vectors:
	b	vec_reset
	b	vec_undef
	b	vec_svc
	b	vec_pabt
	b	vec_dabt
	b	vec_unused
	b	board_irq_entry
	b	vec_fiq

vec_reset:	mov	r0, #0
		b	board_fatal_entry
vec_undef:	mov	r0, #1
		b	board_fatal_entry
vec_svc:	mov	r0, #2
		b	board_fatal_entry
vec_pabt:	mov	r0, #3
		b	board_fatal_entry
vec_dabt:	mov	r0, #4
		b	board_fatal_entry
vec_unused:	mov	r0, #5
		b	board_fatal_entry
vec_fiq:	mov	r0, #7
		b	board_fatal_entry

/* Runs in the exception's mode, on a fresh per-core emergency stack. */
board_fatal_entry:
	cpsid	aif
	mrc	p15, 0, r1, c13, c0, 4
	and	r1, r1, #3
	ldr	r2, =__board_fatal_stacks_end
	sub	sp, r2, r1, lsl #BOARD_FATAL_STACK_SHIFT
	mov	r1, lr
	mrs	r2, spsr
	bl	board_fatal_c
7:	wfi
	b	7b

/*
 * IRQ: push the return state onto the SVC stack (SRS), switch to SVC with
 * IRQs still masked, save the AAPCS caller-saved registers, realign the
 * stack to 8 bytes for the C call, run board_irq_c, RFE.
 */
board_irq_entry:
	sub	lr, lr, #4
	srsdb	sp!, #MODE_SVC
	cps	#MODE_SVC
	push	{r0-r3, r12, lr}
	and	r1, sp, #4
	sub	sp, sp, r1
	push	{r1, r2}
	bl	board_irq_c
	pop	{r1, r2}
	add	sp, sp, r1
	pop	{r0-r3, r12, lr}
	rfeia	sp!
	.ltorg

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * start_aarch64.S - entry, secondary entry, vectors and MMU switch-on for
 * QEMU "virt" (AArch64, EL1).
 *
 * Core 0 enters at _start (QEMU -kernel with an ELF jumps to its entry
 * point).  Cores 1..3 enter at board_secondary_entry through PSCI CPU_ON
 * with x0 = context id = core index.  Each core keeps its index in
 * TPIDR_EL1 and runs on the 16 KiB stack at
 * __board_stacks_end - index * 16 KiB.
 */

#define BOARD_STACK_SHIFT 14 /* 16 KiB per core; keep in sync with board.ld */
#define BOARD_FATAL_STACK_SHIFT 10

	.section .text.boot, "ax"
	.global _start
	.type _start, %function
_start:
	msr	daifset, #0xf
	/* Only core 0 (MPIDR Aff1.Aff0 = 0) may come in here; with
	 * secure=on every core enters at _start: park the others. */
	mrs	x1, mpidr_el1
	and	x1, x1, #0xffff
	cbnz	x1, 8f
	mov	x0, #0
	b	board_common_entry
8:	wfe
	b	8b
	.size _start, . - _start

	.global board_secondary_entry
	.type board_secondary_entry, %function
board_secondary_entry:
	msr	daifset, #0xf
	/* fall through, x0 = core index */
board_common_entry:
	msr	tpidr_el1, x0
	adrp	x1, __board_stacks_end
	add	x1, x1, :lo12:__board_stacks_end
	sub	x1, x1, x0, lsl #BOARD_STACK_SHIFT
	mov	sp, x1
	adrp	x1, board_vectors
	add	x1, x1, :lo12:board_vectors
	msr	vbar_el1, x1
	/* FP/SIMD on at EL1 and EL0 (CPACR_EL1.FPEN = 0b11): the compiler
	 * may use SIMD registers; the IRQ vector saves them. */
	mov	x1, #(3 << 20)
	msr	cpacr_el1, x1
	isb
	cbnz	x0, 2f

	/* Core 0: must be at EL1 (no EL2 drop here). */
	mrs	x1, CurrentEL
	lsr	x1, x1, #2
	cmp	x1, #1
	b.eq	1f
	mov	x0, x1
	bl	board_bad_mode_c
1:
	/* Zero .bss (16-byte aligned, see board.ld). */
	adrp	x1, __bss_start
	add	x1, x1, :lo12:__bss_start
	adrp	x2, __bss_end
	add	x2, x2, :lo12:__bss_end
3:	cmp	x1, x2
	b.hs	4f
	stp	xzr, xzr, [x1], #16
	b	3b
4:
	/* Into C (START_CPU_ID: the core number, as board_cpu_id()). */
#define START_CPU_ID mrs	x0, tpidr_el1
#include "start_cores.inc"
	.size board_secondary_entry, . - board_secondary_entry

#ifdef BOARD_MMU
/*
 * Identity map from board_ttb_l1 (built by board_mmu_build on core 0),
 * then M, C and I on.  Caches are assumed invalid on entry, which PSCI
 * CPU_ON and QEMU guarantee; firmware entered with dirty caches would need
 * a clean/invalidate by set/way first.
 *   MAIR_EL1: attr0 0x00 Device-nGnRnE, attr1 0x04 Device-nGnRE,
 *             attr2 0xff Normal inner/outer write-back RW-allocate
 *   TCR_EL1:  T0SZ 32, IRGN0/ORGN0 WB-WA, SH0 inner, TG0 4K, EPD1, TG1 4K,
 *             IPS 32 bits
 */
	.text
	.global board_mmu_enable
	.type board_mmu_enable, %function
board_mmu_enable:
	ldr	x1, =0x0000000000ff0400
	msr	mair_el1, x1
	ldr	x1, =0x0000000080803520
	msr	tcr_el1, x1
	adrp	x1, board_ttb_l1
	add	x1, x1, :lo12:board_ttb_l1
	msr	ttbr0_el1, x1
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	mrs	x1, sctlr_el1
	orr	x1, x1, #(1 << 0)	/* M */
	orr	x1, x1, #(1 << 2)	/* C */
	orr	x1, x1, #(1 << 12)	/* I */
	msr	sctlr_el1, x1
	isb
	ic	iallu
	dsb	nsh
	isb
	ret
	.size board_mmu_enable, . - board_mmu_enable
	.ltorg
#endif

/*
 * Vector table.  Only "current EL with SP_ELx, IRQ" is expected; every
 * other entry reports and exits through board_fatal_c.
 */
	.macro	fatal_vector num
	.balign	0x80
	mov	x0, #\num
	b	board_fatal_entry
	.endm

	.section .text.vectors, "ax"
	.balign	2048
	.global board_vectors
board_vectors:
	fatal_vector 0
	fatal_vector 1
	fatal_vector 2
	fatal_vector 3
	fatal_vector 4
	.balign	0x80
	b	board_irq_entry
	fatal_vector 6
	fatal_vector 7
	fatal_vector 8
	fatal_vector 9
	fatal_vector 10
	fatal_vector 11
	fatal_vector 12
	fatal_vector 13
	fatal_vector 14
	fatal_vector 15

board_fatal_entry:
	/* A fresh per-core stack: the fault may be a stack overflow. */
	mrs	x1, tpidr_el1
	and	x1, x1, #3
	adrp	x2, __board_fatal_stacks_end
	add	x2, x2, :lo12:__board_fatal_stacks_end
	sub	x2, x2, x1, lsl #BOARD_FATAL_STACK_SHIFT
	mov	sp, x2
	mrs	x1, esr_el1
	mrs	x2, elr_el1
	mrs	x3, far_el1
	mrs	x4, spsr_el1
	bl	board_fatal_c
7:	wfi
	b	7b

/*
 * The vector registers of the IRQ frame: q0-q7 and q16-q31 in pairs from
 * byte 208 of the frame, stored (op stp) or loaded back (op ldp).
 */
	.macro	simd_caller_saved op
	\op	q0, q1, [sp, #208]
	\op	q2, q3, [sp, #240]
	\op	q4, q5, [sp, #272]
	\op	q6, q7, [sp, #304]
	\op	q16, q17, [sp, #336]
	\op	q18, q19, [sp, #368]
	\op	q20, q21, [sp, #400]
	\op	q22, q23, [sp, #432]
	\op	q24, q25, [sp, #464]
	\op	q26, q27, [sp, #496]
	\op	q28, q29, [sp, #528]
	\op	q30, q31, [sp, #560]
	.endm

/*
 * IRQ: save the caller-saved state of the interrupted code (x0-x18, x29,
 * x30, ELR, SPSR, FPSR, FPCR, q0-q7, q16-q31; AAPCS64 makes the C handler
 * keep the rest), run board_irq_c, restore, ERET.  Frame: 208 bytes of
 * general state then 384 bytes of vector registers (592, 16-aligned).
 */
board_irq_entry:
	sub	sp, sp, #592
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x29, [sp, #144]
	mrs	x0, elr_el1
	stp	x30, x0, [sp, #160]
	mrs	x0, spsr_el1
	mrs	x1, fpsr
	stp	x0, x1, [sp, #176]
	mrs	x0, fpcr
	str	x0, [sp, #192]
	simd_caller_saved stp

	bl	board_irq_c

	simd_caller_saved ldp
	ldr	x0, [sp, #192]
	msr	fpcr, x0
	ldp	x0, x1, [sp, #176]
	msr	spsr_el1, x0
	msr	fpsr, x1
	ldp	x30, x0, [sp, #160]
	msr	elr_el1, x0
	ldp	x18, x29, [sp, #144]
	ldp	x16, x17, [sp, #128]
	ldp	x14, x15, [sp, #112]
	ldp	x12, x13, [sp, #96]
	ldp	x10, x11, [sp, #80]
	ldp	x8, x9, [sp, #64]
	ldp	x6, x7, [sp, #48]
	ldp	x4, x5, [sp, #32]
	ldp	x2, x3, [sp, #16]
	ldp	x0, x1, [sp, #0]
	add	sp, sp, #592
	eret

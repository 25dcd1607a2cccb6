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
	/* Core 0 on, the others parked; then the secondaries' entry. */
#include "start_entry.inc"
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
 * The registers of the IRQ frame, stored (op stp) or loaded back (op ldp)
 * in pairs: frame_pairs op, r, step, off, a, b, c, d, ... puts registers
 * ra and rb (r: x or q) at byte off of the frame, rc and rd step bytes on,
 * and so on; frame_pairs_down does the same pairs in the reverse order.
 */
	.macro	frame_pairs op, r, step, off, a, b, rest:vararg
	\op	\r\()\a, \r\()\b, [sp, #\off]
	.ifnb	\rest
	frame_pairs \op, \r, \step, (\off + \step), \rest
	.endif
	.endm

	.macro	frame_pairs_down op, r, step, off, a, b, rest:vararg
	.ifnb	\rest
	frame_pairs_down \op, \r, \step, (\off + \step), \rest
	.endif
	\op	\r\()\a, \r\()\b, [sp, #\off]
	.endm

/* x0-x18 and x29 from byte 0. */
	.macro	gpr_caller_saved op, order=frame_pairs
	\order \op, x, 16, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 29
	.endm

/* q0-q7 and q16-q31, the ones AAPCS64 lets a callee change, from byte 208. */
	.macro	simd_caller_saved op
	frame_pairs \op, q, 32, 208, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	.endm

/*
 * IRQ: save the caller-saved state of the interrupted code (x0-x18, x29,
 * x30, ELR, SPSR, FPSR, FPCR, q0-q7, q16-q31; AAPCS64 makes the C handler
 * keep the rest), run board_irq_c, restore, ERET.  Frame: 208 bytes of
 * general state then 384 bytes of vector registers (592, 16-aligned).
 */
board_irq_entry:
	sub	sp, sp, #592
	gpr_caller_saved stp
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
	gpr_caller_saved ldp, frame_pairs_down
	add	sp, sp, #592
	eret

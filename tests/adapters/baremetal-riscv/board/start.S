/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * start.S - entry and trap vector for QEMU "virt" in M-mode (-bios none).
 *
 * QEMU's reset code starts every hart at _start at once, in M-mode, with
 * a0 = mhartid.  Each hart below BOARD_MAX_CPUS gets its 16 KiB stack at
 * __board_stacks_end - hartid * 16 KiB, the trap vector, FP on (mstatus.FS
 * Initial), and goes to board_hart_c(hartid); any other hart parks in WFI
 * with every interrupt off.  Hart 0 zeroes .bss there before it releases
 * the others (board.c).
 *
 * The trap vector saves the caller-saved integer registers and mepc, calls
 * board_trap_c(mcause, mepc, mtval) on the interrupted stack, restores and
 * returns with MRET.  The C code is built without FP registers in its
 * calling convention and uses none, so they need no saving.
 */
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define SZREG 8
#else
#define REG_S sw
#define REG_L lw
#define SZREG 4
#endif

#define BOARD_STACK_SHIFT 14 /* 16 KiB per hart; keep in sync with board.ld */
#define BOARD_MAX_CPUS 4

	.section .text.boot, "ax"
	.global _start
	.type _start, %function
_start:
	csrw	mie, zero
	csrci	mstatus, 8
	csrr	a0, mhartid
	li	t0, BOARD_MAX_CPUS
	bgeu	a0, t0, 2f
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, __board_stacks_end
	slli	t0, a0, BOARD_STACK_SHIFT
	sub	sp, sp, t0
	la	t0, board_trap_entry
	csrw	mtvec, t0
	li	t0, (1 << 13)		/* mstatus.FS = Initial */
	csrs	mstatus, t0
	call	board_hart_c
2:	wfi
	j	2b
	.size _start, . - _start

	.section .text.trap, "ax"
	.balign	4
	.global board_trap_entry
board_trap_entry:
	addi	sp, sp, -(18 * SZREG)
	REG_S	ra, 0 * SZREG(sp)
	REG_S	t0, 1 * SZREG(sp)
	REG_S	t1, 2 * SZREG(sp)
	REG_S	t2, 3 * SZREG(sp)
	REG_S	a0, 4 * SZREG(sp)
	REG_S	a1, 5 * SZREG(sp)
	REG_S	a2, 6 * SZREG(sp)
	REG_S	a3, 7 * SZREG(sp)
	REG_S	a4, 8 * SZREG(sp)
	REG_S	a5, 9 * SZREG(sp)
	REG_S	a6, 10 * SZREG(sp)
	REG_S	a7, 11 * SZREG(sp)
	REG_S	t3, 12 * SZREG(sp)
	REG_S	t4, 13 * SZREG(sp)
	REG_S	t5, 14 * SZREG(sp)
	REG_S	t6, 15 * SZREG(sp)
	csrr	a1, mepc
	REG_S	a1, 16 * SZREG(sp)
	csrr	a0, mcause
	csrr	a2, mtval
	call	board_trap_c
	REG_L	a1, 16 * SZREG(sp)
	csrw	mepc, a1
	REG_L	ra, 0 * SZREG(sp)
	REG_L	t0, 1 * SZREG(sp)
	REG_L	t1, 2 * SZREG(sp)
	REG_L	t2, 3 * SZREG(sp)
	REG_L	a0, 4 * SZREG(sp)
	REG_L	a1, 5 * SZREG(sp)
	REG_L	a2, 6 * SZREG(sp)
	REG_L	a3, 7 * SZREG(sp)
	REG_L	a4, 8 * SZREG(sp)
	REG_L	a5, 9 * SZREG(sp)
	REG_L	a6, 10 * SZREG(sp)
	REG_L	a7, 11 * SZREG(sp)
	REG_L	t3, 12 * SZREG(sp)
	REG_L	t4, 13 * SZREG(sp)
	REG_L	t5, 14 * SZREG(sp)
	REG_L	t6, 15 * SZREG(sp)
	addi	sp, sp, 18 * SZREG
	mret

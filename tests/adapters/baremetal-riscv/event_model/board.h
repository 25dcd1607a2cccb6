/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * board.h (RISC-V host model) - the board interface of
 * tests/adapters/baremetal-riscv/board/board.h that the bare-metal
 * deadline application uses, on the host: threads as harts, and a strict
 * model of what the RISC-V adapter does to a hart:
 *
 *   WFI    sleeps until the hart's MSIP is pending, whatever mstatus.MIE
 *          says; nothing else ends it (no timer, no spurious wake-up);
 *   MSIP   per hart, set by the send hook, cleared by the clear hook; with
 *          MIE set a pending MSIP is taken (cleared, board_on_irq()) at
 *          the next modelled instruction;
 *   FENCE, PAUSE, MIE changes: instruction boundaries (PAUSE also yields
 *          the host CPU);
 *   mtime  CLOCK_MONOTONIC in 10 MHz ticks (QEMU virt's timebase).
 *
 * When every live hart sleeps in WFI, none can ever be woken: the model
 * reports it (exit status 3).  The adapter reaches the MSIPs through the
 * send and clear hooks of struct coupled_riscv_ipi (BOARD_MSIP_SEND_HOOK,
 * BOARD_MSIP_CLEAR_HOOK), the rest through its instruction macros,
 * defined here.
 */
#ifndef COUPLED_TEST_RISCV_MODEL_BOARD_H
#define COUPLED_TEST_RISCV_MODEL_BOARD_H

#include <stdint.h>

#include "../../baremetal-common/model_board.h"

#define BOARD_MAX_CPUS 4
#define BOARD_CLINT_BASE 0u /* unused: the MSIPs go through the hooks */
#define BOARD_IRQ_MSI 3u

/* The model's own instructions. */
void model_pause(void);
void model_fence(void);
void model_msip_send(void *arg, uint32_t hart);
void model_msip_clear(void *arg, uint32_t hart);
uint32_t model_hart_id(void);

#define BOARD_MSIP_SEND_HOOK model_msip_send
#define BOARD_MSIP_CLEAR_HOOK model_msip_clear

static inline void board_yield(void)
{
	model_pause();
}

#define COUPLED_RISCV_WFI() model_wfi()
#define COUPLED_RISCV_PAUSE() model_pause()
#define COUPLED_RISCV_FENCE_W_O() model_fence()
#define COUPLED_RISCV_FENCE_O_R() model_fence()
#define COUPLED_RISCV_IRQ_SAVE() model_irq_save()
#define COUPLED_RISCV_IRQ_RESTORE(flags) model_irq_restore(flags)
/* Never used: the hooks above replace the CLINT. */
#define COUPLED_RISCV_MMIO_WRITE32(addr, v) ((void)(addr), (void)(v))
#define COUPLED_RISCV_TIME(clint_base) ((void)(clint_base), board_counter())
#define COUPLED_RISCV_HART_ID() model_hart_id()
#define COUPLED_RISCV_INSTRUCTIONS_PROVIDED 1

#endif /* COUPLED_TEST_RISCV_MODEL_BOARD_H */

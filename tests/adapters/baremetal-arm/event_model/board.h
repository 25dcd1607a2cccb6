/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * board.h (host model) - the board interface of tests/adapters/baremetal-arm/board/board.h,
 * implemented on the host with threads as cores and a strict model of the
 * instructions the bare-metal adapter uses:
 *
 *   SEV   sets the event register of every core;
 *   WFE   returns at once, clearing it, if the event register is set;
 *         otherwise sleeps until a SEV (or an unmasked interrupt);
 *   WFI   sleeps until an interrupt is pending, masked or not;
 *   SGI   makes an interrupt pending on the target core; an unmasked
 *         pending interrupt is taken at the next modelled instruction;
 *   DSB, YIELD, IRQ mask changes: instruction boundaries; a DSB with
 *   IRQs unmasked also stalls the core a random 0-20 us (ended by an SGI),
 *   so that an interrupt lands between a check and a sleep often enough.
 *
 * Nothing else wakes a core: no spurious events, no timer.  When every live
 * core sleeps, none can ever be woken: a lost wake-up, reported with exit
 * status 3.  QEMU cannot show this (its WFE is a yield); this model can.
 *
 * MODEL_MUTANT selects a deliberately broken adapter binding, to show the
 * check fails: 1 = the wake sends no SEV, 2 = the WFI wait does not mask
 * IRQs around its check.
 */
#ifndef COUPLED_TEST_MODEL_BOARD_H
#define COUPLED_TEST_MODEL_BOARD_H

#include <stdint.h>

#include "../../baremetal-common/model_board.h"

#define BOARD_MAX_CPUS 4
#define BOARD_GICD_BASE 0u /* unused: wakes go through the send hook */

void board_putc(char c);
uint32_t board_gic_cpu_interface(uint32_t cpu);

/* The model's own instructions. */
void model_wfe(void);
void model_sev(void);
void model_dsb(void);
void model_yield(void);
void model_send_sgi(void *arg, uint32_t target);
uint32_t model_cpu_id(void);

#define BOARD_SGI_SEND_HOOK model_send_sgi

#ifndef MODEL_MUTANT
#define MODEL_MUTANT 0
#endif

#define COUPLED_ARM_WFE() model_wfe()
#if MODEL_MUTANT == 1
#define COUPLED_ARM_SEV() ((void)0)
#else
#define COUPLED_ARM_SEV() model_sev()
#endif
#define COUPLED_ARM_WFI() model_wfi()
#define COUPLED_ARM_DSB() model_dsb()
#define COUPLED_ARM_YIELD() model_yield()
#if MODEL_MUTANT == 2
#define COUPLED_ARM_IRQ_SAVE() (model_dsb(), 0ul)
#define COUPLED_ARM_IRQ_RESTORE(flags) ((void)(flags))
#else
#define COUPLED_ARM_IRQ_SAVE() model_irq_save()
#define COUPLED_ARM_IRQ_RESTORE(flags) model_irq_restore(flags)
#endif
#define COUPLED_ARM_COUNTER() board_counter()
#define COUPLED_ARM_CPU_ID() model_cpu_id()
#define COUPLED_ARM_INSTRUCTIONS_PROVIDED 1

/* The application's own start and finish waits (never mutated). */
#define APP_WFE() model_wfe()
#define APP_SEV() model_sev()

#endif /* COUPLED_TEST_MODEL_BOARD_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * model_board.h - the part of the board interface that the host event
 * models of the ARM and RISC-V boards (event_model/ under
 * tests/adapters/baremetal-arm/ and tests/adapters/baremetal-riscv/) both
 * implement, host threads as cores, and the model instructions both have.
 * Each model's board.h includes it, by a path relative to itself, and adds
 * its own; model_common.h holds what their model_board.c share.
 */
#ifndef COUPLED_TESTS_BAREMETAL_MODEL_BOARD_H
#define COUPLED_TESTS_BAREMETAL_MODEL_BOARD_H

#include <stdint.h>

void board_puts(const char *s);
void board_put_u64(uint64_t v);
void board_exit(int status) __attribute__((noreturn));
uint32_t board_cpu_count(void);
uint64_t board_counter(void);
uint64_t board_counter_freq(void);
void board_irq_enable(void);
void board_irq_disable(void);
void board_on_irq(uint32_t cpu, uint32_t irq_id);
void app_main(uint32_t cpu);

/* The instructions both models have: WFI and the interrupt mask's save
 * and restore. */
void model_wfi(void);
unsigned long model_irq_save(void);
void model_irq_restore(unsigned long flags);

#endif /* COUPLED_TESTS_BAREMETAL_MODEL_BOARD_H */

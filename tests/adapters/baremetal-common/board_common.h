/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * board_common.h - what the ARM and RISC-V test boards
 * (tests/adapters/baremetal-arm/board/, tests/adapters/baremetal-riscv/board/)
 * share, in board_common.c: the text output over a polled UART and the
 * freestanding memory functions the compiler may call.  Each board brings
 * its UART's transmit (board_uart_tx()); build_image.sh links both files.
 */
#ifndef COUPLED_TESTS_BAREMETAL_BOARD_COMMON_H
#define COUPLED_TESTS_BAREMETAL_BOARD_COMMON_H

#include <stdint.h>

/**
 * board_uart_tx() - send one byte on the board's UART, waiting (polled)
 * while its transmit FIFO is full.  Each board defines it.
 * @c: the byte.
 */
void board_uart_tx(uint8_t c);

/**
 * board_put_hex_digits() - print "0x" and the low @digits hex digits of @v.
 * @v: the value.
 * @digits: how many digits (1..16).
 */
void board_put_hex_digits(uint64_t v, int digits);

#endif /* COUPLED_TESTS_BAREMETAL_BOARD_COMMON_H */

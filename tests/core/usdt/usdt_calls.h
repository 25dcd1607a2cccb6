/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * usdt_calls.h - the calls of usdt_main.c, compiled twice (usdt_a.c and
 * usdt_b.c) so that the binary has two sites of every probe.
 */
#ifndef COUPLED_TESTS_USDT_CALLS_H
#define COUPLED_TESTS_USDT_CALLS_H

#include <coupled/coupled.h>
#include <coupled/domain.h>

/* The semaphore of commit and abort, for main() to raise (one per binary). */
extern volatile unsigned short coupled_pthread_usdt_semaphore;

int usdt_calls_a(int traced);
int usdt_calls_b(int traced);

#endif

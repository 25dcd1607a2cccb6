/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * stdbool.h - kernel stand-in for the C library header.
 *
 * The kernel is built with -nostdinc, so the core's #include <stdbool.h>
 * finds this file instead (Kbuild puts this directory first on the include
 * path of the modules); bool, true and false come from the kernel.
 */
#ifndef COUPLED_KSHIM_STDBOOL_H
#define COUPLED_KSHIM_STDBOOL_H
#include <linux/stddef.h>
#include <linux/types.h>
#endif

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * stddef.h - kernel stand-in for the C library header (see stdbool.h):
 * NULL, offsetof and size_t come from the kernel.
 */
#ifndef COUPLED_KSHIM_STDDEF_H
#define COUPLED_KSHIM_STDDEF_H
#include <linux/stddef.h>
#include <linux/types.h>
#endif

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * stdint.h - kernel stand-in for the C library header (see stdbool.h):
 * <linux/types.h> defines uint32_t, int32_t and uint64_t.
 */
#ifndef COUPLED_KSHIM_STDINT_H
#define COUPLED_KSHIM_STDINT_H
#include <linux/types.h>
#endif

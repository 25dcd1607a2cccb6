/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/types.h - the integer types, bool and NULL the library uses.
 *
 * In the Linux kernel (built with -nostdinc) they come from the kernel's own
 * headers, which define uint32_t, int32_t, uint64_t, uintptr_t, bool, true,
 * false and NULL.  Everywhere else from <stdint.h>, <stdbool.h> and
 * <stddef.h>, which every C11 compiler ships, freestanding ones included.
 */
#ifndef COUPLED_TYPES_H
#define COUPLED_TYPES_H

#ifdef __KERNEL__
#include <linux/stddef.h>
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#endif /* COUPLED_TYPES_H */

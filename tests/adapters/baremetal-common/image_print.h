/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * image_print.h - the result lines of the bare-metal test applications
 * (hello, deadline, the tortures), over the board's board_puts() and
 * board_put_u64() (a QEMU board or the host event model).  Include after
 * "board.h", by a path relative to the application, so that every build of
 * it finds this header.
 */
#ifndef COUPLED_TESTS_BAREMETAL_IMAGE_PRINT_H
#define COUPLED_TESTS_BAREMETAL_IMAGE_PRINT_H

#include <stdint.h>

/**
 * put_kv() - print " key=value".
 * @key: the key.
 * @v: the value, in decimal.
 */
static inline void put_kv(const char *key, uint64_t v)
{
	board_puts(" ");
	board_puts(key);
	board_puts("=");
	board_put_u64(v);
}

/**
 * image_fail() - print "NAME: FAIL WHAT (A, B)" and exit with status 1.
 * @name: the application's name.
 * @what: what failed.
 * @a: a value that tells more.
 * @b: another.
 */
static inline __attribute__((noreturn)) void
image_fail(const char *name, const char *what, uint64_t a, uint64_t b)
{
	board_puts(name);
	board_puts(": FAIL ");
	board_puts(what);
	board_puts(" (");
	board_put_u64(a);
	board_puts(", ");
	board_put_u64(b);
	board_puts(")\n");
	board_exit(1);
}

#endif /* COUPLED_TESTS_BAREMETAL_IMAGE_PRINT_H */

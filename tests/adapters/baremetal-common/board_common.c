/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * board_common.c - the ARM and RISC-V test boards' shared part (see
 * board_common.h): text output over the board's UART and the freestanding
 * memory functions.  Compiled with each board by its build_image.sh.
 */
#include "board.h"
#include "board_common.h"

#include <stdbool.h>
#include <stddef.h>

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

void board_putc(char c)
{
	if (c == '\n')
		board_uart_tx('\r');
	board_uart_tx((uint8_t)c);
}

void board_puts(const char *s)
{
	while (*s)
		board_putc(*s++);
}

/* No division: 64-bit division on ARMv7-A would need libgcc. */
static const uint64_t board_pow10[20] = {
	10000000000000000000ull,
	1000000000000000000ull,
	100000000000000000ull,
	10000000000000000ull,
	1000000000000000ull,
	100000000000000ull,
	10000000000000ull,
	1000000000000ull,
	100000000000ull,
	10000000000ull,
	1000000000ull,
	100000000ull,
	10000000ull,
	1000000ull,
	100000ull,
	10000ull,
	1000ull,
	100ull,
	10ull,
	1ull,
};

void board_put_u64(uint64_t v)
{
	bool started = false;

	for (unsigned i = 0; i < 20; i++) {
		unsigned digit = 0;
		while (v >= board_pow10[i]) {
			v -= board_pow10[i];
			digit++;
			/* keep the compiler from turning this into a division */
			__asm__ volatile("" : "+r"(v));
		}
		if (digit || started || i == 19) {
			board_putc((char)('0' + digit));
			started = true;
		}
	}
}

void board_put_hex_digits(uint64_t v, int digits)
{
	board_puts("0x");
	for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
		unsigned nib = (unsigned)(v >> shift) & 0xfu;
		board_putc((char)(nib < 10 ? '0' + nib : 'a' + nib - 10));
	}
}

void board_put_hex(uint64_t v)
{
	board_put_hex_digits(v, 16);
}

/* ------------------------------------------------------------------ */
/* Freestanding helpers the compiler may call                          */
/* ------------------------------------------------------------------ */

void *memset(void *dst, int c, size_t n);
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* Weak so that an application or adapter may bring its own.  The empty asm
 * keeps the compiler from recognising the loops as memset/memcpy again. */
__attribute__((weak)) void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	while (n--) {
		*d++ = (unsigned char)c;
		__asm__ volatile("" ::: "memory");
	}
	return dst;
}

__attribute__((weak)) void *memcpy(void *restrict dst, const void *restrict src,
				   size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	while (n--) {
		*d++ = *s++;
		__asm__ volatile("" ::: "memory");
	}
	return dst;
}

__attribute__((weak)) void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (d < s) {
		while (n--) {
			*d++ = *s++;
			__asm__ volatile("" ::: "memory");
		}
	} else {
		while (n--) {
			d[n] = s[n];
			__asm__ volatile("" ::: "memory");
		}
	}
	return dst;
}

__attribute__((weak)) int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x < *y ? -1 : 1;
	}
	return 0;
}

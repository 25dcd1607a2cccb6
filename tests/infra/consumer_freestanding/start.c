/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A freestanding program (no libc: -ffreestanding -nostdlib -static, x86-64
 * Linux) with the spin adapter: a one-member group commits ROUNDS rounds,
 * each with the member's own request as its parameter.  Exit status 0 only
 * if all of them did; the status says which check failed otherwise.
 */
#include <stdint.h>

#include <coupled/coupled.h>

#define ROUNDS 8

struct seen {
	int calls;
	int32_t param;
};

static void action(const struct coupled_round *r, void *ctx)
{
	struct seen *s = (struct seen *)ctx;

	s->calls++;
	s->param = r->param;
}

static int rounds(void)
{
	static struct coupled_group g;
	static struct coupled_slot slots[1];
	struct seen s = { 0, -1 };
	int32_t i;

	if (coupled_group_init(&g, slots, 1, 1, 0) != 0)
		return 2;
	for (i = 0; i < ROUNDS; i++) {
		if (coupled_enter(&g, 0, 10 + i, action, &s) !=
		    COUPLED_COMMITTED)
			return 3;
		if (s.calls != i + 1 || s.param != 10 + i)
			return 4;
	}
	return 0;
}

static void sys_exit(long status)
{
	/* exit_group(2) */
	__asm__ volatile("syscall"
			 :
			 : "a"(231L), "D"(status)
			 : "rcx", "r11", "memory");
	for (;;)
		;
}

void _start(void);

__attribute__((force_align_arg_pointer)) void _start(void)
{
	sys_exit(rounds());
}

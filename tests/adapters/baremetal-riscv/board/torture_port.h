/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * torture_port.h - the RISC-V adapter's calls for the bare-metal torture
 * sources (torture.c and domain_torture.c in
 * tests/adapters/baremetal-arm/torture/), included by them
 * after <coupled/coupled.h> because board.h names it (BOARD_TORTURE_PORT).
 *
 * torture.c: every group waits in WFI and is woken by the CLINT's MSIP.
 * TORTURE_SGI=1 runs the calls with mstatus.MIE set (the board's trap
 * handler takes and clears every MSIP the adapter leaves pending; the
 * verdict's sgis counts them); TORTURE_SGI=0 runs them with MIE clear
 * throughout, cpuidle style (the adapter clears its own MSIP after WFI).
 * domain_torture.c creates its groups itself and hands each to
 * torture_setup_domain_wake() with the hart of each of its ids: every
 * group waits in WFI with MIE clear (TORTURE_DOMAIN_WAKE names it in the
 * verdict) and is woken by the MSIP of the target's hart.  The ids are not
 * the harts: a leaf's id 0 is its hart, cluster 1's ids 0 and 1 are harts
 * 2 and 3, so a wake sent to the id's MSIP would leave the hart asleep.
 */
#ifndef COUPLED_TESTS_RISCV_TORTURE_PORT_H
#define COUPLED_TESTS_RISCV_TORTURE_PORT_H

#define TORTURE_YIELD() board_yield()
#define torture_set_work_hook coupled_riscv_set_work_hook

/*
 * TORTURE_SCRAMBLE=1: hart h of n is participant n - 1 - h, so that no
 * participant's id is its hart (with 4 harts: participant i on hart 3 - i)
 * and a wake sent to the id's MSIP would reach another hart.
 */
#ifndef TORTURE_SCRAMBLE
#define TORTURE_SCRAMBLE 0
#endif
#if TORTURE_SCRAMBLE
#define TORTURE_ID_OF(cpu) (board_cpu_count() - 1u - (cpu))
#define TORTURE_MAP "-scrambled"
#else
#define TORTURE_MAP ""
#endif
#define TORTURE_STRATEGY                          \
	(TORTURE_SGI ? "wfi-msip-irq" TORTURE_MAP \
		     : "wfi-msip-masked" TORTURE_MAP)

/**
 * torture_set_harts() - the WFI strategy with the CLINT, for a group
 * @g: the group (not shared yet)
 * @n: its participants
 * @hart: the hart of each participant, @n of them; NULL: participant i on
 *	hart i (n - 1 - i scrambled)
 *
 * Return: 0, or -1 if the adapter refused.
 */
static inline int torture_set_harts(struct coupled_group *g, uint32_t n,
				    const uint32_t *hart)
{
	struct coupled_riscv_ipi ipi = { 0 };
	uint32_t i, h;

	ipi.clint_base = BOARD_CLINT_BASE;
	if (coupled_riscv_set_ipi(coupled_group_adapter(g), &ipi) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		h = hart ? hart[i] : TORTURE_SCRAMBLE ? n - 1u - i : i;
		if (coupled_riscv_set_hart(coupled_participant_adapter(g, i),
					   h) != 0)
			return -1;
	}
	return 0;
}

/**
 * torture_setup_wake() - the WFI strategy with the CLINT, for a group
 * @g: the group (not shared yet)
 * @n: its participants, participant i on hart i (n - 1 - i scrambled)
 *
 * Return: 0, or -1 if the adapter refused.
 */
static inline int torture_setup_wake(struct coupled_group *g, uint32_t n)
{
	return torture_set_harts(g, n, NULL);
}

/* domain_torture.c: the groups wait in WFI, the calls run with MIE clear. */
#define TORTURE_DOMAIN_WAKE "wfi-msip-masked"

/**
 * torture_setup_domain_wake() - the WFI strategy for a domain group
 * @g: the group (not shared yet)
 * @n: its participants
 * @hart: the hart of each participant, @n of them
 *
 * Return: 0, or -1 if the adapter refused.
 */
static inline int torture_setup_domain_wake(struct coupled_group *g, uint32_t n,
					    const uint32_t *hart)
{
	return torture_set_harts(g, n, hart);
}

#endif /* COUPLED_TESTS_RISCV_TORTURE_PORT_H */

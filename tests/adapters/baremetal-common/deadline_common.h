/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * deadline_common.h - what the ARM and RISC-V deadline applications
 * (deadline/deadline.c under tests/adapters/baremetal-arm/ and
 * tests/adapters/baremetal-riscv/) share: the two-member group that core 0
 * enters alone, its calls that can only time out, their checks and the
 * verdict line.  Each application sets the group's wait strategy up and
 * says what its run proves.
 *
 * Include after "board.h" and "coupled/coupled.h", by a path relative to
 * the application, so that every build of it (images, host model) finds
 * this header.
 */
#ifndef COUPLED_TESTS_BAREMETAL_DEADLINE_COMMON_H
#define COUPLED_TESTS_BAREMETAL_DEADLINE_COMMON_H

#include <stdint.h>

#include "image_print.h"

#ifndef DEADLINE_CALLS
#define DEADLINE_CALLS 20u
#endif
#ifndef DEADLINE_BOUND_MS
#define DEADLINE_BOUND_MS 250u
#endif

static struct coupled_group group;
static struct coupled_slot slots[2];

static void never_action(const struct coupled_round *r, void *ctx)
{
	(void)r;
	(void)ctx;
	board_puts("deadline: FAIL a round committed with a member absent\n");
	board_exit(1);
}

static __attribute__((noreturn)) void fail(const char *what, uint64_t a,
					   uint64_t b)
{
	image_fail("deadline", what, a, b);
}

/**
 * deadline_group() - set the group up: two members, both in.
 *
 * Return: its adapter group, for the application's wait strategy.
 */
static inline struct coupled_adapter_group *deadline_group(void)
{
	if (coupled_group_init(&group, slots, 2, 2, NULL) != 0)
		fail("group init", 0, 0);
	return coupled_group_adapter(&group);
}

/**
 * deadline_run() - core 0's calls, alone in the group: DEADLINE_CALLS with
 * deadlines 0 to 4 ms ahead, each of which must return
 * COUPLED_ABORT_TIMEOUT, not before its deadline, with a median lateness of
 * at most DEADLINE_BOUND_MS; then one with a deadline long past, which must
 * time out too.  Prints the verdict and exits (1 on the first failure).
 * @ag: the group's adapter group, its wait strategy set.
 * @tick_us: the clock's ticks per microsecond (at least 1).
 * @strategy: the wait strategy's name, for the PASS line.
 */
static inline void deadline_run(struct coupled_adapter_group *ag,
				uint64_t tick_us, const char *strategy)
{
	static uint64_t late[DEADLINE_CALLS];
	struct coupled_abort_opts opts = { 0 };
	uint64_t bound;
	uint32_t i, k;
	int rc;

	for (i = 0; i < DEADLINE_CALLS; i++) {
		uint64_t done;

		/* 0, 1, ..., 4 ms ahead, in turn. */
		opts.deadline = coupled_adapter_now(ag) +
				(uint64_t)(i % 5u) * 1000u * tick_us;
		rc = coupled_enter_opts(&group, 0, 1, never_action, 0, &opts);
		done = coupled_adapter_now(ag);
		if (rc != COUPLED_ABORT_TIMEOUT)
			fail("a call did not time out", i, (uint64_t)rc);
		if (done < opts.deadline)
			fail("a call returned before its deadline", i,
			     opts.deadline - done);
		late[i] = done - opts.deadline;
		/* Insertion sort: no libc here. */
		for (k = i; k > 0 && late[k - 1] > late[k]; k--) {
			uint64_t t = late[k];

			late[k] = late[k - 1];
			late[k - 1] = t;
		}
	}
	opts.deadline = 1; /* long past */
	rc = coupled_enter_opts(&group, 0, 1, never_action, 0, &opts);
	if (rc != COUPLED_ABORT_TIMEOUT)
		fail("a call with a past deadline did not time out", 0,
		     (uint64_t)rc);
	bound = (uint64_t)DEADLINE_BOUND_MS * 1000u * tick_us;
	if (late[DEADLINE_CALLS / 2u] > bound)
		fail("median lateness above the bound (ticks)",
		     late[DEADLINE_CALLS / 2u], bound);

	board_puts("deadline: PASS strategy=");
	board_puts(strategy);
	board_puts(" protocol=" COUPLED_PROTOCOL_NAME);
	put_kv("calls", DEADLINE_CALLS + 1u);
	put_kv("median_late_us", late[DEADLINE_CALLS / 2u] / tick_us);
	put_kv("max_late_us", late[DEADLINE_CALLS - 1u] / tick_us);
	put_kv("bound_ms", DEADLINE_BOUND_MS);
	board_puts("\n");
	board_exit(0);
}

#endif /* COUPLED_TESTS_BAREMETAL_DEADLINE_COMMON_H */

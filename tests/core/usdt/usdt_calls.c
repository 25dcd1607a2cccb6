// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * usdt_calls.c - compiled twice, as usdt_calls_a() and usdt_calls_b()
 * (USDT_CALLS names the function): a committed round, an aborted call, a
 * leave and a join, and a domain call, on a one-member group.
 *
 * @traced: the semaphore is raised (by main() or by a tracer that is
 * attached); each entry must then have stamped its time in its adapter
 * slot, and must not otherwise.
 *
 * Return: 0 if every call returned what it should, else 1.
 */
#include <stdbool.h>
#include <stdio.h>

#include "usdt_calls.h"

static void usdt_action(const struct coupled_round *r, void *ctx)
{
	*(int32_t *)ctx = r->param;
}

static bool usdt_abort_now(void *arg, uint32_t self)
{
	(void)arg;
	(void)self;
	return true;
}

static void usdt_domain_action(const struct coupled_domain_round *r, void *ctx)
{
	*(uint32_t *)ctx = r->depth;
}

int USDT_CALLS(int traced)
{
	static struct coupled_slot slots[1];
	static struct coupled_group g;
	struct coupled_abort_opts opts = { 0, usdt_abort_now, NULL };
	struct coupled_domain leaf;
	int32_t param = -1, requests[1] = { 7 };
	uint32_t depth = 0;
	int bad = 0, rc;

	if (coupled_group_init(&g, slots, 1, 1, NULL))
		return 1;
	g.slots[0].adapter.usdt_enter_ns = 0;
	rc = coupled_enter(&g, 0, 5, usdt_action, &param);
	bad |= rc != COUPLED_COMMITTED || param != 5;
	traced = traced || coupled_pthread_usdt_semaphore;
	bad |= traced ? g.slots[0].adapter.usdt_enter_ns == 0
		      : g.slots[0].adapter.usdt_enter_ns != 0;
	rc = coupled_enter_opts(&g, 0, 5, usdt_action, &param, &opts);
	bad |= rc != COUPLED_ABORT_CALLER;
	bad |= coupled_leave(&g, 0) != 0;
	bad |= coupled_join(&g, 0) != 0;
	if (coupled_domain_init(&leaf, &g, NULL) == 0) {
		rc = coupled_domain_enter(&leaf, 0, requests,
					  usdt_domain_action, &depth);
		bad |= rc != COUPLED_COMMITTED || depth != 1;
	} else {
		bad = 1;
	}
	if (bad)
		fprintf(stderr, "%s(traced=%d): a call went wrong\n", __func__,
			traced);
	return bad;
}

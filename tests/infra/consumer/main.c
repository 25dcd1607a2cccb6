/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * A one-member group enters one round: it must commit, run the action once,
 * and hand it the member's own request as the reduced parameter.
 */
#include <stdint.h>
#include <stdio.h>

#include "coupled/coupled.h"

struct seen {
	int calls;
	int32_t param;
	uint32_t members;
};

static void action(const struct coupled_round *r, void *ctx)
{
	struct seen *s = (struct seen *)ctx;

	s->calls++;
	s->param = r->param;
	s->members = r->members;
}

int main(void)
{
	struct coupled_group g;
	struct coupled_slot slots[1];
	struct seen s = { 0, -1, 0 };
	const int32_t request = 3;
	int rc;

	rc = coupled_group_init(&g, slots, 1, 1, NULL);
	if (rc != 0) {
		fprintf(stderr, "coupled_group_init: %s\n",
			coupled_strerror(rc));
		return 1;
	}
	rc = coupled_enter(&g, 0, request, action, &s);
	if (rc != COUPLED_COMMITTED) {
		fprintf(stderr, "coupled_enter: %s\n", coupled_strerror(rc));
		return 1;
	}
	if (s.calls != 1 || s.param != request || s.members != 1) {
		fprintf(stderr,
			"wrong round: %d calls, param %d (want %d), %u "
			"members\n",
			s.calls, (int)s.param, (int)request,
			(unsigned)s.members);
		return 1;
	}
	printf("consumer: adapter %s, one round committed with param %d\n",
	       COUPLED_ADAPTER_NAME, (int)s.param);
	return 0;
}

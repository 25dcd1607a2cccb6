/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Several threads, one group: every thread commits ROUNDS rounds, and every
 * committed round hands every member the minimum of all requests.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include <coupled/coupled.h>

#define MEMBERS 4
#define ROUNDS 50

static struct coupled_group group;
static struct coupled_slot slots[MEMBERS];
static atomic_int actions;
static atomic_int wrong_param;

static void action(const struct coupled_round *r, void *ctx)
{
	(void)ctx;
	atomic_fetch_add(&actions, 1);
	/* Requests are 1..MEMBERS: the reduction (minimum) is 1. */
	if (r->param != 1 || r->members != MEMBERS)
		atomic_fetch_add(&wrong_param, 1);
}

static void *member(void *arg)
{
	uint32_t self = (uint32_t)(uintptr_t)arg;
	int committed = 0;

	while (committed < ROUNDS) {
		int rc = coupled_enter(&group, self, (int32_t)self + 1, action,
				       NULL);

		if (rc == COUPLED_COMMITTED)
			committed++;
		else if (rc < 0) {
			fprintf(stderr, "member %u: %s\n", (unsigned)self,
				coupled_strerror(rc));
			return (void *)1;
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t t[MEMBERS];
	int failed = 0;
	uint32_t i;

	if (coupled_group_init(&group, slots, MEMBERS, MEMBERS, NULL) != 0)
		return 1;
	for (i = 0; i < MEMBERS; i++)
		if (pthread_create(&t[i], NULL, member, (void *)(uintptr_t)i))
			return 1;
	for (i = 0; i < MEMBERS; i++) {
		void *ret;

		pthread_join(t[i], &ret);
		failed |= ret != NULL;
	}
	if (failed || atomic_load(&actions) != MEMBERS * ROUNDS ||
	    atomic_load(&wrong_param) != 0) {
		fprintf(stderr, "rounds: %d actions (want %d), %d wrong\n",
			atomic_load(&actions), MEMBERS * ROUNDS,
			atomic_load(&wrong_param));
		return 1;
	}
	printf("rounds: %d members committed %d rounds each, param 1\n",
	       MEMBERS, ROUNDS);
	return 0;
}

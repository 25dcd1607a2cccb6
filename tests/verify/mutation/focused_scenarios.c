/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * focused_scenarios.c - interleavings that the mutation suite needs to kill
 * a fault no other check reaches, written with the scenario harness of
 * tests/core/scenario (its file is included, its main() renamed, so that
 * these scenarios share its helpers and its checks).
 *
 * Usage: focused_scenarios [all|NAME] [futex|condvar]
 *
 * Exit status 0 if every scenario passed or was skipped (a scenario of the
 * other protocol variant says so), 77 if NAME was skipped.
 */
#define main coupled_scenario_main
#include "test_scenario.c"
#undef main

/*
 * An arrival that sees stop, direct protocol.  A and B are the members; B
 * rests; A has made its early look at stop and is held just before its
 * arrival.  A join of C sets stop and wakes B, which is held before its
 * withdrawal, so B still counts.  A's arrival now makes the count complete
 * (2 of 2) but with stop set: no round may complete, A must withdraw and
 * return COUPLED_ABORT_MEMBERSHIP; then B's withdrawal succeeds, nobody
 * runs the action, and the join goes through.  (An arrival that ignored
 * the stop in the word it counted in would complete the round, clear stop
 * under the changer and commit.)
 */
static void scenario_arrival_sees_stop(void)
{
	struct stepctl_participant p[2];
	struct change_args ch;

	DIRECT_ONLY("the direct word's stop flag; settled: attempts_count");
	setup(3, 2, NULL);
	stepctl_start(&p[A], A, 1, 1, NULL);
	stepctl_start(&p[B], B, 1, 2, NULL);
	arrive_and_rest(B);
	stepctl_break(A, COUPLED_HOOK_ARRIVE, 1);
	stepctl_permit(A);
	stepctl_expect(A, COUPLED_HOOK_ARRIVE);

	stepctl_break(B, COUPLED_HOOK_WITHDRAW, 1);
	stepctl_break(STEPCTL_CHANGER, COUPLED_HOOK_MEMBERSHIP, 1);
	ch.join = 1;
	ch.id = C;
	ch.result = 999;
	CHECK(pthread_create(&ch.thread, NULL, change_main, &ch) == 0);
	/* Woken by the change, B saw stop and is about to withdraw. */
	stepctl_expect(B, COUPLED_HOOK_WITHDRAW);
	CHECK(test_group_stopped(&group));
	CHECK_EQ(word(), 1);

	stepctl_release(A, COUPLED_HOOK_ARRIVE);
	CHECK_EQ(stepctl_result(A, 0), COUPLED_ABORT_MEMBERSHIP);
	CHECK(test_group_stopped(&group));
	stepctl_release(B, COUPLED_HOOK_WITHDRAW);
	CHECK_EQ(stepctl_result(B, 0), COUPLED_ABORT_MEMBERSHIP);
	stepctl_expect(STEPCTL_CHANGER, COUPLED_HOOK_MEMBERSHIP);
	stepctl_release(STEPCTL_CHANGER, COUPLED_HOOK_MEMBERSHIP);
	CHECK(pthread_join(ch.thread, NULL) == 0);
	CHECK_EQ(ch.result, 0);
	stepctl_join(&p[A]);
	stepctl_join(&p[B]);
	CHECK_EQ(stepctl_runs(A), 0);
	CHECK_EQ(stepctl_runs(B), 0);
	CHECK(at_rest());
	CHECK_EQ(coupled_group_members(&group), 3);
}

static const struct {
	const char *name;
	void (*fn)(void);
} focused[] = {
	{ "arrival_sees_stop", scenario_arrival_sees_stop },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc >= 3 && strcmp(argv[2], "condvar") == 0)
		strategy = COUPLED_PTHREAD_CONDVAR;
	running_all = argc < 2 || strcmp(argv[1], "all") == 0;
	for (i = 0; i < sizeof(focused) / sizeof(focused[0]); i++) {
		if (running_all || strcmp(argv[1], focused[i].name) == 0) {
			printf("-- %s (%s, %s protocol)\n", focused[i].name,
			       coupled_pthread_strategy_name(strategy),
			       COUPLED_PROTOCOL_NAME);
			focused[i].fn();
			if (!running_all)
				return 0;
		}
	}
	if (!running_all) {
		fprintf(stderr, "unknown scenario %s\n", argv[1]);
		return 2;
	}
	return 0;
}

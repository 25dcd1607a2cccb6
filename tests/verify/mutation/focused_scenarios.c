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
	DIRECT_ONLY("the direct word's stop flag; settled: attempts_count");
	START(3, 2, { 1, 1 }, { 1, 2 });
	arrive_and_rest(B);
	stepctl_run_to(A, COUPLED_HOOK_ARRIVE);

	stepctl_break(B, COUPLED_HOOK_WITHDRAW, 1);
	start_change(1, C, COUPLED_HOOK_MEMBERSHIP);
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
	end_change();
	join_all();
	nobody_ran();
	CHECK(at_rest());
	CHECK_EQ(coupled_group_members(&group), 3);
}

static const struct scenario focused[] = {
	{ "arrival_sees_stop", scenario_arrival_sees_stop },
};

int main(int argc, char **argv)
{
	return run_scenarios(focused, sizeof(focused) / sizeof(focused[0]),
			     argc, argv);
}

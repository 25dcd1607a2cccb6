/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_oracle.c - the per-round oracle (tests/common/oracle.h) on its own.
 *
 * Rounds are written by hand, one member after the other: a round that
 * held must pass, and each kind of broken round (a member twice, a member
 * missing, a wrong or disagreeing parameter, disagreeing member counts or
 * votes) must fail with its own message.  The stress test and the
 * tortures trust the oracle to fail; this shows that it can.
 */
#include "coupled/coupled.h"

#include <stdint.h>
#include <string.h>

#include "check.h"
#include "oracle.h"

static struct oracle_round rec;

static struct coupled_round round_of(uint32_t self, int32_t param,
				     uint32_t members, uint32_t gen)
{
	struct coupled_round r;

	memset(&r, 0, sizeof(r));
	r.self = self;
	r.param = param;
	r.members = members;
	r.generation = gen;
	return r;
}

/* Record member @self of a round; the record must accept it. */
static int record(uint32_t self, int32_t param, uint32_t members,
		  int32_t request)
{
	struct coupled_round r = round_of(self, param, members, 7u);
	struct oracle_failure f;
	uint32_t order;

	CHECK_EQ(oracle_record(&rec, &r, request, &order, &f), 0);
	return (int)order;
}

/* The round must fail with @what. */
static void expect_fail(coupled_reduce_fn reduce, const char *what)
{
	struct oracle_failure f;

	memset(&f, 0, sizeof(f));
	CHECK_EQ(oracle_check(&rec, reduce, &f), -1);
	CHECK(f.what != NULL);
	printf("   caught: %s (%ld, %ld)\n", f.what, f.a, f.b);
	CHECK(strcmp(f.what, what) == 0);
}

/*
 * A round of two members that broke (each member's self, param, members
 * and request; @votes: the first votes 0, the second 1): it must fail the
 * minimum with @what, and hold for @holds_for where that is not NULL.
 */
static const struct broken_pair {
	const char *name;
	uint32_t self[2];
	int32_t param[2];
	uint32_t members[2];
	int32_t request[2];
	bool votes;
	coupled_reduce_fn holds_for;
	const char *what;
} broken[] = {
	{ "a member missing",
	  { 0, 2 },
	  { 4, 4 },
	  { 3, 3 },
	  { 4, 6 },
	  false,
	  NULL,
	  "actions != round members" },
	{ "a parameter that is not the reduction",
	  { 0, 1 },
	  { 6, 6 },
	  { 2, 2 },
	  { 4, 6 },
	  false,
	  coupled_reduce_max,
	  "param != reduction of the requests" },
	{ "members that saw different parameters",
	  { 0, 1 },
	  { 4, 5 },
	  { 2, 2 },
	  { 4, 5 },
	  false,
	  NULL,
	  "members saw different parameters" },
	{ "members that saw different member counts",
	  { 0, 1 },
	  { 1, 1 },
	  { 2, 3 },
	  { 1, 1 },
	  false,
	  NULL,
	  "members saw different member counts" },
	{ "members that saw different votes",
	  { 0, 1 },
	  { 1, 1 },
	  { 2, 2 },
	  { 1, 3 },
	  true,
	  NULL,
	  "members saw different votes" },
};

int main(void)
{
	struct oracle_failure f;
	struct coupled_round r;
	size_t i;
	int m;

	TEST_CASE("a round that held passes");
	oracle_init(&rec);
	CHECK_EQ(record(0, 2, 3, 5), 0);
	CHECK_EQ(record(1, 2, 3, 2), 1);
	CHECK_EQ(record(2, 2, 3, 7), 2);
	oracle_vote(&rec, 1);
	oracle_vote(&rec, 1);
	oracle_vote(&rec, 1);
	CHECK_EQ(oracle_check(&rec, coupled_reduce_min, &f), 0);
	CHECK_EQ(oracle_actions(&rec), 3);
	CHECK(oracle_ran(&rec, 0) && oracle_ran(&rec, 2));
	CHECK(!oracle_ran(&rec, 3) && !oracle_ran(&rec, 1000));
	r = round_of(0, 2, 3, 7u);
	CHECK(!oracle_done(&rec, &r));
	CHECK(!oracle_done(&rec, &r));
	CHECK(oracle_done(&rec, &r)); /* the third of 3 members */

	TEST_CASE("the reduction the caller names");
	expect_fail(coupled_reduce_max, "param != reduction of the requests");

	TEST_CASE("a member twice");
	r = round_of(1, 2, 3, 7u);
	CHECK_EQ(oracle_record(&rec, &r, 2, NULL, &f), -1);
	CHECK(strcmp(f.what, "ran the round twice") == 0);
	CHECK_EQ(f.a, 1);

	for (i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		const struct broken_pair *t = &broken[i];

		TEST_CASE(t->name);
		oracle_reset(&rec);
		for (m = 0; m < 2; m++)
			record(t->self[m], t->param[m], t->members[m],
			       t->request[m]);
		for (m = 0; m < 2 && t->votes; m++)
			oracle_vote(&rec, m);
		expect_fail(coupled_reduce_min, t->what);
		if (t->holds_for)
			CHECK_EQ(oracle_check(&rec, t->holds_for, &f), 0);
	}

	TEST_CASE("an empty record");
	oracle_reset(&rec);
	expect_fail(coupled_reduce_min, "no member ran the round");

	TEST_CASE("extreme values and the second mask word");
	oracle_reset(&rec);
	record(0, INT32_MIN, 3, INT32_MAX);
	record(40, INT32_MIN, 3, INT32_MIN);
	record(ORACLE_MAX_MEMBERS - 1u, INT32_MIN, 3, -1);
	CHECK_EQ(oracle_check(&rec, coupled_reduce_min, &f), 0);
	CHECK(oracle_ran(&rec, 40) && !oracle_ran(&rec, 8));
	r = round_of(ORACLE_MAX_MEMBERS, INT32_MIN, 3, 7u);
	CHECK_EQ(oracle_record(&rec, &r, 0, NULL, &f), -1);

	printf("OK: the oracle passes a round that held and catches each "
	       "broken one\n");
	return 0;
}

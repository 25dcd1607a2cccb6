/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_domain_oracle.c - the per-level oracle (tests/common/domain_oracle.h)
 * on its own.
 *
 * Calls are written by hand, one core after the other, on a tree of two
 * clusters of two cores under a root: a level-1 round (cluster 0, cores 0
 * and 1) whose cores both commit the root or both do not must pass; each
 * kind of broken round must fail with its own message: a split (one core
 * of the cluster round commits the root, the other does not), a missing
 * member, a parameter that is not the reduction or that the cores saw
 * differently, two generations in one record, a core twice; and each
 * broken call: the action twice in a call, an action in a call that did
 * not commit, none in one that did, a malformed outcome vector; a round
 * whose members are not its level's, a core that is no member of a level
 * it committed; a level given up with a code the call had no cause for.
 * The stress test and the tortures trust the oracle to fail; this shows
 * that it can.
 */
#include "coupled/domain.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "domain_oracle.h"

#define LEVELS 2u

static struct domain_oracle_level rec;
static struct coupled_round rounds[2][LEVELS];

/*
 * A call's outcome on a 2-level tree (cluster leaf, root): the cluster
 * committed with (self, param, gen, members); the root committed when
 * @root_gen is not 0 (param @root_param, 4 members), else CANNOT.
 */
static struct coupled_domain_round call(uint32_t slot, uint32_t self,
					int32_t param, uint32_t gen,
					uint32_t members, uint32_t root_gen,
					int32_t root_param)
{
	struct coupled_domain_round r;
	struct coupled_round *cl = &rounds[slot][0];
	struct coupled_round *rt = &rounds[slot][1];

	memset(&r, 0, sizeof(r));
	memset(cl, 0, sizeof(*cl));
	memset(rt, 0, sizeof(*rt));
	r.core = self;
	r.levels = LEVELS;
	cl->self = self;
	cl->param = param;
	cl->generation = gen;
	cl->members = members;
	r.level[0].committed = true;
	r.level[0].outcome = COUPLED_COMMITTED;
	r.level[0].param = param;
	r.level[0].generation = gen;
	r.level[0].members = members;
	r.level[0].round = cl;
	r.depth = 1;
	r.level[1].outcome = COUPLED_DOMAIN_CANNOT;
	if (root_gen) {
		rt->self = self;
		rt->param = root_param;
		rt->generation = root_gen;
		rt->members = 4;
		r.level[1].committed = true;
		r.level[1].outcome = COUPLED_COMMITTED;
		r.level[1].param = root_param;
		r.level[1].generation = root_gen;
		r.level[1].members = 4;
		r.level[1].round = rt;
		r.depth = 2;
	}
	return r;
}

/* Report a cluster round's core; the report must be accepted (0 or 1). */
static int report(const struct coupled_domain_round *r, int32_t request)
{
	struct oracle_failure f;
	int ret;

	memset(&f, 0, sizeof(f));
	ret = domain_oracle_report(&rec, r, 0, request, coupled_reduce_min, &f);
	if (ret < 0)
		fprintf(stderr, "unexpected failure: %s (%ld, %ld)\n", f.what,
			f.a, f.b);
	CHECK(ret >= 0);
	return ret;
}

/* The report must fail with @what. */
static void report_fails(const struct coupled_domain_round *r, int32_t request,
			 const char *what)
{
	struct oracle_failure f;

	memset(&f, 0, sizeof(f));
	CHECK_EQ(domain_oracle_report(&rec, r, 0, request, coupled_reduce_min,
				      &f),
		 -1);
	CHECK(f.what != NULL);
	printf("   caught: %s (%ld, %ld)\n", f.what, f.a, f.b);
	CHECK(strstr(f.what, what) != NULL);
}

/* The outcome vector of @r with @requests must fail with @what. */
static void shape_fails(const struct coupled_domain_round *r,
			const int32_t *requests, const char *what)
{
	struct domain_oracle_call c;
	struct oracle_failure f;

	memset(&f, 0, sizeof(f));
	domain_oracle_call_begin(&c);
	CHECK_EQ(domain_oracle_shape(&c, r, requests, &f), -1);
	printf("   caught: %s (%ld, %ld)\n", f.what, f.a, f.b);
	CHECK(strstr(f.what, what) != NULL);
}

/*
 * A broken cluster round of cores 0 and 1 on a fresh record (a completed
 * round leaves it so), each core's call() arguments and request by core:
 * core 0's report is accepted, core 1's must fail with @what.
 */
static const struct broken_pair {
	const char *name, *what;
	int32_t param[2];
	uint32_t gen[2], members[2], root_gen[2];
	int32_t root_param[2], request[2];
} broken[] = {
	{ "split: one core commits the root, the other does not",
	  "split",
	  { 2, 2 },
	  { 10, 10 },
	  { 2, 2 },
	  { 31, 0 },
	  { 1, 0 },
	  { 2, 3 } },
	{ "split: both commit the root, in different rounds",
	  "committed different rounds above",
	  { 2, 2 },
	  { 11, 11 },
	  { 2, 2 },
	  { 31, 32 },
	  { 1, 1 },
	  { 2, 3 } },
	{ "a member missing: the rest complete a round of fewer",
	  "member counts",
	  { 2, 2 },
	  { 16, 16 },
	  { 3, 2 },
	  { 0, 0 },
	  { 0, 0 },
	  { 2, 2 } },
	{ "a wrong parameter: not the reduction of the requests",
	  "reduction",
	  { 3, 3 },
	  { 18, 18 },
	  { 2, 2 },
	  { 0, 0 },
	  { 0, 0 },
	  { 4, 5 } },
	{ "a wrong parameter: the cores saw different ones",
	  "different parameters",
	  { 3, 4 },
	  { 19, 19 },
	  { 2, 2 },
	  { 0, 0 },
	  { 0, 0 },
	  { 3, 4 } },
};

/* Core @i's call of @t. */
static struct coupled_domain_round call_of(const struct broken_pair *t,
					   uint32_t i)
{
	return call(i, i, t->param[i], t->gen[i], t->members[i], t->root_gen[i],
		    t->root_param[i]);
}

int main(void)
{
	static const int32_t req[LEVELS] = { 3, 2 };
	static const int32_t refuse[LEVELS] = { 3, -1 };
	static struct coupled_slot slots[LEVELS][4];
	static struct coupled_group g[LEVELS];
	static struct coupled_domain d[LEVELS];
	struct coupled_domain *node[LEVELS] = { &d[0], &d[1] };
	const uint32_t id[LEVELS] = { 0, 0 };
	uint32_t may[LEVELS] = { 0, 0 };
	struct coupled_domain_round a, b;
	struct domain_oracle_call c;
	struct oracle_failure f;
	size_t i;

	TEST_CASE("a cluster round whose cores both commit the root passes");
	domain_oracle_init(&rec);
	a = call(0, 0, 2, 7, 2, 30, 1);
	b = call(1, 1, 2, 7, 2, 30, 1);
	CHECK_EQ(report(&a, 5), 0);
	CHECK_EQ(report(&b, 2), 1);
	CHECK_EQ(domain_oracle_rounds(&rec), 1);
	CHECK_EQ(domain_oracle_leftover(&rec, &f), 0);

	TEST_CASE("a cluster round whose cores both give the root up passes");
	a = call(0, 1, 4, 8, 2, 0, 0);
	b = call(1, 0, 4, 8, 2, 0, 0);
	CHECK_EQ(report(&a, 4), 0);
	CHECK_EQ(report(&b, 6), 1);
	CHECK_EQ(domain_oracle_rounds(&rec), 2);

	TEST_CASE("a round of one member (the other left) passes");
	a = call(0, 1, 4, 9, 1, 0, 0);
	CHECK_EQ(report(&a, 4), 1);

	for (i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		const struct broken_pair *t = &broken[i];

		TEST_CASE(t->name);
		domain_oracle_reset(&rec);
		a = call_of(t, 0);
		b = call_of(t, 1);
		CHECK_EQ(report(&a, t->request[0]), 0);
		report_fails(&b, t->request[1], t->what);
		domain_oracle_reset(&rec);
		CHECK_EQ(report(&a, t->request[0]), 0);
		CHECK_EQ(domain_oracle_report(&rec, &b, 0, t->request[1],
					      coupled_reduce_min, &f),
			 -1);
		CHECK_EQ(domain_oracle_is_split(&f),
			 !strncmp(t->name, "split", 5));
	}

	TEST_CASE("a member missing: the next round lands on a half record");
	domain_oracle_reset(&rec);
	a = call(0, 0, 2, 12, 2, 0, 0);
	CHECK_EQ(report(&a, 2), 0);
	CHECK_EQ(domain_oracle_leftover(&rec, &f), -1);
	printf("   caught: %s (%ld, %ld)\n", f.what, f.a, f.b);
	CHECK(strstr(f.what, "fewer cores than its members") != NULL);
	a = call(0, 0, 2, 13, 2, 0, 0);
	report_fails(&a, 2, "twice");
	domain_oracle_reset(&rec);
	a = call(0, 0, 2, 14, 2, 0, 0);
	b = call(1, 1, 2, 15, 2, 0, 0);
	CHECK_EQ(report(&a, 2), 0);
	report_fails(&b, 2, "different generations");

	TEST_CASE("a core twice in one round");
	domain_oracle_reset(&rec);
	a = call(0, 1, 3, 20, 2, 0, 0);
	CHECK_EQ(report(&a, 3), 0);
	report_fails(&a, 3, "twice");

	TEST_CASE("more reports than members");
	domain_oracle_reset(&rec);
	a = call(0, 0, 3, 21, 1, 0, 0);
	b = call(1, 1, 3, 21, 1, 0, 0);
	CHECK_EQ(domain_oracle_record(&rec, &a, 0, 3, &f), 1);
	report_fails(&b, 3, "more reports than");

	TEST_CASE("a level that did not commit is not reported");
	domain_oracle_reset(&rec);
	a = call(0, 0, 3, 22, 2, 0, 0);
	CHECK_EQ(domain_oracle_record(&rec, &a, 1, 3, &f), -1);
	CHECK(strstr(f.what, "did not commit") != NULL);

	TEST_CASE("the action once per call");
	a = call(0, 0, 2, 23, 2, 30, 1);
	domain_oracle_call_begin(&c);
	CHECK_EQ(domain_oracle_shape(&c, &a, req, &f), 0);
	CHECK_EQ(domain_oracle_call_end(&c, COUPLED_COMMITTED, &f), 0);
	CHECK_EQ(domain_oracle_shape(&c, &a, req, &f), -1);
	printf("   caught: %s (%ld, %ld)\n", f.what, f.a, f.b);
	CHECK(strstr(f.what, "twice in one call") != NULL);
	domain_oracle_call_begin(&c);
	CHECK_EQ(domain_oracle_call_end(&c, COUPLED_COMMITTED, &f), -1);
	CHECK(strstr(f.what, "action count") != NULL);
	CHECK_EQ(domain_oracle_call_end(&c, COUPLED_ABORT_MEMBERSHIP, &f), 0);
	CHECK_EQ(domain_oracle_shape(&c, &a, req, &f), 0);
	CHECK_EQ(domain_oracle_call_end(&c, COUPLED_ABORT_WORK, &f), -1);
	printf("   caught: %s (%ld, %ld)\n", f.what, f.a, f.b);

	TEST_CASE("malformed outcome vectors");
	a = call(0, 0, 2, 24, 2, 30, 1);
	shape_fails(&a, refuse, "a refused level committed");
	a = call(0, 0, 2, 24, 2, 0, 0);
	shape_fails(&a, refuse, "not reported REFUSED");
	a.level[1].outcome = COUPLED_DOMAIN_REFUSED;
	domain_oracle_call_begin(&c);
	CHECK_EQ(domain_oracle_shape(&c, &a, refuse, &f), 0);
	shape_fails(&a, req, "given up for no reason");
	a.level[1].outcome = COUPLED_DOMAIN_NOT_TRIED;
	shape_fails(&a, req, "given up for no reason");
	a = call(0, 0, 2, 24, 2, 30, 1);
	a.depth = 1;
	shape_fails(&a, req, "above the depth committed");
	a = call(0, 0, 2, 24, 2, 30, 1);
	a.level[1].param = 5;
	shape_fails(&a, req, "differs from its round");
	a = call(0, 0, 2, 24, 2, 30, 1);
	a.depth = 0;
	shape_fails(&a, req, "levels or depth");

	TEST_CASE("the roster: a round has its level's members");
	CHECK_EQ(coupled_group_init(&g[1], slots[1], 4, 4, NULL), 0);
	CHECK_EQ(coupled_group_init(&g[0], slots[0], 2, 2, NULL), 0);
	CHECK_EQ(coupled_domain_init(&d[1], &g[1], NULL), 0);
	CHECK_EQ(coupled_domain_init(&d[0], &g[0], &d[1]), 0);
	a = call(0, 0, 2, 25, 2, 31, 1);
	CHECK_EQ(domain_oracle_roster(&a, node, id, &f), 0);
	CHECK_EQ(coupled_leave(&g[1], 3), 0);
	CHECK_EQ(domain_oracle_roster(&a, node, id, &f), -1);
	printf("   caught: %s (%ld, %ld)\n", f.what, f.a, f.b);
	CHECK(strstr(f.what, "all or none") != NULL);
	CHECK_EQ(coupled_join(&g[1], 3), 0);
	CHECK_EQ(coupled_leave(&g[1], 0), 0);
	CHECK_EQ(domain_oracle_roster(&a, node, id, &f), -1);
	printf("   caught: %s (%ld, %ld)\n", f.what, f.a, f.b);
	CHECK(strstr(f.what, "no member") != NULL);
	a.depth = 1; /* the root not committed: only the cluster counts */
	CHECK_EQ(domain_oracle_roster(&a, node, id, &f), 0);

	TEST_CASE("a level given up says a cause the call had");
	a = call(0, 0, 2, 26, 2, 0, 0);
	CHECK_EQ(domain_oracle_given_up(&a, may, &f), 0); /* CANNOT */
	a.level[1].outcome = COUPLED_ABORT_MEMBERSHIP;
	CHECK_EQ(domain_oracle_given_up(&a, may, &f), -1);
	printf("   caught: %s (%ld, %ld)\n", f.what, f.a, f.b);
	CHECK(strstr(f.what, "no cause") != NULL);
	may[0] = DOMAIN_ORACLE_MAY_CHANGE; /* at the leaf only: no cause */
	CHECK_EQ(domain_oracle_given_up(&a, may, &f), -1);
	may[1] = DOMAIN_ORACLE_MAY_CHANGE;
	CHECK_EQ(domain_oracle_given_up(&a, may, &f), 0);
	a.level[1].outcome = COUPLED_ABORT_TIMEOUT;
	CHECK_EQ(domain_oracle_given_up(&a, may, &f), -1);
	may[1] |= DOMAIN_ORACLE_MAY_DEADLINE;
	CHECK_EQ(domain_oracle_given_up(&a, may, &f), 0);
	a.level[1].outcome = COUPLED_ABORT_WORK;
	CHECK_EQ(domain_oracle_given_up(&a, may, &f), -1);
	a.level[1].outcome = COUPLED_ABORT_CALLER;
	CHECK_EQ(domain_oracle_given_up(&a, may, &f), -1);
	a.level[1].outcome = COUPLED_ENOENT;
	CHECK_EQ(domain_oracle_given_up(&a, may, &f), -1);
	printf("   caught: %s (%ld, %ld)\n", f.what, f.a, f.b);
	CHECK(strstr(f.what, "unknown code") != NULL);

	printf("OK: the domain oracle passes rounds that held and catches "
	       "each broken one\n");
	return 0;
}

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * torture.c - the bare-metal torture image: every core of the board runs
 * coupled rounds until TORTURE_ROUNDS rounds have committed.
 *
 * Each call picks a random request and, at random, arms an abort: pending
 * work (the adapter's work hook) or the caller's own check, each firing
 * after a random number of polls.  Every committed round is checked inside
 * its action by the per-round oracle (oracle.h): each member records itself
 * in the round's record, votes (a barrier inside) and records the vote's
 * outcome; after a last barrier each member checks that exactly the
 * round's members ran it, once each, that the parameter is the minimum of
 * their requests, and that everyone got the same vote; the last member to
 * finish its checks clears the record.
 * The last core leaves the group three times during the run and rejoins
 * after the others committed TORTURE_ABSENT rounds without it.  Every
 * 1024th round, each member tries to leave from inside the action, which
 * must be refused with COUPLED_EPERM (the core names itself by its MPIDR;
 * the check would otherwise wait for itself forever).  The group
 * starts at generation TORTURE_START_GEN, by default half the run before
 * the 32-bit wrap, so every run crosses it.
 *
 * The random streams come from TORTURE_SEED, or from the generic timer
 * when it is 0 (the default); the seed is printed to repeat a run.
 * Core 0 prints one verdict line, "torture: PASS ..." or "torture: FAIL
 * ...", and exits through the board (semihosting: the exit status is the
 * verdict).  Built with -DTORTURE_SGI=1 the group waits in WFI and wakes
 * with a GIC SGI, otherwise in WFE with SEV.  Both run the settled protocol;
 * built with -DCOUPLED_ARM_WFE_ONLY=1 (WFE only) the adapter's wake-ups
 * cannot be lost and the group runs the direct protocol.  The verdict line
 * names the protocol.
 *
 * The same source runs on the host against a strict model of the event
 * register and the GIC (tests/adapters/baremetal-arm/event_model/), where a lost wake-up
 * leaves every core asleep and fails, and on the RISC-V board
 * (tests/adapters/baremetal-riscv/board/): a board that defines
 * BOARD_TORTURE_PORT names a header with its adapter's calls (below).
 * Built with -DTORTURE_WRONG_REDUCE=1 the group reduces with max while the
 * oracle expects min: the run must fail (the checks can fail).  A port may
 * give core c another participant id, TORTURE_ID_OF(c) (the RISC-V one
 * does with -DTORTURE_SCRAMBLE=1, so that no participant's id is its hart).
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "board.h"

/* Count the sleeps in the wait for a round: proof that the cores really rested. */
static atomic_uint torture_sleeps[BOARD_MAX_CPUS];
#define COUPLED_HOOK(group, self, point)                                     \
	((void)(group),                                                      \
	 (point) == COUPLED_HOOK_WAIT_SLEEP && (self) < BOARD_MAX_CPUS       \
		 ? (void)atomic_fetch_add_explicit(&torture_sleeps[(self)],  \
						   1u, memory_order_relaxed) \
		 : (void)0)

#include "coupled/coupled.h"
#include "oracle.h"

#ifndef TORTURE_ROUNDS
#define TORTURE_ROUNDS 100000u
#endif
#ifndef TORTURE_ABSENT
#define TORTURE_ABSENT 500u
#endif
#ifndef TORTURE_SGI
#define TORTURE_SGI 0
#endif
#ifndef TORTURE_WRONG_REDUCE
#define TORTURE_WRONG_REDUCE 0
#endif
#if TORTURE_SGI && COUPLED_ARM_WFE_ONLY
#error "TORTURE_SGI needs the WFI strategy, which COUPLED_ARM_WFE_ONLY leaves out"
#endif
/* The group starts this many generations before the 32-bit wrap. */
#ifndef TORTURE_START_GEN
#define TORTURE_START_GEN (0xffffffffu - TORTURE_ROUNDS / 2u)
#endif
/* 0: seed from the generic timer at start-up (printed, so a run repeats). */
#ifndef TORTURE_SEED
#define TORTURE_SEED 0u
#endif
#ifndef BOARD_GICD_BASE
#define BOARD_GICD_BASE 0x08000000u /* QEMU virt's GICv2 distributor */
#endif

/* The SGI that wakes a core of the WFI strategy (any of 0..15). */
#ifndef TORTURE_WAKE_SGI
#define TORTURE_WAKE_SGI 1u
#endif

/* Start-up and end-of-run waits of the application itself. */
#ifndef APP_WFE
#define APP_WFE() __asm__ __volatile__("wfe" ::: "memory")
#define APP_SEV() __asm__ __volatile__("dsb sy\n\tsev" ::: "memory")
#endif

#ifdef BOARD_TORTURE_PORT
/* Another architecture's adapter calls, named by its board.h. */
#include BOARD_TORTURE_PORT
#else
/* The bare-metal ARM adapter's calls. */
#define TORTURE_YIELD() COUPLED_ARM_YIELD()
#define torture_set_work_hook coupled_arm_set_work_hook
#define TORTURE_STRATEGY (TORTURE_SGI ? "wfi-sgi" : "wfe-sev")

/* The WFI strategy with the GIC's SGIs (TORTURE_SGI); 0 or an error. */
static int torture_setup_wake(struct coupled_group *g, uint32_t n)
{
	struct coupled_arm_ipi ipi = { 0 };
	uint32_t i;

	if (!TORTURE_SGI)
		return 0;
#ifdef BOARD_SGI_SEND_HOOK
	ipi.send = BOARD_SGI_SEND_HOOK; /* the host model */
#endif
	ipi.gicd_base = BOARD_GICD_BASE;
	ipi.sgi_id = TORTURE_WAKE_SGI;
	if (coupled_arm_set_wfi_sgi(coupled_group_adapter(g), &ipi) != 0)
		return -1;
	for (i = 0; i < n; i++)
		if (coupled_arm_set_gic_target(coupled_participant_adapter(g,
									   i),
					       board_gic_cpu_interface(i)) != 0)
			return -1;
	return 0;
}
#endif
#include "../../baremetal-common/torture_common.h"

/*
 * The participant id of board core @cpu: the core itself, unless the port
 * scrambles the map (its torture_setup_wake() then names the same map).
 */
#ifndef TORTURE_ID_OF
#define TORTURE_ID_OF(cpu) (cpu)
#endif

/* APP_SEV() and APP_WFE() as functions, for torture_start(). */
static void app_sev(void)
{
	APP_SEV();
}

static void app_wfe(void)
{
	APP_WFE();
}

struct core {
	uint32_t id;
	uint64_t rng;
	int32_t request;
	/* Armed aborts of the current call: fire when the count reaches 0. */
	bool work_armed, caller_armed;
	uint32_t work_polls, caller_polls;
	/* Written by this core only; read by core 0 after the finish. */
	uint32_t calls, commits, actions, vote_aborts, leaves, joins;
	uint32_t results[COUPLED_ABORT_REASONS];
	bool stop;
	uint32_t last_index;
} __attribute__((aligned(64)));

static struct coupled_group group;
static struct coupled_slot slots[BOARD_MAX_CPUS];
static struct core cores[BOARD_MAX_CPUS];
static struct oracle_round the_round; /* the round in flight */
static atomic_uint round_index;   /* committed-round number, set by the first */
static atomic_uint rounds_done;   /* committed rounds so far */
static atomic_uint actions_total; /* sum of the members of every round */
static atomic_uint started, finished;
static atomic_uint sgis_taken[BOARD_MAX_CPUS];
static uint32_t ncpus;
static uint64_t seed;

static __attribute__((noreturn)) void fail(uint32_t cpu, const char *what,
					   uint64_t a, uint64_t b)
{
	torture_fail("torture", cpu, what, a, b, seed);
}

static uint32_t rnd(struct core *c, uint32_t bound)
{
	return torture_rnd(&c->rng, bound);
}

/* An armed abort fires once its poll count has run out. */
static bool fires(bool armed, uint32_t *polls)
{
	if (!armed)
		return false;
	if (*polls == 0)
		return true;
	(*polls)--;
	return false;
}

/* The adapter's work hook: "work" arrives after a random number of polls. */
static bool work_pending(void *arg, uint32_t self)
{
	struct core *c = &((struct core *)arg)[self];

	return fires(c->work_armed, &c->work_polls);
}

static bool caller_abort(void *arg, uint32_t self)
{
	struct core *c = (struct core *)arg;

	(void)self;
	return fires(c->caller_armed, &c->caller_polls);
}

/* The BSP calls this for every interrupt it acknowledged. */
void board_on_irq(uint32_t cpu, uint32_t irq_id)
{
	if (irq_id == TORTURE_WAKE_SGI && cpu < BOARD_MAX_CPUS)
		/* relaxed: a statistic, read after the finish. */
		atomic_fetch_add_explicit(&sgis_taken[cpu], 1u,
					  memory_order_relaxed);
}

/* A failed oracle check: the verdict line names it, with its two values. */
static __attribute__((noreturn)) void
round_failed(uint32_t cpu, const struct oracle_failure *f)
{
	fail(cpu, f->what, (uint64_t)f->a, (uint64_t)f->b);
}

/*
 * The action: record, vote (a barrier), record the vote, barrier, check,
 * the last one clears.  The record's atomics are relaxed (oracle.h): the
 * last barrier (acq_rel arrival, release flip, acquire wait) orders every
 * member's record and vote before every check, oracle_done() every check
 * before the clear, and the next round commits only after every member of
 * this one has exited (the word's release/acquire), or after a membership
 * change drained it.
 */
static void action(const struct coupled_round *r, void *ctx)
{
	struct core *c = (struct core *)ctx;
	struct oracle_round *rec = &the_round;
	struct oracle_failure f;
	uint32_t order, idx;
	int v;
	bool want;

	if (r->self != c->id || r->members == 0 || r->members > ncpus)
		fail(c->id, "bad round", r->self, r->members);

	if (oracle_record(rec, r, c->request, &order, &f) != 0)
		round_failed(c->id, &f);
	if (order == 0u) {
		/*
		 * The first one numbers the round.  relaxed, all three: the
		 * vote's barrier below orders the index before the others
		 * read it; the two counts are read after the finish.
		 */
		atomic_store_explicit(
			&round_index,
			atomic_fetch_add_explicit(&rounds_done, 1u,
						  memory_order_relaxed),
			memory_order_relaxed);
		atomic_fetch_add_explicit(&actions_total, r->members,
					  memory_order_relaxed);
	}
	c->actions++;

	want = rnd(c, 16) == 0;
	v = coupled_vote(r, want);
	if (v != 0 && v != 1)
		fail(c->id, "vote refused", (uint64_t)v, 0);
	if (want && v != 1)
		fail(c->id, "own abort vote lost", r->generation, 0);
	oracle_vote(rec, v);
	if (v)
		c->vote_aborts++;
	/* relaxed: ordered by the vote's barrier (above). */
	idx = atomic_load_explicit(&round_index, memory_order_relaxed);
	c->last_index = idx;
#if COUPLED_ADAPTER_HAS_CONTEXT
	/* Leaving from inside the action would wait for itself: refused. */
	if ((idx & 1023u) == 0u &&
	    coupled_leave(r->group, r->self) != COUPLED_EPERM)
		fail(c->id, "leave from inside an action not refused", idx, 0);
#endif
	/* All members see the same index, so all stop after the same round. */
	c->stop = idx + 1u >= TORTURE_ROUNDS;
	if (coupled_barrier(r) != 0)
		fail(c->id, "barrier refused", r->generation, 0);
	if (oracle_check(rec, coupled_reduce_min, &f) != 0)
		round_failed(c->id, &f);
	if (oracle_done(rec, r))
		oracle_reset(rec);
}

/* The leaving core: leave now, come back after TORTURE_ABSENT rounds. */
static void leave_and_rejoin(struct core *c)
{
	uint32_t from =
		atomic_load_explicit(&rounds_done, memory_order_relaxed);
	int rc = coupled_leave(&group, c->id);

	if (rc != 0)
		fail(c->id, "leave failed", (uint64_t)-rc, 0);
	c->leaves++;
	if (coupled_is_member(&group, c->id))
		fail(c->id, "still a member after leave", 0, 0);
	/* relaxed: a progress count only; YIELD lets the others run. */
	while (atomic_load_explicit(&rounds_done, memory_order_relaxed) - from <
	       TORTURE_ABSENT)
		TORTURE_YIELD();
	rc = coupled_join(&group, c->id);
	if (rc != 0)
		fail(c->id, "join failed", (uint64_t)-rc, 0);
	c->joins++;
}

static void run(struct core *c)
{
	const uint32_t leaver = ncpus - 1u;
	uint32_t next_leave = TORTURE_ROUNDS / 8u;
	struct coupled_abort_opts opts = { 0, caller_abort, c };

	while (!c->stop) {
		int rc;

		c->request = (int32_t)rnd(c, 8);
		c->work_armed = rnd(c, 32) == 0;
		c->work_polls = rnd(c, 64);
		c->caller_armed = rnd(c, 32) == 0;
		c->caller_polls = rnd(c, 64);
		c->calls++;
		rc = coupled_enter_opts(&group, c->id, c->request, action, c,
					&opts);
		if (rc < 0 || rc >= COUPLED_ABORT_REASONS)
			fail(c->id, "enter returned an error", (uint64_t)-rc,
			     0);
		c->results[rc]++;
		if (rc != COUPLED_COMMITTED)
			TORTURE_YIELD(); /* as firmware would do its work */
		if (rc == COUPLED_COMMITTED) {
			c->commits++;
			if (c->id == leaver && ncpus > 1 && !c->stop &&
			    c->last_index >= next_leave &&
			    next_leave < TORTURE_ROUNDS * 5u / 8u + 1u) {
				leave_and_rejoin(c);
				next_leave += TORTURE_ROUNDS / 4u;
			}
		}
	}
}

static void report(uint64_t ticks)
{
	struct coupled_stats st;
	uint32_t i, calls = 0, commits = 0, actions = 0, votes = 0;
	uint32_t leaves = 0, joins = 0, sleeps = 0, sgis = 0;
	uint32_t results[COUPLED_ABORT_REASONS] = { 0 };
	/*
	 * relaxed, every load here: the acquire of every core's finish
	 * increment (app_main) ordered all their writes before us.
	 */
	uint32_t done =
		atomic_load_explicit(&rounds_done, memory_order_relaxed);
	uint32_t expect_leaves = ncpus > 1 ? 3u : 0u;
	int r;

	for (i = 0; i < ncpus; i++) {
		struct core *c = &cores[i];

		if (c->actions != c->commits)
			fail(i, "actions != committed calls", c->actions,
			     c->commits);
		calls += c->calls;
		commits += c->commits;
		actions += c->actions;
		votes += c->vote_aborts;
		leaves += c->leaves;
		joins += c->joins;
		for (r = 0; r < COUPLED_ABORT_REASONS; r++)
			results[r] += c->results[r];
		sleeps += atomic_load_explicit(&torture_sleeps[i],
					       memory_order_relaxed);
		sgis += atomic_load_explicit(&sgis_taken[i],
					     memory_order_relaxed);
	}
	if (done < TORTURE_ROUNDS)
		fail(0, "too few rounds", done, TORTURE_ROUNDS);
	if (actions !=
	    atomic_load_explicit(&actions_total, memory_order_relaxed))
		fail(0, "actions != sum of round members", actions,
		     atomic_load_explicit(&actions_total,
					  memory_order_relaxed));
	if (leaves != expect_leaves || joins != expect_leaves)
		fail(0, "membership changes missing", leaves, joins);
	if (coupled_group_members(&group) != ncpus)
		fail(0, "members at the end", coupled_group_members(&group),
		     ncpus);
	if (coupled_stats_read(&group, &st) != 0 || st.commits != commits)
		fail(0, "library statistics disagree", st.commits, commits);
	if (TORTURE_SGI && ncpus > 1 && sgis == 0)
		fail(0, "no wake SGI was ever taken", 0, 0);
	/* The direct protocol has no ready phase to back out of or restart. */
	if (!COUPLED_PROTOCOL_SETTLED && (st.retries != 0 || st.restarts != 0))
		fail(0, "retries or restarts in the direct protocol",
		     st.retries, st.restarts);

	print_begin();
	board_puts("torture: PASS arch=" TORTURE_ARCH " atomics"
		   "=" TORTURE_ATOMICS " str"
		   "ateg"
		   "y=");
	board_puts(TORTURE_STRATEGY);
	board_puts(" protocol=" COUPLED_PROTOCOL_NAME);
	put_kv("cpus", ncpus);
	put_kv("rounds", done);
	put_kv("actions", actions);
	put_kv("calls", calls);
	put_kv("abort_work", results[COUPLED_ABORT_WORK]);
	put_kv("abort_caller", results[COUPLED_ABORT_CALLER]);
	put_kv("abort_membership", results[COUPLED_ABORT_MEMBERSHIP]);
	put_kv("retries", st.retries);
	put_kv("restarts", st.restarts);
	put_kv("vote_aborts", votes);
	put_kv("leaves", leaves);
	put_kv("joins", joins);
	put_kv("sleeps", sleeps);
	put_kv("sgis", sgis);
	put_kv("ticks", ticks);
	put_kv("freq", board_counter_freq());
	put_kv("seed", seed);
	put_kv("gen_start", TORTURE_START_GEN);
	/* relaxed: ordered as the loads above (the finish increments). */
	put_kv("gen_end", coupled_load(&group.round_gen, COUPLED_RELAXED));
	board_puts("\n");
	print_end();
}

void app_main(uint32_t cpu)
{
	struct core *c = &cores[TORTURE_ID_OF(cpu)];
	uint64_t t0;

	c->id = TORTURE_ID_OF(cpu);
	if (cpu == 0) {
		struct coupled_adapter_group *ag;

		seed = TORTURE_SEED ? TORTURE_SEED : board_counter();
		ncpus = board_cpu_count();
		oracle_init(&the_round); /* published by "started" below */
		if (ncpus == 0 || ncpus > BOARD_MAX_CPUS)
			fail(0, "bad cpu count", ncpus, BOARD_MAX_CPUS);
#if TORTURE_WRONG_REDUCE
		/* A wrong reduction: the oracle must catch it. */
		if (coupled_group_init(&group, slots, ncpus, ncpus,
				       coupled_reduce_max) != 0)
#else
		if (coupled_group_init(&group, slots, ncpus, ncpus, NULL) != 0)
#endif
			fail(0, "group init", 0, 0);
		/* Halfway through the run the generation wraps. */
		if (coupled_group_set_generation(&group, TORTURE_START_GEN) !=
		    0)
			fail(0, "set generation", 0, 0);
		ag = coupled_group_adapter(&group);
		if (torture_set_work_hook(ag, work_pending, cores) != 0)
			fail(0, "work hook", 0, 0);
		if (torture_setup_wake(&group, ncpus) != 0)
			fail(0, "wake strategy", 0, 0);
		print_begin();
		board_puts("torture: start cpus=");
		board_put_u64(ncpus);
		board_puts(" strategy=");
		board_puts(TORTURE_STRATEGY);
		board_puts(" rounds=");
		board_put_u64(TORTURE_ROUNDS);
		board_puts(" protocol=" COUPLED_PROTOCOL_NAME);
		print_start_end(seed);
	}
	/* Core 0 publishes the group, ncpus and seed. */
	torture_start(&started, cpu == 0, app_sev, app_wfe);
	c->rng = torture_rng_seed(seed, cpu);
	if (TORTURE_SGI)
		board_irq_enable(); /* the BSP's handler acknowledges the SGIs */

	t0 = board_counter();
	run(c);

	/* release: publishes this core's counters to core 0. */
	atomic_fetch_add_explicit(&finished, 1u, memory_order_release);
	APP_SEV();
	if (cpu != 0)
		return;
	/* acquire: pairs with every core's release increment. */
	while (atomic_load_explicit(&finished, memory_order_acquire) < ncpus)
		APP_WFE();
	report(board_counter() - t0);
	board_exit(0);
}

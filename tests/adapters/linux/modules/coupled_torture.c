// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * coupled_torture.c - torture test of the coupled rendezvous in a kernel.
 *
 * In the spirit of locktorture: one per-CPU kthread (smpboot, so it parks
 * while its CPU is offline) enters one shared group over and over, each time
 * with interrupts disabled as cpuidle would, with a random request and, at
 * the given rate, a caller abort that fires after a random number of polls.
 * The adapter's real abort sources (need_resched(), membership changes) add
 * their own.  A separate kthread takes random CPUs offline and online again;
 * a cpuhp state makes each CPU join the group when it comes online and leave
 * it when it goes offline.
 *
 * Every committed round is checked inside its action by the per-round
 * oracle (oracle.h): each member records itself and its request in the
 * round's record and arrives at a barrier (every eighth round also holds a
 * vote, records its outcome and arrives at another); then every member
 * checks that the round's members ran the action, once each, that they are
 * exactly the current members, that the round's parameter is the minimum
 * of their requests and that all members saw the same vote outcome.  At the end each CPU must have run the action exactly as often as
 * its calls returned COUPLED_COMMITTED, and every hotplug operation must
 * have left the membership matching the CPU's state.
 *
 * One verdict line goes to the kernel log:
 *   coupled_torture: verdict PASS rounds=... full=... aborts=... restarts=...
 *   retries=... hotplug=... refused=... cpus=... protocol=settled
 *   generations=first..last errors=0 ms=...
 * (full: rounds in which every possible CPU took part; protocol: the core's
 * variant, COUPLED_PROTOCOL_NAME, settled for this adapter).
 *
 * Parameters: rounds, abort_pct, churn (committed rounds between two
 * hotplug operations, 0 for none), timeout_s (watchdog), wrong_reduce
 * (test of the test: the group reduces with max, the checks expect min),
 * start_gen (the generation the group starts at; by default 1000 rounds
 * before the 32-bit wrap, so that every run crosses it with hotplug joins
 * going on).
 */
#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#define TEST_NAME "coupled_torture"
#define TEST_PERCPU_RUN
#include "test_module.h"

#define COUPLED_STATS 1
#include "coupled/coupled.h"
#include "oracle.h"

TEST_PARAM_ULONG(rounds, 100000, "committed rounds to run (default 100000)");
TEST_PARAM_UINT(abort_pct, 5, "percent of calls with a random caller abort");
TEST_PARAM_UINT(churn, 1000,
		"committed rounds between hotplug operations (0: none)");
TEST_PARAM_TIMEOUT(150);
TEST_PARAMS_WRAP(1000, "reduce with max");

#define MAX_IDS 32u /* the action collects members in a 32-bit mask */
#define RING 4u     /* round records, indexed by generation */
#define REQUESTS 8u /* requests are 0..REQUESTS-1 */

struct worker {
	struct rnd_state rng;
	int request;
	struct test_abort ab;
	u32 last_gen;
	unsigned long calls, commits, actions, enoent;
	unsigned long results[COUPLED_ABORT_REASONS];
};

static struct coupled_group grp;
static struct coupled_slot *slots;
static struct worker *workers;
static struct oracle_round ring[RING];
static atomic_long_t committed = ATOMIC_LONG_INIT(0);
static atomic_long_t full_rounds = ATOMIC_LONG_INIT(0); /* all CPUs in it */
static unsigned int nr_possible;

/**
 * fail() - record a failed check
 * @what: a static description
 * @a: first value to print
 * @b: second value to print
 *
 * Context: any (may run with interrupts disabled); prints only the first
 * few failures.
 */
static void fail(const char *what, long a, long b)
{
	test_count_fail(what, a, b);
}

/**
 * torture_action() - the shared action: check the round
 * @r: the round
 * @ctx: the calling CPU's struct worker
 *
 * Context: interrupts disabled; run by every member of a committed round.
 */
static void torture_action(const struct coupled_round *r, void *ctx)
{
	struct worker *w = ctx;
	struct oracle_round *rec = &ring[r->generation % RING];
	struct oracle_failure f;
	u32 mask = 0, expect = 0, i;
	int lowest;

	w->actions++;
	/* Serial-number order: generations wrap at 2^32. */
	if ((s32)(r->generation - w->last_gen) <= 0)
		fail("generation not increasing", r->generation, w->last_gen);
	w->last_gen = r->generation;
	if (oracle_record(rec, r, w->request, NULL, &f))
		fail(f.what, f.a, f.b);
	/* The barrier's acq_rel increment publishes the record above. */
	coupled_barrier(r);
	if ((r->generation & 7u) == 0) {
		int v = coupled_vote(r, prandom_u32_state(&w->rng) % 4 == 0);

		oracle_vote(rec, v);
		coupled_barrier(r);
	}

	if (oracle_check(rec, coupled_reduce_min, &f))
		fail(f.what, f.a, f.b);
	for (i = 0; i < grp.capacity; i++) {
		if (coupled_is_member(&grp, i))
			expect |= BIT(i);
		if (oracle_ran(rec, i))
			mask |= BIT(i);
	}
	if (mask != expect)
		fail("round ran by a set other than the members", mask, expect);
	/* Nobody reads the record after this barrier. */
	coupled_barrier(r);
	lowest = mask ? __ffs(mask) : -1;
	if (lowest == (int)r->self) {
		oracle_reset(rec);
		if (r->members == nr_possible)
			atomic_long_inc(&full_rounds);
		if (atomic_long_inc_return(&committed) >= (long)rounds)
			finish();
	}
}

/**
 * torture_safe_state() - the safe state: wait for the next interrupt
 * @arg: unused
 *
 * Context: interrupts disabled on entry and on return.  The adapter's
 * coupled_linux_wait_for_interrupt() ("sti; hlt" on x86, "wfi" and an
 * instant of open interrupts on ARM) returns at once on a pending poke IPI
 * and takes it, so no wake-up is lost; an idle vCPU also lets the others
 * run under emulation.
 */
static void torture_safe_state(void *arg)
{
	(void)arg;
	coupled_linux_wait_for_interrupt();
}

/**
 * test_is_member() - is a CPU a member of the group?
 * @cpu: the CPU
 *
 * Return: true if it is (a snapshot).
 */
static bool test_is_member(unsigned int cpu)
{
	return coupled_is_member(&grp, cpu);
}

/**
 * test_call() - one call of this CPU, with a random request and abort
 * @cpu: the CPU (its id in the group)
 *
 * The call runs with interrupts disabled, as cpuidle would call it.
 *
 * Context: the CPU's torture kthread.
 * Return: false if the CPU is not a member.
 */
static bool test_call(unsigned int cpu)
{
	struct worker *w = &workers[cpu];
	struct coupled_abort_opts opts = {
		.should_abort = test_should_abort,
		.abort_arg = &w->ab,
	};
	int rc;

	w->request = (int)(prandom_u32_state(&w->rng) % REQUESTS);
	test_abort_arm(&w->ab, &w->rng, abort_pct);
	local_irq_disable();
	rc = coupled_enter_opts(&grp, cpu, w->request, torture_action, w,
				&opts);
	local_irq_enable();
	w->calls++;
	if (rc == COUPLED_COMMITTED)
		w->commits++;
	else if (rc > 0 && rc < (int)COUPLED_ABORT_REASONS)
		w->results[rc]++;
	else if (rc == COUPLED_ENOENT)
		w->enoent++;
	else
		fail("unexpected result", rc, cpu);
	return rc != COUPLED_ENOENT;
}

/* cpuhp: a CPU coming online joins the group, one going offline leaves. */
static int test_join(unsigned int cpu)
{
	return coupled_join(&grp, cpu);
}

static int test_leave(unsigned int cpu)
{
	return coupled_leave(&grp, cpu);
}

/**
 * torture_hotplug_fn() - the hotplug churn thread
 * @arg: unused
 *
 * Every @churn committed rounds, takes a random hotpluggable CPU offline,
 * checks that it left the group, brings it back and checks that it joined.
 *
 * Context: kthread, sleeps.
 * Return: 0.
 */
static int torture_hotplug_fn(void *arg)
{
	struct rnd_state rng;

	(void)arg;
	prandom_seed_state(&rng, 0x5eedULL);
	while (!atomic_read(&done) && !kthread_should_stop()) {
		/* Rounds without the CPU are cheap: keep the absence short. */
		if (!test_hotplug_cycle(&rng, nr_cpu_ids, &committed,
					(long)churn, (long)(churn / 16 + 1),
					false))
			break;
	}
	return test_hotplug_idle();
}

/**
 * coupled_torture_init() - run the whole torture test and print the verdict
 *
 * Context: insmod; blocks (interruptibly) until the run ends.
 * Return: 0 once the verdict is printed (PASS or FAIL), or a negative errno
 * if the test could not be set up.
 */
static int __init coupled_torture_init(void)
{
	struct coupled_stats st;
	unsigned long start = jiffies, aborts = 0, ms;
	unsigned int cpu, r;
	long left;
	bool timed_out = false;
	int ret;

	if (nr_cpu_ids > MAX_IDS || !rounds) {
		pr_err("coupled_torture: verdict FAIL setup: nr_cpu_ids %u > "
		       "%u or rounds 0\n",
		       nr_cpu_ids, MAX_IDS);
		return -EINVAL;
	}
	nr_possible = num_possible_cpus();
	slots = kcalloc(nr_cpu_ids, sizeof(*slots), GFP_KERNEL);
	workers = kcalloc(nr_cpu_ids, sizeof(*workers), GFP_KERNEL);
	if (!slots || !workers) {
		ret = -ENOMEM;
		goto free;
	}
	ret = coupled_group_init(&grp, slots, nr_cpu_ids, 0,
				 wrong_reduce ? coupled_reduce_max : NULL);
	if (ret) {
		ret = -EINVAL;
		goto free;
	}
	coupled_linux_set_safe_state(coupled_group_adapter(&grp),
				     torture_safe_state, NULL);
	/* Start close to the wrap, so that the run crosses it. */
	if (coupled_group_set_generation(&grp, start_gen)) {
		ret = -EINVAL;
		goto free;
	}
	for_each_possible_cpu(cpu)
	{
		prandom_seed_state(&workers[cpu].rng, 0xc0ff1eULL + cpu);
		workers[cpu].last_gen = start_gen;
	}
	/* Published to the threads by their creation below. */
	for (r = 0; r < RING; r++)
		oracle_init(&ring[r]);

	ret = test_setup_threads("coupled/torture:online", "coupled_torture/"
							   "%u");
	if (ret)
		goto free;
	left = test_run(churn && num_online_cpus() > 1 ? torture_hotplug_fn
						       : NULL,
			"coupled_torture_hp", timeout_s * HZ);
	if (left <= 0) {
		timed_out = true;
		fail("watchdog: no completion in time", left,
		     atomic_long_read(&committed));
		pr_err("coupled_torture: verdict FAIL timeout rounds=%ld "
		       "errors=%d\n",
		       atomic_long_read(&committed), atomic_read(&errors));
	}
	ms = jiffies_to_msecs(jiffies - start);

	for_each_possible_cpu(cpu)
	{
		struct worker *w = &workers[cpu];

		if (w->actions != w->commits)
			fail("actions != committed calls", w->actions,
			     w->commits);
		for (r = 1; r < COUPLED_ABORT_REASONS; r++)
			aborts += w->results[r];
		pr_info("coupled_torture: cpu%u calls=%lu commits=%lu work=%lu "
			"membership=%lu caller=%lu notmember=%lu\n",
			cpu, w->calls, w->commits,
			w->results[COUPLED_ABORT_WORK],
			w->results[COUPLED_ABORT_MEMBERSHIP],
			w->results[COUPLED_ABORT_CALLER], w->enoent);
	}
	if (coupled_group_members(&grp) != 0)
		fail("members left after teardown", coupled_group_members(&grp),
		     0);
	memset(&st, 0, sizeof(st));
	(void)coupled_stats_read(&grp, &st);
	if (!timed_out && atomic_long_read(&committed) < (long)rounds)
		fail("fewer rounds than asked", atomic_long_read(&committed),
		     rounds);
	pr_info("coupled_torture: verdict %s rounds=%ld full=%ld aborts=%lu "
		"restarts=%u retries=%u hotplug=%lu refused=%lu cpus=%u "
		"protocol=%s generations=%u..%u errors=%d ms=%lu%s\n",
		test_verdict(), atomic_long_read(&committed),
		atomic_long_read(&full_rounds), aborts, st.restarts, st.retries,
		hotplug_cycles, hotplug_refused, num_online_cpus(),
		COUPLED_PROTOCOL_NAME, start_gen,
		coupled_load(&grp.round_gen, COUPLED_RELAXED),
		atomic_read(&errors), ms,
		wrong_reduce ? " (wrong_reduce)" : "");
	return 0;

free:
	kfree(workers);
	kfree(slots);
	workers = NULL;
	slots = NULL;
	return test_setup_failed(ret);
}

/**
 * coupled_torture_exit() - free the group once its IPIs are done
 *
 * Context: rmmod.
 */
static void __exit coupled_torture_exit(void)
{
	unsigned int i;

	/* Every poke IPI has run before the slots go away. */
	for (i = 0; slots && i < grp.capacity; i++)
		coupled_linux_slot_quiesce(
			coupled_participant_adapter(&grp, i));
	kfree(workers);
	kfree(slots);
}

module_init(coupled_torture_init);
module_exit(coupled_torture_exit);
MODULE_DESCRIPTION("torture test of the coupled rendezvous with CPU hotplug");
MODULE_LICENSE("Dual MIT/GPL");

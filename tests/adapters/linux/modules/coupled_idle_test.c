// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * coupled_idle_test.c - a test cpuidle driver with coupled states.
 *
 * Registers a cpuidle driver with a safe state (state 0, "halt") and two
 * coupled states (1 and 2) whose ->enter is coupled_cpuidle_enter(): the
 * CPUs of a cluster (cluster_size consecutive CPUs) enter them only all
 * together, with the shallowest of the indices their governors chose.  The
 * coupled callback is shaped like a Tegra/OMAP driver: every CPU but the
 * cluster's first marks itself down, a barrier, the first CPU checks that it
 * is the last one up ("cpu 0 powers down last"), and a vote may abort the
 * state on all CPUs together.  Each round is checked as in coupled_torture
 * (exactly the members ran it, once each, with the minimum request).
 *
 * The test lets the idle loop run until every cluster committed `target`
 * rounds, takes the last CPU offline and checks that its cluster goes on
 * without it, brings it back and checks that it takes part again, prints
 * per-CPU entry counts of each state, unregisters the driver and then the
 * CPUs in a scrambled order, checking that each cluster's group is freed
 * exactly when its last CPU unregisters.  One verdict line:
 *   coupled_idle_test: verdict PASS cpus=... clusters=... rounds=... errors=0
 * If the kernel refuses the driver (another cpuidle driver is registered,
 * cpuidle disabled) the verdict is FAIL with the reason.
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#define TEST_NAME "coupled_idle_test"
#include "test_module.h"

#include <coupled/linux/cpuidle.h>

TEST_PARAM_UINT(cluster_size, 2, "CPUs per cluster (consecutive ids)");
TEST_PARAM_ULONG(target, 100, "committed rounds per cluster and phase");
TEST_PARAM_UINT(abort_pct, 10, "percent of votes to abort the coupled state");
TEST_PARAM_UINT(timeout_s, 20, "watchdog per phase, seconds");

#define MAX_IDS 32u
#define RING 4u

struct round_rec {
	atomic_t count;
	atomic_t mask;
	atomic_t down;
	int req[MAX_IDS];
	int vote[MAX_IDS];
};

struct test_cluster {
	struct round_rec ring[RING];
	atomic_long_t rounds;
};

struct test_cpu {
	struct rnd_state rng;
	int request;
	unsigned long enter[3]; /* ->enter calls per state index */
	unsigned long actions, voted_aborts;
};

static struct coupled_cpuidle cc;
static struct test_cluster *tclusters;
static struct test_cpu *tcpus;
static unsigned int nr_clusters;

static const char *first_what;
static long first_a, first_b;

/**
 * fail() - record a failed check
 * @what: a static description
 * @a: first value to report
 * @b: second value to report
 *
 * Only records (the first failure's details are printed with the verdict):
 * the checks run inside ->enter, where RCU is not watching and printing is
 * not allowed.
 *
 * Context: any, including cpuidle ->enter.
 */
static void fail(const char *what, long a, long b)
{
	if (atomic_inc_return(&errors) == 1) {
		first_a = a;
		first_b = b;
		WRITE_ONCE(first_what, what);
	}
}

/**
 * test_cluster_of() - the cluster of a CPU
 * @cpu: a possible CPU
 *
 * Return: @cpu / cluster_size.
 */
static int test_cluster_of(unsigned int cpu)
{
	return (int)(cpu / cluster_size);
}

/**
 * test_safe_state() - wait for the next interrupt
 * @arg: unused
 *
 * Context: cpuidle, interrupts disabled on entry and on return; the
 * adapter's coupled_linux_wait_for_interrupt() ("sti; hlt", ARM "wfi")
 * returns at once on a pending interrupt, in particular a poke, and takes it.
 */
static void test_safe_state(void *arg)
{
	(void)arg;
	coupled_linux_wait_for_interrupt();
}

/**
 * test_enter_safe() - ->enter of state 0, the safe state
 * @dev: this CPU's device
 * @drv: the driver (unused)
 * @index: 0
 *
 * Context: cpuidle, interrupts disabled on entry and on return.
 * Return: @index.
 */
static int test_enter_safe(struct cpuidle_device *dev,
			   struct cpuidle_driver *drv, int index)
{
	(void)drv;
	tcpus[dev->cpu].enter[0]++;
	test_safe_state(NULL);
	return index;
}

/**
 * test_enter_coupled_round() - the coupled state, on every CPU of a cluster
 * @dev: this CPU's device
 * @drv: the driver
 * @r: the round
 * @arg: unused
 *
 * Context: interrupts disabled, all members of the cluster in the round.
 * Return: the index entered: @r->param, or 0 when the vote aborted.
 */
static int test_enter_coupled_round(struct cpuidle_device *dev,
				    struct cpuidle_driver *drv,
				    const struct coupled_round *r, void *arg)
{
	struct test_cpu *tc = &tcpus[dev->cpu];
	struct test_cluster *cl = &tclusters[test_cluster_of(dev->cpu)];
	struct round_rec *rec = &cl->ring[r->generation % RING];
	u32 mask, expect = 0, i;
	int lo = INT_MAX, lead, aborted;

	(void)drv;
	(void)arg;
	tc->actions++;
	WRITE_ONCE(rec->req[r->self], tc->request);
	atomic_or(BIT(r->self), &rec->mask);
	atomic_inc(&rec->count);
	coupled_barrier(r);

	mask = (u32)atomic_read(&rec->mask);
	if ((u32)atomic_read(&rec->count) != r->members)
		fail("action count != members", atomic_read(&rec->count),
		     r->members);
	for (i = 0; i < MAX_IDS; i++)
		if (coupled_is_member(r->group, i))
			expect |= BIT(i);
	if (mask != expect)
		fail("round ran by a set other than the members", mask, expect);
	for (i = 0; i < MAX_IDS; i++)
		if (mask & BIT(i))
			lo = min(lo, READ_ONCE(rec->req[i]));
	if (r->param != lo)
		fail("param != shallowest request", r->param, lo);
	lead = mask ? (int)__ffs(mask) : -1;

	/* Abort together: any CPU may veto, all learn the same answer. */
	aborted =
		coupled_vote(r, prandom_u32_state(&tc->rng) % 100 < abort_pct);
	WRITE_ONCE(rec->vote[r->self], aborted);
	/* The cluster's first CPU powers down last. */
	if ((int)r->self != lead && !aborted)
		atomic_inc(&rec->down);
	coupled_barrier(r);
	for (i = 0; i < MAX_IDS; i++)
		if ((mask & BIT(i)) && READ_ONCE(rec->vote[i]) != aborted)
			fail("CPUs saw different votes", aborted,
			     READ_ONCE(rec->vote[i]));
	if ((int)r->self == lead && !aborted &&
	    (u32)atomic_read(&rec->down) != r->members - 1)
		fail("first CPU not the last one up", atomic_read(&rec->down),
		     r->members);
	coupled_barrier(r);
	if ((int)r->self == lead) {
		atomic_set(&rec->count, 0);
		atomic_set(&rec->mask, 0);
		atomic_set(&rec->down, 0);
		atomic_long_inc(&cl->rounds);
	}
	if (aborted) {
		tc->voted_aborts++;
		return 0;
	}
	/*
	 * Stands for the cluster power-down.  No halt here: the test wants
	 * many rounds, and a halted cluster would only wake on its next
	 * timer, seconds apart under emulation with the tick stopped.
	 */
	cpu_relax();
	return r->param;
}

/**
 * test_enter_coupled() - ->enter of the coupled states 1 and 2
 * @dev: this CPU's device
 * @drv: the driver
 * @index: the state the governor chose: this CPU's request
 *
 * Context: cpuidle, interrupts disabled on entry and on return.
 * Return: what coupled_cpuidle_enter() returns.
 */
static int test_enter_coupled(struct cpuidle_device *dev,
			      struct cpuidle_driver *drv, int index)
{
	tcpus[dev->cpu].request = index;
	tcpus[dev->cpu].enter[index]++;
	return coupled_cpuidle_enter(&cc, dev, drv, index);
}

static const struct coupled_cpuidle_ops test_ops = {
	.cluster_of = test_cluster_of,
	.safe_state = test_safe_state,
	.enter = test_enter_coupled_round,
	.safe_index = 0,
};

static struct cpuidle_driver test_driver = {
	.name = "coupled_idle_test",
	.owner = THIS_MODULE,
	.states = {
		{
			.name = "SAFE",
			.desc = "halt (safe state)",
			.exit_latency = 1,
			.target_residency = 1,
			.enter = test_enter_safe,
		},
		{
			.name = "COUPLED1",
			.desc = "coupled, shallow",
			.exit_latency = 2,
			.target_residency = 4,
			.enter = test_enter_coupled,
		},
		{
			.name = "COUPLED2",
			.desc = "coupled, deep",
			.exit_latency = 5,
			.target_residency = 200,
			.enter = test_enter_coupled,
		},
	},
	.state_count = 3,
	.safe_state_index = 0,
};

/**
 * wait_for() - sleep-poll until @cond() or the watchdog
 * @cond: the progress condition
 * @what: for the failure message
 *
 * Context: process context.  The poll interval is pacing; the condition is
 * the progress of the rounds; the timeout is only a watchdog.
 * Return: true if @cond() became true.
 */
static bool wait_for(bool (*cond)(void), const char *what)
{
	unsigned long end = jiffies + timeout_s * HZ;

	while (!cond()) {
		if (time_after(jiffies, end)) {
			pr_err("coupled_idle_test: timeout waiting for %s\n",
			       what);
			fail("watchdog", 0, 0);
			return false;
		}
		msleep_interruptible(20);
	}
	return true;
}

static long base_rounds[MAX_IDS];
static unsigned long base_actions;
static unsigned int hp_cpu;

/**
 * clusters_progressed() - did every cluster with an online CPU commit
 *                         `target` rounds since the last snapshot()?
 *
 * Return: true if so.
 */
static bool clusters_progressed(void)
{
	unsigned int c;

	for (c = 0; c < nr_clusters; c++) {
		bool any = false;
		unsigned int cpu;

		for_each_online_cpu(cpu) if (test_cluster_of(cpu) == (int)c)
			any = true;
		if (any &&
		    atomic_long_read(&tclusters[c].rounds) - base_rounds[c] <
			    (long)target)
			return false;
	}
	return true;
}

/**
 * hp_cpu_back() - progress, and the re-onlined CPU took part again
 *
 * Return: true if so.
 */
static bool hp_cpu_back(void)
{
	return clusters_progressed() &&
	       READ_ONCE(tcpus[hp_cpu].actions) > base_actions;
}

/**
 * snapshot() - remember every cluster's round count
 */
static void snapshot(void)
{
	unsigned int c;

	for (c = 0; c < nr_clusters; c++)
		base_rounds[c] = atomic_long_read(&tclusters[c].rounds);
}

/**
 * coupled_idle_test_init() - run the cpuidle driver test, print the verdict
 *
 * Context: insmod; sleeps while the idle loop runs.
 * Return: 0 once the verdict is printed, or a negative errno if the driver
 * could not be set up or was refused (the verdict line says why).
 */
static int __init coupled_idle_test_init(void)
{
	struct cpuidle_driver *other;
	unsigned int cpu, c, i, order[MAX_IDS], n = 0;
	long total = 0;
	int ret;

	if (!IS_ENABLED(CONFIG_CPU_IDLE)) {
		/* cpuidle_register() is a stub: nothing to test against. */
		pr_info("coupled_idle_test: verdict SKIP the kernel is built "
			"without CONFIG_CPU_IDLE (no cpuidle core)\n");
		return -ENODEV;
	}
	if (!cluster_size || nr_cpu_ids > MAX_IDS) {
		pr_err("coupled_idle_test: verdict FAIL setup: cluster_size 0 "
		       "or more than %u CPUs\n",
		       MAX_IDS);
		return -EINVAL;
	}
	other = cpuidle_get_driver();
	if (other) {
		pr_err("coupled_idle_test: verdict FAIL refused: cpuidle "
		       "driver '%s' is already registered\n",
		       other->name);
		return -EBUSY;
	}
	nr_clusters = DIV_ROUND_UP(nr_cpu_ids, cluster_size);
	tclusters = kcalloc(nr_clusters, sizeof(*tclusters), GFP_KERNEL);
	tcpus = kcalloc(nr_cpu_ids, sizeof(*tcpus), GFP_KERNEL);
	if (!tclusters || !tcpus) {
		ret = -ENOMEM;
		goto free;
	}
	for_each_possible_cpu(cpu)
		prandom_seed_state(&tcpus[cpu].rng, 0x1d1eULL + cpu);

	ret = coupled_cpuidle_init(&cc, &test_ops, NULL);
	if (ret)
		goto free;
	for_each_possible_cpu(cpu)
	{
		ret = coupled_cpuidle_register_cpu(&cc, cpu);
		if (ret)
			fail("register_cpu", ret, cpu);
	}
	if (atomic_read(&cc.nr_clusters) != (int)nr_clusters)
		fail("live clusters after registration",
		     atomic_read(&cc.nr_clusters), nr_clusters);

	ret = cpuidle_register(&test_driver, NULL);
	if (ret) {
		pr_err("coupled_idle_test: verdict FAIL refused: "
		       "cpuidle_register() returned %d%s\n",
		       ret,
		       ret == -ENODEV  ? " (cpuidle disabled, e.g. "
					 "cpuidle.off=1)"
		       : ret == -EBUSY ? " (another driver is registered)"
				       : "");
		coupled_cpuidle_exit(&cc);
		goto free;
	}

	/* Phase 1: all CPUs idle, every cluster commits `target` rounds. */
	snapshot();
	wait_for(clusters_progressed, "coupled rounds with all CPUs");

	/* Phase 2: the last CPU goes offline; its cluster goes on without it. */
	hp_cpu = 0;
	for_each_online_cpu(cpu) hp_cpu = cpu;
	if (hp_cpu && cpu_is_hotpluggable(hp_cpu)) {
		ret = remove_cpu(hp_cpu);
		if (ret) {
			fail("remove_cpu", ret, hp_cpu);
		} else {
			base_actions = READ_ONCE(tcpus[hp_cpu].actions);
			snapshot();
			wait_for(clusters_progressed, "rounds without the "
						      "offline CPU");
			if (READ_ONCE(tcpus[hp_cpu].actions) != base_actions)
				fail("offline CPU ran a coupled round", hp_cpu,
				     0);
			ret = add_cpu(hp_cpu);
			if (ret)
				fail("add_cpu", ret, hp_cpu);
			/* Phase 3: it takes part again. */
			snapshot();
			wait_for(hp_cpu_back, "rounds with the CPU back "
					      "online");
			pr_info("coupled_idle_test: hotplug cpu%u: offline and "
				"back, cluster rounds went on\n",
				hp_cpu);
		}
	}

	for_each_possible_cpu(cpu)
	{
		struct test_cpu *tc = &tcpus[cpu];
		struct coupled_cpuidle_cpu *pc = &cc.cpus[cpu];

		pr_info("coupled_idle_test: cpu%u SAFE=%lu COUPLED1=%lu "
			"COUPLED2=%lu committed=%lu voted_aborts=%lu "
			"fallbacks=%lu aborts(work=%lu membership=%lu)\n",
			cpu, READ_ONCE(tc->enter[0]), READ_ONCE(tc->enter[1]),
			READ_ONCE(tc->enter[2]), READ_ONCE(tc->actions),
			READ_ONCE(tc->voted_aborts), READ_ONCE(pc->fallbacks),
			READ_ONCE(pc->aborts[COUPLED_ABORT_WORK]),
			READ_ONCE(pc->aborts[COUPLED_ABORT_MEMBERSHIP]));
		if (cpu_online(cpu) && !READ_ONCE(tc->actions))
			fail("online CPU never entered a coupled state", cpu,
			     0);
	}

	cpuidle_unregister(&test_driver);

	/* Unregister in a scrambled order: odd CPUs downwards, then even. */
	for (i = nr_cpu_ids; i-- > 0;)
		if (i & 1)
			order[n++] = i;
	for (i = 0; i < nr_cpu_ids; i++)
		if (!(i & 1))
			order[n++] = i;
	for (i = 0; i < n; i++) {
		unsigned int live = 0, j;

		if (!cpu_possible(order[i]))
			continue;
		ret = coupled_cpuidle_unregister_cpu(&cc, order[i]);
		if (ret)
			fail("unregister_cpu", ret, order[i]);
		/* Clusters that still have a registered CPU must live. */
		for (c = 0; c < nr_clusters; c++) {
			bool any = false;

			for (j = i + 1; j < n; j++)
				if (cpu_possible(order[j]) &&
				    test_cluster_of(order[j]) == (int)c)
					any = true;
			live += any;
		}
		if (atomic_read(&cc.nr_clusters) != (int)live)
			fail("live clusters after unregister",
			     atomic_read(&cc.nr_clusters), live);
	}
	coupled_cpuidle_exit(&cc);

	for (c = 0; c < nr_clusters; c++)
		total += atomic_long_read(&tclusters[c].rounds);
	if (READ_ONCE(first_what))
		pr_err("coupled_idle_test: first failed check: %s (%ld, %ld)\n",
		       first_what, first_a, first_b);
	pr_info("coupled_idle_test: verdict %s cpus=%u clusters=%u rounds=%ld "
		"errors=%d\n",
		test_verdict(), num_online_cpus(), nr_clusters, total,
		atomic_read(&errors));
	return 0;

free:
	kfree(tcpus);
	kfree(tclusters);
	tcpus = NULL;
	tclusters = NULL;
	return ret ? test_setup_failed(ret) : 0;
}

/**
 * coupled_idle_test_exit() - free the test's state
 *
 * Context: rmmod.
 */
static void __exit coupled_idle_test_exit(void)
{
	kfree(tcpus);
	kfree(tclusters);
}

module_init(coupled_idle_test_init);
module_exit(coupled_idle_test_exit);
MODULE_DESCRIPTION("test cpuidle driver with coupled states");
MODULE_LICENSE("Dual MIT/GPL");

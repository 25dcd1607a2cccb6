// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * coupled_idle_test.c - a test cpuidle driver with coupled states, run on
 * either implementation of coupled idle, chosen by impl=:
 *
 *   impl=helper  the project's helper: the coupled states' ->enter is
 *                coupled_cpuidle_enter() (coupled/linux/cpuidle.h), one
 *                group per cluster of cluster_size consecutive CPUs;
 *   impl=kernel  the kernel's own drivers/cpuidle/coupled.c: the states
 *                carry CPUIDLE_FLAG_COUPLED, the driver is registered with
 *                cpuidle_register(drv, cpu_possible_mask) (one cluster of
 *                every CPU), and the cpuidle core enters them through
 *                cpuidle_enter_state_coupled().  Needs a kernel with
 *                CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED and the test governor.
 *
 * The driver has a safe state (0, "halt") and two coupled states (1, 2).
 * The coupled round is shaped like a Tegra/OMAP driver's: every CPU but the
 * cluster's first marks itself down, a barrier (the library's, or the
 * kernel's cpuidle_coupled_parallel_barrier()), the first CPU checks that
 * it is the last one up, and a vote may abort the state on all CPUs
 * together.  The same checks judge both implementations, every round:
 *   - exactly the cluster's members (helper) or online CPUs (kernel) run
 *     the round, once each: no CPU is in the coupled state alone;
 *   - the state entered is the shallowest of the members' requests;
 *   - all members see the same vote.
 * With the test governor (coupled_idle_gov.ko, built where the kernel
 * exports governor registration) the requests are the governor's choices
 * and the moment each CPU went idle is known; without it (Debian's
 * kernels: impl=helper only) a CPU's request is the index its ->enter got.
 *
 * The run: all CPUs idle until every cluster commits `target` rounds; a
 * measured window of measure_ms (coupled entries, safe-state entries and
 * IPIs from /proc/interrupts, and the time from the last CPU's idle entry
 * to the coupled entry); `hotplug` cycles taking the last CPU offline
 * (its cluster goes on without it) and back (it takes part again);
 * `reregister` cycles unregistering the driver and registering it again;
 * then the driver is unregistered (helper: and its CPUs, in a scrambled
 * order, checking that each cluster's group is freed exactly when its last
 * CPU unregisters).  impl=kernel with reregister=0 leaves the driver
 * registered and pins the module: coupled.c's unregister frees its shared
 * structure on the first CPU of a set (docs/linux.md), which this test
 * shows only when asked to, with reregister > 0.
 *
 * Lines: "coupled_idle_test: start impl=X", a "measure impl=X ..." line,
 * per-CPU counts, and one verdict:
 *   coupled_idle_test: verdict PASS impl=X cpus=.. clusters=.. rounds=..
 *   hotplug=.. reregister=.. errors=0
 */
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#define TEST_NAME "coupled_idle_test"
#include "test_module.h"

#include <coupled/linux/cpuidle.h>

#ifdef COUPLED_IDLE_GOV
#include "coupled_idle_gov.h"
#endif
#if defined(COUPLED_IDLE_GOV) && defined(CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED)
#define TEST_HAS_KERNEL_IMPL 1
#else
#define TEST_HAS_KERNEL_IMPL 0
#endif

static char *impl = "helper";
module_param(impl, charp, 0444);
MODULE_PARM_DESC(impl, "helper (coupled_cpuidle_enter) or kernel (coupled.c)");
TEST_PARAM_UINT(cluster_size, 2, "CPUs per cluster (impl=helper)");
TEST_PARAM_ULONG(target, 100, "committed rounds per cluster, first phase");
TEST_PARAM_ULONG(step, 3, "committed rounds per cluster between changes");
TEST_PARAM_UINT(abort_pct, 10, "percent of votes to abort the coupled state");
TEST_PARAM_UINT(measure_ms, 0, "measured window, milliseconds (0: none)");
TEST_PARAM_UINT(hotplug, 1, "CPU offline/online cycles");
TEST_PARAM_UINT(reregister, 0, "driver unregister/register cycles");
TEST_PARAM_UINT(timeout_s, 20, "watchdog per phase, seconds");

#define MAX_IDS 32u
#define RING 4u
#define SAMPLES 32768u /* more than a 5 s window's rounds under TCG */

struct round_rec {
	atomic_t count;
	atomic_t mask;
	atomic_t down;
	int req[MAX_IDS];
	int vote[MAX_IDS];
	u64 idle_ns[MAX_IDS];
	u64 enter_ns[MAX_IDS];
};

struct test_cluster {
	struct round_rec ring[RING];
	atomic_long_t rounds;
	atomic_t kgen;     /* impl=kernel: the round's number */
	atomic_t kbarrier; /* impl=kernel: cpuidle_coupled_parallel_barrier() */
};

struct test_cpu {
	struct rnd_state rng;
	int request;
	unsigned long enter[3]; /* ->enter calls per state index */
	unsigned long actions, voted_aborts;
};

static bool use_kernel;
static struct coupled_cpuidle cc;
static struct test_cluster *tclusters;
static struct test_cpu *tcpus;
static unsigned int nr_clusters;

/*
 * The measured window: the time from the last member's idle entry to the
 * coupled entry, one sample per committed round, written by its lead.
 */
static atomic_t measuring;
static atomic_t nr_samples;
static u64 *samples;

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
 * Return: @cpu / cluster_size (impl=kernel: 0, one cluster).
 */
static int test_cluster_of(unsigned int cpu)
{
	return use_kernel ? 0 : (int)(cpu / cluster_size);
}

/**
 * test_request() - what this CPU asked for, and since when it is idle
 * @cpu: this CPU
 * @index: the index its ->enter got (helper) or 0 (kernel)
 * @idle_ns: set to the time it went idle (0 without the test governor)
 *
 * Context: cpuidle ->enter.
 * Return: the governor's last choice for @cpu, or @index without the test
 * governor.
 */
static int test_request(unsigned int cpu, int index, u64 *idle_ns)
{
#ifdef COUPLED_IDLE_GOV
	*idle_ns = READ_ONCE(coupled_idle_gov_cpus[cpu].idle_ns);
	return READ_ONCE(coupled_idle_gov_cpus[cpu].request);
#else
	*idle_ns = 0;
	return index;
#endif
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
	/* Both implementations wait here: the safe-state entries counted. */
	tcpus[raw_smp_processor_id()].enter[0]++;
	coupled_linux_wait_for_interrupt();
}

/**
 * test_enter_safe() - ->enter of state 0, the safe state
 * @dev: this CPU's device
 * @drv: the driver (unused)
 * @index: 0
 *
 * Context: cpuidle, interrupts disabled on entry and on return; coupled.c
 * waits for its set here.
 * Return: @index.
 */
static int test_enter_safe(struct cpuidle_device *dev,
			   struct cpuidle_driver *drv, int index)
{
	(void)drv;
	(void)dev;
	test_safe_state(NULL);
	return index;
}

/**
 * struct test_sync - the barrier and vote of one implementation
 * @sync: a barrier: all members reach it before any leaves
 * @vote: every member votes; all get the same answer (true: abort)
 * @dev: this CPU's device (impl=kernel)
 * @round: the round (impl=helper)
 * @cl: the cluster
 * @self: this CPU's index in the round's masks
 * @mask: the members, as indices
 */
struct test_sync {
	void (*sync)(struct test_sync *s);
	bool (*vote)(struct test_sync *s, struct round_rec *rec, bool no);
	struct cpuidle_device *dev;
	const struct coupled_round *round;
	struct test_cluster *cl;
	unsigned int self;
	u32 mask;
};

static void helper_barrier(struct test_sync *s)
{
	coupled_barrier(s->round);
}

static bool helper_vote(struct test_sync *s, struct round_rec *rec, bool no)
{
	(void)rec;
	return coupled_vote(s->round, no);
}

#if TEST_HAS_KERNEL_IMPL
static void kernel_barrier(struct test_sync *s)
{
	cpuidle_coupled_parallel_barrier(s->dev, &s->cl->kbarrier);
}

/* The kernel has no vote: each CPU writes its own, a barrier, all read all. */
static bool kernel_vote(struct test_sync *s, struct round_rec *rec, bool no)
{
	bool any = false;
	u32 i;

	WRITE_ONCE(rec->vote[s->self], no);
	kernel_barrier(s);
	for (i = 0; i < MAX_IDS; i++)
		if ((s->mask & BIT(i)) && READ_ONCE(rec->vote[i]))
			any = true;
	kernel_barrier(s);
	return any;
}
#endif

/**
 * test_round() - the coupled state, on every member of a cluster
 * @s: the implementation's barrier and vote, and this CPU
 * @rec: the round's record
 * @cpu: this CPU
 * @index: the state entered: the round's parameter
 * @members: how many take part
 *
 * Context: interrupts disabled, all members of the cluster in the round.
 * Return: the index entered: @index, or 0 when the vote aborted.
 */
static int test_round(struct test_sync *s, struct round_rec *rec,
		      unsigned int cpu, int index, u32 members)
{
	struct test_cpu *tc = &tcpus[cpu];
	u64 now = ktime_get_mono_fast_ns(), last_idle = 0, last_enter = 0;
	u32 mask, i;
	int lo = INT_MAX, lead, aborted;

	tc->actions++;
	WRITE_ONCE(rec->req[s->self],
		   test_request(cpu, tc->request, &rec->idle_ns[s->self]));
	WRITE_ONCE(rec->enter_ns[s->self], now);
	atomic_or(BIT(s->self), &rec->mask);
	atomic_inc(&rec->count);
	s->sync(s);

	mask = (u32)atomic_read(&rec->mask);
	if ((u32)atomic_read(&rec->count) != members)
		fail("action count != members", atomic_read(&rec->count),
		     members);
	if (mask != s->mask)
		fail("round ran by a set other than the members", mask,
		     s->mask);
	for (i = 0; i < MAX_IDS; i++) {
		if (!(mask & BIT(i)))
			continue;
		lo = min(lo, READ_ONCE(rec->req[i]));
		last_idle = max(last_idle, READ_ONCE(rec->idle_ns[i]));
		last_enter = max(last_enter, READ_ONCE(rec->enter_ns[i]));
	}
	if (index != lo)
		fail("state != shallowest request", index, lo);
	lead = mask ? (int)__ffs(mask) : -1;
	if ((int)s->self == lead && atomic_read(&measuring) && last_idle &&
	    last_enter > last_idle) {
		int n = atomic_inc_return(&nr_samples) - 1;

		/* Past SAMPLES, the latest ones are kept. */
		samples[(u32)n % SAMPLES] = last_enter - last_idle;
	}

	/* Abort together: any CPU may veto, all learn the same answer. */
	aborted =
		s->vote(s, rec, prandom_u32_state(&tc->rng) % 100 < abort_pct);
	WRITE_ONCE(rec->vote[s->self], aborted);
	/* The cluster's first CPU powers down last. */
	if ((int)s->self != lead && !aborted)
		atomic_inc(&rec->down);
	s->sync(s);
	for (i = 0; i < MAX_IDS; i++)
		if ((mask & BIT(i)) && READ_ONCE(rec->vote[i]) != aborted)
			fail("CPUs saw different votes", aborted,
			     READ_ONCE(rec->vote[i]));
	if ((int)s->self == lead && !aborted &&
	    (u32)atomic_read(&rec->down) != members - 1)
		fail("first CPU not the last one up", atomic_read(&rec->down),
		     members);
	s->sync(s);
	if ((int)s->self == lead) {
		atomic_set(&rec->count, 0);
		atomic_set(&rec->mask, 0);
		atomic_set(&rec->down, 0);
		atomic_long_inc(&s->cl->rounds);
		if (use_kernel)
			atomic_inc(&s->cl->kgen);
	}
	if (aborted) {
		tc->voted_aborts++;
		return 0;
	}
	/*
	 * Stands for the cluster power-down.  No halt here: the test wants
	 * many rounds, and a halted cluster would only wake on its next
	 * timer.
	 */
	cpu_relax();
	return index;
}

/**
 * helper_enter_round() - the helper's coupled callback
 * @dev: this CPU's device
 * @drv: the driver
 * @r: the round
 * @arg: unused
 *
 * Context: interrupts disabled, all members of the cluster in the round.
 * Return: what test_round() returns.
 */
static int helper_enter_round(struct cpuidle_device *dev,
			      struct cpuidle_driver *drv,
			      const struct coupled_round *r, void *arg)
{
	struct test_cluster *cl = &tclusters[test_cluster_of(dev->cpu)];
	struct test_sync s = {
		.sync = helper_barrier,
		.vote = helper_vote,
		.round = r,
		.cl = cl,
		.self = r->self,
	};
	u32 i;

	(void)drv;
	(void)arg;
	for (i = 0; i < MAX_IDS; i++)
		if (coupled_is_member(r->group, i))
			s.mask |= BIT(i);
	return test_round(&s, &cl->ring[r->generation % RING], dev->cpu,
			  r->param, r->members);
}

/**
 * helper_enter() - ->enter of the coupled states 1 and 2, impl=helper
 * @dev: this CPU's device
 * @drv: the driver
 * @index: the state the governor chose: this CPU's request
 *
 * Context: cpuidle, interrupts disabled on entry and on return.
 * Return: what coupled_cpuidle_enter() returns.
 */
static int helper_enter(struct cpuidle_device *dev, struct cpuidle_driver *drv,
			int index)
{
	tcpus[dev->cpu].request = index;
	tcpus[dev->cpu].enter[index]++;
	return coupled_cpuidle_enter(&cc, dev, drv, index);
}

#if TEST_HAS_KERNEL_IMPL
/**
 * kernel_enter() - ->enter of the coupled states 1 and 2, impl=kernel
 * @dev: this CPU's device
 * @drv: the driver
 * @index: the state coupled.c chose for every online CPU of the set
 *
 * Context: called by cpuidle_enter_state_coupled() once every online CPU
 * of the set is ready, interrupts disabled; coupled.c enables them after.
 * Return: what test_round() returns.
 */
static int kernel_enter(struct cpuidle_device *dev, struct cpuidle_driver *drv,
			int index)
{
	struct test_cluster *cl = &tclusters[0];
	struct test_sync s = {
		.sync = kernel_barrier,
		.vote = kernel_vote,
		.dev = dev,
		.cl = cl,
		.self = dev->cpu,
	};
	unsigned int cpu;
	u32 members = 0;

	(void)drv;
	tcpus[dev->cpu].enter[index]++;
	/* coupled.c blocks hotplug around rounds: the online set is stable. */
	for_each_online_cpu(cpu)
	{
		s.mask |= BIT(cpu);
		members++;
	}
	return test_round(&s, &cl->ring[(u32)atomic_read(&cl->kgen) % RING],
			  dev->cpu, index, members);
}
#endif

static const struct coupled_cpuidle_ops test_ops = {
	.cluster_of = test_cluster_of,
	.safe_state = test_safe_state,
	.enter = helper_enter_round,
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
		},
		{
			.name = "COUPLED2",
			.desc = "coupled, deep",
			.exit_latency = 5,
			.target_residency = 200,
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
		msleep_interruptible(5);
	}
	return true;
}

static long base_rounds[MAX_IDS];
static unsigned long base_actions, want_rounds;
static unsigned int hp_cpu;

/**
 * clusters_progressed() - did every cluster with an online CPU commit
 *                         want_rounds rounds since the last snapshot()?
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
			    (long)want_rounds)
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
 * snapshot() - remember every cluster's round count; wait for @n more
 * @n: the rounds per cluster the next clusters_progressed() wants
 */
static void snapshot(unsigned long n)
{
	unsigned int c;

	want_rounds = n;
	for (c = 0; c < nr_clusters; c++)
		base_rounds[c] = atomic_long_read(&tclusters[c].rounds);
}

/**
 * total_rounds() - the rounds committed by all clusters so far
 *
 * Return: their sum.
 */
static long total_rounds(void)
{
	long total = 0;
	unsigned int c;

	for (c = 0; c < nr_clusters; c++)
		total += atomic_long_read(&tclusters[c].rounds);
	return total;
}

/**
 * ipi_total() - every CPU's IPIs so far, from /proc/interrupts
 *
 * Sums the per-CPU columns of the rows whose label starts with "IPI" (ARM)
 * or is one of x86's IPI rows (RES, CAL, TLB).  Reading the file from the
 * module keeps the window exact: the same moments as the other counts.
 *
 * Context: process context.
 * Return: the sum, or -1 if the file could not be read.
 */
static long long ipi_total(void)
{
	struct file *f = filp_open("/proc/interrupts", O_RDONLY, 0);
	size_t size = 16384, len = 0;
	long long total = 0;
	char *buf, *line;
	loff_t pos = 0;
	ssize_t n;

	if (IS_ERR(f))
		return -1;
	buf = kmalloc(size + 1, GFP_KERNEL);
	if (!buf) {
		filp_close(f, NULL);
		return -1;
	}
	while (len < size &&
	       (n = kernel_read(f, buf + len, size - len, &pos)) > 0)
		len += (size_t)n;
	filp_close(f, NULL);
	buf[len] = '\0';
	for (line = buf; line && *line;) {
		char *next = strchr(line, '\n'), *p = skip_spaces(line);
		unsigned int cpu = 0;

		if (next)
			*next++ = '\0';
		if (!strncmp(p, "IPI", 3) || !strncmp(p, "RES:", 4) ||
		    !strncmp(p, "CAL:", 4) || !strncmp(p, "TLB:", 4)) {
			p = strchr(p, ':');
			while (p && cpu++ < num_possible_cpus()) {
				unsigned long long v;

				p = skip_spaces(p + 1);
				if (sscanf(p, "%llu", &v) != 1)
					break;
				total += (long long)v;
				p = strchr(p, ' ');
			}
		}
		line = next;
	}
	kfree(buf);
	return total;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/**
 * measure() - the measured window: entries, safe entries, IPIs, latency
 *
 * Context: process context; sleeps measure_ms while the idle loop runs.
 */
static void measure(void)
{
	unsigned long safe0 = 0, safe1 = 0;
	long long ipi0, ipi1;
	long r0, r1;
	unsigned int cpu, n;
	u64 t0, t1;

	for_each_possible_cpu(cpu) safe0 += READ_ONCE(tcpus[cpu].enter[0]);
	ipi0 = ipi_total();
	r0 = total_rounds();
	t0 = ktime_get_ns();
	atomic_set(&nr_samples, 0);
	atomic_set(&measuring, 1);
	/* The window itself: a measurement, not synchronization. */
	msleep(measure_ms);
	atomic_set(&measuring, 0);
	/*
	 * A round's lead writes its sample with interrupts disabled: once
	 * every other CPU has taken an interrupt, no write is in flight.
	 */
	kick_all_cpus_sync();
	t1 = ktime_get_ns();
	r1 = total_rounds();
	ipi1 = ipi_total();
	for_each_possible_cpu(cpu) safe1 += READ_ONCE(tcpus[cpu].enter[0]);
	n = min_t(unsigned int, (unsigned int)atomic_read(&nr_samples),
		  SAMPLES);
	sort(samples, n, sizeof(*samples), cmp_u64, NULL);
	pr_info("coupled_idle_test: measure impl=%s ms=%llu entries=%ld "
		"safe=%lu ipis=%lld latency_samples=%u latency_median_ns=%llu "
		"latency_p99_ns=%llu\n",
		impl, div_u64(t1 - t0, NSEC_PER_MSEC), r1 - r0, safe1 - safe0,
		ipi0 < 0 || ipi1 < 0 ? -1LL : ipi1 - ipi0, n,
		n ? samples[n / 2] : 0ULL, n ? samples[(n * 99) / 100] : 0ULL);
	if (r1 == r0)
		fail("no coupled entry in the measured window", 0, 0);
}

/**
 * test_register() - register the driver (and the helper's CPUs)
 *
 * Return: 0, or the error (the reason is printed).
 */
static int test_register(void)
{
	unsigned int cpu;
	int ret;

	if (!use_kernel) {
		ret = coupled_cpuidle_init(&cc, &test_ops, NULL);
		if (ret)
			return ret;
		for_each_possible_cpu(cpu)
		{
			ret = coupled_cpuidle_register_cpu(&cc, cpu);
			if (ret)
				fail("register_cpu", ret, cpu);
		}
		if (atomic_read(&cc.nr_clusters) != (int)nr_clusters)
			fail("live clusters after registration",
			     atomic_read(&cc.nr_clusters), nr_clusters);
	}
	ret = cpuidle_register(&test_driver,
			       use_kernel ? cpu_possible_mask : NULL);
	if (ret) {
		pr_err("coupled_idle_test: cpuidle_register() returned %d%s\n",
		       ret,
		       ret == -ENODEV  ? " (cpuidle disabled, e.g. "
					 "cpuidle.off=1)"
		       : ret == -EBUSY ? " (another driver is registered)"
				       : "");
		if (!use_kernel)
			coupled_cpuidle_exit(&cc);
		return ret;
	}
	/*
	 * A CPU already idle without a driver sleeps in the default idle,
	 * its tick stopped, until its next timer: seconds under emulation.
	 * Kick every idle CPU so that all take the new driver now.
	 */
	wake_up_all_idle_cpus();
	return 0;
}

/**
 * test_unregister_cpus() - unregister the helper's CPUs, in a scrambled
 *                          order, checking the clusters' lifetime
 *
 * Context: the driver is unregistered (no ->enter runs any more).
 */
static void test_unregister_cpus(void)
{
	unsigned int i, c, n = 0, order[MAX_IDS];
	int ret;

	/* Odd CPUs downwards, then even ones upwards. */
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
}

/**
 * test_unregister() - unregister the driver, then the helper's CPUs
 */
static void test_unregister(void)
{
	cpuidle_unregister(&test_driver);
	if (!use_kernel)
		test_unregister_cpus();
}

/**
 * hotplug_cycle() - the last online CPU offline and back, rounds meanwhile
 *
 * Return: true if the cycle ran (false: no CPU to take offline, or the
 * kernel refused; the latter is a failed check).
 */
static bool hotplug_cycle(void)
{
	unsigned int cpu;
	int ret;

	hp_cpu = 0;
	for_each_online_cpu(cpu) hp_cpu = cpu;
	if (!hp_cpu || !cpu_is_hotpluggable(hp_cpu))
		return false;
	ret = remove_cpu(hp_cpu);
	if (ret) {
		fail("remove_cpu", ret, hp_cpu);
		return false;
	}
	base_actions = READ_ONCE(tcpus[hp_cpu].actions);
	snapshot(step);
	wait_for(clusters_progressed, "rounds without the offline CPU");
	if (READ_ONCE(tcpus[hp_cpu].actions) != base_actions)
		fail("offline CPU ran a coupled round", hp_cpu, 0);
	ret = add_cpu(hp_cpu);
	if (ret) {
		fail("add_cpu", ret, hp_cpu);
		return false;
	}
	snapshot(step);
	return wait_for(hp_cpu_back, "rounds with the CPU back online");
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
	unsigned int cpu, i, hp_done = 0, rereg_done = 0;
	bool keep = false;
	int ret;

	if (!IS_ENABLED(CONFIG_CPU_IDLE)) {
		/* cpuidle_register() is a stub: nothing to test against. */
		pr_info("coupled_idle_test: verdict SKIP impl=%s the kernel is "
			"built without CONFIG_CPU_IDLE (no cpuidle core)\n",
			impl);
		return -ENODEV;
	}
	if (!strcmp(impl, "kernel")) {
		if (!TEST_HAS_KERNEL_IMPL) {
			pr_err("coupled_idle_test: verdict FAIL impl=kernel "
			       "needs CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED and "
			       "the test governor\n");
			return -EINVAL;
		}
		use_kernel = true;
	} else if (strcmp(impl, "helper")) {
		pr_err("coupled_idle_test: verdict FAIL impl=%s: helper or "
		       "kernel\n",
		       impl);
		return -EINVAL;
	}
#if TEST_HAS_KERNEL_IMPL
	for (i = 1; i < test_driver.state_count; i++) {
		test_driver.states[i].enter = use_kernel ? kernel_enter
							 : helper_enter;
		if (use_kernel)
			test_driver.states[i].flags |= CPUIDLE_FLAG_COUPLED;
	}
#else
	for (i = 1; i < test_driver.state_count; i++)
		test_driver.states[i].enter = helper_enter;
#endif
	if (!cluster_size || nr_cpu_ids > MAX_IDS) {
		pr_err("coupled_idle_test: verdict FAIL impl=%s setup: "
		       "cluster_size 0 or more than %u CPUs\n",
		       impl, MAX_IDS);
		return -EINVAL;
	}
	other = cpuidle_get_driver();
	if (other) {
		pr_err("coupled_idle_test: verdict FAIL impl=%s refused: "
		       "cpuidle driver '%s' is already registered\n",
		       impl, other->name);
		return -EBUSY;
	}
	pr_info("coupled_idle_test: start impl=%s\n", impl);
	nr_clusters = use_kernel ? 1 : DIV_ROUND_UP(nr_cpu_ids, cluster_size);
	tclusters = kcalloc(nr_clusters, sizeof(*tclusters), GFP_KERNEL);
	tcpus = kcalloc(nr_cpu_ids, sizeof(*tcpus), GFP_KERNEL);
	samples = kvcalloc(SAMPLES, sizeof(*samples), GFP_KERNEL);
	if (!tclusters || !tcpus || !samples) {
		ret = -ENOMEM;
		goto free;
	}
	for_each_possible_cpu(cpu)
		prandom_seed_state(&tcpus[cpu].rng, 0x1d1eULL + cpu);

	ret = test_register();
	if (ret)
		goto free;

	/* All CPUs idle: every cluster commits `target` rounds. */
	snapshot(target);
	wait_for(clusters_progressed, "coupled rounds with all CPUs");
	if (measure_ms)
		measure();

	/* The last CPU offline: its cluster goes on; back: it takes part. */
	for (i = 0; i < hotplug && !atomic_read(&errors); i++)
		hp_done += hotplug_cycle();
	if (hotplug)
		pr_info("coupled_idle_test: impl=%s hotplug: %u offline/online "
			"cycles of cpu%u, rounds went on\n",
			impl, hp_done, hp_cpu);

	/* The driver away and back; the rounds start again. */
	for (i = 0; i < reregister && !atomic_read(&errors); i++) {
		test_unregister();
		ret = test_register();
		if (ret) {
			fail("register again", ret, i);
			goto free;
		}
		snapshot(step);
		if (wait_for(clusters_progressed, "rounds after registering "
						  "again"))
			rereg_done++;
	}

	/*
	 * The driver away first (unless coupled.c's must stay), so that the
	 * counts printed below are final: the trace events of the run are
	 * compared with them.
	 */
	if (use_kernel && !reregister) {
		/*
		 * coupled.c's unregister frees its shared structure on the
		 * first CPU: leave the driver registered, and the module
		 * loaded (its ->enter functions stay in use).
		 */
		__module_get(THIS_MODULE);
		keep = true;
	} else {
		cpuidle_unregister(&test_driver);
	}

	for_each_possible_cpu(cpu)
	{
		struct test_cpu *tc = &tcpus[cpu];

		pr_info("coupled_idle_test: impl=%s cpu%u SAFE=%lu "
			"COUPLED1=%lu "
			"COUPLED2=%lu committed=%lu voted_aborts=%lu\n",
			impl, cpu, READ_ONCE(tc->enter[0]),
			READ_ONCE(tc->enter[1]), READ_ONCE(tc->enter[2]),
			READ_ONCE(tc->actions), READ_ONCE(tc->voted_aborts));
		if (!use_kernel) {
			struct coupled_cpuidle_cpu *pc = &cc.cpus[cpu];

			pr_info("coupled_idle_test: impl=helper cpu%u "
				"fallbacks=%lu aborts(work=%lu "
				"membership=%lu)\n",
				cpu, READ_ONCE(pc->fallbacks),
				READ_ONCE(pc->aborts[COUPLED_ABORT_WORK]),
				READ_ONCE(
					pc->aborts[COUPLED_ABORT_MEMBERSHIP]));
		}
		if (cpu_online(cpu) && !READ_ONCE(tc->actions))
			fail("online CPU never entered a coupled state", cpu,
			     0);
	}

	if (!keep && !use_kernel)
		test_unregister_cpus();

	if (READ_ONCE(first_what))
		pr_err("coupled_idle_test: first failed check: %s (%ld, %ld)\n",
		       first_what, first_a, first_b);
	pr_info("coupled_idle_test: verdict %s impl=%s cpus=%u clusters=%u "
		"rounds=%ld hotplug=%u reregister=%u%s errors=%d\n",
		test_verdict(), impl, num_online_cpus(), nr_clusters,
		total_rounds(), hp_done, rereg_done,
		keep ? " (driver left registered)" : "", atomic_read(&errors));
	return 0;

free:
	kvfree(samples);
	kfree(tcpus);
	kfree(tclusters);
	samples = NULL;
	tcpus = NULL;
	tclusters = NULL;
	return ret ? test_setup_failed(ret) : 0;
}

/**
 * coupled_idle_test_exit() - free the test's state
 *
 * Context: rmmod (never with impl=kernel's driver left registered: the
 * module pinned itself).
 */
static void __exit coupled_idle_test_exit(void)
{
	kvfree(samples);
	kfree(tcpus);
	kfree(tclusters);
}

module_init(coupled_idle_test_init);
module_exit(coupled_idle_test_exit);
MODULE_DESCRIPTION("test cpuidle driver with coupled states, helper or "
		   "kernel implementation");
MODULE_LICENSE("Dual MIT/GPL");

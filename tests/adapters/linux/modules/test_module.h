/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_module.h - what the Linux adapter's test modules (coupled_torture,
 * coupled_domain_test, coupled_idle_test) share: their parameters'
 * declaration, their error count and failure lines, and their verdict.
 * Define TEST_NAME (the module's name, a string) before including it.
 *
 * With TEST_PERCPU_RUN defined as well, also the run of the two modules
 * whose per-CPU kthreads (smpboot) call into the library over and over
 * while a hotplug thread takes CPUs offline and back (coupled_torture,
 * coupled_domain_test): the end of the run, the caller abort armed for a
 * call, the threads' batch of calls, the hotplug cycle and the start and
 * stop of it all.  Such a module defines the five functions declared
 * below: fail(), test_call(), test_is_member(), test_join() and
 * test_leave().
 */
#ifndef COUPLED_TESTS_LINUX_TEST_MODULE_H
#define COUPLED_TESTS_LINUX_TEST_MODULE_H

#include <linux/atomic.h>
#include <linux/limits.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>

/*
 * TEST_PARAM() - a read-only module parameter: a static variable, its
 * module_param() and its description.
 * @ctype: the variable's C type.
 * @ptype: module_param()'s type (uint, ulong, bool).
 * @name: the parameter.
 * @dflt: its default.
 * @desc: its description (modinfo).
 */
#define TEST_PARAM(ctype, ptype, name, dflt, desc) \
	static ctype name = dflt;                  \
	module_param(name, ptype, 0444);           \
	MODULE_PARM_DESC(name, desc)

/* TEST_PARAM_UINT(), TEST_PARAM_ULONG() - TEST_PARAM() of those types. */
#define TEST_PARAM_UINT(name, dflt, desc) \
	TEST_PARAM(unsigned int, uint, name, dflt, desc)
#define TEST_PARAM_ULONG(name, dflt, desc) \
	TEST_PARAM(unsigned long, ulong, name, dflt, desc)

/*
 * TEST_PARAMS_WRAP() - start_gen, the groups' first generation, by
 * default @before (a number) rounds before the 32-bit wrap, so that every
 * run crosses it; and wrong_reduce, the test of the test, described by
 * @broken (a string): the group reduces with max while the checks expect
 * min.
 */
#define TEST_PARAMS_WRAP(before, broken)                                     \
	TEST_PARAM_UINT(start_gen, U32_MAX - (before),                       \
			"first generation (default: " #before " before the " \
			"wrap)");                                            \
	TEST_PARAM(bool, bool, wrong_reduce, false,                          \
		   "test of the test: " broken " (must FAIL)")

/* TEST_PARAM_TIMEOUT() - the watchdog, timeout_s, @dflt seconds. */
#define TEST_PARAM_TIMEOUT(dflt)                        \
	TEST_PARAM(unsigned int, uint, timeout_s, dflt, \
		   "watchdog: give up (FAIL) after this many seconds")

/* Failed checks so far; the verdict is FAIL unless 0. */
static atomic_t errors = ATOMIC_INIT(0);

/**
 * test_count_fail() - count a failed check and print the first few
 * @what: a static description
 * @a: first value to print
 * @b: second value to print
 *
 * Context: any where printing is allowed (may run with interrupts
 * disabled).
 *
 * Return: the number of failed checks, this one included.
 */
static inline int test_count_fail(const char *what, long a, long b)
{
	int n = atomic_inc_return(&errors);

	if (n <= 5)
		pr_err(TEST_NAME ": check failed: %s (%ld, %ld)\n", what, a, b);
	return n;
}

/**
 * test_verdict() - the verdict word
 *
 * Return: "PASS" if no check failed, else "FAIL".
 */
static inline const char *test_verdict(void)
{
	return atomic_read(&errors) ? "FAIL" : "PASS";
}

/**
 * test_setup_failed() - print the verdict of a run that could not start
 * @ret: the error
 *
 * Return: @ret.
 */
static inline int test_setup_failed(int ret)
{
	pr_err(TEST_NAME ": verdict FAIL setup error %d\n", ret);
	return ret;
}

#ifdef TEST_PERCPU_RUN
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/kthread.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/smpboot.h>

/* Calls of a per-CPU thread per run of its thread_fn. */
#define TEST_BATCH 64u

/*
 * fail() - record a failed check (the module's own: it may also end the
 * run); any context, interrupts disabled included.
 */
static void fail(const char *what, long a, long b);
/* test_call() - one call of @cpu's thread; false if @cpu is not a member. */
static bool test_call(unsigned int cpu);
/* test_is_member() - is @cpu a member (of its leaf)?  A snapshot. */
static bool test_is_member(unsigned int cpu);
/* test_join(), test_leave() - @cpu joins, leaves (on it, cpuhp); 0 or error */
static int test_join(unsigned int cpu);
static int test_leave(unsigned int cpu);

/* Set once, when the run ends; the threads stop calling. */
static atomic_t done = ATOMIC_INIT(0);
/* Set once the threads may run (everything they use is set up). */
static atomic_t started = ATOMIC_INIT(0);
/* Completed by finish(): wakes the module's init. */
static DECLARE_COMPLETION(finished);
/* Each CPU's kthread (smp_hotplug_thread.store). */
static DEFINE_PER_CPU(struct task_struct *, test_task);
/* The cpuhp state that joins and leaves the CPUs; -1 when none. */
static int hp_state = -1;
/* CPU offline/online cycles counted, and offlines the kernel refused. */
static unsigned long hotplug_cycles, hotplug_refused;

/**
 * finish() - stop the run once, and wake the module's init
 *
 * Context: any.
 */
static inline void finish(void)
{
	if (!atomic_xchg(&done, 1))
		complete(&finished);
}

/**
 * struct test_abort - the caller abort of the current call (one level)
 * @armed: fires in this call
 * @polls: polls left before it fires
 */
struct test_abort {
	bool armed;
	unsigned int polls;
};

/**
 * test_abort_arm() - draw the caller abort of the next call
 * @a: the abort
 * @rng: random numbers
 * @pct: the percent of calls in which it fires
 */
static inline void test_abort_arm(struct test_abort *a, struct rnd_state *rng,
				  unsigned int pct)
{
	a->armed = prandom_u32_state(rng) % 100 < pct;
	a->polls = prandom_u32_state(rng) % 64;
}

/**
 * test_should_abort() - the caller abort armed for this call
 * @arg: its struct test_abort
 * @self: the caller's id (unused)
 *
 * Return: true once the armed number of polls ran out, or when the run ends.
 */
static inline bool test_should_abort(void *arg, uint32_t self)
{
	struct test_abort *a = arg;

	(void)self;
	/* Relaxed: a stop hint; a late look only polls once more. */
	if (atomic_read(&done))
		return true;
	if (!a->armed)
		return false;
	if (a->polls) {
		a->polls--;
		return false;
	}
	return true;
}

/**
 * test_should_run() - smpboot: does this CPU's thread have work?
 * @cpu: the CPU
 *
 * Context: preemption disabled (smpboot).
 * Return: nonzero while the run goes on and @cpu is a member.
 */
static int test_should_run(unsigned int cpu)
{
	return atomic_read(&started) && !atomic_read(&done) &&
	       test_is_member(cpu);
}

/**
 * test_thread_fn() - smpboot: a batch of calls on this CPU
 * @cpu: the CPU
 *
 * Returns early when the thread must park (CPU going offline), the run
 * ended, or the CPU is not a member (it sleeps until its join wakes it).
 *
 * Context: the CPU's kthread, preemptible between calls.
 */
static void test_thread_fn(unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < TEST_BATCH; i++) {
		if (kthread_should_park() || atomic_read(&done))
			return;
		if (!test_call(cpu))
			return;
		cond_resched();
	}
}

/* The per-CPU threads; test_setup_threads() names them. */
static struct smp_hotplug_thread test_threads = {
	.store = &test_task,
	.thread_should_run = test_should_run,
	.thread_fn = test_thread_fn,
};

/**
 * test_cpu_online() - cpuhp: the CPU joins, and its thread wakes up
 * @cpu: the CPU coming online (we run on it)
 *
 * Context: the CPU's hotplug thread, outside any call of the CPU.
 * Return: 0 (a refused join is a test failure, not a hotplug failure).
 */
static int test_cpu_online(unsigned int cpu)
{
	struct task_struct *t;
	int ret = test_join(cpu);

	if (ret)
		fail("join refused", ret, cpu);
	t = per_cpu(test_task, cpu);
	if (t)
		wake_up_process(t);
	return 0;
}

/**
 * test_cpu_offline() - cpuhp: the CPU leaves
 * @cpu: the CPU going offline (we run on it, outside its calls)
 *
 * Context: the CPU's hotplug thread.
 * Return: 0.
 */
static int test_cpu_offline(unsigned int cpu)
{
	int ret = test_leave(cpu);

	if (ret)
		fail("leave refused", ret, cpu);
	return 0;
}

/**
 * test_wait_count() - let a count grow by @n (or the run end)
 * @count: the count (committed rounds)
 * @n: by how much
 *
 * Context: process context; sleeps a tick between looks (pacing, not
 * synchronization: the condition is the progress of the rounds).
 * Return: true if it grew by @n.
 */
static inline bool test_wait_count(atomic_long_t *count, long n)
{
	long base = atomic_long_read(count);

	while (!atomic_read(&done) && !kthread_should_stop()) {
		if (atomic_long_read(count) - base >= n)
			return true;
		schedule_timeout_interruptible(1);
	}
	return false;
}

/**
 * test_hotplug_cycle() - take a random CPU offline and back
 * @rng: random numbers
 * @limit: the CPUs to pick from are those online, hotpluggable, and in
 *         1..@limit-1
 * @count: the count of committed rounds
 * @before: rounds to let commit first
 * @during: rounds to let commit while the CPU is out
 * @need_during: count the cycle only if they did
 *
 * Checks that the CPU left the group while offline and joined it again
 * once online.  Counts the cycle in hotplug_cycles, or a refused offline
 * in hotplug_refused.
 *
 * Context: the hotplug kthread, sleeps.
 * Return: false when the churn must stop (no CPU to pick, add_cpu()
 * failed).
 */
static inline bool test_hotplug_cycle(struct rnd_state *rng, unsigned int limit,
				      atomic_long_t *count, long before,
				      long during, bool need_during)
{
	unsigned int cpu, pick, n = 0;
	bool out;
	int ret;

	test_wait_count(count, before);
	for_each_online_cpu(cpu) if (cpu && cpu < limit &&
				     cpu_is_hotpluggable(cpu)) n++;
	if (!n)
		return false;
	pick = prandom_u32_state(rng) % n;
	for_each_online_cpu(cpu) if (cpu && cpu < limit &&
				     cpu_is_hotpluggable(cpu) && !pick--) break;
	ret = remove_cpu(cpu);
	if (ret) {
		hotplug_refused++;
		return true;
	}
	if (test_is_member(cpu))
		fail("offline CPU still a member", cpu, 0);
	out = test_wait_count(count, during);
	ret = add_cpu(cpu);
	if (ret) {
		fail("add_cpu failed", ret, cpu);
		return false;
	}
	if (!test_is_member(cpu))
		fail("online CPU not a member", cpu, 0);
	if (out || !need_during)
		hotplug_cycles++;
	return true;
}

/**
 * test_hotplug_idle() - the hotplug thread, its churn over: wait for its
 *                       stop
 *
 * Return: 0, the thread's result.
 */
static inline int test_hotplug_idle(void)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

/**
 * test_setup_threads() - join the online CPUs, and create the threads
 * @state: the cpuhp state's name
 * @comm: the threads' name, with a %u for the CPU
 *
 * The threads wait for test_run().
 *
 * Context: module init.
 * Return: 0, or a negative errno (nothing left set up).
 */
static inline int test_setup_threads(const char *state, const char *comm)
{
	int ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, state, test_cpu_online,
				    test_cpu_offline);

	if (ret < 0)
		return ret;
	hp_state = ret;
	test_threads.thread_comm = comm;
	/* The threads' creation publishes the module's state to them. */
	ret = smpboot_register_percpu_thread(&test_threads);
	if (ret) {
		cpuhp_remove_state(hp_state);
		hp_state = -1;
	}
	return ret;
}

/**
 * test_run() - run the threads (and the hotplug churn) until finish() or
 *              the watchdog, then stop them and make every CPU leave
 * @hotplug_fn: the hotplug thread, or NULL for none
 * @hotplug_comm: its name
 * @timeout: the watchdog, in jiffies
 *
 * Context: module init, sleeps.
 * Return: what wait_for_completion_interruptible_timeout() returned: 0 or
 * less if the watchdog (or a signal) ended the wait.
 */
static inline long test_run(int (*hotplug_fn)(void *), const char *hotplug_comm,
			    unsigned long timeout)
{
	struct task_struct *hp_task = NULL;
	unsigned int cpu;
	long left;

	atomic_set(&started, 1);
	for_each_online_cpu(cpu) wake_up_process(per_cpu(test_task, cpu));
	if (hotplug_fn) {
		hp_task = kthread_run(hotplug_fn, NULL, "%s", hotplug_comm);
		if (IS_ERR(hp_task)) {
			fail("cannot start the hotplug thread",
			     PTR_ERR(hp_task), 0);
			hp_task = NULL;
			finish();
		}
	}
	left = wait_for_completion_interruptible_timeout(&finished, timeout);
	finish();
	if (hp_task)
		kthread_stop(hp_task);
	smpboot_unregister_percpu_thread(&test_threads);
	/* Every online CPU leaves (the offline callback on each). */
	cpuhp_remove_state(hp_state);
	hp_state = -1;
	return left;
}
#endif /* TEST_PERCPU_RUN */

#endif /* COUPLED_TESTS_LINUX_TEST_MODULE_H */

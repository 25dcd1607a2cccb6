// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * coupled_idle_gov.c - a cpuidle governor for the coupled idle tests.
 *
 * Each select() draws one of the driver's states above the safe state 0 at
 * random (seeded per CPU, so a run can be repeated), keeps the tick running
 * (under emulation a CPU with the tick stopped would sleep for seconds, and
 * the test wants many rounds), and records the choice and the time in
 * coupled_idle_gov_cpus[], which the cpuidle test reads.  The governor
 * replaces the built-in one when loaded (its rating is higher) and cannot
 * be unloaded: the cpuidle core has no way to unregister a governor.  It
 * needs the kernel to export cpuidle_register_governor() (the patch of
 * tests/adapters/linux/kernel/patches).
 */
#include <linux/cpuidle.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/timekeeping.h>

#include "coupled_idle_gov.h"

struct coupled_idle_gov_cpu coupled_idle_gov_cpus[NR_CPUS];
EXPORT_SYMBOL_GPL(coupled_idle_gov_cpus);

static struct rnd_state gov_rng[NR_CPUS];

/**
 * gov_select() - choose this CPU's state
 * @drv: the driver
 * @dev: this CPU's device
 * @stop_tick: set to false: the tick keeps running
 *
 * Context: the idle loop, interrupts disabled.
 * Return: a random state index in [1, state_count), or 0 if the driver has
 * only the safe state.
 */
static int gov_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		      bool *stop_tick)
{
	struct coupled_idle_gov_cpu *g = &coupled_idle_gov_cpus[dev->cpu];
	int req = 0;

	if (drv->state_count > 1)
		req = 1 + (int)(prandom_u32_state(&gov_rng[dev->cpu]) %
				(u32)(drv->state_count - 1));
	*stop_tick = false;
	WRITE_ONCE(g->request, req);
	WRITE_ONCE(g->idle_ns, ktime_get_mono_fast_ns());
	WRITE_ONCE(g->selects, g->selects + 1);
	return req;
}

static struct cpuidle_governor coupled_idle_gov = {
	.name = "coupled_test",
	.rating = 1000,
	.select = gov_select,
};

/**
 * coupled_idle_gov_init() - seed the CPUs' draws, register the governor
 *
 * Context: insmod.
 * Return: what cpuidle_register_governor() returns.
 */
static int __init coupled_idle_gov_init(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		prandom_seed_state(&gov_rng[cpu], 0x90e1ULL + cpu);
	return cpuidle_register_governor(&coupled_idle_gov);
}

/* No module_exit(): a registered governor cannot be removed. */
module_init(coupled_idle_gov_init);
MODULE_DESCRIPTION("cpuidle governor of the coupled idle tests");
MODULE_LICENSE("Dual MIT/GPL");

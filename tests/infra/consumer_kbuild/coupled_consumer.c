// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * A module built against the installed package: the core with the Linux
 * adapter, and the cpuidle helper wired to a driver's ->enter.
 */
#include <linux/module.h>
#include <linux/preempt.h>

#include <coupled/coupled.h>
#include <coupled/linux/cpuidle.h>

static struct coupled_group group;
static struct coupled_slot slots[1];
static struct coupled_cpuidle idle;

static void action(const struct coupled_round *round, void *ctx)
{
	*(int32_t *)ctx = round->param;
}

static void safe_state(void *arg)
{
	cpu_relax();
}

static int enter(struct cpuidle_device *dev, struct cpuidle_driver *drv,
		 const struct coupled_round *round, void *arg)
{
	return round->param;
}

static const struct coupled_cpuidle_ops ops = {
	.safe_state = safe_state,
	.enter = enter,
	.safe_index = 0,
};

static int coupled_consumer_enter(struct cpuidle_device *dev,
				  struct cpuidle_driver *drv, int index)
{
	return coupled_cpuidle_enter(&idle, dev, drv, index);
}

/* A driver's coupled state (not registered: the module only builds it). */
struct cpuidle_driver coupled_consumer_driver = {
	.name = "coupled_consumer",
	.owner = THIS_MODULE,
	.states[0] = {
		.enter = coupled_consumer_enter,
		.name = "C-coupled",
	},
	.state_count = 1,
};
EXPORT_SYMBOL_GPL(coupled_consumer_driver);

static int __init coupled_consumer_init(void)
{
	int32_t param = -1;
	int rc;

	rc = coupled_group_init(&group, slots, 1, 1, NULL);
	if (rc)
		return -EINVAL;
	preempt_disable();
	rc = coupled_enter(&group, 0, 2, action, &param);
	preempt_enable();
	if (rc != COUPLED_COMMITTED || param != 2)
		return -EIO;
	return coupled_cpuidle_init(&idle, &ops, NULL);
}

static void __exit coupled_consumer_exit(void)
{
	coupled_cpuidle_exit(&idle);
}

module_init(coupled_consumer_init);
module_exit(coupled_consumer_exit);
MODULE_LICENSE("Dual MIT/GPL");
MODULE_DESCRIPTION("coupled: a consumer of the installed headers");

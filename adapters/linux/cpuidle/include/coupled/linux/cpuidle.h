/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/linux/cpuidle.h - coupled cpuidle states for any kernel, on top of
 * the coupled rendezvous (coupled/coupled.h with the Linux adapter).  A
 * client of the library: it uses the public API only, plus the Linux
 * adapter's own calls (adapters/linux/cpuidle/README.md).
 *
 * A cpuidle driver whose deepest state can only be entered by all CPUs of a
 * cluster together calls coupled_cpuidle_enter() from that state's ->enter.
 * The helper keeps one coupled group per cluster, makes the CPUs of the
 * cluster rendezvous, and runs the driver's coupled callback on all of them
 * in the same round with the same state index (the shallowest of the states
 * they asked for).  Anything that stops the round (need_resched(), a CPU
 * going offline or being unregistered) makes every waiting CPU fall back to
 * the driver's safe state, as the kernel's own coupled idle
 * (drivers/cpuidle/coupled.c) does.  That one is built only with
 * CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED, which x86 and arm64 lack and 32-bit
 * ARM distribution kernels build without CONFIG_CPU_IDLE.
 *
 * Usage (docs/linux.md has a worked example):
 *
 *   static struct coupled_cpuidle cc;
 *   coupled_cpuidle_init(&cc, &my_ops, my_arg);       module init
 *   for_each_possible_cpu(cpu)
 *           coupled_cpuidle_register_cpu(&cc, cpu);    any order
 *   cpuidle_register(&my_driver, NULL);
 *   ...
 *   .enter of the coupled state:
 *           return coupled_cpuidle_enter(&cc, dev, drv, index);
 *   ...
 *   cpuidle_unregister(&my_driver);
 *   coupled_cpuidle_unregister_cpu(&cc, cpu);          any order
 *   coupled_cpuidle_exit(&cc);
 *
 * Membership: a CPU takes part in its cluster's rounds while it is both
 * registered and online.  CPU hotplug goes through a multi-instance cpuhp
 * state in the CPUHP_AP_ONLINE_DYN range: the online callback joins
 * (coupled_join()), the offline callback leaves (coupled_leave()); both run
 * on the CPU concerned, which is therefore not inside its own ->enter.
 *
 * Lifetime: a cluster's group is allocated when the first CPU of the cluster
 * registers and freed when the last one unregisters, by a kref whose
 * release runs at zero (Linux's coupled.c frees when the count is *not*
 * zero).  Before it is freed, every CPU has left the group (so no round can
 * use it), every ->enter that might have read the cluster pointer has
 * returned (a per-CPU "active" flag, a Dekker pair with the unregistering
 * side), and every poke IPI queued to its slots has run
 * (coupled_linux_slot_quiesce()).
 *
 * Interrupts (verified against 6.1 and later): ->enter is called with
 * interrupts disabled and, inside ct_idle_enter(), with RCU not watching.
 * Since 6.2 the cpuidle core warns ("leaked IRQ state") if ->enter returns
 * with interrupts enabled; 6.1 has no such check and enables interrupts
 * itself after ->enter (cpuidle_enter_state() calls local_irq_enable() for
 * every state that is not CPUIDLE_FLAG_COUPLED under
 * CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED).  So coupled_cpuidle_enter() returns
 * with interrupts disabled, which is correct for both.  The driver's safe
 * state may open interrupts while it rests (x86 "sti; hlt") and must close
 * them before it returns.  Do not set CPUIDLE_FLAG_COUPLED on the state: on
 * a kernel with CONFIG_ARCH_NEEDS_CPU_IDLE_COUPLED the core would then run
 * its own coupling in front of this one.
 *
 * Needs: CONFIG_CPU_IDLE, CONFIG_SMP; the GPL-only exports
 * smp_call_function_single_async, __cpuhp_state_add_instance and
 * __cpuhp_state_remove_instance, so the including module must carry a
 * GPL-compatible MODULE_LICENSE (the project's is "Dual MIT/GPL").
 */
#ifndef COUPLED_LINUX_CPUIDLE_H
#define COUPLED_LINUX_CPUIDLE_H

#ifndef COUPLED_ADAPTER_LINUX
#error "coupled/linux/cpuidle.h runs on the Linux adapter: define COUPLED_ADAPTER_LINUX"
#endif

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpuidle.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include <coupled/coupled.h>

/**
 * struct coupled_cpuidle_ops - what the driver supplies
 * @cluster_of: the cluster of a CPU (a small integer >= 0); NULL puts every
 *              CPU in cluster 0
 * @safe_state: the safe state, entered while waiting for the cluster and as
 *              the fallback; called with interrupts disabled, returns with
 *              them disabled, returns when an interrupt is pending
 * @enter: the coupled state itself: called on every CPU of the cluster in
 *         the same round, with interrupts disabled; @round->param is the
 *         state index all of them allow; coupled_barrier() and
 *         coupled_vote() work inside.  Returns the index entered (e.g.
 *         @safe_index after an abort voted together) or a negative errno.
 * @safe_index: the cpuidle index reported when the helper fell back to
 *              @safe_state
 */
struct coupled_cpuidle_ops {
	int (*cluster_of)(unsigned int cpu);
	void (*safe_state)(void *arg);
	int (*enter)(struct cpuidle_device *dev, struct cpuidle_driver *drv,
		     const struct coupled_round *round, void *arg);
	int safe_index;
};

/**
 * struct coupled_cpuidle_cluster - one cluster's group (helper-private)
 * @ref: one reference per registered CPU of the cluster
 * @node: in &struct coupled_cpuidle.clusters
 * @owner: the helper instance
 * @id: the cluster id
 * @capacity: number of possible CPUs in the cluster (the group's ids)
 * @group: the coupled group; id i is the i-th possible CPU of the cluster
 * @slots: the group's slots
 */
struct coupled_cpuidle_cluster {
	struct kref ref;
	struct list_head node;
	struct coupled_cpuidle *owner;
	int id;
	unsigned int capacity;
	struct coupled_group group;
	struct coupled_slot slots[];
};

/**
 * struct coupled_cpuidle_cpu - per-CPU state (helper-private)
 * @cluster: the CPU's cluster while it is registered, else NULL
 * @id: the CPU's id in its cluster's group
 * @online: set by the cpuhp callbacks
 * @active: 1 while coupled_cpuidle_enter() may use @cluster
 * @commits: committed rounds of this CPU (written by the CPU only)
 * @aborts: calls that gave up, by COUPLED_ABORT_* reason
 * @fallbacks: times the helper entered the safe state instead
 */
struct coupled_cpuidle_cpu {
	struct coupled_cpuidle_cluster *cluster;
	unsigned int id;
	bool online;
	atomic_t active;
	unsigned long commits;
	unsigned long aborts[COUPLED_ABORT_REASONS];
	unsigned long fallbacks;
};

/**
 * struct coupled_cpuidle - one driver's coupled states (caller storage)
 * @ops: the driver's callbacks
 * @arg: argument of the callbacks
 * @lock: serialises registration and the cpuhp callbacks
 * @clusters: live clusters
 * @nr_clusters: number of live clusters (for tests and diagnostics)
 * @cpus: per-CPU state, nr_cpu_ids entries
 * @hp_state: the dynamic cpuhp state
 * @hp_node: this instance of it
 */
struct coupled_cpuidle {
	const struct coupled_cpuidle_ops *ops;
	void *arg;
	struct mutex lock;
	struct list_head clusters;
	atomic_t nr_clusters;
	struct coupled_cpuidle_cpu *cpus;
	int hp_state;
	struct hlist_node hp_node;
};

/**
 * coupled__cpuidle_cluster_of() - a CPU's cluster id
 * @cc: the helper instance
 * @cpu: a possible CPU
 *
 * Return: the id (>= 0) or a negative errno from the driver.
 */
static inline int coupled__cpuidle_cluster_of(struct coupled_cpuidle *cc,
					      unsigned int cpu)
{
	return cc->ops->cluster_of ? cc->ops->cluster_of(cpu) : 0;
}

/**
 * coupled__cpuidle_online() - cpuhp online callback: join
 * @cpu: the CPU coming online (we run on it)
 * @node: &struct coupled_cpuidle.hp_node
 *
 * Context: the CPU's hotplug thread, may sleep.
 * Return: 0, or a negative errno that aborts the hotplug operation.
 */
static inline int coupled__cpuidle_online(unsigned int cpu,
					  struct hlist_node *node)
{
	struct coupled_cpuidle *cc =
		hlist_entry(node, struct coupled_cpuidle, hp_node);
	struct coupled_cpuidle_cpu *pc = &cc->cpus[cpu];
	int ret = 0;

	mutex_lock(&cc->lock);
	pc->online = true;
	if (pc->cluster && coupled_join(&pc->cluster->group, pc->id) != 0)
		ret = -EINVAL;
	mutex_unlock(&cc->lock);
	return ret;
}

/**
 * coupled__cpuidle_offline() - cpuhp offline callback: leave
 * @cpu: the CPU going offline (we run on it, so it is not in ->enter)
 * @node: &struct coupled_cpuidle.hp_node
 *
 * The other CPUs of the cluster waiting in ->enter see the change, fall back
 * to the safe state, and afterwards form rounds without @cpu.
 *
 * Context: the CPU's hotplug thread, may sleep.
 * Return: 0 (a teardown callback must not fail).
 */
static inline int coupled__cpuidle_offline(unsigned int cpu,
					   struct hlist_node *node)
{
	struct coupled_cpuidle *cc =
		hlist_entry(node, struct coupled_cpuidle, hp_node);
	struct coupled_cpuidle_cpu *pc = &cc->cpus[cpu];

	mutex_lock(&cc->lock);
	if (pc->cluster)
		(void)coupled_leave(&pc->cluster->group, pc->id);
	pc->online = false;
	mutex_unlock(&cc->lock);
	return 0;
}

/**
 * coupled_cpuidle_init() - set up the helper for one driver
 * @cc: the instance (caller storage, e.g. a static)
 * @ops: the driver's callbacks; @ops->safe_state and @ops->enter are required
 * @arg: their argument
 *
 * Installs the cpuhp state; CPUs take part once registered.
 *
 * Context: process context, may sleep; takes the CPU hotplug lock.
 * Return: 0, -EINVAL for missing callbacks, -ENOMEM, or the error of
 * cpuhp_setup_state_multi()/cpuhp_state_add_instance().
 */
static inline int coupled_cpuidle_init(struct coupled_cpuidle *cc,
				       const struct coupled_cpuidle_ops *ops,
				       void *arg)
{
	int ret;

	if (!cc || !ops || !ops->safe_state || !ops->enter)
		return -EINVAL;
	cc->ops = ops;
	cc->arg = arg;
	mutex_init(&cc->lock);
	INIT_LIST_HEAD(&cc->clusters);
	atomic_set(&cc->nr_clusters, 0);
	cc->cpus = kcalloc(nr_cpu_ids, sizeof(*cc->cpus), GFP_KERNEL);
	if (!cc->cpus)
		return -ENOMEM;
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
				      "cpuidle/coupled:online",
				      coupled__cpuidle_online,
				      coupled__cpuidle_offline);
	if (ret < 0)
		goto free;
	cc->hp_state = ret;
	ret = cpuhp_state_add_instance(cc->hp_state, &cc->hp_node);
	if (ret)
		goto remove;
	return 0;
remove:
	cpuhp_remove_multi_state(cc->hp_state);
free:
	kfree(cc->cpus);
	cc->cpus = NULL;
	return ret;
}

/**
 * coupled__cpuidle_cluster_new() - allocate and initialise a cluster group
 * @cc: the instance
 * @id: the cluster id
 *
 * Context: @cc->lock held.
 * Return: the cluster, or NULL (no memory, or no possible CPU has @id).
 */
static inline struct coupled_cpuidle_cluster *
coupled__cpuidle_cluster_new(struct coupled_cpuidle *cc, int id)
{
	struct coupled_cpuidle_cluster *cl;
	unsigned int cpu, n = 0, i = 0;

	for_each_possible_cpu(cpu) if (coupled__cpuidle_cluster_of(cc, cpu) ==
				       id) n++;
	if (!n || n > COUPLED_MAX_MEMBERS)
		return NULL;
	cl = kzalloc(struct_size(cl, slots, n), GFP_KERNEL);
	if (!cl)
		return NULL;
	if (coupled_group_init(&cl->group, cl->slots, n, 0, NULL)) {
		kfree(cl);
		return NULL;
	}
	coupled_linux_set_safe_state(coupled_group_adapter(&cl->group),
				     cc->ops->safe_state, cc->arg);
	for_each_possible_cpu(cpu) if (coupled__cpuidle_cluster_of(cc, cpu) ==
				       id)(void)
		coupled_linux_set_cpu(
			coupled_participant_adapter(&cl->group, i++), cpu);
	kref_init(&cl->ref);
	cl->owner = cc;
	cl->id = id;
	cl->capacity = n;
	list_add(&cl->node, &cc->clusters);
	atomic_inc(&cc->nr_clusters);
	return cl;
}

/**
 * coupled__cpuidle_cluster_release() - free a cluster nobody uses any more
 * @ref: the cluster's kref, now zero
 *
 * Context: @cc->lock held; every CPU of the cluster has left the group and
 * is out of coupled_cpuidle_enter() for this cluster.
 */
static inline void coupled__cpuidle_cluster_release(struct kref *ref)
{
	struct coupled_cpuidle_cluster *cl =
		container_of(ref, struct coupled_cpuidle_cluster, ref);
	unsigned int i;

	list_del(&cl->node);
	for (i = 0; i < cl->capacity; i++)
		coupled_linux_slot_quiesce(
			coupled_participant_adapter(&cl->group, i));
	atomic_dec(&cl->owner->nr_clusters);
	kfree(cl);
}

/**
 * coupled_cpuidle_register_cpu() - let a CPU take part in coupled states
 * @cc: the instance
 * @cpu: a possible CPU
 *
 * Finds or creates the CPU's cluster group and, if the CPU is online, makes
 * it a member.  CPUs may register and unregister in any order.
 *
 * Context: process context, may sleep; takes the CPU hotplug lock.
 * Return: 0; -EINVAL for a bad @cpu or a negative cluster id; -EEXIST if
 * already registered; -ENOMEM.
 */
static inline int coupled_cpuidle_register_cpu(struct coupled_cpuidle *cc,
					       unsigned int cpu)
{
	struct coupled_cpuidle_cpu *pc;
	struct coupled_cpuidle_cluster *cl, *found = NULL;
	unsigned int c, rank = 0;
	int id, ret = 0;

	if (!cc || !cc->cpus || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	id = coupled__cpuidle_cluster_of(cc, cpu);
	if (id < 0)
		return -EINVAL;
	pc = &cc->cpus[cpu];
	cpus_read_lock();
	mutex_lock(&cc->lock);
	if (pc->cluster) {
		ret = -EEXIST;
		goto out;
	}
	list_for_each_entry(cl, &cc->clusters, node) if (cl->id == id)
		found = cl;
	if (found) {
		kref_get(&found->ref);
	} else {
		found = coupled__cpuidle_cluster_new(cc, id);
		if (!found) {
			ret = -ENOMEM;
			goto out;
		}
	}
	for_each_possible_cpu(c)
	{
		if (c == cpu)
			break;
		if (coupled__cpuidle_cluster_of(cc, c) == id)
			rank++;
	}
	pc->id = rank;
	/* Published before the join, so ->enter finds it as a member. */
	WRITE_ONCE(pc->cluster, found);
	if (pc->online && coupled_join(&found->group, rank) != 0)
		ret = -EINVAL; /* cannot happen: rank < capacity, not a member */
out:
	mutex_unlock(&cc->lock);
	cpus_read_unlock();
	return ret;
}

/**
 * coupled_cpuidle_unregister_cpu() - stop a CPU taking part
 * @cc: the instance
 * @cpu: a registered CPU
 *
 * Makes the CPU leave its group (the others fall back to the safe state
 * and go on without it), waits until the CPU is out of
 * coupled_cpuidle_enter(), and drops its reference to the cluster: the last
 * CPU of a cluster frees the group.
 *
 * Context: process context, may sleep; takes the CPU hotplug lock.
 * Return: 0, -EINVAL for a bad @cpu, -ENOENT if @cpu is not registered.
 */
static inline int coupled_cpuidle_unregister_cpu(struct coupled_cpuidle *cc,
						 unsigned int cpu)
{
	struct coupled_cpuidle_cpu *pc;
	struct coupled_cpuidle_cluster *cl;

	if (!cc || !cc->cpus || cpu >= nr_cpu_ids)
		return -EINVAL;
	pc = &cc->cpus[cpu];
	cpus_read_lock();
	mutex_lock(&cc->lock);
	cl = pc->cluster;
	if (!cl) {
		mutex_unlock(&cc->lock);
		cpus_read_unlock();
		return -ENOENT;
	}
	if (pc->online)
		(void)coupled_leave(&cl->group, pc->id);
	WRITE_ONCE(pc->cluster, NULL);
	/*
	 * full barrier: a Dekker pair with coupled_cpuidle_enter() (set
	 * active, smp_mb(), read cluster): either it sees NULL, or we see it
	 * active here and wait until it is done with @cl.
	 */
	smp_mb();
	while (atomic_read_acquire(&pc->active))
		cond_resched();
	kref_put(&cl->ref, coupled__cpuidle_cluster_release);
	mutex_unlock(&cc->lock);
	cpus_read_unlock();
	return 0;
}

/**
 * coupled_cpuidle_exit() - tear the helper down
 * @cc: the instance
 *
 * Unregisters any CPU still registered and removes the cpuhp state.
 *
 * Context: process context, may sleep; after the cpuidle driver using @cc
 * was unregistered (no ->enter can start any more).
 */
static inline void coupled_cpuidle_exit(struct coupled_cpuidle *cc)
{
	unsigned int cpu;

	if (!cc || !cc->cpus)
		return;
	for_each_possible_cpu(cpu)(void)
		coupled_cpuidle_unregister_cpu(cc, cpu);
	(void)cpuhp_state_remove_instance(cc->hp_state, &cc->hp_node);
	cpuhp_remove_multi_state(cc->hp_state);
	kfree(cc->cpus);
	cc->cpus = NULL;
}

/**
 * struct coupled__cpuidle_call - one ->enter call (helper-private)
 * @cc: the instance
 * @dev: the cpuidle device
 * @drv: the cpuidle driver
 * @entered: what the driver's enter callback returned
 */
struct coupled__cpuidle_call {
	struct coupled_cpuidle *cc;
	struct cpuidle_device *dev;
	struct cpuidle_driver *drv;
	int entered;
};

/**
 * coupled__cpuidle_action() - the shared action: the driver's coupled state
 * @round: the round (same param on every CPU of the cluster)
 * @ctx: struct coupled__cpuidle_call
 *
 * Context: interrupts disabled, every member of the round runs it.
 */
static inline void coupled__cpuidle_action(const struct coupled_round *round,
					   void *ctx)
{
	struct coupled__cpuidle_call *call = ctx;

	call->entered = call->cc->ops->enter(call->dev, call->drv, round,
					     call->cc->arg);
}

/**
 * coupled_cpuidle_enter() - the ->enter of a coupled state
 * @cc: the instance
 * @dev: the cpuidle device of this CPU
 * @drv: the cpuidle driver
 * @index: the state the governor chose (the request of this CPU)
 *
 * Waits in the safe state until every online registered CPU of the cluster
 * is here, then runs @cc->ops->enter on all of them with the shallowest
 * index any of them asked for.  If the round cannot happen (need_resched(),
 * a hotplug or registration change, this CPU not registered) it enters the
 * safe state once instead, unless a reschedule is pending.
 *
 * Context: cpuidle ->enter: interrupts disabled, RCU not watching; returns
 * with interrupts disabled.
 * Return: the index entered: the driver's result for a committed round,
 * else @cc->ops->safe_index.
 */
static inline int coupled_cpuidle_enter(struct coupled_cpuidle *cc,
					struct cpuidle_device *dev,
					struct cpuidle_driver *drv, int index)
{
	struct coupled_cpuidle_cpu *pc = &cc->cpus[dev->cpu];
	struct coupled_cpuidle_cluster *cl;
	struct coupled__cpuidle_call call = {
		.cc = cc,
		.dev = dev,
		.drv = drv,
		.entered = -EINVAL,
	};
	int rc = COUPLED_ENOENT;

	atomic_set(&pc->active, 1);
	/* full barrier: the Dekker pair with coupled_cpuidle_unregister_cpu(). */
	smp_mb();
	cl = READ_ONCE(pc->cluster);
	if (cl)
		rc = coupled_enter(&cl->group, pc->id, index,
				   coupled__cpuidle_action, &call);
	/* release: everything done with @cl happens before the unregister. */
	atomic_set_release(&pc->active, 0);

	if (rc == COUPLED_COMMITTED) {
		WRITE_ONCE(pc->commits, pc->commits + 1);
		return call.entered;
	}
	if (rc > 0 && rc < COUPLED_ABORT_REASONS)
		WRITE_ONCE(pc->aborts[rc], pc->aborts[rc] + 1);
	if (!need_resched()) {
		WRITE_ONCE(pc->fallbacks, pc->fallbacks + 1);
		cc->ops->safe_state(cc->arg);
	}
	return cc->ops->safe_index;
}

#endif /* COUPLED_LINUX_CPUIDLE_H */

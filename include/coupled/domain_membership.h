/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/domain_membership.h - a core's membership at every level of its
 * domain as one step: the tree's gate, coupled_domain_join() and
 * coupled_domain_leave().
 *
 * Part of coupled/domain.h (the API and its contracts are there).
 *
 * The split it prevents: a level-k round commits with cores A and B, then
 * a change takes B out of level k + 1 before they try it; A commits level
 * k + 1 without B while B learns it is no member there.  A and B need not
 * share a leaf (with a leaf per core, as PSCI has it, they never do), and
 * the change touches every level up to the root, whose rounds hold every
 * core of the tree.  So a change first closes the gate of the whole tree,
 * kept at the root, and waits until no domain call of any core of the tree
 * is in progress (coupled__domain_gate_close()); new calls give up at once,
 * waiting ones are woken and give up.  Only then does it change the levels,
 * one by one, and open the gate.  While any level's membership changes, no
 * round of any level is alive or can commit: every round is inside calls
 * of its cores.  A round that committed before the change ends with its
 * calls, before the change begins, so its cores learn one outcome for every
 * level above it (docs/design.md, "Coupled domains").
 */
#include "domain.h" /* first: this file is part of coupled/domain.h */

#ifndef COUPLED_DOMAIN_MEMBERSHIP_H
#define COUPLED_DOMAIN_MEMBERSHIP_H

/**
 * coupled__domain_gate_close() - stop a tree's calls and wait until none is
 *                                in progress
 * @gate: the node that holds the tree's gate (coupled__domain_gate())
 * @root: the tree's root, the head of its list of nodes
 *
 * Takes the gate (the lock between the tree's changers), kicks every
 * node's group so that waiting cores poll their abort sources and see it,
 * then waits for the tree's call count to drop to 0.
 *
 * Context: a changer, not inside a domain call of the tree; may wait.
 */
static inline void coupled__domain_gate_close(struct coupled_domain *gate,
					      struct coupled_domain *root)
{
	struct coupled_domain *d;
	uint32_t expected = 0;

	/*
	 * seq_cst on success: the changer's half of the Dekker pair with
	 * coupled__domain_call_begin() (this RMW, then the seq_cst load of
	 * calls below); as an RMW reading the previous changer's release
	 * store of 0, also its acquire.  relaxed on failure: we retry.
	 */
	while (!coupled_cas(&gate->changing, &expected, 1u, COUPLED_SEQ_CST,
			    COUPLED_RELAXED)) {
		expected = 0;
		coupled_adapter_relax(coupled_group_adapter(gate->group));
	}
	/*
	 * The kicks follow the store of changing: a waiter whose wait one
	 * ends, or whose wait preparation reads its token, polls after it
	 * (coupled__domain_gate_closed()).  Every node: a core of any leaf
	 * may wait in any round of the tree, its own leaf's included.
	 */
	for (d = root; d; d = d->next)
		(void)coupled_group_kick(d->group);
	/*
	 * seq_cst: the other half of the pair with _call_begin(); reading 0
	 * also acquires every finished call's release in _call_end().
	 */
	while (coupled_load(&gate->calls, COUPLED_SEQ_CST)) {
		COUPLED_HOOK(gate->group, gate->group->capacity,
			     COUPLED_HOOK_DOMAIN_DRAIN);
		coupled_adapter_relax(coupled_group_adapter(gate->group));
	}
}

/**
 * coupled__domain_gate_open() - let a tree's calls run again
 * @gate: the node that holds the tree's gate, held by the caller
 *
 * Context: the changer that closed the gate.
 */
static inline void coupled__domain_gate_open(struct coupled_domain *gate)
{
	/*
	 * release: pairs with the seq_cst load of changing in
	 * coupled__domain_call_begin() and with the next changer's CAS: what
	 * the change wrote happens before every call that finds the gate
	 * open (each group also publishes its own change).
	 */
	coupled_store(&gate->changing, 0u, COUPLED_RELEASE);
}

/**
 * coupled__domain_change_begin() - checks common to join and leave, then
 * the gate closed
 * @leaf: the core's leaf node
 * @core: its id in the leaf's group
 * @node: filled with the nodes, leaf first
 * @id: filled with the core's id in each node's group
 * @levels: set to the number of levels
 * @joining: true for coupled_domain_join() (@core must not be a member of
 *           the leaf), false for coupled_domain_leave() (it must be one)
 *
 * Context: a changer.
 * Return: 0 with the tree's gate closed (coupled__domain_gate_close()): the
 * caller changes the levels and opens it; COUPLED_EINVAL, COUPLED_ERANGE as
 * coupled__domain_checked_path(); COUPLED_EPERM if the caller is inside a
 * call of any node's group of the tree (closing the gate would wait for
 * itself; found where the adapter names execution contexts); COUPLED_EEXIST
 * or COUPLED_ENOENT for a refused request, which closes nothing
 * (coupled_join() or coupled_leave() check again under the gate).
 */
static inline int coupled__domain_change_begin(struct coupled_domain *leaf,
					       uint32_t core,
					       struct coupled_domain **node,
					       uint32_t *id, uint32_t *levels,
					       bool joining)
{
	struct coupled_domain *root, *d;
	int ret;

	ret = coupled__domain_checked_path(leaf, core, node, id, levels);
	if (ret)
		return ret;
	root = node[*levels - 1];
	/*
	 * Every node, not only the path: a domain call of any core of the
	 * tree holds the gate open, and the caller's code that a call runs
	 * (action, should_abort, work check) runs inside its leaf's group.
	 */
	for (d = root; d; d = d->next)
		if (coupled__caller_inside(d->group))
			return COUPLED_EPERM;
	if (coupled_is_member(leaf->group, core) == joining)
		return joining ? COUPLED_EEXIST : COUPLED_ENOENT;
	coupled__domain_gate_close(coupled__domain_gate(node, *levels), root);
	COUPLED_HOOK(leaf->group, leaf->group->capacity,
		     COUPLED_HOOK_DOMAIN_CHANGE);
	return 0;
}

static inline int coupled_domain_join(struct coupled_domain *leaf,
				      uint32_t core)
{
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], levels, k;
	int ret;

	ret = coupled__domain_change_begin(leaf, core, node, id, &levels, true);
	if (ret)
		return ret;
	for (k = 0; k < levels; k++) {
		ret = coupled_join(node[k]->group, id[k]);
		if (ret) {
			while (k--)
				(void)coupled_leave(node[k]->group, id[k]);
			break;
		}
	}
	coupled__domain_gate_open(coupled__domain_gate(node, levels));
	return ret;
}

static inline int coupled_domain_leave(struct coupled_domain *leaf,
				       uint32_t core)
{
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], levels, k;
	int ret;

	ret = coupled__domain_change_begin(leaf, core, node, id, &levels,
					   false);
	if (ret)
		return ret;
	for (k = levels; k--;) {
		ret = coupled_leave(node[k]->group, id[k]);
		if (ret) {
			while (++k < levels)
				(void)coupled_join(node[k]->group, id[k]);
			break;
		}
	}
	coupled__domain_gate_open(coupled__domain_gate(node, levels));
	return ret;
}

#endif /* COUPLED_DOMAIN_MEMBERSHIP_H */

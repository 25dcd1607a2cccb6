/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * domain_tree.h - the domain tree of the domain tests (coupled/domain.h):
 * a root, its clusters and (with three levels) the leaves of each cluster,
 * or the PSCI shape (every core its own leaf, under levels of a fixed
 * fan-out), in the caller's storage.  Used by the hosted domain tests (through
 * tests/core/domain/tree.h), the bare-metal domain torture and the kernel's
 * domain test.
 *
 * The cores are numbered by their id in the root's group ("global" core
 * numbers): cluster 0's cores first, then cluster 1's, and so on.  Every
 * node knows its level, its first global core and how many cores it has.
 *
 * Freestanding, like the core: no C library, no allocation.  The sizes are
 * compile-time (DOMAIN_TREE_MAX_CORES, DOMAIN_TREE_MAX_NODES; define them
 * before including to change them).
 */
#ifndef COUPLED_TEST_DOMAIN_TREE_H
#define COUPLED_TEST_DOMAIN_TREE_H

#include "coupled/domain.h"

#ifndef DOMAIN_TREE_MAX_CORES
#define DOMAIN_TREE_MAX_CORES 16u
#endif
#ifndef DOMAIN_TREE_MAX_NODES
#define DOMAIN_TREE_MAX_NODES 24u
#endif

/**
 * struct domain_tree - nodes, groups and slots of one domain tree
 * @nodes: how many nodes are set up (the root is node 0)
 * @cores: how many cores the root holds
 * @levels: the depth of every leaf (2 or 3; the PSCI shape up to
 *          COUPLED_DOMAIN_MAX_LEVELS)
 * @node: the nodes
 * @group: their groups
 * @slots: the groups' slots, DOMAIN_TREE_MAX_CORES per node
 * @level: per node, its level (0: a leaf)
 * @first: per node, the global number of its core 0
 * @ncores: per node, its cores
 * @leaf: per core, its leaf
 * @id: per core, its id in its leaf
 * @cluster: per core, the index of its cluster (node under the root;
 *           with one level, 0)
 */
struct domain_tree {
	uint32_t nodes;
	uint32_t cores;
	uint32_t levels;
	struct coupled_domain node[DOMAIN_TREE_MAX_NODES];
	struct coupled_group group[DOMAIN_TREE_MAX_NODES];
	struct coupled_slot slots[DOMAIN_TREE_MAX_NODES][DOMAIN_TREE_MAX_CORES];
	uint32_t level[DOMAIN_TREE_MAX_NODES];
	uint32_t first[DOMAIN_TREE_MAX_NODES];
	uint32_t ncores[DOMAIN_TREE_MAX_NODES];
	struct coupled_domain *leaf[DOMAIN_TREE_MAX_CORES];
	uint32_t id[DOMAIN_TREE_MAX_CORES];
	uint32_t cluster[DOMAIN_TREE_MAX_CORES];
};

/**
 * typedef domain_tree_setup_fn - the caller's set-up of one node's group
 * @t: the tree
 * @n: the node's index; its group is initialised, the node not yet
 * @arg: the caller's argument
 *
 * For the adapter's settings (wait strategy, safe state, CPU of each id,
 * work hook) and the first generation.
 *
 * Return: 0, or an error that stops the build.
 */
typedef int (*domain_tree_setup_fn)(struct domain_tree *t, uint32_t n,
				    void *arg);

/**
 * domain_tree__node() - set up one more node
 * @t: the tree
 * @level: its level
 * @first: its first global core
 * @ncores: its cores
 * @parent: the parent node, NULL for the root
 * @members: true to start with every id a member, false with none
 * @setup: NULL, or the caller's set-up of the node's group
 * @arg: @setup's argument
 *
 * Return: the node's index, or a negative COUPLED_E* error.
 */
static inline int domain_tree__node(struct domain_tree *t, uint32_t level,
				    uint32_t first, uint32_t ncores,
				    struct coupled_domain *parent, bool members,
				    domain_tree_setup_fn setup, void *arg)
{
	uint32_t n = t->nodes;
	int ret;

	if (n >= DOMAIN_TREE_MAX_NODES || ncores > DOMAIN_TREE_MAX_CORES)
		return COUPLED_ERANGE;
	t->nodes++;
	t->level[n] = level;
	t->first[n] = first;
	t->ncores[n] = ncores;
	ret = coupled_group_init(&t->group[n], t->slots[n], ncores,
				 members ? ncores : 0u, NULL);
	if (!ret && setup)
		ret = setup(t, n, arg);
	if (!ret)
		ret = coupled_domain_init(&t->node[n], &t->group[n], parent);
	return ret ? ret : (int)n;
}

/**
 * domain_tree_build() - set up a tree
 * @t: the tree (caller's storage, any content)
 * @clusters: how many clusters the root has
 * @cluster_cores: the cores of each cluster
 * @leaf_max: with three levels, the most cores of a leaf (a cluster is cut
 *            into leaves of @leaf_max cores and one of the rest); 0 for two
 *            levels (each cluster is a leaf)
 * @members: true: every id of every group starts a member; false: none
 *           (join each core with coupled_domain_join())
 * @setup: NULL, or the caller's set-up of each group
 * @arg: @setup's argument
 *
 * Nodes are set up root first, then each cluster followed by its leaves.
 *
 * Return: 0, COUPLED_ERANGE if the tree does not fit, or the first error of
 * a group, a node or @setup.
 */
static inline int domain_tree_build(struct domain_tree *t, uint32_t clusters,
				    const uint32_t *cluster_cores,
				    uint32_t leaf_max, bool members,
				    domain_tree_setup_fn setup, void *arg)
{
	uint32_t c, total = 0, core = 0, levels = leaf_max ? 3u : 2u;
	int root, ret;

	for (c = 0; c < clusters; c++) {
		if (!cluster_cores[c] ||
		    cluster_cores[c] > DOMAIN_TREE_MAX_CORES)
			return COUPLED_ERANGE;
		total += cluster_cores[c];
	}
	if (!clusters || total > DOMAIN_TREE_MAX_CORES)
		return COUPLED_ERANGE;
	t->nodes = 0;
	t->cores = total;
	t->levels = levels;
	root = domain_tree__node(t, levels - 1u, 0, total, NULL, members, setup,
				 arg);
	if (root < 0)
		return root;
	for (c = 0; c < clusters; c++) {
		uint32_t left = cluster_cores[c];
		int cl = domain_tree__node(t, levels - 2u, core, left,
					   &t->node[root], members, setup, arg);

		if (cl < 0)
			return cl;
		while (left) {
			uint32_t n = leaf_max && left > leaf_max ? leaf_max
								 : left;
			int leaf = cl;
			uint32_t k;

			if (leaf_max) {
				leaf = domain_tree__node(t, 0, core, n,
							 &t->node[cl], members,
							 setup, arg);
				if (leaf < 0)
					return leaf;
			}
			for (k = 0; k < n; k++, core++) {
				t->leaf[core] = &t->node[leaf];
				t->id[core] = k;
				t->cluster[core] = c;
			}
			left -= n;
		}
	}
	ret = core == total ? 0 : COUPLED_ERANGE;
	return ret;
}

/**
 * domain_tree__psci() - set up the subtree of one node of the PSCI shape
 * @t: the tree
 * @fanout: the children of a node, per level from the root down
 * @nfan: how many entries @fanout has (the levels above the leaves)
 * @k: @fanout's entry of this node, @nfan for a leaf
 * @core: the node's first global core, advanced past its cores
 * @cluster: the index of the node's ancestor under the root
 * @parent: the parent node, NULL for the root
 * @members: as domain_tree_build()
 * @setup: as domain_tree_build()
 * @arg: @setup's argument
 *
 * Return: 0, or a negative COUPLED_E* error.
 */
static inline int domain_tree__psci(struct domain_tree *t,
				    const uint32_t *fanout, uint32_t nfan,
				    uint32_t k, uint32_t *core,
				    uint32_t cluster,
				    struct coupled_domain *parent, bool members,
				    domain_tree_setup_fn setup, void *arg)
{
	uint32_t ncores = 1, c, j;
	int n, ret;

	for (j = k; j < nfan; j++)
		ncores *= fanout[j];
	n = domain_tree__node(t, nfan - k, *core, ncores, parent, members,
			      setup, arg);
	if (n < 0)
		return n;
	if (k == nfan) {
		t->leaf[*core] = &t->node[n];
		t->id[*core] = 0;
		t->cluster[*core] = cluster;
		(*core)++;
		return 0;
	}
	for (c = 0; c < fanout[k]; c++) {
		ret = domain_tree__psci(t, fanout, nfan, k + 1u, core,
					k ? cluster : c, &t->node[n], members,
					setup, arg);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * domain_tree_build_psci() - set up a tree in the PSCI shape
 * @t: the tree (caller's storage, any content)
 * @fanout: the children of each node, per level from the root down; the
 *          nodes of the last entry have that many leaves of one core each
 *          ({2, 2}: a root over 2 clusters of 2 cores, 3 levels; {2, 2, 2}:
 *          a root over 2 groups of 2 clusters of 2 cores, 4 levels)
 * @nfan: how many entries @fanout has, >= 1
 * @members: as domain_tree_build()
 * @setup: as domain_tree_build()
 * @arg: @setup's argument
 *
 * Every core is its own leaf, as PSCI's power domain trees have it: a
 * round of any level above the leaves holds cores of several leaves.
 * Nodes are set up root first, then each node followed by its subtree;
 * the cores are numbered in that order.  @cluster of a core is the index
 * of its ancestor under the root.
 *
 * Return: 0, COUPLED_ERANGE if the tree does not fit (cores, nodes or
 * levels), or the first error of a group, a node or @setup.
 */
static inline int domain_tree_build_psci(struct domain_tree *t,
					 const uint32_t *fanout, uint32_t nfan,
					 bool members,
					 domain_tree_setup_fn setup, void *arg)
{
	uint32_t j, cores = 1, nodes = 1, core = 0;
	int ret;

	if (!nfan || nfan >= COUPLED_DOMAIN_MAX_LEVELS)
		return COUPLED_ERANGE;
	for (j = 0; j < nfan; j++) {
		if (!fanout[j] || fanout[j] > DOMAIN_TREE_MAX_CORES ||
		    cores * fanout[j] > DOMAIN_TREE_MAX_CORES)
			return COUPLED_ERANGE;
		cores *= fanout[j];
		nodes += cores;
	}
	if (nodes > DOMAIN_TREE_MAX_NODES)
		return COUPLED_ERANGE;
	t->nodes = 0;
	t->cores = cores;
	t->levels = nfan + 1u;
	ret = domain_tree__psci(t, fanout, nfan, 0, &core, 0, NULL, members,
				setup, arg);
	if (!ret && core != cores)
		ret = COUPLED_ERANGE;
	return ret;
}

/**
 * domain_tree_index() - a node's index in its tree
 * @t: the tree
 * @d: one of its nodes
 *
 * Return: the index.
 */
static inline uint32_t domain_tree_index(const struct domain_tree *t,
					 const struct coupled_domain *d)
{
	return (uint32_t)(d - t->node);
}

/**
 * domain_tree_path() - the nodes and ids of core @core, leaf first
 * @t: the tree
 * @core: a global core number
 * @node: out, per level
 * @id: out, per level
 *
 * Return: the number of levels.
 */
static inline uint32_t domain_tree_path(struct domain_tree *t, uint32_t core,
					struct coupled_domain **node,
					uint32_t *id)
{
	struct coupled_domain *d = t->leaf[core];
	uint32_t k = 0;

	id[0] = t->id[core];
	for (; d && k < COUPLED_DOMAIN_MAX_LEVELS; d = d->parent, k++) {
		node[k] = d;
		if (k)
			id[k] = id[k - 1] + node[k - 1]->base;
	}
	return k;
}

#endif /* COUPLED_TEST_DOMAIN_TREE_H */

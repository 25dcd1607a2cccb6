/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * tree.h - a domain tree for the tests of coupled/domain.h: a root, its
 * clusters and (with three levels) the leaves of each cluster.
 *
 * The cores are numbered by their id in the root's group ("global" core
 * numbers): cluster 0's cores first, then cluster 1's, and so on.  Every
 * group starts with all its ids as members.
 *
 * Include after coupled/domain.h.
 */
#ifndef COUPLED_TEST_DOMAIN_TREE_H
#define COUPLED_TEST_DOMAIN_TREE_H

#include "coupled/domain.h"

#include "check.h"

#define TREE_MAX_CORES 16
#define TREE_MAX_NODES 24

/**
 * struct tree - nodes, groups and slots of one domain tree
 * @nodes: how many nodes are set up (the root is node 0)
 * @cores: how many cores the root holds
 * @levels: the depth of every leaf (2 or 3)
 * @node: the nodes
 * @group: their groups
 * @slots: the groups' slots, TREE_MAX_CORES per node
 * @leaf: per core, its leaf
 * @id: per core, its id in its leaf
 * @cluster: per core, the index of its cluster (node under the root)
 */
struct tree {
	uint32_t nodes;
	uint32_t cores;
	uint32_t levels;
	struct coupled_domain node[TREE_MAX_NODES];
	struct coupled_group group[TREE_MAX_NODES];
	struct coupled_slot slots[TREE_MAX_NODES][TREE_MAX_CORES];
	struct coupled_domain *leaf[TREE_MAX_CORES];
	uint32_t id[TREE_MAX_CORES];
	uint32_t cluster[TREE_MAX_CORES];
};

/* Set up one more node of @t with @capacity cores under @parent. */
static inline struct coupled_domain *tree__node(struct tree *t,
						uint32_t capacity,
						struct coupled_domain *parent,
						int strategy)
{
	uint32_t n = t->nodes++;

	CHECK(n < TREE_MAX_NODES && capacity <= TREE_MAX_CORES);
	CHECK_EQ(coupled_group_init(&t->group[n], t->slots[n], capacity,
				    capacity, NULL),
		 0);
#ifdef COUPLED_ADAPTER_PTHREAD
	CHECK_EQ(coupled_pthread_set_strategy(
			 coupled_group_adapter(&t->group[n]), strategy),
		 0);
#else
	(void)strategy;
#endif
	CHECK_EQ(coupled_domain_init(&t->node[n], &t->group[n], parent), 0);
	return &t->node[n];
}

/**
 * tree_build() - set up a tree
 * @t: the tree
 * @clusters: how many clusters the root has
 * @cluster_cores: the cores of each cluster
 * @leaf_max: with three levels, the most cores of a leaf (a cluster is cut
 *            into leaves of @leaf_max cores and one of the rest); 0 for two
 *            levels (each cluster is a leaf)
 * @strategy: the pthread adapter's wait strategy of every group
 */
static inline void tree_build(struct tree *t, uint32_t clusters,
			      const uint32_t *cluster_cores, uint32_t leaf_max,
			      int strategy)
{
	struct coupled_domain *root;
	uint32_t c, total = 0, core = 0;

	for (c = 0; c < clusters; c++)
		total += cluster_cores[c];
	CHECK(total <= TREE_MAX_CORES);
	t->nodes = 0;
	t->cores = total;
	t->levels = leaf_max ? 3 : 2;
	root = tree__node(t, total, NULL, strategy);
	for (c = 0; c < clusters; c++) {
		struct coupled_domain *cl =
			tree__node(t, cluster_cores[c], root, strategy);
		uint32_t left = cluster_cores[c];

		while (left) {
			uint32_t n = leaf_max && left > leaf_max ? leaf_max
								 : left;
			struct coupled_domain *leaf =
				leaf_max ? tree__node(t, n, cl, strategy) : cl;
			uint32_t k;

			for (k = 0; k < n; k++, core++) {
				t->leaf[core] = leaf;
				t->id[core] = k;
				t->cluster[core] = c;
			}
			left -= n;
		}
	}
	CHECK_EQ(core, total);
}

/**
 * tree_path() - the nodes and ids of core @core, leaf first
 * @t: the tree
 * @core: a global core number
 * @node: out, per level
 * @id: out, per level
 *
 * Return: the number of levels.
 */
static inline uint32_t tree_path(struct tree *t, uint32_t core,
				 struct coupled_domain **node, uint32_t *id)
{
	struct coupled_domain *d = t->leaf[core];
	uint32_t k = 0;

	id[0] = t->id[core];
	for (; d; d = d->parent, k++) {
		node[k] = d;
		if (k)
			id[k] = id[k - 1] + node[k - 1]->base;
	}
	return k;
}

#endif /* COUPLED_TEST_DOMAIN_TREE_H */

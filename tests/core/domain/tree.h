/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * tree.h - the domain tree of the hosted domain tests: the shared builder
 * of tests/common/domain_tree.h (a root, its clusters and, with three
 * levels, the leaves of each cluster), every group with all its ids as
 * members and the pthread adapter's wait strategy set, any failure of the
 * set-up a failed CHECK.
 *
 * Include after coupled/domain.h.
 */
#ifndef COUPLED_TEST_DOMAIN_HOSTED_TREE_H
#define COUPLED_TEST_DOMAIN_HOSTED_TREE_H

#include "coupled/domain.h"

#include "check.h"
#include "domain_tree.h"

#define TREE_MAX_CORES DOMAIN_TREE_MAX_CORES
#define TREE_MAX_NODES DOMAIN_TREE_MAX_NODES

/* The wait strategy of every group (the pthread adapter's; else unused). */
static inline int tree__setup(struct domain_tree *t, uint32_t n, void *arg)
{
#ifdef COUPLED_ADAPTER_PTHREAD
	return coupled_pthread_set_strategy(coupled_group_adapter(&t->group[n]),
					    *(const int *)arg);
#else
	(void)t;
	(void)n;
	(void)arg;
	return 0;
#endif
}

/**
 * tree_build() - set up a tree, every id a member (domain_tree_build())
 * @t: the tree
 * @clusters: how many clusters the root has
 * @cluster_cores: the cores of each cluster
 * @leaf_max: with three levels, the most cores of a leaf; 0 for two levels
 * @strategy: the pthread adapter's wait strategy of every group
 */
static inline void tree_build(struct domain_tree *t, uint32_t clusters,
			      const uint32_t *cluster_cores, uint32_t leaf_max,
			      int strategy)
{
	CHECK_EQ(domain_tree_build(t, clusters, cluster_cores, leaf_max, true,
				   tree__setup, &strategy),
		 0);
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
static inline uint32_t tree_path(struct domain_tree *t, uint32_t core,
				 struct coupled_domain **node, uint32_t *id)
{
	return domain_tree_path(t, core, node, id);
}

#endif /* COUPLED_TEST_DOMAIN_HOSTED_TREE_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/domain.h - coupled domains: cores, clusters and the system agree
 * level by level (power-domain hierarchies), built on the group API (and
 * the core's re-entry guard: docs/design.md, "Coupled domains", says where).
 *
 * A domain is a tree of nodes in the caller's storage.  Every node owns a
 * coupled group whose member ids are all the cores under the node: a leaf's
 * group holds its cores (ids 0..capacity-1), a parent's group holds the
 * cores of all its children, each child's cores as one block of ids
 * starting at the child's @base.  A core's level k is its leaf's k-th
 * ancestor (level 0: the leaf).  Up to COUPLED_DOMAIN_MAX_LEVELS levels.
 *
 *                     system (level 2): cores 0..7
 *                    /                        \
 *     cluster A (level 1): 0..3         cluster B (level 1): 0..3 = 4..7 above
 *       /          \                       /          \
 *   pair 0..1    pair 0..1 = 2..3       ...          ...      (level 0)
 *
 * One call per core, coupled_domain_enter(): the leaf is a round of the
 * leaf's group; inside a committed level-k round every core of it tries
 * level k + 1 with its request for that level; a level above the leaf
 * without a deadline is opportunistic (a core waits there only while every
 * core under it is in a call and nobody gave it up), a level with one is
 * waited for up to it; a core that gives a level up takes the other cores
 * of its round with it; the action runs once, inside the deepest committed
 * level's round.
 *
 * What holds, level by level (docs/design.md, "Coupled domains"):
 *  - a level commits only with every core under it in its round, all or
 *    none, with that level's reduction of their requests;
 *  - every core of a committed level-k round runs the action once with
 *    level k committed and the same parameter and generation; two cores of
 *    one committed round learn the same outcome for every level above it;
 *  - a level that cannot commit lets the levels below commit alone;
 *  - a core's membership changes at every level as one step: while
 *    coupled_domain_join() or coupled_domain_leave() changes any level, no
 *    domain call of any core of the tree is in progress, so no round ever
 *    sees the core as a member of one level and not of the level above,
 *    whatever the tree's shape (a leaf per core, as PSCI has it, or many
 *    cores per leaf).
 *
 * This file is the API: the types and every function, with its contract.
 * The bodies follow in coupled/domain_call.h (the call, level by level) and
 * coupled/domain_membership.h (the tree's gate, join and leave).
 */
#ifndef COUPLED_DOMAIN_H
#define COUPLED_DOMAIN_H

#include "coupled.h"

#define COUPLED_DOMAIN_MAX_LEVELS 8

/**
 * struct coupled_domain - one node of a domain tree
 * @group: this node's group: one member id per core under the node
 * @parent: the parent node, NULL at the root
 * @base: the id of this node's core 0 in the parent's group
 * @path_levels: the levels from this node up to the root, both included
 *               (1 at the root)
 * @assigned: ids of @group already given to children (coupled_domain_init())
 * @candidates: cores under this node inside a domain call that have not
 *              given this level up
 * @waiting: cores under this node trying this level's round right now
 * @abandoned: the generation of this node's last round whose cores gave the
 *             level above up (one of them did, so all must)
 * @changing: the root's only: 1 while a membership change of any core of
 *            the tree runs (the gate, also the lock between the changers)
 * @calls: the root's only: domain calls of the tree's cores in progress,
 *         entry to return
 * @next: the list of the tree's nodes, for the changer's kicks: the root's
 *        starts it, each node set up after the root is on it once, NULL
 *        ends it
 *
 * Caller's storage; set up with coupled_domain_init(), root first.
 * Who writes what: @group.. @assigned and @next only coupled_domain_init();
 * @candidates, @waiting, @abandoned and @calls the calls (RMWs, and
 * @abandoned a store); @changing the changers
 * (coupled/domain_membership.h).
 */
struct coupled_domain {
	struct coupled_group *group;
	struct coupled_domain *parent;
	struct coupled_domain *next;
	uint32_t base;
	uint32_t path_levels;
	uint32_t assigned;
	coupled_atomic_u32 candidates;
	coupled_atomic_u32 waiting;
	coupled_atomic_u32 abandoned;
	coupled_atomic_u32 changing;
	coupled_atomic_u32 calls;
};

/**
 * struct coupled_domain_level - what a call learned about one level
 * @committed: the level's round committed with this core in it
 * @outcome: COUPLED_COMMITTED, or why not: a COUPLED_ABORT_* reason of the
 *           level's round (COUPLED_ABORT_MEMBERSHIP also while a core under
 *           the caller's leaf joins or leaves), COUPLED_DOMAIN_CANNOT (a
 *           core under the level was busy or gave it up),
 *           COUPLED_DOMAIN_REFUSED (this core's request),
 *           COUPLED_DOMAIN_NOT_TRIED (a level below did not commit), or a
 *           negative error of the level's group
 * @param: the level's parameter (the reduction of its cores' requests)
 * @generation: the level's round generation
 * @members: how many cores the level's round has
 * @round: the level's round, for coupled_barrier() and coupled_vote() with
 *         the other cores of that level; NULL if not committed
 */
struct coupled_domain_level {
	bool committed;
	int outcome;
	int32_t param;
	uint32_t generation;
	uint32_t members;
	const struct coupled_round *round;
};

/**
 * struct coupled_domain_round - what the action learns
 * @core: the calling core's id in its leaf
 * @levels: the levels on the core's path (the leaf's path_levels)
 * @depth: how many levels committed: levels 0..@depth-1 did, the others
 *         did not; at least 1 (the action runs only after the leaf commits)
 * @level: one entry per level, 0 = the leaf
 */
struct coupled_domain_round {
	uint32_t core;
	uint32_t levels;
	uint32_t depth;
	struct coupled_domain_level level[COUPLED_DOMAIN_MAX_LEVELS];
};

/**
 * typedef coupled_domain_action_fn - the action of a domain call
 * @r: the outcome of every level (valid during the call only)
 * @ctx: the caller's context pointer
 *
 * Runs once per committed call, inside the round of every committed level.
 * May call coupled_barrier() and coupled_vote() on r->level[k].round for a
 * committed level k; every core of that level must make the same calls.
 */
typedef void (*coupled_domain_action_fn)(const struct coupled_domain_round *r,
					 void *ctx);

/**
 * coupled_domain_init() - set up one node of a domain tree
 * @d: the node
 * @group: its group, initialised (coupled_group_init()) with one id per
 *         core under the node; the members are what coupled_group_init()
 *         made them (join the others with coupled_domain_join())
 * @parent: the parent node, already set up, or NULL for the root
 *
 * The node's cores get the next free block of ids in @parent's group, so
 * set up the children of a node in the order of their ids there.  Leaves
 * need no call of their own beyond this one.  A core must be a member of
 * every level on its path or of none: give every group the same initial
 * members along each path, or start them empty and join the cores.
 *
 * Context: set-up, before any call on the tree, nothing concurrent.
 * Return: 0; COUPLED_EINVAL for a null @d or @group; COUPLED_ERANGE if the
 * block does not fit in @parent's group, or the tree would be deeper than
 * COUPLED_DOMAIN_MAX_LEVELS.  On error nothing is written.
 */
static inline int coupled_domain_init(struct coupled_domain *d,
				      struct coupled_group *group,
				      struct coupled_domain *parent);

/**
 * coupled_domain_enter_opts() - one core's call: commit as many levels as
 *                               can commit now, then run the action
 * @leaf: the core's leaf node
 * @core: the core's id in the leaf's group
 * @requests: one request per level (leaf first), the deepest state the core
 *            allows there; the leaf's must be >= 0, a negative one refuses
 *            that level and every level above it
 * @action: run once if the leaf commits, inside every committed level
 * @ctx: passed to @action
 * @opts: NULL, or one set of abort sources per level (leaf first): the
 *        leaf's work as for a group, the deadline and should_abort of each
 *        level for that level's round (should_abort gets @core)
 *
 * While a membership change of any core of the tree runs
 * (coupled_domain_join(), coupled_domain_leave()), the call gives up:
 * COUPLED_ABORT_MEMBERSHIP, at entry, from the leaf's round, or as the
 * outcome of the levels above a leaf round that had already committed
 * (a core that gives a level up because a round-mate did reports
 * COUPLED_DOMAIN_CANNOT there instead).
 *
 * Context: the core's own execution context, as for coupled_enter_opts();
 * at most one call per core at a time.
 * Return: COUPLED_COMMITTED if the leaf committed (the action ran, with the
 * outcome of every level), else the leaf round's abort reason or error
 * (COUPLED_ABORT_MEMBERSHIP, COUPLED_ENOENT, COUPLED_EBUSY, ...);
 * COUPLED_EINVAL for a null pointer or a negative leaf request,
 * COUPLED_ERANGE for @core out of range, COUPLED_EOPNOTSUPP for a deadline
 * without an adapter clock (nothing touched on an error).
 */
static inline int
coupled_domain_enter_opts(struct coupled_domain *leaf, uint32_t core,
			  const int32_t *requests,
			  coupled_domain_action_fn action, void *ctx,
			  const struct coupled_abort_opts *opts);

/**
 * coupled_domain_enter() - coupled_domain_enter_opts() without abort
 *                          sources beyond pending work
 * @leaf: the core's leaf node
 * @core: the core's id in the leaf's group
 * @requests: one request per level, leaf first
 * @action: the action
 * @ctx: passed to @action
 *
 * Context: as coupled_domain_enter_opts().
 * Return: as coupled_domain_enter_opts().
 */
static inline int coupled_domain_enter(struct coupled_domain *leaf,
				       uint32_t core, const int32_t *requests,
				       coupled_domain_action_fn action,
				       void *ctx);

/**
 * coupled_domain_wake() - wake a core wherever it waits in its domain
 * @leaf: the core's leaf node
 * @core: its id in the leaf's group
 *
 * An adapter wake-up of the core's slot at every level, so that a core
 * resting at any level polls its abort sources again (its pending work,
 * which the domain polls on the leaf's adapter at every level).  For
 * adapters whose wake-ups are per group slot (pthread): after raising work
 * on the core's leaf slot, call this so that a core waiting above the leaf
 * sees it now rather than at its deadline.  An interrupt that wakes the CPU
 * itself (kernel, bare metal) needs no call.
 *
 * Context: any context that may call the adapter's wake-up.
 * Return: 0, COUPLED_EINVAL for a null @leaf, COUPLED_ERANGE for @core out
 * of range.
 */
static inline int coupled_domain_wake(struct coupled_domain *leaf,
				      uint32_t core);

/**
 * coupled_domain_join() - make a core a member at every level, as one step
 * @leaf: the core's leaf node
 * @core: its id in the leaf's group
 *
 * Closes the tree's gate (the calls of every core of the tree give up
 * with COUPLED_ABORT_MEMBERSHIP, and every node's group is kicked so that
 * waiting cores see it), waits until no domain call of the tree is in
 * progress, joins every level's group, leaf first, and opens the gate.  No
 * round at any level can see the core as a member of one level and not of
 * the level above it, and no round that a call began before the change
 * goes on after it.  If a level refuses, the levels already joined are
 * left again.  Changes of one tree run one at a time.
 *
 * Context: may wait (for the tree's calls to return); never from inside a
 * domain call of the same tree, at any node (an action, a should_abort):
 * the change would wait for that call.  COUPLED_EPERM where the adapter
 * names execution contexts, a deadlock otherwise; so two cores that change
 * each other's membership from inside their actions both get COUPLED_EPERM.
 * Return: 0; COUPLED_EEXIST if the core is already a member of its leaf;
 * COUPLED_EINVAL for a null @leaf, COUPLED_ERANGE for @core out of range,
 * COUPLED_EPERM from inside a call; else the first level's error.  On an
 * error the memberships are as before.
 */
static inline int coupled_domain_join(struct coupled_domain *leaf,
				      uint32_t core);

/**
 * coupled_domain_leave() - take a core out of every level, as one step
 * @leaf: the core's leaf node
 * @core: its id in the leaf's group
 *
 * As coupled_domain_join(): closes the tree's gate, waits until no domain
 * call of the tree is in progress, leaves every level's group, root first,
 * and opens the gate.  Calls waiting at any level when the gate closes
 * give that level up with COUPLED_ABORT_MEMBERSHIP and act at the levels
 * below that committed.  If a level refuses, the levels already left are
 * joined again.
 *
 * Context: as coupled_domain_join().
 * Return: 0; COUPLED_ENOENT if the core is not a member of its leaf;
 * COUPLED_EINVAL, COUPLED_ERANGE, COUPLED_EPERM as coupled_domain_join();
 * else the first level's error.  On an error the memberships are as before.
 */
static inline int coupled_domain_leave(struct coupled_domain *leaf,
				       uint32_t core);

#include "domain_call.h"
#include "domain_membership.h"

#endif /* COUPLED_DOMAIN_H */

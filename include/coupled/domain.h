/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/domain.h - coupled domains: cores, clusters and the system agree
 * level by level (power-domain hierarchies), built on the group API.
 *
 * A domain is a tree of nodes in the caller's storage.  Every node owns a
 * coupled group whose member ids are all the cores under the node: a leaf's
 * group holds its cores (ids 0..capacity-1), a parent's group holds the
 * cores of all its children, each child's cores as one block of ids
 * starting at the child's @base.  A core's level k is its leaf's k-th
 * ancestor (level 0: the leaf).  Any depth up to COUPLED_DOMAIN_MAX_LEVELS.
 *
 *                     system (level 2): cores 0..7
 *                    /                        \
 *     cluster A (level 1): 0..3         cluster B (level 1): 0..3 = 4..7 above
 *       /          \                       /          \
 *   pair 0..1    pair 0..1 = 2..3       ...          ...      (level 0)
 *
 * One call per core, coupled_domain_enter():
 *  1. The core counts as a *candidate* of every level its requests allow
 *     above the leaf (node->candidates += 1): it is idle and heading there.
 *  2. Level 0 is a round of the leaf's group, with every guarantee of a
 *     group: the core waits for the other cores of its leaf, all or none.
 *  3. Inside a committed level-k round, each of its cores tries level k + 1:
 *     a round of the parent's group, with the core's request for that level.
 *     A level above the leaf without a deadline is *opportunistic*: a core
 *     waits for it only while every member under the level is a candidate
 *     (in a call, not given up) and its own abort sources for the level
 *     are quiet.  As soon as one core under the level is busy or gives the
 *     level up, the others give it up too (COUPLED_DOMAIN_CANNOT) and act
 *     at the levels below: a cluster never waits for a system that cannot
 *     come down now.  A level given a deadline (opts) is waited for up to
 *     it, like a group round: the caller's choice to stay in the lower
 *     level's waiting state for a chance at the deeper one.  Either way,
 *     when one core of a round gives the level up, all cores of that round
 *     do (it marks the round abandoned).
 *  4. A core that gives a level up stops being its candidate (and of every
 *     level above) and kicks the level's members that wait, so that they
 *     see it at once.
 *  5. The action runs once per call, inside the deepest committed level's
 *     round (so inside every committed level's round), and learns for every
 *     level whether it committed, with which parameter and generation.
 *
 * What holds, level by level (docs/design.md, "Coupled domains"):
 *  - a level commits only with every core under it in its round (it is a
 *    round of a group whose members are exactly those cores), all or none,
 *    with that level's reduction of their requests;
 *  - every core of a committed level-k round runs the action once with
 *    level k committed and the same parameter and generation; two cores of
 *    one committed round learn the same outcome for every level above it
 *    (either they commit the next level in one round or neither does);
 *  - a level that cannot commit (a core under it busy, work pending, its
 *    deadline, a refusal) lets the levels below commit alone: nobody waits
 *    for it once one core under it gave it up;
 *  - membership: coupled_domain_join() and coupled_domain_leave() change a
 *    core's membership at every level, bottom-up and top-down.
 *
 * The protocol is the groups' own (coupled/protocol.h); this file adds two
 * counters per node and the order in which a core visits the levels.
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
 * @depth: levels from this node to the root, 1 at the root
 * @assigned: ids of @group already given to children (coupled_domain_init())
 * @candidates: cores under this node inside a domain call that have not
 *              given this level up
 * @waiting: cores under this node trying this level's round right now
 * @abandoned: the generation of this node's last round whose cores gave the
 *             level above up (one of them did, so all must)
 *
 * Caller's storage; set up with coupled_domain_init(), root first.
 */
struct coupled_domain {
	struct coupled_group *group;
	struct coupled_domain *parent;
	uint32_t base;
	uint32_t depth;
	uint32_t assigned;
	coupled_atomic_u32 candidates;
	coupled_atomic_u32 waiting;
	coupled_atomic_u32 abandoned;
};

/**
 * struct coupled_domain_level - what a call learned about one level
 * @committed: the level's round committed with this core in it
 * @outcome: COUPLED_COMMITTED, or why not: a COUPLED_ABORT_* reason of the
 *           level's round, COUPLED_DOMAIN_CANNOT (a core under the level
 *           was busy or gave it up), COUPLED_DOMAIN_REFUSED (this core's
 *           request), COUPLED_DOMAIN_NOT_TRIED (a level below did not
 *           commit), or a negative error of the level's group (e.g.
 *           COUPLED_ENOENT while the core joins or leaves)
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
 * @levels: the levels on the core's path (the leaf's depth)
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

/* One call's state, on the caller's stack. */
struct coupled__domain_call;

struct coupled__domain_frame {
	struct coupled__domain_call *call;
	uint32_t level;
};

struct coupled__domain_call {
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS];
	struct coupled__domain_frame frame[COUPLED_DOMAIN_MAX_LEVELS];
	const int32_t *requests;
	const struct coupled_abort_opts *opts;
	coupled_domain_action_fn action;
	void *ctx;
	uint32_t top;  /* the highest level the requests allow */
	uint32_t held; /* candidacies held: levels 1..held */
	int fired;     /* which domain abort source fired, 0 if none */
	struct coupled_domain_round result;
};

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
 * need no call of their own beyond this one.
 *
 * Context: set-up, before any call on the tree, nothing concurrent.
 * Return: 0; COUPLED_EINVAL for a null @d or @group; COUPLED_ERANGE if the
 * block does not fit in @parent's group, or the tree would be deeper than
 * COUPLED_DOMAIN_MAX_LEVELS.  On error nothing is written.
 */
static inline int coupled_domain_init(struct coupled_domain *d,
				      struct coupled_group *group,
				      struct coupled_domain *parent)
{
	if (!d || !group)
		return COUPLED_EINVAL;
	if (parent) {
		if (!parent->group ||
		    group->capacity > parent->group->capacity ||
		    parent->assigned >
			    parent->group->capacity - group->capacity)
			return COUPLED_ERANGE;
		if (parent->depth >= COUPLED_DOMAIN_MAX_LEVELS)
			return COUPLED_ERANGE;
	}
	d->group = group;
	d->parent = parent;
	d->assigned = 0;
	d->depth = parent ? parent->depth + 1 : 1;
	d->base = parent ? parent->assigned : 0;
	if (parent)
		parent->assigned += group->capacity;
	/* Plain initialisation: nothing is shared yet. */
	coupled_atomic_init(&d->candidates, 0u);
	coupled_atomic_init(&d->waiting, 0u);
	/*
	 * Round generations start at 1; a match of this value after the
	 * 32-bit wrap makes the cores of that one round give the level above
	 * up, all of them alike (they compare the same stored value).
	 */
	coupled_atomic_init(&d->abandoned, 0u);
	return 0;
}

/**
 * coupled__domain_path() - the nodes and ids of a core, leaf to root
 * @leaf: the core's leaf
 * @core: its id in the leaf
 * @node: out, one node per level
 * @id: out, the core's id in each level's group
 *
 * Return: the number of levels.
 */
static inline uint32_t coupled__domain_path(struct coupled_domain *leaf,
					    uint32_t core,
					    struct coupled_domain **node,
					    uint32_t *id)
{
	struct coupled_domain *d = leaf;
	uint32_t k = 0;

	id[0] = core;
	while (d && k < COUPLED_DOMAIN_MAX_LEVELS) {
		node[k] = d;
		if (k)
			id[k] = id[k - 1] + node[k - 1]->base;
		d = d->parent;
		k++;
	}
	return k;
}

/**
 * coupled__domain_checked_path() - coupled__domain_path() after checking
 *                                  the arguments of a per-core call
 * @leaf: the core's leaf node
 * @core: its id in the leaf's group
 * @node: filled with the nodes, leaf first
 * @id: filled with the core's id in each node's group
 * @levels: set to the number of levels
 *
 * Return: 0, COUPLED_EINVAL for a null @leaf, COUPLED_ERANGE for @core out
 * of range (nothing filled then).
 */
static inline int coupled__domain_checked_path(struct coupled_domain *leaf,
					       uint32_t core,
					       struct coupled_domain **node,
					       uint32_t *id, uint32_t *levels)
{
	if (!leaf || !leaf->group)
		return COUPLED_EINVAL;
	if (core >= leaf->group->capacity)
		return COUPLED_ERANGE;
	*levels = coupled__domain_path(leaf, core, node, id);
	return 0;
}

/**
 * coupled__domain_give_up() - stop being a candidate of levels @from and up
 * @c: the call
 * @from: the lowest level given up, >= 1
 * @publish: true when the caller has just marked its round at level
 *           @from - 1 abandoned; level @from's counter then gets an RMW even
 *           where this core is not its candidate, to publish the mark
 *
 * Kicks the members of every such level where somebody tries its round,
 * so that they see it at once: the level cannot commit now.
 */
static inline void coupled__domain_give_up(struct coupled__domain_call *c,
					   uint32_t from, bool publish)
{
	uint32_t k, last = c->held > from ? c->held : from;

	for (k = from; k <= last && k < c->result.levels; k++) {
		struct coupled_domain *d = c->node[k];
		uint32_t drop = k <= c->held ? 1u : 0u;

		if (!drop && !(publish && k == from))
			continue;

		/*
		 * seq_cst, this RMW and the load of waiting after it: a
		 * Dekker pair with a core that tries the level (seq_cst
		 * increment of waiting, then its should_abort's seq_cst load
		 * of candidates).  Either we see it waiting and kick it, or
		 * it reads this RMW or a later one.  Being a release whose
		 * release sequence is every later RMW of candidates (there
		 * are no plain stores to it), it also carries the relaxed
		 * store of abandoned before it to that reader (pair: the
		 * acquire side of should_abort's load of candidates).
		 */
		coupled_fetch_sub(&d->candidates, drop, COUPLED_SEQ_CST);
		if (coupled_load(&d->waiting, COUPLED_SEQ_CST))
			(void)coupled_group_kick(d->group);
	}
	if (c->held >= from)
		c->held = from - 1;
}

/**
 * coupled__domain_should_abort() - the abort source of a level above 0
 * @arg: the level's frame
 * @self: the core's id in the level's group (unused)
 *
 * Polled by the level's round while the core waits: the core's own work
 * (its leaf's adapter), then whether every member under the level is still
 * a candidate, then the caller's should_abort for the level.
 *
 * Context: the core's own execution context, inside coupled_enter_opts().
 * Return: true to give the level up.
 */
static inline bool coupled__domain_should_abort(void *arg, uint32_t self)
{
	struct coupled__domain_frame *f = (struct coupled__domain_frame *)arg;
	struct coupled__domain_call *c = f->call;
	struct coupled_group *leaf = c->node[0]->group;
	struct coupled_domain *d = c->node[f->level];
	const struct coupled_abort_opts *o =
		c->opts ? &c->opts[f->level]
			: (const struct coupled_abort_opts *)0;
	uint32_t candidates;

	(void)self;
	/*
	 * seq_cst: the Dekker pair of coupled__domain_give_up() (our
	 * increment of waiting before it).  We read its RMW or a later one of
	 * the same release sequence, so its acquire side also makes the
	 * abandoned mark stored before that RMW visible to the load below.
	 */
	candidates = coupled_load(&d->candidates, COUPLED_SEQ_CST);
	/*
	 * relaxed: ordered after the load of candidates above, which
	 * synchronises with the giver's RMW that follows its store.  Another
	 * core of our round one level down gave this level up: so do we.
	 */
	if (coupled_load(&c->node[f->level - 1]->abandoned, COUPLED_RELAXED) ==
	    c->result.level[f->level - 1].generation) {
		c->fired = COUPLED_DOMAIN_CANNOT;
		return true;
	}
	if (coupled_adapter_work_pending(
		    coupled_group_adapter(leaf),
		    coupled_participant_adapter(leaf, c->id[0]), c->id[0])) {
		c->fired = COUPLED_ABORT_WORK;
		return true;
	}
	/*
	 * Only a level without a deadline is opportunistic; with one, the
	 * caller chose to wait for it up to the deadline, like a group round.
	 */
	if (!(o && o->deadline) &&
	    candidates < coupled_group_members(d->group)) {
		c->fired = COUPLED_DOMAIN_CANNOT;
		return true;
	}
	if (o && o->should_abort && o->should_abort(o->abort_arg, c->id[0]))
		return true;
	return false;
}

static inline void coupled__domain_level_action(const struct coupled_round *r,
						void *arg);

/**
 * coupled__domain_try() - try level @k's round from inside level k - 1's
 * @c: the call
 * @k: the level, 1..c->top
 *
 * Return: COUPLED_COMMITTED (the action ran inside), or why not.
 */
static inline int coupled__domain_try(struct coupled__domain_call *c,
				      uint32_t k)
{
	struct coupled_domain *d = c->node[k];
	struct coupled_abort_opts o;
	int ret;

	o.deadline = c->opts ? c->opts[k].deadline : 0;
	o.should_abort = coupled__domain_should_abort;
	o.abort_arg = &c->frame[k];
	c->fired = 0;
	COUPLED_HOOK(d->group, c->id[k], COUPLED_HOOK_DOMAIN_TRY);
	/* seq_cst: the Dekker pair of coupled__domain_give_up(). */
	coupled_fetch_add(&d->waiting, 1u, COUPLED_SEQ_CST);
	ret = coupled_enter_opts(d->group, c->id[k], c->requests[k],
				 coupled__domain_level_action, &c->frame[k],
				 &o);
	/*
	 * relaxed: only a hint for coupled__domain_give_up() whether to
	 * kick; a stale non-zero value costs a kick, never a missed one.
	 */
	coupled_fetch_sub(&d->waiting, 1u, COUPLED_RELAXED);
	if (ret == COUPLED_ABORT_CALLER && c->fired)
		ret = c->fired;
	return ret;
}

/**
 * coupled__domain_level_action() - the action of level k's round
 * @r: the level's round
 * @arg: the level's frame
 *
 * Records the level, tries the next one and, if that does not commit, runs
 * the caller's action here.
 */
static inline void coupled__domain_level_action(const struct coupled_round *r,
						void *arg)
{
	struct coupled__domain_frame *f = (struct coupled__domain_frame *)arg;
	struct coupled__domain_call *c = f->call;
	struct coupled_domain_level *l = &c->result.level[f->level];
	uint32_t k = f->level + 1, j;
	int ret;

	l->committed = true;
	l->outcome = COUPLED_COMMITTED;
	l->param = r->param;
	l->generation = r->generation;
	l->members = r->members;
	l->round = r;
	c->result.depth = f->level + 1;
	if (k < c->result.levels) {
		ret = k <= c->top ? coupled__domain_try(c, k)
				  : COUPLED_DOMAIN_REFUSED;
		if (ret == COUPLED_COMMITTED)
			return;
		COUPLED_HOOK(c->node[k]->group, c->id[k],
			     COUPLED_HOOK_DOMAIN_GIVE_UP);
		c->result.level[k].outcome = ret;
		for (j = k + 1; j < c->result.levels; j++)
			c->result.level[j].outcome = COUPLED_DOMAIN_NOT_TRIED;
		/*
		 * relaxed: published by the seq_cst RMW of level k's
		 * candidates in coupled__domain_give_up() right after (pair:
		 * should_abort's load of candidates, then of this).  The
		 * other cores of this round may be trying level k: none of
		 * them may wait for us.
		 */
		coupled_store(&c->node[f->level]->abandoned, r->generation,
			      COUPLED_RELAXED);
		coupled__domain_give_up(c, k, true);
	}
	c->action(&c->result, c->ctx);
}

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
 * Context: the core's own execution context, as for coupled_enter_opts();
 * at most one call per core at a time.
 * Return: COUPLED_COMMITTED if the leaf committed (the action ran, with the
 * outcome of every level), else the leaf round's abort reason or error
 * (COUPLED_ENOENT, COUPLED_EBUSY, ...); COUPLED_EINVAL for a null pointer or
 * a negative leaf request, COUPLED_ERANGE for @core out of range,
 * COUPLED_EOPNOTSUPP for a deadline without an adapter clock (nothing
 * touched on an error).
 */
static inline int
coupled_domain_enter_opts(struct coupled_domain *leaf, uint32_t core,
			  const int32_t *requests,
			  coupled_domain_action_fn action, void *ctx,
			  const struct coupled_abort_opts *opts)
{
	struct coupled__domain_call c;
	uint32_t k, levels;
	int ret;

	if (!leaf || !leaf->group || !requests || !action)
		return COUPLED_EINVAL;
	if (core >= leaf->group->capacity)
		return COUPLED_ERANGE;
	if (requests[0] < 0)
		return COUPLED_EINVAL;
	levels = coupled__domain_path(leaf, core, c.node, c.id);
	if (opts && !COUPLED_ADAPTER_HAS_CLOCK)
		for (k = 0; k < levels; k++)
			if (opts[k].deadline)
				return COUPLED_EOPNOTSUPP;
	c.requests = requests;
	c.opts = opts;
	c.action = action;
	c.ctx = ctx;
	c.top = 0;
	while (c.top + 1 < levels && requests[c.top + 1] >= 0)
		c.top++;
	c.result.core = core;
	c.result.levels = levels;
	c.result.depth = 0;
	for (k = 0; k < levels; k++) {
		c.frame[k].call = &c;
		c.frame[k].level = k;
		c.result.level[k].committed = false;
		c.result.level[k].outcome = COUPLED_DOMAIN_NOT_TRIED;
		c.result.level[k].param = 0;
		c.result.level[k].generation = 0;
		c.result.level[k].members = 0;
		c.result.level[k].round = (const struct coupled_round *)0;
	}
	/*
	 * relaxed: a candidacy only makes a level possible.  The cores of
	 * our leaf round read it after that round's synchronisation; a core
	 * that reads a stale count elsewhere only gives the level up.  Being
	 * an RMW, it keeps the release sequence of an earlier give-up intact.
	 */
	for (k = 1; k <= c.top; k++)
		coupled_fetch_add(&c.node[k]->candidates, 1u, COUPLED_RELAXED);
	c.held = c.top;
	ret = coupled_enter_opts(c.node[0]->group, core, requests[0],
				 coupled__domain_level_action, &c.frame[0],
				 opts);
	/* The levels still held: committed ones, or all after an abort. */
	coupled__domain_give_up(&c, 1, false);
	return ret;
}

/**
 * coupled_domain_enter() - coupled_domain_enter_opts() without abort
 *                          sources beyond pending work
 * @leaf: the core's leaf node
 * @core: the core's id in the leaf's group
 * @requests: one request per level, leaf first
 * @action: the action
 * @ctx: passed to @action
 *
 * Return: as coupled_domain_enter_opts().
 */
static inline int coupled_domain_enter(struct coupled_domain *leaf,
				       uint32_t core, const int32_t *requests,
				       coupled_domain_action_fn action,
				       void *ctx)
{
	return coupled_domain_enter_opts(leaf, core, requests, action, ctx,
					 (const struct coupled_abort_opts *)0);
}

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
				      uint32_t core)
{
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], levels, k;
	int ret;

	ret = coupled__domain_checked_path(leaf, core, node, id, &levels);
	if (ret)
		return ret;
	for (k = 0; k < levels; k++) {
		struct coupled_group *g = node[k]->group;

		coupled_adapter_wake(coupled_group_adapter(g),
				     coupled_participant_adapter(g, id[k]),
				     id[k]);
	}
	return 0;
}

/**
 * coupled_domain_join() - make a core a member at every level
 * @leaf: the core's leaf node
 * @core: its id in the leaf's group
 *
 * Joins the leaf's group first, then each level up: at no time is the core
 * a member of a level without being one of the levels below it.  If a level
 * refuses, the levels already joined are left again.
 *
 * Context: as coupled_join(); not from inside a domain call of this core.
 * Return: 0, or the first level's error (COUPLED_EEXIST if the core is
 * already a member of its leaf, COUPLED_EINVAL, COUPLED_ERANGE, ...).
 */
static inline int coupled_domain_join(struct coupled_domain *leaf,
				      uint32_t core)
{
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], levels, k;
	int ret;

	ret = coupled__domain_checked_path(leaf, core, node, id, &levels);
	if (ret)
		return ret;
	for (k = 0; k < levels; k++) {
		ret = coupled_join(node[k]->group, id[k]);
		if (ret) {
			while (k--)
				(void)coupled_leave(node[k]->group, id[k]);
			return ret;
		}
	}
	return 0;
}

/**
 * coupled_domain_leave() - take a core out of every level
 * @leaf: the core's leaf node
 * @core: its id in the leaf's group
 *
 * Leaves the root's group first, then each level down, each as
 * coupled_leave() (a call of the core waiting at a level aborts with
 * COUPLED_ABORT_MEMBERSHIP there and acts at the levels below).  If a level
 * refuses, the levels already left are joined again.
 *
 * Context: as coupled_leave(); not from inside a domain call of this core.
 * Return: 0, or the first level's error (COUPLED_ENOENT if the core is not a
 * member of the root, COUPLED_EPERM, ...).
 */
static inline int coupled_domain_leave(struct coupled_domain *leaf,
				       uint32_t core)
{
	struct coupled_domain *node[COUPLED_DOMAIN_MAX_LEVELS];
	uint32_t id[COUPLED_DOMAIN_MAX_LEVELS], levels, k;
	int ret;

	ret = coupled__domain_checked_path(leaf, core, node, id, &levels);
	if (ret)
		return ret;
	for (k = levels; k--;) {
		ret = coupled_leave(node[k]->group, id[k]);
		if (ret) {
			while (++k < levels)
				(void)coupled_join(node[k]->group, id[k]);
			return ret;
		}
	}
	return 0;
}

#endif /* COUPLED_DOMAIN_H */

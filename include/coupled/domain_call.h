/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/domain_call.h - the bodies of coupled/domain.h's calls: the tree,
 * one core's call level by level, and coupled_domain_wake().
 *
 * Part of coupled/domain.h (the API and its contracts are there); the
 * membership change and the tree's gate are in coupled/domain_membership.h.
 * Who writes what, per field: struct coupled_domain's comment.
 */
#include "domain.h" /* first: this file is part of coupled/domain.h */

#ifndef COUPLED_DOMAIN_CALL_H
#define COUPLED_DOMAIN_CALL_H

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
		if (parent->path_levels >= COUPLED_DOMAIN_MAX_LEVELS)
			return COUPLED_ERANGE;
	}
	d->group = group;
	d->parent = parent;
	d->next = (struct coupled_domain *)0;
	if (parent) {
		struct coupled_domain *root = parent;

		while (root->parent)
			root = root->parent;
		/* Plain: set-up, nothing concurrent (see the Context). */
		d->next = root->next;
		root->next = d;
	}
	d->assigned = 0;
	d->path_levels = parent ? parent->path_levels + 1 : 1;
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
	coupled_atomic_init(&d->changing, 0u);
	coupled_atomic_init(&d->calls, 0u);
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
 * coupled__domain_gate() - the node that holds a tree's gate
 * @node: a core's path, leaf first
 * @levels: its length
 *
 * The root: a change touches every level up to it, and the root's rounds
 * hold every core of the tree.  (A gate per leaf would leave the rounds of
 * cores of other leaves alive during a change, splitting them: the PSCI
 * shape, docs/design.md.)
 *
 * Return: the node whose @changing and @calls are the tree's gate.
 */
static inline struct coupled_domain *
coupled__domain_gate(struct coupled_domain *const *node, uint32_t levels)
{
	return node[levels - 1];
}

/**
 * coupled__domain_call_begin() - count a call of a tree's core, unless the
 *                                tree's gate is closed
 * @gate: the node that holds the gate (coupled__domain_gate())
 *
 * The call's half of the gate (coupled__domain_gate_close() is the
 * changer's): a counted call keeps the changer waiting until
 * coupled__domain_call_end(); a call that finds the gate closed is not
 * counted and must touch nothing.
 *
 * Context: the core's own execution context, at the start of its call.
 * Return: true if counted, false if a membership change runs.
 */
static inline bool coupled__domain_call_begin(struct coupled_domain *gate)
{
	/*
	 * relaxed: a shortcut for a gate seen closed, before the RMW, so that
	 * the calls of the whole tree, refused and retried during a change,
	 * do not keep the changer's count from reaching 0 (a refused call
	 * preempted while counted holds it for a time slice).  Refusing
	 * touches nothing; a stale 0 takes the full path below.
	 */
	if (coupled_load(&gate->changing, COUPLED_RELAXED))
		return false;
	/*
	 * seq_cst, this RMW and the load of changing after it: a Dekker pair
	 * with the changer's seq_cst CAS of changing, then its seq_cst load
	 * of calls (coupled__domain_gate_close()).  Either the changer sees
	 * us counted and waits for our return, or we see its flag.
	 */
	coupled_fetch_add(&gate->calls, 1u, COUPLED_SEQ_CST);
	/* seq_cst: the other half of that pair (see above). */
	if (coupled_load(&gate->changing, COUPLED_SEQ_CST)) {
		/*
		 * relaxed: this call touched nothing shared, so there is
		 * nothing for the changer's load of calls to acquire.
		 */
		coupled_fetch_sub(&gate->calls, 1u, COUPLED_RELAXED);
		return false;
	}
	return true;
}

/**
 * coupled__domain_call_end() - uncount a call counted by _call_begin()
 * @gate: the node that holds the gate (coupled__domain_gate())
 *
 * Context: the core's own execution context, as its call's last step.
 */
static inline void coupled__domain_call_end(struct coupled_domain *gate)
{
	/*
	 * release: pairs with the changer's seq_cst (acquire) load of calls
	 * that reads 0: the whole call, every round it took part in and its
	 * action, happens before the change and whatever the changer does
	 * after it (taking the core down, say).
	 */
	coupled_fetch_sub(&gate->calls, 1u, COUPLED_RELEASE);
}

/**
 * coupled__domain_gate_closed() - is a membership change of a core of the
 *                                 call's tree running?
 * @c: the call
 *
 * Polled by every level's abort source while the core waits, so that a
 * changer's wait for the tree's calls ends soon.
 *
 * Return: true if the gate is closed.
 */
static inline bool
coupled__domain_gate_closed(const struct coupled__domain_call *c)
{
	struct coupled_domain *gate =
		coupled__domain_gate(c->node, c->result.levels);

	/*
	 * relaxed: only liveness depends on seeing it (safety is the pair in
	 * coupled__domain_call_begin()); the changer stores it, then kicks
	 * every node, and a woken waiter's wait returned the adapter's token
	 * with acquire after that kick's release, so its next poll sees it.
	 */
	return coupled_load(&gate->changing, COUPLED_RELAXED) != 0;
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
 *
 * Context: the core's own execution context, inside its domain call.
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
		 * seq_cst: this RMW and the load of waiting after it: a
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
		/* seq_cst: the other half of the pair above. */
		if (coupled_load(&d->waiting, COUPLED_SEQ_CST))
			(void)coupled_group_kick(d->group);
	}
	if (c->held >= from)
		c->held = from - 1;
}

/**
 * coupled__domain_leaf_should_abort() - the abort source of the leaf round
 * @arg: the leaf's frame
 * @self: the core's id in the leaf's group
 *
 * The tree's gate (a membership change in the tree), then the caller's
 * should_abort for the leaf.  The group itself polls the core's work.
 *
 * Context: the core's own execution context, inside coupled_enter_opts().
 * Return: true to give the leaf round up.
 */
static inline bool coupled__domain_leaf_should_abort(void *arg, uint32_t self)
{
	struct coupled__domain_frame *f = (struct coupled__domain_frame *)arg;
	struct coupled__domain_call *c = f->call;
	const struct coupled_abort_opts *o =
		c->opts ? &c->opts[0] : (const struct coupled_abort_opts *)0;

	if (coupled__domain_gate_closed(c)) {
		c->fired = COUPLED_ABORT_MEMBERSHIP;
		return true;
	}
	c->fired = 0;
	return o && o->should_abort && o->should_abort(o->abort_arg, self);
}

/**
 * coupled__domain_should_abort() - the abort source of a level above 0
 * @arg: the level's frame
 * @self: the core's id in the level's group (unused)
 *
 * Polled by the level's round while the core waits: whether another core
 * of its round one level down gave the level up, the tree's gate, the
 * core's own work (its leaf's adapter), whether every member under the
 * level is still a candidate, then the caller's should_abort for the level.
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
	if (coupled__domain_gate_closed(c)) {
		c->fired = COUPLED_ABORT_MEMBERSHIP;
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
	c->fired = 0;
	return o && o->should_abort && o->should_abort(o->abort_arg, c->id[0]);
}

static inline void coupled__domain_level_action(const struct coupled_round *r,
						void *arg);

/**
 * coupled__domain_try() - try level @k's round from inside level k - 1's
 * @c: the call
 * @k: the level, 1..c->top
 *
 * Context: the core's own execution context, in the action of its
 * committed level-(@k - 1) round.
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
 *
 * Context: the core's own execution context, in its committed round of
 * level k.
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
	COUPLED_TRACE_DOMAIN(c->node[0], c->result.core, c->result.depth);
	c->action(&c->result, c->ctx);
}

/**
 * coupled__domain_call_init() - set up a call's state
 * @c: the call, whose node[] and id[] coupled__domain_checked_path() filled
 * @core: the calling core's id in its leaf
 * @levels: the levels of the core's path
 * @requests: the caller's requests, one per level (checked)
 * @action: the caller's action
 * @ctx: passed to @action
 * @opts: the caller's abort sources per level, or NULL
 *
 * The top level the call may reach (the last of the consecutive levels
 * with a request >= 0), a frame per level, and the result with every level
 * not tried.
 *
 * Context: coupled_domain_enter_opts(), before anything shared is touched.
 */
static inline void
coupled__domain_call_init(struct coupled__domain_call *c, uint32_t core,
			  uint32_t levels, const int32_t *requests,
			  coupled_domain_action_fn action, void *ctx,
			  const struct coupled_abort_opts *opts)
{
	uint32_t k;

	c->requests = requests;
	c->opts = opts;
	c->action = action;
	c->ctx = ctx;
	c->top = 0;
	while (c->top + 1 < levels && requests[c->top + 1] >= 0)
		c->top++;
	c->result.core = core;
	c->result.levels = levels;
	c->result.depth = 0;
	for (k = 0; k < levels; k++) {
		c->frame[k].call = c;
		c->frame[k].level = k;
		c->result.level[k].committed = false;
		c->result.level[k].outcome = COUPLED_DOMAIN_NOT_TRIED;
		c->result.level[k].param = 0;
		c->result.level[k].generation = 0;
		c->result.level[k].members = 0;
		c->result.level[k].round = (const struct coupled_round *)0;
	}
}

static inline int
coupled_domain_enter_opts(struct coupled_domain *leaf, uint32_t core,
			  const int32_t *requests,
			  coupled_domain_action_fn action, void *ctx,
			  const struct coupled_abort_opts *opts)
{
	struct coupled__domain_call c;
	struct coupled_domain *gate;
	struct coupled_abort_opts leaf_opts;
	uint32_t k, levels;
	int ret;

	if (!requests || !action)
		return COUPLED_EINVAL;
	ret = coupled__domain_checked_path(leaf, core, c.node, c.id, &levels);
	if (ret)
		return ret;
	if (requests[0] < 0)
		return COUPLED_EINVAL;
	if (opts && !COUPLED_ADAPTER_HAS_CLOCK)
		for (k = 0; k < levels; k++)
			if (opts[k].deadline)
				return COUPLED_EOPNOTSUPP;
	coupled__domain_call_init(&c, core, levels, requests, action, ctx,
				  opts);
	gate = coupled__domain_gate(c.node, levels);
	if (!coupled__domain_call_begin(gate))
		return COUPLED_ABORT_MEMBERSHIP;
	/*
	 * relaxed: a candidacy only makes a level possible.  The cores of
	 * our leaf round read it after that round's synchronisation; a core
	 * that reads a stale count elsewhere only gives the level up.  Being
	 * an RMW, it keeps the release sequence of an earlier give-up intact.
	 */
	for (k = 1; k <= c.top; k++)
		coupled_fetch_add(&c.node[k]->candidates, 1u, COUPLED_RELAXED);
	c.held = c.top;
	leaf_opts.deadline = opts ? opts[0].deadline : 0;
	leaf_opts.should_abort = coupled__domain_leaf_should_abort;
	leaf_opts.abort_arg = &c.frame[0];
	c.fired = 0;
	ret = coupled_enter_opts(leaf->group, core, requests[0],
				 coupled__domain_level_action, &c.frame[0],
				 &leaf_opts);
	if (ret == COUPLED_ABORT_CALLER && c.fired)
		ret = c.fired;
	/* The levels still held: committed ones, or all after an abort. */
	coupled__domain_give_up(&c, 1, false);
	coupled__domain_call_end(gate);
	return ret;
}

static inline int coupled_domain_enter(struct coupled_domain *leaf,
				       uint32_t core, const int32_t *requests,
				       coupled_domain_action_fn action,
				       void *ctx)
{
	return coupled_domain_enter_opts(leaf, core, requests, action, ctx,
					 (const struct coupled_abort_opts *)0);
}

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

#endif /* COUPLED_DOMAIN_CALL_H */

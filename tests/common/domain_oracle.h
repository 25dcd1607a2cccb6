/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * domain_oracle.h - the per-level oracle of coupled domains
 * (coupled/domain.h): the checks of the domain stress test, the bare-metal
 * domain torture and the kernel's domain test.
 *
 * What every committed round of every level must satisfy, node by node:
 *  - all or none: the round of level k was reported by exactly its members,
 *    each once: as many distinct cores (ids in the node's group) as the
 *    round has members, all of which saw that member count;
 *  - one round: every core of it saw the same generation and the same
 *    parameter, and the parameter is the reduction of their requests;
 *  - no split: every core of it learned the same outcome for every level
 *    above (the same depth: committed up to the same level), and those that
 *    committed level k + 1 committed the same round of it.
 * And per call: the action ran once per committed call and never in one
 * that did not commit, and the outcome vector is well formed (levels below
 * the depth committed with their rounds, the first level above them not
 * committed for a reason, REFUSED exactly when the requests refused it,
 * the levels above it NOT_TRIED).
 *
 * Use, per level: one struct domain_oracle_level per node (or a few per
 * node, indexed by generation).  Inside the action each core calls
 * domain_oracle_report() for every committed level k (k < r->depth): it
 * records itself, and the report that completes the round's member count
 * checks the record, counts the round and resets the record for the next
 * one.  This needs no barrier in the action: the node's next round commits
 * only after every core of this one has left its call of the node's group,
 * so the completer's reset happens before any report of the next round.  A
 * round that lacks a member never completes: the next round that lands in
 * the record fails (a core twice, or two generations), and after the run
 * domain_oracle_leftover() fails a record that is still half filled.
 *
 * Per call: struct domain_oracle_call, domain_oracle_call_begin() before
 * the call, domain_oracle_shape() in the action, domain_oracle_call_end()
 * with the call's result.  In the action also, where the caller knows
 * them: domain_oracle_roster() (every committed level's round had the
 * level's members, the core among them) and domain_oracle_given_up() (the
 * level given up says a cause the call had).
 *
 * Freestanding, like the core and oracle.h (whose failure type and value
 * keys it shares): only what coupled/domain.h brings, so it builds in a
 * kernel module, in a bare-metal image and hosted.
 *
 * Memory order: the folds are relaxed (atomicity alone keeps each bit and
 * fold exact); the count is acq_rel: each reporter's release orders its
 * folds before its increment, the completer's acquire orders all of them
 * before its check and reset.
 */
#ifndef COUPLED_TEST_DOMAIN_ORACLE_H
#define COUPLED_TEST_DOMAIN_ORACLE_H

#include "coupled/domain.h"

#include "oracle.h"

/* Member ids of one node's group the record can hold. */
#ifndef DOMAIN_ORACLE_MAX_MEMBERS
#define DOMAIN_ORACLE_MAX_MEMBERS 64u
#endif
#define DOMAIN_ORACLE_WORDS ORACLE__WORDS_FOR(DOMAIN_ORACLE_MAX_MEMBERS)

/* The values each core reports for a level, folded into lo and hi. */
enum domain_oracle_value {
	DOMAIN_ORACLE_MEMBERS,    /* the round's member count */
	DOMAIN_ORACLE_GENERATION, /* the round's generation */
	DOMAIN_ORACLE_PARAM,      /* the round's parameter */
	DOMAIN_ORACLE_REQUEST,    /* the core's request for the level */
	DOMAIN_ORACLE_DEPTH,      /* the core's committed depth */
	DOMAIN_ORACLE_NEXT,       /* the generation of level k + 1, if
				   * committed (0 if not) */
	DOMAIN_ORACLE_VALUES
};

/**
 * struct domain_oracle_level - one node's record of its round in flight
 * @count: reports of the round so far
 * @ran: bit i: the core with id i in the node's group reported it
 * @lo: per value, the smallest key folded (oracle__key())
 * @hi: per value, the largest key folded
 * @rounds: rounds checked complete in this record (never reset)
 */
struct domain_oracle_level {
	coupled_atomic_u32 count;
	coupled_atomic_u32 ran[DOMAIN_ORACLE_WORDS];
	coupled_atomic_u32 lo[DOMAIN_ORACLE_VALUES];
	coupled_atomic_u32 hi[DOMAIN_ORACLE_VALUES];
	coupled_atomic_u32 rounds;
};

/**
 * struct domain_oracle_call - one call's own count
 * @actions: actions run in the call so far
 *
 * Private to the calling core (no atomics).
 */
struct domain_oracle_call {
	uint32_t actions;
};

/**
 * domain_oracle_reset() - make a record ready for the node's next round
 * @rec: the record
 *
 * Context: by the completer of the round (domain_oracle_report()), or
 * before the record is shared.
 */
static inline void domain_oracle_reset(struct domain_oracle_level *rec)
{
	uint32_t i;

	for (i = 0; i < DOMAIN_ORACLE_WORDS; i++)
		/*
		 * relaxed: the next round of the node commits only after the
		 * completer left its call (the group's release/acquire).
		 */
		coupled_store(&rec->ran[i], 0u, COUPLED_RELAXED);
	oracle__empty(rec->lo, rec->hi, DOMAIN_ORACLE_VALUES);
	/* relaxed: as above. */
	coupled_store(&rec->count, 0u, COUPLED_RELAXED);
}

/**
 * domain_oracle_init() - initialise a record before it is shared
 * @rec: the record
 *
 * Context: before any other thread can reach @rec.
 */
static inline void domain_oracle_init(struct domain_oracle_level *rec)
{
	coupled_atomic_init(&rec->rounds, 0u);
	coupled_atomic_init(&rec->count, 0u);
	domain_oracle_reset(rec);
}

/**
 * domain_oracle__fold() - fold a value into a record's lo and hi
 * @rec: the record
 * @which: which value
 * @v: the value
 *
 * Context: any, concurrently with other cores' folds.
 */
static inline void domain_oracle__fold(struct domain_oracle_level *rec,
				       enum domain_oracle_value which,
				       int32_t v)
{
	oracle__fold_key(&rec->lo[which], &rec->hi[which], v);
}

/**
 * domain_oracle__seen() - lo and hi of a folded value
 * @rec: the record
 * @which: which value
 * @lo: out
 * @hi: out
 *
 * Context: after the completer's acquire (or after the run).
 * Return: false if nothing was folded.
 */
static inline bool domain_oracle__seen(struct domain_oracle_level *rec,
				       enum domain_oracle_value which,
				       int32_t *lo, int32_t *hi)
{
	/* relaxed: ordered by the caller's acquire (see the top). */
	uint32_t l = coupled_load(&rec->lo[which], COUPLED_RELAXED);
	/* relaxed: as above. */
	uint32_t h = coupled_load(&rec->hi[which], COUPLED_RELAXED);

	*lo = oracle__value(l);
	*hi = oracle__value(h);
	return l <= h;
}

/**
 * domain_oracle_record() - a core of a committed level-@k round records it
 * @rec: the node's record
 * @r: what the call learned (the action's argument)
 * @k: the level, < @r->depth
 * @request: the core's request for level @k
 * @f: filled in on failure
 *
 * Context: inside the action, concurrently with the round's other cores.
 * Return: the number of reports of the round with this one (1 for the
 * first), or -1 with @f filled in (the level did not commit, the core
 * reported the round already, or its id is beyond the record).
 */
static inline int domain_oracle_record(struct domain_oracle_level *rec,
				       const struct coupled_domain_round *r,
				       uint32_t k, int32_t request,
				       struct oracle_failure *f)
{
	const struct coupled_domain_level *l = &r->level[k];
	coupled_atomic_u32 *word;
	uint32_t self, bit, old, next = 0;

	if (k >= r->depth || !l->committed || !l->round)
		return oracle__fail(f, "reported a level that did not commit",
				    (long)k, (long)r->depth);
	self = l->round->self;
	if (self >= DOMAIN_ORACLE_MAX_MEMBERS)
		return oracle__fail(f, "id beyond DOMAIN_ORACLE_MAX_MEMBERS",
				    (long)self, (long)k);
	word = &rec->ran[self / 32u];
	bit = 1u << (self % 32u);
	/* relaxed: the CAS below decides; a stale value only retries. */
	old = coupled_load(word, COUPLED_RELAXED);
	do {
		if (old & bit)
			return oracle__fail(f,
					    "a core reported a round twice (or "
					    "a round lacked a core)",
					    (long)k, (long)l->generation);
		/* relaxed: atomicity alone makes the bit exact. */
	} while (!coupled_cas(word, &old, old | bit, COUPLED_RELAXED,
			      COUPLED_RELAXED));
	if (k + 1u < r->levels && r->level[k + 1u].committed)
		next = r->level[k + 1u].generation;
	domain_oracle__fold(rec, DOMAIN_ORACLE_MEMBERS, (int32_t)l->members);
	domain_oracle__fold(rec, DOMAIN_ORACLE_GENERATION,
			    (int32_t)l->generation);
	domain_oracle__fold(rec, DOMAIN_ORACLE_PARAM, l->param);
	domain_oracle__fold(rec, DOMAIN_ORACLE_REQUEST, request);
	domain_oracle__fold(rec, DOMAIN_ORACLE_DEPTH, (int32_t)r->depth);
	domain_oracle__fold(rec, DOMAIN_ORACLE_NEXT, (int32_t)next);
	/*
	 * acq_rel: the release orders the folds above before the count; the
	 * completer's acquire orders every reporter's folds before its check.
	 */
	return (int)(coupled_fetch_add(&rec->count, 1u, COUPLED_ACQ_REL) + 1u);
}

/*
 * What it means when the cores of one round folded different values of
 * each kind (domain_oracle_check()).
 */
static const char *const domain_oracle__disagree[DOMAIN_ORACLE_VALUES] = {
	"cores of one round saw different member counts",
	"cores of one round saw different generations",
	"cores of one round saw different parameters",
	"", /* the requests differ by design */
	("split: cores of one round learned different outcomes above it "
	 "(depths)"),
	"split: cores of one round committed different rounds above it",
};

/**
 * domain_oracle__agree() - whether the cores of a round folded one value
 * @rec: the record
 * @which: which value
 * @as_u32: report the two values as unsigned (generations)
 * @value: set to the value (the smallest)
 * @f: filled in on failure
 *
 * Context: as domain_oracle_check().
 * Return: 0, or -1 with @f filled in if they folded different ones.
 */
static inline int domain_oracle__agree(struct domain_oracle_level *rec,
				       enum domain_oracle_value which,
				       bool as_u32, int32_t *value,
				       struct oracle_failure *f)
{
	int32_t lo, hi;

	(void)domain_oracle__seen(rec, which, &lo, &hi);
	*value = lo;
	if (lo == hi)
		return 0;
	if (as_u32)
		return oracle__fail(f, domain_oracle__disagree[which],
				    (long)(uint32_t)lo, (long)(uint32_t)hi);
	return oracle__fail(f, domain_oracle__disagree[which], (long)lo,
			    (long)hi);
}

/**
 * domain_oracle_check() - did the node's round hold?
 * @rec: the record, every core of the round recorded
 * @reduce: the node's reduction, one that picks the smallest or the largest
 *          request (coupled_reduce_min() or coupled_reduce_max())
 * @f: filled in on failure
 *
 * Context: the completer (domain_oracle_report()), or after the run.
 * Return: 0, or -1 with @f naming the first check that failed.
 */
static inline int domain_oracle_check(struct domain_oracle_level *rec,
				      coupled_reduce_fn reduce,
				      struct oracle_failure *f)
{
	/* relaxed: ordered by the caller's acquire. */
	uint32_t n = coupled_load(&rec->count, COUPLED_RELAXED), ran = 0;
	int32_t lo, rlo, rhi;
	uint32_t i, w;

	if (n == 0)
		return oracle__fail(f, "no core reported the round", 0, 0);
	if (domain_oracle__agree(rec, DOMAIN_ORACLE_MEMBERS, false, &lo, f))
		return -1;
	if ((int32_t)n != lo)
		return oracle__fail(f,
				    "reports != the round's members (all or "
				    "none)",
				    (long)n, (long)lo);
	for (i = 0; i < DOMAIN_ORACLE_WORDS; i++) {
		/* relaxed: as above. */
		w = coupled_load(&rec->ran[i], COUPLED_RELAXED);
		for (; w; w &= w - 1u)
			ran++;
	}
	if (ran != n)
		return oracle__fail(f, "cores that reported != reports",
				    (long)ran, (long)n);
	if (domain_oracle__agree(rec, DOMAIN_ORACLE_GENERATION, true, &lo, f) ||
	    domain_oracle__agree(rec, DOMAIN_ORACLE_PARAM, false, &lo, f))
		return -1;
	(void)domain_oracle__seen(rec, DOMAIN_ORACLE_REQUEST, &rlo, &rhi);
	if (lo != reduce(rlo, rhi))
		return oracle__fail(f, "param != reduction of the requests",
				    (long)lo, (long)reduce(rlo, rhi));
	if (domain_oracle__agree(rec, DOMAIN_ORACLE_DEPTH, false, &lo, f) ||
	    domain_oracle__agree(rec, DOMAIN_ORACLE_NEXT, true, &lo, f))
		return -1;
	return 0;
}

/**
 * domain_oracle_report() - record a committed level, check it if complete
 * @rec: the node's record
 * @r: what the call learned
 * @k: the level, < @r->depth
 * @request: the core's request for level @k
 * @reduce: the node's reduction (as domain_oracle_check())
 * @f: filled in on failure
 *
 * The report that completes the round's member count checks the round,
 * counts it in @rec->rounds and resets the record.
 *
 * Context: inside the action.
 * Return: 1 if this report completed a round that held, 0 if the round
 * still lacks reports, -1 with @f filled in on a failure.
 */
static inline int domain_oracle_report(struct domain_oracle_level *rec,
				       const struct coupled_domain_round *r,
				       uint32_t k, int32_t request,
				       coupled_reduce_fn reduce,
				       struct oracle_failure *f)
{
	int n = domain_oracle_record(rec, r, k, request, f);

	if (n < 0)
		return -1;
	if ((uint32_t)n > r->level[k].members)
		return oracle__fail(f,
				    "more reports than the round's members "
				    "(a round lacked a core)",
				    (long)n, (long)r->level[k].members);
	if ((uint32_t)n < r->level[k].members)
		return 0;
	if (domain_oracle_check(rec, reduce, f))
		return -1;
	/* relaxed: a count, read after the run. */
	coupled_fetch_add(&rec->rounds, 1u, COUPLED_RELAXED);
	domain_oracle_reset(rec);
	return 1;
}

/**
 * domain_oracle_is_split() - is a failure of domain_oracle_report() a split
 * @f: the failure
 *
 * A split: cores of one committed round learned different outcomes for a
 * level above it (different depths, or different rounds of the level
 * above).  The record was checked whole (the round's count completed), so
 * a caller that counts splits may reset it with domain_oracle_reset() and
 * go on.
 *
 * Return: true for a split.
 */
static inline bool domain_oracle_is_split(const struct oracle_failure *f)
{
	return f->what == domain_oracle__disagree[DOMAIN_ORACLE_DEPTH] ||
	       f->what == domain_oracle__disagree[DOMAIN_ORACLE_NEXT];
}

/**
 * domain_oracle_roster() - in the action: every committed level's round
 *                          had the level's members
 * @r: what the call learned
 * @node: the core's nodes, leaf first (@r->levels of them)
 * @id: its ids in their groups
 * @f: filled in on failure
 *
 * No membership change of the tree runs while a domain call of it is in
 * progress (the tree's gate), so inside the action the groups' membership
 * is the one its rounds committed with: each committed round's member
 * count is its group's, and the core is a member of each.  With
 * domain_oracle_report() (reports == the round's members, each a distinct
 * id) that is all or none with the right members.
 *
 * Context: inside the action, where the adapter and the library keep the
 * tree's gate (coupled/domain_membership.h).
 * Return: 0, or -1 with @f filled in.
 */
static inline int domain_oracle_roster(const struct coupled_domain_round *r,
				       struct coupled_domain *const *node,
				       const uint32_t *id,
				       struct oracle_failure *f)
{
	uint32_t k;

	for (k = 0; k < r->depth; k++) {
		struct coupled_group *g = node[k]->group;

		if (!coupled_is_member(g, id[k]))
			return oracle__fail(f,
					    "a core committed a level it is "
					    "no member of",
					    (long)k, (long)id[k]);
		if (coupled_group_members(g) != r->level[k].members)
			return oracle__fail(f,
					    "a round's members != its level's "
					    "members (all or none)",
					    (long)r->level[k].members,
					    (long)coupled_group_members(g));
	}
	return 0;
}

/*
 * What a call had that may make it give a level up, a bit per cause: a
 * membership change ran during the call; the caller's should_abort of the
 * level fired; work was raised; the level had a deadline.
 */
enum domain_oracle_may {
	DOMAIN_ORACLE_MAY_CHANGE = 1u << 0,
	DOMAIN_ORACLE_MAY_CALLER = 1u << 1,
	DOMAIN_ORACLE_MAY_WORK = 1u << 2,
	DOMAIN_ORACLE_MAY_DEADLINE = 1u << 3
};

/**
 * domain_oracle_given_up() - in the action: the level above the depth was
 *                            given up with a code one of its causes gives
 * @r: what the call learned
 * @may: per level, the DOMAIN_ORACLE_MAY_* causes the call had there
 * @f: filled in on failure
 *
 * A level above the leaf given up because the tree's gate closed reports
 * COUPLED_ABORT_MEMBERSHIP; because a round-mate one level down gave it up,
 * or because a core under it was not heading for it, COUPLED_DOMAIN_CANNOT.
 * The other codes have a cause the caller knows of: its should_abort
 * (COUPLED_ABORT_CALLER), work (COUPLED_ABORT_WORK), a deadline
 * (COUPLED_ABORT_TIMEOUT).  So a call without a change, aborts, work or a
 * deadline gives a level up only with COUPLED_DOMAIN_CANNOT, and one with a
 * change and none of the others with that or COUPLED_ABORT_MEMBERSHIP.
 * (REFUSED is domain_oracle_shape()'s.)
 *
 * Context: inside the action.
 * Return: 0, or -1 with @f filled in.
 */
static inline int domain_oracle_given_up(const struct coupled_domain_round *r,
					 const uint32_t *may,
					 struct oracle_failure *f)
{
	uint32_t k = r->depth, need;
	int o;

	if (k >= r->levels)
		return 0;
	o = r->level[k].outcome;
	switch (o) {
	case COUPLED_DOMAIN_CANNOT:
	case COUPLED_DOMAIN_REFUSED: return 0;
	case COUPLED_ABORT_MEMBERSHIP: need = DOMAIN_ORACLE_MAY_CHANGE; break;
	case COUPLED_ABORT_CALLER: need = DOMAIN_ORACLE_MAY_CALLER; break;
	case COUPLED_ABORT_WORK: need = DOMAIN_ORACLE_MAY_WORK; break;
	case COUPLED_ABORT_TIMEOUT: need = DOMAIN_ORACLE_MAY_DEADLINE; break;
	default:
		return oracle__fail(f, "a level given up with an unknown code",
				    (long)k, (long)o);
	}
	if (!(may[k] & need))
		return oracle__fail(f,
				    "a level given up with a code the call "
				    "had no cause for",
				    (long)k, (long)o);
	return 0;
}

/**
 * domain_oracle_leftover() - after the run: no round left half reported
 * @rec: the record
 * @f: filled in on failure
 *
 * Context: after the run (every core's reports ordered before the call).
 * Return: 0, or -1 if a round is still missing reports (a core of a
 * committed round never ran the action for it).
 */
static inline int domain_oracle_leftover(struct domain_oracle_level *rec,
					 struct oracle_failure *f)
{
	/* relaxed: ordered by the end of the run. */
	uint32_t n = coupled_load(&rec->count, COUPLED_RELAXED);
	int32_t lo, hi;

	if (!n)
		return 0;
	(void)domain_oracle__seen(rec, DOMAIN_ORACLE_MEMBERS, &lo, &hi);
	return oracle__fail(f,
			    "a round reported by fewer cores than its "
			    "members",
			    (long)n, (long)hi);
}

/**
 * domain_oracle_rounds() - rounds checked complete in a record
 * @rec: the record
 *
 * Context: after the run.
 * Return: the count.
 */
static inline uint32_t domain_oracle_rounds(struct domain_oracle_level *rec)
{
	/* relaxed: read after the run. */
	return coupled_load(&rec->rounds, COUPLED_RELAXED);
}

/**
 * domain_oracle_call_begin() - before a domain call
 * @c: the call's count
 *
 * Context: the calling core.
 */
static inline void domain_oracle_call_begin(struct domain_oracle_call *c)
{
	c->actions = 0;
}

/**
 * domain_oracle_shape() - in the action: count it, check the outcomes
 * @c: the call's count
 * @r: what the call learned
 * @requests: the call's requests, one per level
 * @f: filled in on failure
 *
 * Context: inside the action.
 * Return: 0, or -1 with @f naming the first check that failed.
 */
static inline int domain_oracle_shape(struct domain_oracle_call *c,
				      const struct coupled_domain_round *r,
				      const int32_t *requests,
				      struct oracle_failure *f)
{
	uint32_t k, top = 0;

	if (++c->actions != 1u)
		return oracle__fail(f, "the action ran twice in one call",
				    (long)c->actions, 0);
	if (r->levels < 1u || r->levels > COUPLED_DOMAIN_MAX_LEVELS ||
	    r->depth < 1u || r->depth > r->levels)
		return oracle__fail(f, "the call's levels or depth",
				    (long)r->levels, (long)r->depth);
	while (top + 1u < r->levels && requests[top + 1u] >= 0)
		top++;
	for (k = 0; k < r->levels; k++) {
		const struct coupled_domain_level *l = &r->level[k];
		int o = l->outcome;

		if (k < r->depth) {
			if (!l->committed || o != COUPLED_COMMITTED ||
			    !l->round)
				return oracle__fail(f,
						    "a level below the depth "
						    "not committed",
						    (long)k, (long)o);
			if (l->round->members != l->members ||
			    l->round->param != l->param ||
			    l->round->generation != l->generation)
				return oracle__fail(f,
						    "a level's report differs "
						    "from its round",
						    (long)k, (long)l->members);
			if (k > top)
				return oracle__fail(f,
						    "a refused level committed",
						    (long)k, (long)top);
			continue;
		}
		if (l->committed || l->round)
			return oracle__fail(f,
					    "a level above the depth "
					    "committed",
					    (long)k, (long)r->depth);
		if (k > r->depth) {
			if (o != COUPLED_DOMAIN_NOT_TRIED)
				return oracle__fail(f,
						    "a level above the first "
						    "failure was tried",
						    (long)k, (long)o);
		} else if (k > top) {
			if (o != COUPLED_DOMAIN_REFUSED)
				return oracle__fail(f,
						    "a refused level not "
						    "reported REFUSED",
						    (long)k, (long)o);
		} else if (o == COUPLED_COMMITTED ||
			   o == COUPLED_DOMAIN_NOT_TRIED ||
			   o == COUPLED_DOMAIN_REFUSED) {
			return oracle__fail(f, "a level given up for no reason",
					    (long)k, (long)o);
		}
	}
	return 0;
}

/**
 * domain_oracle_call_end() - after the call: the action ran once per commit
 * @c: the call's count
 * @ret: what the call returned
 * @f: filled in on failure
 *
 * Context: the calling core, after the call returned.
 * Return: 0, or -1 with @f filled in.
 */
static inline int domain_oracle_call_end(struct domain_oracle_call *c, int ret,
					 struct oracle_failure *f)
{
	if (c->actions != (ret == COUPLED_COMMITTED ? 1u : 0u))
		return oracle__fail(f, "the action count != the call's commit",
				    (long)c->actions, (long)ret);
	return 0;
}

#endif /* COUPLED_TEST_DOMAIN_ORACLE_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * oracle.h - the per-round correctness oracle of the stress test, the
 * bare-metal torture and the kernel torture.
 *
 * What every committed round must satisfy: the action ran once per member
 * (no member twice), as many times as the round has members, every member
 * saw the same member count and the same parameter, the parameter is the
 * reduction of the members' requests, and every member saw the same vote.
 *
 * Use: one struct oracle_round per round in flight.  Inside the action each
 * member calls oracle_record() (and oracle_vote() with the outcome of a
 * coupled_vote(), if the round holds one).  Once every member has recorded
 * - after a coupled_barrier() or coupled_vote() inside the action, or after
 * the run, when the threads are joined - oracle_check() says whether the
 * round held.  oracle_reset() makes the record ready for another round,
 * once no member reads it any more: after another barrier, or by the
 * member for which oracle_done() says it was the last to finish.  The values a member saw are folded
 * into their smallest and largest (members agree when the two are equal),
 * so that a record is a fixed handful of words and needs no lock.
 *
 * Freestanding, like the core: no C library, only what coupled/coupled.h
 * brings (uint32_t, int32_t, bool and the atomics layer), so it builds in
 * a kernel module, in a bare-metal image and hosted.  Every shared field
 * is a coupled_atomic_u32 touched through the atomics layer.
 *
 * Memory order: relaxed, every access.  Atomicity alone keeps each count,
 * bit and fold exact; what orders the records of a round before its checks
 * (and the checks before a reset) is the caller's synchronisation, named
 * above: a barrier or vote of the round (acq_rel arrival, acquire wait),
 * or the end of the threads (join).
 */
#ifndef COUPLED_TEST_ORACLE_H
#define COUPLED_TEST_ORACLE_H

#include "coupled/coupled.h"

/* Member ids the record can hold (0..ORACLE_MAX_MEMBERS-1). */
#ifndef ORACLE_MAX_MEMBERS
#define ORACLE_MAX_MEMBERS 64u
#endif
/* 32-bit words for a bit each of @n members. */
#define ORACLE__WORDS_FOR(n) (((n) + 31u) / 32u)
#define ORACLE_WORDS ORACLE__WORDS_FOR(ORACLE_MAX_MEMBERS)

/* The values each member reports, folded into a smallest and a largest. */
enum oracle_value {
	ORACLE_MEMBERS, /* the round's member count */
	ORACLE_PARAM,   /* the round's parameter */
	ORACLE_REQUEST, /* the member's own request */
	ORACLE_VOTE,    /* the outcome of the round's vote, if one was held */
	ORACLE_VALUES
};

/*
 * One round's record.  Values are kept as keys, (uint32_t)v ^ 0x80000000,
 * whose unsigned order is the signed order of v; lo > hi: nothing folded.
 */
struct oracle_round {
	coupled_atomic_u32 count;             /* actions run in the round */
	coupled_atomic_u32 done;              /* members done reading it */
	coupled_atomic_u32 ran[ORACLE_WORDS]; /* bit i: member i ran it */
	coupled_atomic_u32 lo[ORACLE_VALUES];
	coupled_atomic_u32 hi[ORACLE_VALUES];
};

/* What failed, for the caller's own report. */
struct oracle_failure {
	const char *what; /* the check, a static string */
	long a, b;        /* the two values that disagree */
};

#define ORACLE_KEY_EMPTY_LO 0xffffffffu
#define ORACLE_KEY_EMPTY_HI 0u

/**
 * oracle__key() - a signed value as a key that sorts like it
 * @v: the value
 *
 * Context: any.
 * Return: (uint32_t)@v with the sign bit flipped.
 */
static inline uint32_t oracle__key(int32_t v)
{
	return (uint32_t)v ^ 0x80000000u;
}

/**
 * oracle__value() - the value a key stands for
 * @key: a key from oracle__key()
 *
 * Context: any.
 * Return: the signed value.
 */
static inline int32_t oracle__value(uint32_t key)
{
	return (int32_t)(key ^ 0x80000000u);
}

/**
 * oracle__empty() - make @n folded values empty again
 * @lo: their smallest keys
 * @hi: their largest keys
 * @n: how many
 *
 * Context: as the caller's reset (it orders the reset between two rounds).
 */
static inline void oracle__empty(coupled_atomic_u32 *lo, coupled_atomic_u32 *hi,
				 uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		/* relaxed: the caller orders the reset between two rounds. */
		coupled_store(&lo[i], ORACLE_KEY_EMPTY_LO, COUPLED_RELAXED);
		/* relaxed: as above. */
		coupled_store(&hi[i], ORACLE_KEY_EMPTY_HI, COUPLED_RELAXED);
	}
}

/**
 * oracle__fold_key() - fold a value into its smallest and largest key
 * @lo: the smallest key so far
 * @hi: the largest key so far
 * @v: the value
 *
 * Context: any, concurrently with other folds of the same value.
 */
static inline void oracle__fold_key(coupled_atomic_u32 *lo,
				    coupled_atomic_u32 *hi, int32_t v)
{
	uint32_t key = oracle__key(v), cur;

	/* relaxed: only the atomicity of the fold matters (see the top). */
	cur = coupled_load(lo, COUPLED_RELAXED);
	/* relaxed: a failed CAS reloads cur and the loop retries. */
	while (key < cur &&
	       !coupled_cas(lo, &cur, key, COUPLED_RELAXED, COUPLED_RELAXED))
		;
	/* relaxed: as for the smallest. */
	cur = coupled_load(hi, COUPLED_RELAXED);
	/* relaxed: as above. */
	while (key > cur &&
	       !coupled_cas(hi, &cur, key, COUPLED_RELAXED, COUPLED_RELAXED))
		;
}

/**
 * oracle__fail() - fill in a failure
 * @f: where to
 * @what: the check that failed
 * @a: the first value
 * @b: the second value
 *
 * Context: any.
 * Return: -1.
 */
static inline int oracle__fail(struct oracle_failure *f, const char *what,
			       long a, long b)
{
	f->what = what;
	f->a = a;
	f->b = b;
	return -1;
}

/**
 * oracle_init() - initialise a record before it is shared
 * @rec: the record
 *
 * Context: before any other thread can reach @rec (its publication orders
 * the initialisation).
 */
static inline void oracle_init(struct oracle_round *rec)
{
	uint32_t i;

	coupled_atomic_init(&rec->count, 0u);
	coupled_atomic_init(&rec->done, 0u);
	for (i = 0; i < ORACLE_WORDS; i++)
		coupled_atomic_init(&rec->ran[i], 0u);
	for (i = 0; i < ORACLE_VALUES; i++) {
		coupled_atomic_init(&rec->lo[i], ORACLE_KEY_EMPTY_LO);
		coupled_atomic_init(&rec->hi[i], ORACLE_KEY_EMPTY_HI);
	}
}

/**
 * oracle_reset() - make a shared record ready for another round
 * @rec: the record
 *
 * Several members may reset the same record: they store the same values.
 *
 * Context: once no member reads @rec for the round it held (after the
 * round's last barrier), and before any member records the next round in
 * it (that round commits only after this one's members left the action).
 */
static inline void oracle_reset(struct oracle_round *rec)
{
	uint32_t i;

	/* relaxed: the caller orders the reset between the two rounds. */
	coupled_store(&rec->count, 0u, COUPLED_RELAXED);
	/* relaxed: as above. */
	coupled_store(&rec->done, 0u, COUPLED_RELAXED);
	for (i = 0; i < ORACLE_WORDS; i++)
		/* relaxed: as above. */
		coupled_store(&rec->ran[i], 0u, COUPLED_RELAXED);
	oracle__empty(rec->lo, rec->hi, ORACLE_VALUES);
}

/**
 * oracle__fold() - fold a value into a record's smallest and largest
 * @rec: the record
 * @which: which value (enum oracle_value)
 * @v: the value one member saw
 *
 * Context: any, concurrently with other members' folds.
 */
static inline void oracle__fold(struct oracle_round *rec,
				enum oracle_value which, int32_t v)
{
	oracle__fold_key(&rec->lo[which], &rec->hi[which], v);
}

/**
 * oracle_record() - a member of a committed round records itself
 * @rec: the round's record
 * @r: the round, as the action received it
 * @request: the request this member passed to coupled_enter()
 * @order: set to this member's arrival order in the round, 0 for the
 *         first (NULL: not wanted)
 * @f: filled in on failure
 *
 * Context: inside the action, concurrently with the round's other members.
 * Return: 0, or -1 with @f filled in when @r->self ran the round already
 * or is beyond ORACLE_MAX_MEMBERS.
 */
static inline int oracle_record(struct oracle_round *rec,
				const struct coupled_round *r, int32_t request,
				uint32_t *order, struct oracle_failure *f)
{
	coupled_atomic_u32 *word;
	uint32_t bit, old, before;

	if (r->self >= ORACLE_MAX_MEMBERS)
		return oracle__fail(f, "member id beyond ORACLE_MAX_MEMBERS",
				    (long)r->self, (long)ORACLE_MAX_MEMBERS);
	word = &rec->ran[r->self / 32u];
	bit = 1u << (r->self % 32u);
	/* relaxed: the CAS below decides; a stale value only retries. */
	old = coupled_load(word, COUPLED_RELAXED);
	do {
		if (old & bit)
			return oracle__fail(f, "ran the round twice",
					    (long)r->self, (long)r->generation);
		/* relaxed: atomicity alone makes the bit exact. */
	} while (!coupled_cas(word, &old, old | bit, COUPLED_RELAXED,
			      COUPLED_RELAXED));
	oracle__fold(rec, ORACLE_MEMBERS, (int32_t)r->members);
	oracle__fold(rec, ORACLE_PARAM, r->param);
	oracle__fold(rec, ORACLE_REQUEST, request);
	/* relaxed: a count; the caller orders it before the check. */
	before = coupled_fetch_add(&rec->count, 1u, COUPLED_RELAXED);
	if (order)
		*order = before;
	return 0;
}

/**
 * oracle_vote() - a member records the outcome of the round's vote
 * @rec: the round's record
 * @outcome: what coupled_vote() returned to this member
 *
 * Context: inside the action, after oracle_record().
 */
static inline void oracle_vote(struct oracle_round *rec, int outcome)
{
	oracle__fold(rec, ORACLE_VOTE, (int32_t)outcome);
}

/**
 * oracle_actions() - how many members ran the round so far
 * @rec: the round's record
 *
 * Context: any; exact once the records are ordered before the call.
 * Return: the number of oracle_record() calls that succeeded.
 */
static inline uint32_t oracle_actions(struct oracle_round *rec)
{
	/* relaxed: the caller orders the records before this read. */
	return coupled_load(&rec->count, COUPLED_RELAXED);
}

/**
 * oracle_ran() - did a member run the round?
 * @rec: the round's record
 * @id: the member id
 *
 * Context: as oracle_actions().
 * Return: true if @id recorded itself.
 */
static inline bool oracle_ran(struct oracle_round *rec, uint32_t id)
{
	if (id >= ORACLE_MAX_MEMBERS)
		return false;
	/* relaxed: as in oracle_actions(). */
	return (coupled_load(&rec->ran[id / 32u], COUPLED_RELAXED) >>
		(id % 32u)) &
	       1u;
}

/**
 * oracle__seen() - the smallest and largest of a folded value
 * @rec: the record
 * @which: which value
 * @lo: the smallest (out)
 * @hi: the largest (out)
 *
 * Context: as oracle_actions().
 * Return: false if no member folded the value.
 */
static inline bool oracle__seen(struct oracle_round *rec,
				enum oracle_value which, int32_t *lo,
				int32_t *hi)
{
	/* relaxed: as in oracle_actions(). */
	uint32_t l = coupled_load(&rec->lo[which], COUPLED_RELAXED);
	/* relaxed: as above. */
	uint32_t h = coupled_load(&rec->hi[which], COUPLED_RELAXED);

	*lo = oracle__value(l);
	*hi = oracle__value(h);
	return l <= h;
}

/**
 * oracle_check() - did the round hold?
 * @rec: the round's record
 * @reduce: the reduction the requests must have been folded with: one that
 *          picks the smallest or the largest request, such as
 *          coupled_reduce_min() or coupled_reduce_max() (the oracle keeps
 *          only those two requests, and expects reduce(smallest, largest))
 * @f: filled in on failure
 *
 * Context: once every member of the round has recorded (a barrier or vote
 * inside the action, or after the run), before any reset.
 * Return: 0 if every check held, or -1 with @f naming the first that did
 * not.
 */
static inline int oracle_check(struct oracle_round *rec,
			       coupled_reduce_fn reduce,
			       struct oracle_failure *f)
{
	uint32_t n = oracle_actions(rec), ran = 0, i, w;
	int32_t lo, hi, req_lo, req_hi, want;

	if (n == 0)
		return oracle__fail(f, "no member ran the round", 0, 0);
	(void)oracle__seen(rec, ORACLE_MEMBERS, &lo, &hi);
	if (lo != hi)
		return oracle__fail(f, "members saw different member counts",
				    (long)lo, (long)hi);
	if ((int32_t)n != lo)
		return oracle__fail(f, "actions != round members", (long)n,
				    (long)lo);
	for (i = 0; i < ORACLE_WORDS; i++) {
		/* relaxed: as in oracle_actions(). */
		w = coupled_load(&rec->ran[i], COUPLED_RELAXED);
		for (; w; w &= w - 1u)
			ran++;
	}
	if (ran != n)
		return oracle__fail(f, "members that ran != actions", (long)ran,
				    (long)n);
	(void)oracle__seen(rec, ORACLE_PARAM, &lo, &hi);
	if (lo != hi)
		return oracle__fail(f, "members saw different parameters",
				    (long)lo, (long)hi);
	(void)oracle__seen(rec, ORACLE_REQUEST, &req_lo, &req_hi);
	want = reduce(req_lo, req_hi);
	if (lo != want)
		return oracle__fail(f, "param != reduction of the requests",
				    (long)lo, (long)want);
	if (oracle__seen(rec, ORACLE_VOTE, &lo, &hi) && lo != hi)
		return oracle__fail(f, "members saw different votes", (long)lo,
				    (long)hi);
	return 0;
}

/**
 * oracle_done() - a member is done reading the round's record
 * @rec: the round's record
 * @r: the round, as the action received it
 *
 * Context: inside the action, after this member's last read of @rec.
 * Return: true for the round's last member to call it: the record is then
 * no one else's, and it may call oracle_reset().
 */
static inline bool oracle_done(struct oracle_round *rec,
			       const struct coupled_round *r)
{
	/*
	 * acq_rel: each member's release orders its reads of the record
	 * before the increment; the last one's acquire orders all of them
	 * before its reset.
	 */
	return coupled_fetch_add(&rec->done, 1u, COUPLED_ACQ_REL) + 1u ==
	       r->members;
}

#endif /* COUPLED_TEST_ORACLE_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * tests/verify/model/domain.pml - a SPIN (Promela) model of coupled domains
 * (include/coupled/domain.h): the levels a core climbs, the candidacy and
 * waiting counters, the abandoned mark, the give-up, and a change of one
 * core's membership (coupled_domain_leave() / coupled_domain_join())
 * racing the calls.  Checks named domain_* in run_model.sh.
 *
 * One process per core runs coupled_domain_enter_opts(); one `changer`
 * process takes core CH out of the domain and puts it back.  Every atomic
 * operation of domain.h on shared state is one Promela step, labelled with
 * the function (and the operation) it models; local computation is folded
 * into the neighbouring step.
 *
 * The group rounds are abstracted to what the group API guarantees
 * (verified on their own by direct.pml and coupled.pml): a group has a
 * member set; a member's call first polls its abort sources (direct: once
 * before the arrival; settled: in phase 1, before any member can go
 * ready), then arrives; it may withdraw while the round is not complete;
 * the arrival that makes the arrived set equal the member set commits the
 * round atomically, and a committed round is never backed out (a
 * withdrawal is refused: the core takes part).  A change of a group's
 * membership (coupled_join / coupled_leave) takes the group (stop/prevent),
 * which makes arrived, not committed waiters withdraw with
 * COUPLED_ABORT_MEMBERSHIP and refuses new arrivals, waits until nobody is
 * arrived, changes the member set, and (leave) waits until the core's call
 * of that group returned.  A non-member's call gets COUPLED_ENOENT.
 *
 * Shapes (SHAPE):
 *   1  2 clusters x 2 cores under a root: leaves 0 = {0,1}, 1 = {2,3};
 *      node 2 the root (2 levels; default)
 *   2  3 levels, 3 cores: pair {0,1} (node 0) under cluster {0,1}
 *      (node 2); core 2 alone in leaf node 1 under cluster {2} (node 3);
 *      the root (node 4) over both clusters
 *   3  3 levels, 4 cores: pair {0,1} (node 0) and leaf {2} (node 1) under
 *      cluster {0,1,2} (node 3); leaf {3} (node 2) under cluster {3}
 *      (node 4); the root (node 5)
 *
 * Configuration (cpp macros):
 *   SHAPE        see above, default 1
 *   CALLS        domain calls each core makes, default 1
 *   ABORTS       budget of environmental give-ups shared by all cores,
 *                default 1: at any poll of any level, work pending, the
 *                caller's should_abort or the level's deadline may fire
 *                while the budget lasts
 *   DEADLINES    bit mask of the levels given a deadline (bit k: level k),
 *                default 0: a level above the leaf with a deadline skips
 *                the candidates test (it is waited for, not
 *                opportunistic); its expiry is one of the give-ups above
 *   REQMAX       requests are drawn from 0..REQMAX, default 1
 *   RANDOM_REQS  only cores below this draw their requests (the others ask
 *                for REQMAX at every level), default 1
 *   REFUSERS     cores below this may also draw a refusal (a negative
 *                request) for a level above the leaf, default 0
 *   CHANGER      add the changer: coupled_domain_leave(), then
 *                coupled_domain_join(), of core CH (default 1)
 *   CHANGES      with CHANGER: 1 = only the leave (core CH then stays
 *                out), 2 = the leave and the join (default)
 *   INITIAL_OUT  with CHANGER: core CH starts outside every level and the
 *                changer only joins it
 *   OLD_CHANGE   the changer and the calls without the gate (the code
 *                before the fix): per-level coupled_leave top-down, then
 *                coupled_join bottom-up; no `changing`, no `calls`
 *   GOAL_ROOT    the progress property also needs a committed root round
 *
 * Mutants of the fix (the expected result in run_model.sh's table):
 *   MUTANT_NO_GATE        neither the entry (E1) nor any level's poll (E2)
 *                         looks at `changing`: the split (assert)
 *   MUTANT_NO_DRAIN       the changer does not wait for `calls` == 0 (C3):
 *                         with the leave only, the split; with leave and
 *                         join, a deadlock first (invalid end state)
 *   MUTANT_NO_GATE_POLL   no level's poll looks at `changing` (E2): a
 *                         deadlock (a round-mate waits at the leaf for a
 *                         core refused at E1, the changer for its call)
 *   MUTANT_NO_ABANDON     a give-up does not mark the round abandoned: a
 *                         deadlock (a round-mate waits above for a core
 *                         that called again and waits below for it)
 *   MUTANT_NO_GATE_CHECK  the entry counts the call but does not look at
 *                         `changing` (E1): no check fails; the poll that
 *                         the group makes before a round can commit sees
 *                         `changing` (E2), so the entry's own look only
 *                         spares the call its candidacies and groups
 *
 * Properties:
 *   assert(!split)       a round of level k + 1 commits only with whole
 *                        committed level-k rounds in it: every core of the
 *                        level-k round of any of its cores is in it (at the
 *                        commit); and two cores of one committed level-k
 *                        round learn the same outcome (committed or not)
 *                        for level k + 1 (when each learns it)
 *   all or none          at the next commit of a node and at the end: every
 *                        core of its last committed round ran the action
 *                        (assert(!torn)); the action runs once per call
 *                        and only in a call whose leaf committed
 *   parameter            at the action: every committed level's parameter is
 *                        the minimum of the requests of that level's round
 *   counters             at the end every counter is back to 0
 *   ltl progress         under weak fairness every core finishes its calls
 *                        (and the change finishes; with GOAL_ROOT a root
 *                        round commits)
 *
 * Abstraction: sequentially consistent interleaving (the memory orders,
 * the Dekker pairs included, are Relacy's job).  A waiter polls its abort
 * sources at every step it takes (the adapter's wait is a poll loop), so
 * a kick, which only makes a sleeping waiter poll again, is a step with no
 * effect here: the model assumes what the kick and its Dekker pair are for
 * (Relacy's domain programs check that a missed kick is a livelock).  A
 * poll reads all sources in one step and returns the first that fires.
 * Generations are small counters (no wrap: CALLS bounds them).  A call
 * refused for a change in progress (at E1, or COUPLED_ENOENT from the
 * leaf) does not count and is made again once the change is over: a
 * caller that called again at once in a tight loop could keep `calls`
 * from draining under weak fairness (the changer's wait is enabled only
 * between two such calls), which is the design's "callers should back
 * off", not something the model can decide.  A core
 * whose partner at some level has finished all its calls may give that
 * level up (the deadline a real caller would have), so that every run can
 * end.
 */

#ifndef SHAPE
#define SHAPE 1
#endif
#ifndef CALLS
#define CALLS 1
#endif
#ifndef ABORTS
#define ABORTS 1
#endif
#ifndef DEADLINES
#define DEADLINES 0
#endif
#ifndef REQMAX
#define REQMAX 1
#endif
#ifndef RANDOM_REQS
#define RANDOM_REQS 1
#endif
#ifndef REFUSERS
#define REFUSERS 0
#endif
#ifndef CH
#define CH 1
#endif
#ifndef CHANGES
#define CHANGES 2
#endif

#if SHAPE == 1
#define NC 4
#define LV 2
#define NN 3
#define ROOT 2
#define PATH(c, k) ((k) == 0 -> (c) / 2 : ROOT)
#elif SHAPE == 2
#define NC 3
#define LV 3
#define NN 5
#define ROOT 4
#define PATH(c, k) ((k) == 0 -> ((c) < 2 -> 0 : 1) : ((k) == 1 -> ((c) < 2 -> 2 : 3) : ROOT))
#elif SHAPE == 3
#define NC 4
#define LV 3
#define NN 6
#define ROOT 5
#define PATH(c, k) ((k) == 0 -> ((c) < 2 -> 0 : ((c) == 2 -> 1 : 2)) : ((k) == 1 -> ((c) < 3 -> 3 : 4) : ROOT))
#endif

#define LEAF(c) PATH(c, 0)
#define BIT(c) (1 << (c))
#define DEADLINE(k) ((DEADLINES >> (k)) & 1)
#define NEG 255                    /* a negative request: refused */

#ifdef MUTANT_NO_GATE
#define MUTANT_NO_GATE_CHECK
#define MUTANT_NO_GATE_POLL
#endif

/* reasons a level is not committed (the model's codes) */
#define R_ABORT   1   /* work, caller, deadline: COUPLED_ABORT_* */
#define R_MEMB    2   /* COUPLED_ABORT_MEMBERSHIP */
#define R_CANNOT  3   /* COUPLED_DOMAIN_CANNOT */
#define R_ENOENT  4   /* COUPLED_ENOENT */
#define R_REFUSED 5   /* COUPLED_DOMAIN_REFUSED */
#define R_FIN     6   /* a partner finished for good (model only) */

/* ---- the groups, one per node (abstract: see the top) ---- */
byte gmem[NN];      /* member set (bit per core) */
byte gmembers[NN];  /* coupled_group_members() */
byte garr[NN];      /* arrived in the open round */
byte gcom[NN];      /* in the last committed round, not yet returned to */
byte ggen[NN];      /* the last committed round's generation */
byte gparam[NN];    /* its parameter (the min of its requests) */
bit gchg[NN];       /* a coupled_join/coupled_leave holds the group */
byte ginside[NN];   /* cores inside a call of the group */

/* ---- struct coupled_domain ---- */
byte cand[NN];      /* candidates */
byte waiting[NN];   /* waiting */
byte aband[NN];     /* abandoned */
#ifndef OLD_CHANGE
bit changing[NN];   /* changing (leaves) */
byte calls[NN];     /* calls (leaves) */
#endif

byte aborts_left = ABORTS;

/* ---- ghost state: only the checks read it ---- */
byte reqg[NC * LV]; /* the request each core passes to each level */
byte rmask[NN];     /* cores of the node's last committed round */
byte rdone[NN];     /* those of them whose action ran */
byte rup[NN];       /* their outcome for the level above: 0 not yet
                       learned, 1 committed, 2 not committed */
byte rmin[NN];      /* the minimum of its requests */
byte fin;           /* cores done with all their calls */
byte finished;
bit rootc;          /* a root round committed */
bit changer_done = 1;
bit split;          /* the property, set just before its assert */
bit torn;
byte gi, gj;

/* The commit of node n's open round (level k), part of the completing
 * arrival's step: the checks, then the ghost round starts. */
inline ghost_commit(n, k)
{
	torn = (rdone[n] != rmask[n]);  /* previous round: all ran */
	assert(!torn);
	assert(garr[n] == gmem[n]);
	if
	:: k > 0 ->
		for (gi : 0 .. NC - 1) {
			if
			:: garr[n] & BIT(gi) ->
				gj = PATH(gi, k - 1);
				/* the level-(k-1) round of every core of this
				 * round lies wholly inside it */
				split = ((rmask[gj] & ~garr[n]) != 0);
				assert(!split)
			:: else -> skip
			fi
		};
		gj = 0
	:: else -> skip
	fi;
	rmin[n] = 255;
	for (gi : 0 .. NC - 1) {
		if
		:: (garr[n] & BIT(gi)) && reqg[gi * LV + k] < rmin[n] ->
			rmin[n] = reqg[gi * LV + k]
		:: else -> skip
		fi
	};
	gi = 0;
	rmask[n] = garr[n];
	rdone[n] = 0;
	rup[n] = 0;
	ggen[n]++;
	gparam[n] = rmin[n];
	gcom[n] = garr[n];
	garr[n] = 0;
	if
	:: n == ROOT -> rootc = 1
	:: else -> skip
	fi
}

/* A core of node n's round learns the outcome o of the level above. */
inline learn(n, o)
{
	atomic {
		split = (rup[n] != 0 && rup[n] != o);
		assert(!split);
		rup[n] = o
	}
}

/*
 * The sources that fire now, at level k of core c (node n, our round one
 * level down at node nb): the group's own (a change holds it: stop or
 * prevent), the fix's gate (E2: every level polls the leaf's changing),
 * coupled__domain_should_abort() for k > 0 (seq_cst load of candidates,
 * relaxed load of the abandoned mark; the candidates test only at a level
 * without a deadline), and a partner that finished for good.
 */
#if !defined(OLD_CHANGE) && !defined(MUTANT_NO_GATE_POLL)
#define GATE_FIRES changing[LEAF(c)]
#else
#define GATE_FIRES 0
#endif
#define DET(k) (gchg[n] || GATE_FIRES || \
		(k > 0 && aband[nb] == gen[k - 1]) || \
		(k > 0 && !DEADLINE(k) && cand[n] < gmembers[n]) || \
		(gmem[n] & fin) != 0)

/* The same, as a reason (the first that fires), 0 if none. */
inline reason_det(k)
{
	if
	:: gchg[n] || GATE_FIRES -> reason = R_MEMB
	:: else ->
		if
		:: k > 0 && (aband[nb] == gen[k - 1] ||
			     (!DEADLINE(k) && cand[n] < gmembers[n])) ->
			reason = R_CANNOT
		:: else ->
			if
			:: (gmem[n] & fin) != 0 -> reason = R_FIN
			:: else -> reason = 0
			fi
		fi
	fi
}

/*
 * coupled__domain_give_up(c, from, publish): levels from..max(held, from);
 * the RMW of candidates (-1 where held, -0 to publish the mark) and the
 * load of waiting (a kick where somebody waits: no effect in a polling
 * model), one step per level.
 */
inline give_up(from, publish)
{
	kk = from;
	last = (held > from -> held : from);
	do
	:: kk <= last && kk < LV ->
		atomic {
			if
			:: kk <= held -> cand[PATH(c, kk)]--
			:: kk > held && publish && kk == from -> skip  /* -= 0 */
			:: else -> skip
			fi;
			kk++
		}
	:: else -> break
	od;
	kk = 0; last = 0;
	if
	:: held >= from -> held = from - 1
	:: else -> skip
	fi
}

/* The core finds its round of level k committed: coupled__domain_level_action
 * records the level (generation, parameter); the level below learns that
 * level k committed. */
inline notice()
{
	gcom[n] = gcom[n] & ~BIT(c);
	gen[k] = ggen[n];
	assert(gparam[n] <= req[k]);     /* the round's parameter */
	if
	:: k > 0 ->
		split = (rup[nb] != 0 && rup[nb] != 1);
		assert(!split);
		rup[nb] = 1
	:: else -> skip
	fi
}

#ifndef OLD_CHANGE
#define CAN_RETRY (changer_done || \
		   (!changing[LEAF(c)] && (gmem[LEAF(c)] & BIT(c))))
#else
#define CAN_RETRY (changer_done || (gmem[LEAF(c)] & BIT(c)))
#endif

proctype core(byte c)
{
	byte k, n, nb, kk, last, reason, ncalls, top, held, fr;
	byte gen[LV], req[LV];
	bit acted, leafok, again;

	do
	:: ncalls == CALLS -> break
	:: ncalls < CALLS ->
		/* the caller's requests (local: the argument checks and the
		 * computation of top), folded into the first shared step */
		atomic {
			for (k : 0 .. LV - 1) {
				if
				:: c < RANDOM_REQS -> select(kk : 0 .. REQMAX); req[k] = kk
				:: else -> req[k] = REQMAX
				fi;
				if
				:: k > 0 && c < REFUSERS -> req[k] = NEG
				:: true
				fi;
				reqg[c * LV + k] = req[k]
			};
			kk = 0;
			top = 0;
			do
			:: top + 1 < LV && req[top + 1] != NEG -> top++
			:: else -> break
			od;
			k = 0;
#ifndef OLD_CHANGE
			/* E1: seq_cst fetch_add of the leaf's calls */
			calls[LEAF(c)]++
#else
			skip
#endif
		};
#if !defined(OLD_CHANGE) && !defined(MUTANT_NO_GATE_CHECK)
		/* E1: seq_cst load of changing: if set, undo (release
		 * fetch_sub) and return COUPLED_ABORT_MEMBERSHIP, no group
		 * touched */
		atomic {
			if
			:: changing[LEAF(c)] -> calls[LEAF(c)]--; again = 1; goto call_end
			:: else -> skip
			fi
		};
#endif
		/* coupled_domain_enter_opts: relaxed fetch_add of candidates,
		 * levels 1..top, one step each */
		k = 1;
		do
		:: atomic { k <= top -> cand[PATH(c, k)]++; k++ }
		:: else -> break
		od;
		held = top;
		k = 0;

enter:
		/* coupled_enter_opts of level k's group (k > 0: from
		 * coupled__domain_try, after COUPLED_HOOK_DOMAIN_TRY, with the
		 * seq_cst fetch_add of waiting): the member check (ENOENT),
		 * inside = 1, and the poll of the abort sources that the group
		 * makes once before the round can commit with this core
		 * (direct: before the arrival; settled: in phase 1); the
		 * environment may fire one (work, caller, deadline) while the
		 * budget lasts */
		atomic {
			n = PATH(c, k);
			if
			:: k > 0 -> nb = PATH(c, k - 1)
			:: else -> nb = 0
			fi;
			if
			:: !(gmem[n] & BIT(c)) ->                  /* COUPLED_ENOENT */
				again = (k == 0);
				goto returned
			:: else -> skip
			fi;
			ginside[n] = ginside[n] | BIT(c);
			if
			:: k > 0 -> waiting[n]++
			:: else -> skip
			fi;
			reason_det(k);
			if
			:: reason == 0 && aborts_left > 0 ->
				aborts_left--; reason = R_ABORT
			:: true
			fi;
			if
			:: reason != 0 -> goto group_return
			:: else -> skip
			fi
		};
		/* the arrival (refused while a change holds the group); the
		 * last one commits the round */
		atomic {
			if
			:: gchg[n] -> reason = R_MEMB; goto group_return
			:: else ->
				garr[n] = garr[n] | BIT(c);
				if
				:: garr[n] == gmem[n] -> ghost_commit(n, k)
				:: else -> skip
				fi
			fi
		};
		/* the wait: the round commits, or a poll finds a source that
		 * fires and the core withdraws (one step; refused once the
		 * round committed, so only while it has not) */
		if
		:: atomic { gcom[n] & BIT(c) -> notice() }; goto committed
		:: atomic {
			!(gcom[n] & BIT(c)) && (DET(k) || aborts_left > 0) ->
			reason_det(k);
			if
			:: reason == 0 -> aborts_left--; reason = R_ABORT
			:: else -> skip
			fi;
			garr[n] = garr[n] & ~BIT(c)
		   }
		fi;
group_return:
		/* the group call returns (release store inside = 0); k > 0:
		 * the relaxed fetch_sub of waiting in coupled__domain_try */
		atomic {
			ginside[n] = ginside[n] & ~BIT(c);
			if
			:: k > 0 -> waiting[n]--
			:: else -> skip
			fi;
			reason = 0     /* the outcome's code: no later step reads it */
		};
returned:
		if
		:: k == 0 -> goto final          /* the leaf did not commit */
		:: else -> skip
		fi;
		/* coupled__domain_level_action of level k - 1: level k did not
		 * commit (COUPLED_HOOK_DOMAIN_GIVE_UP) */
		atomic {
			k--;
			n = PATH(c, k);
			nb = 0;
			learn(n, 2)
		};
give_up_k:
#ifndef MUTANT_NO_ABANDON
		/* relaxed store of abandoned = our round's generation */
		aband[n] = gen[k];
#endif
		fr = k + 1;
		give_up(fr, 1);
		fr = 0;
		goto action;

committed:
		if
		:: k + 1 < LV && k + 1 <= top -> k++; goto enter  /* try k + 1 */
		:: k + 1 < LV && k + 1 > top ->
			/* COUPLED_DOMAIN_REFUSED */
			learn(n, 2);
			goto give_up_k
		:: else -> skip
		fi;

action:
		/* the caller's action, in the deepest committed level k
		 * (local and ghost only), folded into the return of that
		 * level's group call; then the others return, deepest first
		 * (release store inside = 0; waiting -= 1 above the leaf) */
		atomic {
			assert(!acted);
			acted = 1;
			for (kk : 0 .. k) {
				gj = PATH(c, kk);
				/* still our round, its parameter the minimum of
				 * its cores' requests */
				assert(ggen[gj] == gen[kk] && gparam[gj] == rmin[gj]);
				assert(rmask[gj] & BIT(c));
				rdone[gj] = rdone[gj] | BIT(c)
			};
			kk = 0; gj = 0;
			n = PATH(c, k);
			ginside[n] = ginside[n] & ~BIT(c);
			if
			:: k > 0 -> waiting[n]--; k--
			:: else -> skip
			fi
		};
		do
		:: k > 0 ->
			atomic {
				n = PATH(c, k);
				ginside[n] = ginside[n] & ~BIT(c);
				waiting[n]--;
				k--
			}
		:: else -> break
		od;
		atomic {
			if
			:: acted -> ginside[PATH(c, 0)] = ginside[PATH(c, 0)] & ~BIT(c)
			:: else -> skip
			fi;
			leafok = 1
		};
final:
		/* coupled_domain_enter_opts: coupled__domain_give_up(c, 1,
		 * false), the levels still held */
		fr = 1;
		give_up(fr, 0);
		fr = 0;
#ifndef OLD_CHANGE
		/* E3: release fetch_sub of the leaf's calls */
		calls[LEAF(c)]--;
#endif
call_end:
		atomic {
			assert(acted == leafok);
			/* a call refused for a change in progress (at E1,
			 * or ENOENT from the leaf) does not count: the caller
			 * calls again once that change is over (as a caller
			 * backs off; see the top) */
			if
			:: again && !changer_done -> skip
			:: else -> ncalls++; again = 0
			fi;
			acted = 0; leafok = 0; reason = 0; n = 0; nb = 0; k = 0;
			top = 0; held = 0;
			for (kk : 0 .. LV - 1) {
				gen[kk] = 0; req[kk] = 0
			};
			kk = 0
		};
		atomic { !again || CAN_RETRY -> again = 0 }
	od;
	atomic { fin = fin | BIT(c); finished++ }
}

#ifdef CHANGER
/* coupled_leave(group of node m, core CH) */
inline group_leave(m)
{
	/* coupled__membership_begin: take the group (prevent, stop) */
	atomic { !gchg[m] -> gchg[m] = 1 };
	/* ... and wait until the arrived waiters have withdrawn */
	(garr[m] == 0);
	/* seq_cst store member = 0, coupled__roster_remove */
	atomic { gmem[m] = gmem[m] & ~BIT(CH); gmembers[m]-- };
	/* seq_cst wait until the core's call of this group returned */
	((ginside[m] & BIT(CH)) == 0);
	/* coupled__membership_end */
	gchg[m] = 0
}

/* coupled_join(group of node m, core CH) */
inline group_join(m)
{
	atomic { !gchg[m] -> gchg[m] = 1 };
	(garr[m] == 0);
	atomic { gmem[m] = gmem[m] | BIT(CH); gmembers[m]++ };
	gchg[m] = 0
}

/* C1: take the leaf's gate (CAS changing 0 -> 1; one changer: always
 * free); C2: kick every group on the core's path (no effect in the model);
 * C3: wait until the seq_cst load of calls reads 0 (hook point
 * COUPLED_HOOK_DOMAIN_DRAIN) */
inline gate_take()
{
#ifndef OLD_CHANGE
	atomic { changing[LEAF(CH)] == 0 -> changing[LEAF(CH)] = 1 };
#ifndef MUTANT_NO_DRAIN
	(calls[LEAF(CH)] == 0);
#endif
#endif
	skip
}

/* C5: release store changing = 0 */
inline gate_release()
{
#ifndef OLD_CHANGE
	changing[LEAF(CH)] = 0;
#endif
	skip
}

proctype changer()
{
	byte k, m;

#if !defined(INITIAL_OUT)
	/* coupled_domain_leave: C1 .. C3, then C4: coupled_leave of every
	 * level, top-down, then C5 */
	gate_take();
	k = LV;
	do
	:: k > 0 -> k--; m = PATH(CH, k); group_leave(m)
	:: else -> break
	od;
	gate_release();
#endif
#if CHANGES > 1 || defined(INITIAL_OUT)
	/* coupled_domain_join: C1 .. C3, then C4: coupled_join of every
	 * level, bottom-up, then C5 */
	gate_take();
	k = 0;
	do
	:: k < LV -> m = PATH(CH, k); group_join(m); k++
	:: else -> break
	od;
	gate_release();
#endif
	m = 0; k = 0;
	changer_done = 1
}
#endif

init
{
	byte p, q;

	atomic {
		for (p : 0 .. NC - 1) {
			for (q : 0 .. LV - 1) {
#if defined(CHANGER) && defined(INITIAL_OUT)
				if
				:: p == CH -> skip
				:: else ->
#endif
				gmem[PATH(p, q)] = gmem[PATH(p, q)] | BIT(p);
				gmembers[PATH(p, q)]++
#if defined(CHANGER) && defined(INITIAL_OUT)
				fi
#endif
			}
		};
		q = 0;
		for (p : 0 .. NC - 1) {
			run core(p)
		};
#ifdef CHANGER
		changer_done = 0;
		run changer();
#endif
		p = 0
	};
	(finished == NC && changer_done);
	/* the last round of every node: all of its cores ran the action;
	 * every counter back to 0 */
	for (p : 0 .. NN - 1) {
		torn = (rdone[p] != rmask[p]);
		assert(!torn);
		assert(cand[p] == 0 && waiting[p] == 0 && garr[p] == 0 &&
		       gcom[p] == 0 && ginside[p] == 0);
#ifndef OLD_CHANGE
		assert(calls[p] == 0 && changing[p] == 0)
#endif
	}
}

#ifdef GOAL_ROOT
ltl progress { <> (finished == NC && changer_done && rootc > 0) }
#else
ltl progress { <> (finished == NC && changer_done) }
#endif

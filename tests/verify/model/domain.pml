/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * tests/verify/model/domain.pml - a SPIN (Promela) model of coupled domains
 * (include/coupled/domain.h): the levels a core climbs, the candidacy and
 * waiting counters, the abandoned mark, the give-up, and a change of one
 * core's membership (coupled_domain_leave() / coupled_domain_join())
 * racing the calls, through the tree's gate at the root
 * (include/coupled/domain_call.h and domain_membership.h as of b0b62a4).
 * Checks named domain_* in run_model.sh.
 *
 * One process per core runs coupled_domain_enter_opts(); one or two
 * `changer` processes take a core (CH, or one each chooses) out of the
 * domain and put it back; with INSIDE two cores change each other's
 * cluster from inside their actions.  Every atomic
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
 *   4  the PSCI shape, 2 clusters x 2 cores: each core c its own leaf
 *      (node c), clusters {0,1} (node 4) and {2,3} (node 5), the system
 *      (node 6) over both (3 levels)
 *   5  the PSCI shape with one cluster online (issue 35's tree, cluster B
 *      offline, so not modelled): cores 0 and 1 each their own leaf
 *      (nodes 0, 1) under cluster {0,1} (node 2) under the system (node 3)
 *
 * Poll granularity: every level's group call polls its abort sources once
 * in the step before its arrival, and the arrival that completes the
 * member set commits in that step.  That is the direct protocol's step
 * exactly (coupled__run(): one poll, then the counting RMW; the completing
 * RMW is the commit point).  The settled protocol polls again in phase 1
 * after its arrival, before any member can go ready: every commit it makes
 * is one this model can make, so what the safety checks pass holds for it
 * as well (within this abstraction); a failure found here may need direct's
 * single poll (issue 35 reports that settled survives its first trace).
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
 *   CHANGERS     the number of changers (1 or 2; implies CHANGER): two
 *                changes run concurrently, each of its own core
 *   CH_ANY       each changer chooses the core it changes (if :: over
 *                every core) instead of CH; a leave of a non-member, a join
 *                of a member is refused (COUPLED_ENOENT, COUPLED_EEXIST)
 *   CHANGES      with CHANGER: 1 = only the leave (the core then stays
 *                out), 2 = the leave and the join (default)
 *   INITIAL_OUT  with CHANGER: core OUT (default CH) starts outside every
 *                level and the changers only join
 *   INSIDE       (4 cores) core 0, in the action of its first call, leaves
 *                core 3, and core 2 leaves core 1: changes made from
 *                inside domain calls, crosswise.  The tree's gate refuses
 *                both (COUPLED_EPERM: the caller is inside a call of the
 *                tree); the leaf gate allowed a change whose target's path
 *                does not hold a group the caller is inside
 *   OLD_LEAF_GATE the gate of 88b5bdd: per leaf.  A call counts in and
 *                polls its leaf's `changing` and `calls`; a change closes
 *                only the changed core's leaf's gate, waits only for that
 *                leaf's calls, and is refused (COUPLED_EPERM) only from
 *                inside a call of a group on the changed core's path
 *   OLD_CHANGE   the changer and the calls without the gate (the code
 *                before it): per-level coupled_leave top-down, then
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
#elif SHAPE == 4
#define NC 4
#define LV 3
#define NN 7
#define ROOT 6
#define PATH(c, k) ((k) == 0 -> (c) : ((k) == 1 -> 4 + (c) / 2 : ROOT))
#elif SHAPE == 5
#define NC 2
#define LV 3
#define NN 4
#define ROOT 3
#define PATH(c, k) ((k) == 0 -> (c) : ((k) == 1 -> 2 : ROOT))
#endif

#define LEAF(c) PATH(c, 0)
#define BIT(c) (1 << (c))
#define DEADLINE(k) ((DEADLINES >> (k)) & 1)
#define NEG 255                    /* a negative request: refused */

#ifdef MUTANT_NO_GATE
#define MUTANT_NO_GATE_CHECK
#define MUTANT_NO_GATE_POLL
#endif

/* The gate a call of core c counts in and polls: the tree's, at the root
 * (b0b62a4), or its leaf's (OLD_LEAF_GATE, 88b5bdd). */
#if defined(OLD_CHANGE) && defined(OLD_LEAF_GATE)
#error "OLD_CHANGE (no gate) and OLD_LEAF_GATE exclude each other"
#endif
#if defined(OLD_CHANGE) && defined(INSIDE)
#error "INSIDE needs a gate (the tree's or, with OLD_LEAF_GATE, the leaf's)"
#endif
#ifdef OLD_LEAF_GATE
#define GATE(c) LEAF(c)
#else
#define GATE(c) ROOT
#endif

/* The changers: CHANGER alone is one (of core CH); CHANGERS says how
 * many. */
#if defined(CHANGERS) && !defined(CHANGER)
#define CHANGER
#endif
#if defined(CHANGER) && !defined(CHANGERS)
#define CHANGERS 1
#endif
#ifndef CHANGERS
#define CHANGERS 0
#endif
#ifndef OUT
#define OUT CH
#endif
#if defined(CHANGER) && defined(INITIAL_OUT)
#define STARTS_OUT(p) ((p) == OUT)
#else
#define STARTS_OUT(p) 0
#endif

/* INSIDE: core 0, in the action of its first call, leaves core 3, and
 * core 2 leaves core 1 (NONE: no change from this core). */
#define NONE 255
#ifdef INSIDE
#if NC != 4
#error "INSIDE needs a shape of 4 cores"
#endif
#define INSIDE_TARGET(c) ((c) == 0 -> 3 : ((c) == 2 -> 1 : NONE))
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
bit changing[NN];   /* changing (the root's; OLD_LEAF_GATE: the leaves') */
byte calls[NN];     /* calls (the same) */
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
byte changers;      /* changer processes still running */
#define changer_done (changers == 0)
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
 * prevent), the gate (E2: every level polls `changing` of the tree's root, OLD_LEAF_GATE of the leaf),
 * coupled__domain_should_abort() for k > 0 (seq_cst load of candidates,
 * relaxed load of the abandoned mark; the candidates test only at a level
 * without a deadline), and a partner that finished for good.
 */
#if !defined(OLD_CHANGE) && !defined(MUTANT_NO_GATE_POLL)
#define GATE_FIRES changing[GATE(c)]
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

#if defined(CHANGER) || defined(INSIDE)
/* coupled_leave(group of node m, core t) (cfail: t is no member there,
 * coupled_leave's COUPLED_ENOENT) */
inline group_leave(m, t)
{
	/* coupled__membership_begin: take the group (prevent, stop) */
	atomic { !gchg[m] -> gchg[m] = 1 };
	/* ... and wait until the arrived waiters have withdrawn */
	(garr[m] == 0);
	/* seq_cst store member = 0, coupled__roster_remove */
	atomic {
		if
		:: gmem[m] & BIT(t) -> gmem[m] = gmem[m] & ~BIT(t); gmembers[m]--
		:: else -> cfail = 1
		fi
	};
	/* seq_cst wait until the core's call of this group returned */
	(cfail || (ginside[m] & BIT(t)) == 0);
	/* coupled__membership_end */
	gchg[m] = 0
}

/* coupled_join(group of node m, core t) (cfail: t is a member there
 * already, COUPLED_EEXIST) */
inline group_join(m, t)
{
	atomic { !gchg[m] -> gchg[m] = 1 };
	(garr[m] == 0);
	atomic {
		if
		:: gmem[m] & BIT(t) -> cfail = 1
		:: else -> gmem[m] = gmem[m] | BIT(t); gmembers[m]++
		fi
	};
	gchg[m] = 0
}

/* coupled__domain_gate_close() of core t's gate (the root's; with
 * OLD_LEAF_GATE its leaf's): C1 the CAS changing 0 -> 1 (waits while
 * another changer holds it); C2 the kicks of every node (OLD_LEAF_GATE:
 * of t's path), no effect in the model; C3 wait until the seq_cst load of
 * calls reads 0 (hook point COUPLED_HOOK_DOMAIN_DRAIN) */
inline gate_take(t)
{
#ifndef OLD_CHANGE
	atomic { changing[GATE(t)] == 0 -> changing[GATE(t)] = 1 };
#ifndef MUTANT_NO_DRAIN
	(calls[GATE(t)] == 0);
#endif
#endif
	skip
}

/* C5 coupled__domain_gate_open(): release store changing = 0 */
inline gate_release(t)
{
#ifndef OLD_CHANGE
	changing[GATE(t)] = 0;
#endif
	skip
}

/*
 * coupled_domain_leave() (joining 0) or coupled_domain_join() (joining 1)
 * of core t, called by core `who` from inside its action, or by a changer
 * outside every call (who == NONE).
 *
 * C0 coupled__domain_change_begin(): COUPLED_EPERM if the caller is inside
 * a call of any node's group of the tree (OLD_LEAF_GATE: of a group on t's
 * path; coupled__caller_inside() reads the caller's own slots, so the
 * model reads its own ginside bits), then the relaxed member check of t's
 * leaf (COUPLED_EEXIST / COUPLED_ENOENT): one step; a refused change
 * closes nothing.  Then C1..C3, C4 coupled_join() bottom-up or
 * coupled_leave() top-down, and C5.  coupled_join/_leave check again under
 * the group's lock; as changes of one core are serialised by its gate, only
 * the first level can refuse (asserted), so the roll-back never runs.
 */
inline domain_change(t, joining, who)
{
	atomic {
		cref = 0;
		if
		:: who != NONE ->
#ifdef OLD_LEAF_GATE
			for (ck : 0 .. LV - 1) {
				if
				:: ginside[PATH(t, ck)] & BIT(who) -> cref = 1
				:: else -> skip
				fi
			}
#else
			for (ck : 0 .. NN - 1) {
				if
				:: ginside[ck] & BIT(who) -> cref = 1
				:: else -> skip
				fi
			}
#endif
		:: else -> skip
		fi;
		if
		:: !cref && ((gmem[LEAF(t)] & BIT(t)) != 0) == joining -> cref = 2
		:: else -> skip
		fi;
		ck = 0
	};
	if
	:: cref == 0 ->
		gate_take(t);
		if
		:: joining ->
			ck = 0;
			do
			:: ck < LV ->
				cm = PATH(t, ck);
				group_join(cm, t);
				if
				:: cfail -> assert(ck == 0); break
				:: else -> ck++
				fi
			:: else -> break
			od
		:: else ->
			ck = LV;
			do
			:: ck > 0 ->
				ck--;
				cm = PATH(t, ck);
				group_leave(cm, t);
				if
				:: cfail -> assert(ck == LV - 1); break
				:: else -> skip
				fi
			:: else -> break
			od
		fi;
		gate_release(t)
	:: else -> skip
	fi;
	atomic { ck = 0; cm = 0; cref = 0; cfail = 0 }
}
#endif

#ifndef OLD_CHANGE
#define CAN_RETRY (changer_done || \
		   (!changing[GATE(c)] && (gmem[LEAF(c)] & BIT(c))))
#else
#define CAN_RETRY (changer_done || (gmem[LEAF(c)] & BIT(c)))
#endif

proctype core(byte c)
{
	byte k, n, nb, kk, last, reason, ncalls, top, held, fr;
	byte gen[LV], req[LV];
	bit acted, leafok, again;
#ifdef INSIDE
	byte ck, cm, cref;
	bit cfail, inside_done;
#endif

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
			/* E1: seq_cst fetch_add of the gate's calls */
			calls[GATE(c)]++
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
			:: changing[GATE(c)] -> calls[GATE(c)]--; again = 1; goto call_end
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
		 * last one commits the round in this step (direct: the
		 * completing acq_rel RMW of the word is the commit point; no
		 * poll between the one above and this step) */
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
#ifdef INSIDE
		/* the caller's action changes a core of the other cluster
		 * (once): core 0 leaves core 3, core 2 leaves core 1 */
		if
		:: INSIDE_TARGET(c) != NONE && !inside_done ->
			inside_done = 1;
			domain_change(INSIDE_TARGET(c), 0, c)
		:: else -> skip
		fi;
#endif
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
		/* E3: release fetch_sub of the gate's calls */
		calls[GATE(c)]--;
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
/* A changer outside every call: coupled_domain_leave(), then
 * coupled_domain_join() (CHANGES 1: the leave only; INITIAL_OUT: the join
 * only) of core CH, or with CH_ANY of a core it chooses. */
proctype changer()
{
	byte t, ck, cm, cref;
	bit cfail;

#ifdef CH_ANY
	if
	:: t = 0
	:: t = 1
	:: NC > 2 -> t = 2
	:: NC > 3 -> t = 3
	fi;
#else
	t = CH;
#endif
#if !defined(INITIAL_OUT)
	domain_change(t, 0, NONE);
#endif
#if CHANGES > 1 || defined(INITIAL_OUT)
	domain_change(t, 1, NONE);
#endif
	atomic { t = 0; changers-- }
}
#endif

init
{
	byte p, q;

	atomic {
		for (p : 0 .. NC - 1) {
			for (q : 0 .. LV - 1) {
				if
				:: STARTS_OUT(p) -> skip
				:: else ->
					gmem[PATH(p, q)] = gmem[PATH(p, q)] | BIT(p);
					gmembers[PATH(p, q)]++
				fi
			}
		};
		q = 0;
		for (p : 0 .. NC - 1) {
			run core(p)
		};
#ifdef CHANGER
		changers = CHANGERS;
		for (p : 1 .. CHANGERS) {
			run changer()
		};
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

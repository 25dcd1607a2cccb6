/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * tests/verify/model/direct.pml - a SPIN (Promela) model of the direct
 * protocol (include/coupled/direct.h), with coupled_enter_opts()
 * (include/coupled/protocol.h) and coupled_join() / coupled_leave()
 * (include/coupled/membership.h) around it.
 *
 * One process per participant runs coupled_enter_opts() and coupled__run()
 * (its steps coupled__direct_arrive(), _admit(), _complete() or _wait(),
 * _take_part());
 * every atomic operation of the header on shared state is one Promela step,
 * and each step carries a comment naming the function (and the operation)
 * it models.  Purely local computation is folded into the neighbouring step.
 * The conventions are those of coupled.pml (the settled protocol).
 *
 * The word g->counts is kept as its three fields: arr (arrivals), stop and
 * wgen (the generation field); an operation on the word is still one step.
 *
 * Configuration (cpp macros):
 *   N            participants (all members), default 3
 *   ROUNDS       committed rounds each participant wants, default 2
 *   ABORTS       abort budget shared by all participants, default 1 (an
 *                abort source: work pending, caller check, deadline)
 *   ABORTS_UNBOUNDED  aborts never stop (the progress check must fail)
 *   REQMAX       requests are drawn from 1..REQMAX, default 2
 *   RANDOM_REQS  only ids below this draw their request, default N
 *   MEMBERSHIP   add a process that removes an id of its choice and adds
 *                it back (coupled_leave, then coupled_join) while the
 *                others run
 *   CHANGES      with MEMBERSHIP: 1 = only the leave (the id then stays
 *                out), 2 = leave and join (default)
 *   GENMOD       the generation field is counted modulo GENMOD, default 2:
 *                the header's claim is that a waiter can miss at most one
 *                step of the field, so modulo 2 must suffice
 *   LINE         entries of the word's line (COUPLED_DIRECT_LINE_REQUESTS),
 *                default 2: with N 3 two members publish in the line and
 *                one in its slot; run_model.sh runs 1 to N
 *
 * With MEMBERSHIP the changer's id is the model's choice (any of 0..N-1),
 * so that a leave frees, and a join takes, a line entry or none.
 *
 * Mutants (each must make some check fail):
 *   MUTANT_D_WITHDRAW_NO_GUARD   the withdrawal CAS ignores a complete count
 *   MUTANT_D_STOP_WHEN_COMPLETE  the changer sets stop on a complete count
 *   MUTANT_D_NO_GEN              the completer's store keeps the generation
 *   MUTANT_D_ARRIVE_IGNORES_STOP the arrival does not look at stop
 *   MUTANT_D_LEAVE_NO_DRAIN      coupled_leave does not wait for inside == 0
 *   MUTANT_D_LINE_SLOT_ONLY      the completer reads every request from the
 *                                slots (the line is written, never read)
 *   MUTANT_D_LINE_NO_SLOT        the completer reads the line only (members
 *                                without an entry are left out)
 *   MUTANT_D_LINE_KEEP_ON_LEAVE  coupled_leave keeps the leaver's entry
 *                                marked used (a member of the line's
 *                                entries that is gone is still reduced)
 *
 * Properties:
 *   assertions  at the commit point (the completing increment): no change
 *               holds stop, the round's member count n is the current one,
 *               and the counted ids are exactly the members (a removed
 *               member never counts in a round of the new membership);
 *               at the completer's release store: every member of the
 *               round still counts (nobody backed out of a committed
 *               round); at each action: the parameter is the minimum of
 *               the round's requests; at the next commit and at the end:
 *               every member of the previous round ran the action exactly
 *               once; a withdrawal that "cannot be refused" is not
 *   monitor     arrivals <= N, and <= members while stop is clear
 *   end states  only "every participant finished" (and the changer)
 *   ltl progress  under weak fairness every participant finishes (and, with
 *               MEMBERSHIP, the change finishes)
 *
 * Abstraction: sequentially consistent interleaving of the header's atomic
 * operations (memory orders are Relacy's and TSAN's job).  A CAS loop is
 * one step: its successful CAS (a failed CAS only re-reads).  The adapter's
 * wait is "sleep until woken (a wake after wait_prepare) or until work
 * arrives"; wait_prepare is folded into the acquire load that follows it.
 * The roster is the member flags (it lists exactly the members, and only
 * changers write either, with the count drained).  round_gen (32 bits in
 * the header) is counted modulo GENMOD too; only equality is used.
 */

#ifndef N
#define N 3
#endif
#ifndef ROUNDS
#define ROUNDS 2
#endif
#ifndef ABORTS
#define ABORTS 1
#endif
#ifndef REQMAX
#define REQMAX 2
#endif
#ifndef RANDOM_REQS
#define RANDOM_REQS N
#endif
#ifndef GENMOD
#define GENMOD 2
#endif
#ifndef CHANGES
#define CHANGES 2
#endif
#ifndef LINE
#define LINE 2
#endif
#define NOLINE 255

#ifdef ABORTS_UNBOUNDED
#define ABORT_FIRES (true)
#define TAKE_ABORT skip
#else
#define ABORT_FIRES (aborts_left > 0)
#define TAKE_ABORT aborts_left--
#endif

/* ---- shared state (struct coupled_group / struct coupled_slot) ---- */
byte arr;                    /* counts: arrivals (bits 0..15) */
bit stop;                    /* counts: stop (bit 16) */
byte wgen;                   /* counts: generation (bits 17..31), mod GENMOD */
byte members = N;            /* members */
byte round_param;            /* round_param */
byte round_gen;              /* round_gen, modulo GENMOD */
bit member[N];               /* slot.member (and the roster) */
bit inside[N];               /* slot.inside */
byte request[N];             /* slot.request */
byte line_index[N];          /* slot.variant.line_index (NOLINE: none) */
bit line_used[LINE];         /* variant.line_used, one bit per entry */
byte line_req[LINE];         /* variant.line_requests */
bit woken[N];                /* the adapter: a wake since wait_prepare */

byte aborts_left = ABORTS;   /* the environment's abort budget */

/* ---- ghost state: only the checks read it ---- */
bit counted[N];              /* the id's arrival counts in the word */
bit frozen;                  /* from the completing increment to the store */
bit changing;                /* a change holds stop (its CAS succeeded) */
byte finished;               /* participants done with all their rounds */
byte ghost_min;              /* minimum request of the last committed round */
byte greq[N];                /* the request of the id's call in progress */
byte ghost_n;                /* member count of the last committed round */
byte acts;                   /* action runs in the last committed round */
bit changer_done = 1;        /* set to 0 by the MEMBERSHIP changer */
byte gi;                     /* loop index of the ghost code */

#if N > 3
#define SAME_SET (counted[0] == member[0] && counted[1] == member[1] && \
		  counted[2] == member[2] && counted[3] == member[3])
#elif N == 3
#define SAME_SET (counted[0] == member[0] && counted[1] == member[1] && \
		  counted[2] == member[2])
#else
#define SAME_SET (counted[0] == member[0] && counted[1] == member[1])
#endif

/* The commit point: checks, then the ghost round starts.  Part of the
 * completing increment's step. */
inline ghost_commit(n)
{
	assert(!changing);           /* no round while a change holds stop */
	assert(n == members);        /* no stale member count */
	assert(SAME_SET);            /* counted ids == members */
	assert(acts == ghost_n);     /* the previous round: all acted once */
	frozen = 1;
	ghost_n = n;
	acts = 0;
	ghost_min = 255;
	for (gi : 0 .. N - 1) {
		if
		:: member[gi] && greq[gi] < ghost_min -> ghost_min = greq[gi]
		:: else -> skip
		fi
	}
	gi = 0
}

/* coupled__direct_withdraw(): the CAS loop, one step (its successful CAS,
 * or the refusal).  guard: the member count of the complete-count test. */
inline withdraw(guard)
{
	atomic {
		if
#ifdef MUTANT_D_WITHDRAW_NO_GUARD
		:: wgen != gen -> ok = 0
#else
		:: wgen != gen || (!stop && arr == guard) -> ok = 0
#endif
		:: else -> arr--; counted[self] = 0; ok = 1
		fi
	}
}

/* End of a call: coupled_enter_opts' release store inside = 0.  The model
 * also clears dead state: the locals, the stale request (nobody reads it
 * before the owner's next store, which comes before its next arrival) and
 * the adapter's wake flag (the next wait_prepare resets it anyway). */
inline call_over_locals()
{
#ifdef MEMBERSHIP
	inside[self] = 0;
#endif
	request[self] = 0; greq[self] = 0; woken[self] = 0;
	n = 0; gen = 0; req = 0; ok = 0; reason = 0; committed = 0;
	w_arr = 0; w_stop = 0; param = 0; acc = 0; mem = 0; e = 0; seen = 0
}

proctype participant(byte self)
{
	byte req, n, gen, w_arr, commits, i, acc, param, e, seen;
	bit w_stop, ok, committed, moved, mem;
	byte reason;            /* 0: none, 1: work/caller/deadline, 2: stop */

	do
	:: commits == ROUNDS -> break
#ifdef MEMBERSHIP
	/* the others are gone, or this id was removed for good */
	:: commits < ROUNDS && (finished > 0 || !member[self] && changer_done) -> break
	:: commits < ROUNDS && !(finished > 0 || !member[self] && changer_done) ->
#else
	:: commits < ROUNDS ->
#endif
#ifdef MEMBERSHIP
		/* coupled_enter_opts: relaxed load of member (ENOENT: the
		 * caller then waits until it is a member again) */
		if
		:: !member[self] -> (member[self] || changer_done); goto next_call
		:: else -> skip
		fi;
		/* coupled_enter_opts: seq_cst store inside = 1 */
		inside[self] = 1;
		/* coupled_enter_opts: seq_cst load of member */
		if
		:: !member[self] -> goto call_over
		:: else -> skip
		fi;
#endif
		/* coupled__direct_arrive: relaxed early-out load of counts (stop) */
		if
		:: stop -> goto call_over
		:: else -> skip
		fi;
		/* coupled__direct_arrive: coupled__abort_reason before the arrival (an
		 * abort source that already fires: the environment's choice
		 * while the budget lasts); the call returns without counting */
		if
		:: atomic { ABORT_FIRES -> TAKE_ABORT }; goto call_over
		:: skip
		fi;
		/* coupled__direct_publish: relaxed load of the own line_index */
		e = line_index[self];
		/* coupled__direct_publish: relaxed store of the request (drawn
		 * from 1..REQMAX) into the line's entry e, or the slot */
		atomic {
			if
			:: self < RANDOM_REQS -> select(req : 1 .. REQMAX)
			:: else -> req = REQMAX
			fi;
			greq[self] = req;
			if
			:: e != NOLINE -> line_req[e] = req
			:: else -> request[self] = req
			fi;
			e = 0
		};
		/* coupled__direct_arrive: acq_rel fetch_add of counts (+1 arrival).
		 * Without MEMBERSHIP the member count is constant, so its
		 * load, the member flag and the completion test are folded
		 * in here. */
		atomic {
			w_arr = arr; w_stop = stop; gen = wgen;
			arr++;
			counted[self] = 1;
#ifndef MEMBERSHIP
			n = members;
			if
			:: !w_stop && w_arr + 1 == n -> ghost_commit(n)
			:: else -> skip
			fi
#endif
		};
#ifdef MEMBERSHIP
		/* coupled__direct_admit: acquire load of members */
		n = members;
#ifdef MUTANT_D_ARRIVE_IGNORES_STOP
		w_stop = 0;
#endif
		/* coupled__direct_admit: acquire load of member */
		mem = member[self];
#ifndef MUTANT_D_NO_RECHECK_GEN
		/* coupled__direct_admit: acquire re-load of counts after the loads of
		 * members and member; a moved generation means the round that
		 * counts this arrival committed (completed by another) */
		if
		:: !w_stop && wgen != gen -> w_arr = 0; mem = 0; goto decided
		:: else -> skip
		fi;
#endif
		/* coupled__direct_admit: stop seen at the arrival, or not a member:
		 * withdraw (guard n + 1: cannot be refused) */
		if
		:: w_stop || !mem ->
			w_arr = 0; w_stop = 0;
			withdraw(n + 1);
			assert(ok);
			goto call_over
		:: else -> mem = 0
		fi;
		/* the commit point was the arrival above; ghost checks here
		 * (nothing shared changed in between: the word is frozen) */
		if
		:: atomic { w_arr + 1 == n -> ghost_commit(n) }
		:: else -> skip
		fi;
#endif
		if
		:: w_arr + 1 == n -> w_arr = 0; w_stop = 0; goto complete
		:: else -> w_arr = 0; w_stop = 0; goto wait_loop
		fi;

complete:
		/* coupled__direct_reduce: relaxed load of line_used (folded
		 * into the loads below: only changes write it, and no change
		 * runs while the word is frozen) and of each used entry of the
		 * line, one per step; reduce = min */
		for (i : 0 .. LINE - 1) {
			atomic {
				if
#ifndef MUTANT_D_LINE_SLOT_ONLY
				:: line_used[i] ->
					seen++;
					if
					:: acc == 0 || line_req[i] < acc -> acc = line_req[i]
					:: else -> skip
					fi
#endif
				:: else -> skip
				fi
			}
		}
		/* coupled__direct_reduce: while some member is not counted
		 * yet, the roster: relaxed loads of line_index and of the slot's
		 * request of each member without an entry, one per step */
		for (i : 0 .. N - 1) {
			atomic {
				if
#ifndef MUTANT_D_LINE_NO_SLOT
#ifdef MUTANT_D_LINE_SLOT_ONLY
				:: seen < n && member[i] ->
					acc = (acc == 0 || request[i] < acc -> request[i] : acc);
					seen++
#else
				:: seen < n && member[i] && line_index[i] == NOLINE ->
					seen++;
					if
					:: acc == 0 || request[i] < acc -> acc = request[i]
					:: else -> skip
					fi
#endif
#endif
				:: else -> skip
				fi
			}
		}
		seen = 0;
		/* coupled__direct_complete: relaxed store of round_param */
		atomic { round_param = acc; acc = 0; i = 0 };
		/* coupled__direct_complete: relaxed load and store of round_gen */
		round_gen = (round_gen + 1) % GENMOD;
		/* coupled__direct_complete: release store of counts: arrivals 0,
		 * stop clear, next generation */
		atomic {
			assert(SAME_SET);        /* nobody backed out of the round */
			for (gi : 0 .. N - 1) {
				counted[gi] = 0
			}
			gi = 0;
			frozen = 0;
			arr = 0;
			stop = 0;
#ifndef MUTANT_D_NO_GEN
			wgen = (gen + 1) % GENMOD
#else
			wgen = gen
#endif
		};
		/* coupled__direct_complete: coupled_adapter_wake of every other
		 * member of the roster, one per step */
		for (i : 0 .. N - 1) {
			atomic {
				if
				:: i != self && member[i] -> woken[i] = 1
				:: else -> skip
				fi
			}
		}
		i = 0;
		goto decided;

wait_loop:
		/* coupled__direct_wait: coupled_adapter_wait_prepare and the
		 * acquire load of counts; if the generation did not move,
		 * coupled__abort_reason (an abort is the environment's choice
		 * while the budget lasts; stop in the loaded value counts) */
		atomic {
			woken[self] = 0;
			if
			:: wgen != gen -> moved = 1
			:: else ->
				moved = 0;
				if
				:: committed -> skip
				:: !committed && ABORT_FIRES -> TAKE_ABORT; reason = 1
				:: !committed && stop -> reason = 2
				:: !committed && !stop -> skip
				fi
			fi
		};
		if
		:: moved -> moved = 0; goto decided
		:: !moved && reason != 0 -> goto withdraw_waiting
		:: !moved && reason == 0 && committed -> goto wait_loop  /* relax */
		:: !moved && reason == 0 && !committed -> skip
		fi;
		/* coupled__direct_wait: coupled_adapter_wait (until woken, or
		 * until work arrives: then withdraw) */
		if
		:: woken[self] -> skip
		:: atomic { ABORT_FIRES -> TAKE_ABORT }; reason = 1; goto withdraw_waiting
#ifdef MEMBERSHIP
		/* a participant finished for good: its partners give up */
		:: finished > 0 -> reason = 1; goto withdraw_waiting
#endif
		fi;
		goto wait_loop;

withdraw_waiting:
		/* coupled__direct_wait: coupled__direct_withdraw(gen, n) */
		withdraw(n);
		if
		:: ok -> goto call_over          /* return the abort */
		:: else -> reason = 0; committed = 1; goto wait_loop
		fi;

decided:
		/* coupled__direct_take_part: relaxed loads of round_param and round_gen */
		param = round_param;
		/* coupled__direct_take_part: action() */
		atomic {
			acts++;
			assert(param == ghost_min);  /* one param: the min */
			assert(param <= req);
			assert(acts <= ghost_n);
			commits++;
			call_over_locals()
		};
		goto next_call;

call_over:
		atomic { call_over_locals() };
next_call:
		skip
	od;
	finished++
}

#ifdef MEMBERSHIP
/* coupled__membership_begin(): take stop, wake every member, wait until
 * the arrivals drain to 0 */
inline membership_begin()
{
	/* coupled__membership_begin: the changers' lock (CAS of prevent),
	 * the relaxed load of members and the CAS that sets stop, refused
	 * while the count is complete.  One step: the model has one changer,
	 * so the lock is always free, and with it held only the changer
	 * writes members. */
	atomic {
#ifdef MUTANT_D_STOP_WHEN_COMPLETE
		!stop ->
#else
		!stop && arr != members ->
#endif
		stop = 1; changing = 1
	};
	/* coupled__membership_begin: coupled_adapter_wake of every member
	 * of the roster, one per step */
	for (j : 0 .. N - 1) {
		atomic {
			if
			:: member[j] -> woken[j] = 1
			:: else -> skip
			fi
		}
	}
	j = 0;
	/* coupled__membership_begin: acquire wait for arrivals == 0 */
	(arr == 0)
}

/* coupled__membership_end(): the CAS loop that clears stop, one step */
inline membership_end()
{
#ifndef MUTANT_D_END_BEFORE_DRAIN
	/* clear stop only with arrivals 0 (stray arrivals that saw stop
	 * withdraw first) */
	atomic { arr == 0 -> stop = 0; changing = 0 }
#else
	atomic { stop = 0; changing = 0 }
#endif
}

/*
 * Removes an id of the model's choice (coupled_leave) and, with CHANGES 2,
 * adds it back (coupled_join) while the others run.
 */
proctype changer()
{
	byte j, c;

	/* the id to change: the model's choice */
	select(c : 0 .. N - 1);
	/* coupled_leave: relaxed load of member (refuse early) */
	if
	:: member[c] ->
		membership_begin();
		/* coupled_leave: seq_cst store member = 0 */
		member[c] = 0;
		/* coupled__roster_remove: the roster, release store of members */
		members = members - 1;
		/* coupled_leave: seq_cst wait until the id's call returned */
#ifndef MUTANT_D_LEAVE_NO_DRAIN
		(inside[c] == 0);
#endif
		/* coupled__protocol_member_removed: relaxed stores of
		 * line_used and line_index (one step: only changers write
		 * them, and no round reads them while stop is held) */
		atomic {
			if
#ifndef MUTANT_D_LINE_KEEP_ON_LEAVE
			:: line_index[c] != NOLINE -> line_used[line_index[c]] = 0
#endif
			:: else -> skip
			fi;
			line_index[c] = NOLINE
		};
		membership_end()
	:: else -> skip
	fi;
#if CHANGES > 1
	/* coupled_join: relaxed load of member (refuse early) */
	if
	:: !member[c] ->
		membership_begin();
		/* coupled__protocol_member_added: the lowest free entry, if
		 * any: relaxed stores of line_index and line_used (one step,
		 * as above) */
		atomic {
			for (j : 0 .. LINE - 1) {
				if
				:: line_index[c] == NOLINE && !line_used[j] ->
					line_used[j] = 1; line_index[c] = j
				:: else -> skip
				fi
			}
			j = 0
		};
		/* coupled_join: release store of member */
		member[c] = 1;
		/* coupled__roster_add: the roster, release store of members */
		members = members + 1;
		membership_end()
	:: else -> skip
	fi;
#endif
	changer_done = 1
}
#endif

/* arrivals <= N always, and <= members while stop is clear */
active proctype monitor()
{
end:
	atomic {
		!(arr <= N && (stop || arr <= members)) -> assert(false)
	}
}

init
{
	byte p;

	atomic {
		for (p : 0 .. N - 1) {
			member[p] = 1;
			/* coupled_group_init: the first LINE members get the
			 * line's entries */
			if
			:: p < LINE -> line_index[p] = p; line_used[p] = 1
			:: else -> line_index[p] = NOLINE
			fi
		}
#ifdef MEMBERSHIP
		changer_done = 0;
		run changer();
#endif
		for (p : 0 .. N - 1) {
			run participant(p)
		}
	};
	/* the last round: every member ran the action once */
	(finished == N && changer_done);
	assert(acts == ghost_n)
}

/* Under weak fairness every participant finishes all its rounds (aborts
 * stop: the budget is finite), and the change finishes. */
ltl progress { <> (finished == N && changer_done) }

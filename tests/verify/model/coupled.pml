/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * tests/verify/model/coupled.pml - a SPIN (Promela) model of the settled
 * protocol (direct.pml models the direct one).
 *
 * One process per participant runs the phases of coupled__run() in
 * include/coupled/settled.h; every shared access of the header is one
 * Promela step, and each step carries a comment naming the function (and
 * the operation) it models.  Purely local computation is folded into the
 * neighbouring step.
 *
 * Configuration (cpp macros, e.g. spin -a -DN=4 -DROUNDS=3 coupled.pml):
 *   N            participants (all members), default 3
 *   ROUNDS       committed rounds each participant wants, default 2
 *   ABORTS       abort budget shared by all participants, default 1: an
 *                abort source (work pending, caller check, deadline) may
 *                fire only while the budget lasts, so every run has a
 *                point after which no more aborts come
 *   ABORTS_UNBOUNDED  aborts never stop (the progress check must fail)
 *   REQMAX       requests are drawn from 1..REQMAX, default 2
 *   RANDOM_REQS  only ids below this draw their request (the others ask
 *                for REQMAX), default N
 *   MEMBERSHIP   add a process that removes the last id and adds it back
 *                (coupled_leave / coupled_join) while the others run
 *   INITIAL_OUT  with MEMBERSHIP: the last id starts as a non-member (its
 *                ack 0 from coupled_group_init()) and the process only adds
 *                it: a first join instead of a rejoin
 *   GENMOD       generations are counted modulo GENMOD, default 8; with 2
 *                the wrap comes after every other round, so a joiner's
 *                stale ack can equal the next round's generation
 *
 * Anchors (expected failures; the same harness, the kernel's algorithm):
 *   VARIANT_SEED    Linux 3.6 coupled cpuidle as seeded (2012)
 *   VARIANT_LINUX6  the algorithm of later Linux (6.x)
 *
 * Mutants of our protocol (each must make some check fail):
 *   MUTANT_SEED_OR            all-ready value n || n << 16 everywhere
 *   MUTANT_NO_GUARD           back-out ignores the all-ready value
 *   MUTANT_NO_POKE_WAIT       phase 1 does not wait to be poked
 *   MUTANT_NO_RESTART         the closer never restarts on a pending poke
 *   MUTANT_SPLIT_DONE         done as two decrements, waiting first
 *   MUTANT_SPLIT_DONE_READY_FIRST  done as two decrements, ready first
 *   MUTANT_NO_GATE            no acknowledgements and no exit gate
 *   MUTANT_NO_EXIT_WAIT       no wait for ready == 0 after done
 *   MUTANT_NO_PREVENT_RECHECK no seq_cst re-check of prevent after arrival
 *   MUTANT_LEAVE_NO_DRAIN     coupled_leave does not wait for inside == 0
 *   MUTANT_JOIN_STALE_ACK     coupled_join leaves the joiner's ack as it was
 *
 * Properties:
 *   assertions  all-or-none per round, one parameter equal to the minimum
 *               of the round's requests, no action with an arrival poke
 *               pending, a round forms only after the previous one is over
 *   monitor     ready <= waiting <= members, always
 *   end states  only "every participant finished its rounds" (plus the
 *               monitor and, with MEMBERSHIP, the changer done)
 *   ltl progress  under weak fairness every participant eventually
 *               finishes all its rounds (aborts stop because the budget
 *               is finite)
 *
 * Abstraction: sequentially consistent interleaving of the header's atomic
 * operations; memory orders are Relacy's and TSAN's job.  The packed word
 * uses the header's constants, but the model never comes near 16-bit
 * overflow.  The adapter's wait is modelled as "sleep until poked, or until
 * work arrives" (no spurious wake-ups, so a protocol that relied on them
 * would deadlock here).  Generations are counted modulo GENMOD (the header:
 * modulo 2^32; the protocol only ever compares them for equality) and a
 * handled poke pair is reset to 0/0 (the header only compares the two), so
 * that livelocks show up as cycles of a finite state space.
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
#define GENMOD 8
#endif

/* coupled/word.h */
#define WAITING_ONE 1
#define READY_ONE 65536
#define WAITING_MASK 65535
#define WAITING(w) ((w) & WAITING_MASK)
#define READY(w) ((w) >> 16)
#if defined(MUTANT_SEED_OR) || defined(VARIANT_SEED)
#define ALL_READY(n) ((n) || ((n) << 16))
#else
#define ALL_READY(n) ((n) | ((n) << 16))
#endif

#define OUTCOME_COMMIT 1
#define OUTCOME_RESTART 2

#ifdef ABORTS_UNBOUNDED
#define ABORT_FIRES (true)
#define TAKE_ABORT skip
#else
#define ABORT_FIRES (aborts_left > 0)
#define TAKE_ABORT aborts_left--
#endif

/* ---- shared state (struct coupled_group / struct coupled_slot) ---- */
int word;                    /* counts: the packed waiting/ready word */
#if defined(MEMBERSHIP) && defined(INITIAL_OUT)
byte members = N - 1;        /* members */
#else
byte members = N;            /* members */
#endif
bit prevent;                 /* prevent */
byte round_gen;              /* round_gen, modulo GENMOD */
byte round_outcome;          /* variant.round_outcome */
byte round_param;            /* round_param */
byte exit_gate;              /* variant.exit_gate, modulo GENMOD */
bit member[N];               /* slot.member */
bit inside[N];               /* slot.inside */
byte request[N];             /* slot.request */
byte poke_seq[N];            /* slot.variant.poke_seq */
byte poke_handled[N];        /* slot.variant.poke_handled */
byte ack[N];                 /* slot.variant.ack, modulo GENMOD */

byte aborts_left = ABORTS;   /* the environment's abort budget */

/* ---- ghost state: only the checks read it ---- */
byte finished;               /* participants done with all their rounds */
byte ghost_min;              /* minimum request of the forming round */
byte ghost_n;                /* member count of the forming round */
byte acts;                   /* action runs in the current round */
byte in_round;               /* members that saw a decision, not yet out */
bit apoke[N];                /* an arrival's poke is pending at this slot */
bit changer_done = 1;        /* set to 0 by the MEMBERSHIP changer */

/* ---- the kernel's (anchor) state ---- */
#if defined(VARIANT_SEED) || defined(VARIANT_LINUX6)
#define KERNEL_MODEL 1
#define NOT_IDLE 0           /* CPUIDLE_COUPLED_NOT_IDLE (requests are >= 1) */
bit k_pending[N];            /* cpuidle_coupled_poke_pending (seed: poked) */
bit k_poked[N];              /* cpuidle_coupled_poked (6.x only) */
byte k_req[N];               /* requested_state[] */
byte k_barrier;              /* abort_barrier of the parallel barrier */
#endif

#ifdef KERNEL_MODEL
#define REQ_OF(i) k_req[i]
#else
#define REQ_OF(i) request[i]
#endif

/* coupled__handle_pokes(): every poke so far is handled.  The model keeps
 * only the difference of the pair, so a handled pair becomes 0/0. */
inline handle_pokes(s, got)
{
	if
	:: poke_seq[s] != poke_handled[s] ->
		poke_seq[s] = 0; poke_handled[s] = 0; apoke[s] = 0; got = 1
	:: else -> got = 0
	fi
}

/* coupled__poke(): poke_seq += 1 (release RMW), then the adapter's wake.
 * Every reader only compares poke_seq with poke_handled, so the model
 * keeps poke_seq at most one above poke_handled (a poke on top of a
 * pending one changes nothing a reader can see). */
inline poke(t, arrival)
{
	if
	:: poke_seq[t] == poke_handled[t] -> poke_seq[t] = poke_handled[t] + 1
	:: else -> skip
	fi;
	if
	:: arrival -> apoke[t] = 1
	:: else -> skip
	fi
}

/* The round forms: the arrive_ready increment that made the word
 * all-ready.  Ghost bookkeeping for the checks. */
inline ghost_form(n)
{
#ifndef KERNEL_NO_ROUND_CHECK
	assert(in_round == 0);       /* the previous round is over */
#endif
	ghost_n = n;
	acts = 0;
	ghost_min = 255;
	for (gi : 0 .. N - 1) {
		if
		:: member[gi] && REQ_OF(gi) < ghost_min -> ghost_min = REQ_OF(gi)
		:: else -> skip
		fi
	}
	gi = 0
}

byte gi;                     /* loop index of ghost_form */

#ifndef KERNEL_MODEL
/* ======================= our protocol ======================= */

/* coupled__phase_decide, one slot: a pending poke means restart; the
 * parameter is the minimum request (coupled_reduce_min) */
inline decide_slot(k)
{
	if
	:: member[k] ->
		if
		:: poke_seq[k] != poke_handled[k] -> pending = 1
		:: else -> skip
		fi;
		if
		:: acc == 0 || request[k] < acc -> acc = request[k]
		:: else -> skip
		fi
	:: else -> skip
	fi
}

#if N > 3
#define ALL_ACKED(g) ((!member[0] || ack[0] == g) && (!member[1] || ack[1] == g) && \
		      (!member[2] || ack[2] == g) && (!member[3] || ack[3] == g))
#elif N == 3
#define ALL_ACKED(g) ((!member[0] || ack[0] == g) && (!member[1] || ack[1] == g) && \
		      (!member[2] || ack[2] == g))
#else
#define ALL_ACKED(g) ((!member[0] || ack[0] == g) && (!member[1] || ack[1] == g))
#endif

/* End of a call: coupled_enter_opts' release store inside = 0; the model
 * clears dead locals and the stale request (nobody reads it before the
 * owner's next store). */
inline call_over_locals()
{
#ifdef MEMBERSHIP
	inside[self] = 0;
#endif
	request[self] = 0;
	closer = 0; poked = 0; reason = 0; n = 0; gen = 0;
	outcome = 0; req = 0; ok = 0
}

/*
 * One participant: calls coupled_enter() until it has committed ROUNDS
 * rounds.  Aborted calls are simply repeated with a new request.
 */
proctype participant(byte self)
{
	byte req, n, w, gen, outcome, commits, i, acc;
	bit poked, closer, pending, got, ok;
	byte reason;            /* 0: none, 1: work/caller/deadline, 2: prevent */

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
		/* coupled_enter_opts: acquire load of member (ENOENT: the
		 * caller then waits until it is a member again) */
		if
		:: !member[self] -> (member[self] || changer_done); goto next_call
		:: else -> skip
		fi;
		/* coupled_enter_opts: seq_cst store inside = 1 */
		inside[self] = 1;
		/* coupled_enter_opts: seq_cst re-load of member */
		if
		:: !member[self] -> goto call_over
		:: else -> skip
		fi;
#endif
		/* the caller's request, drawn from 1..REQMAX */
		req = 0;
attempt:
		/* coupled__phase_entry: coupled__handle_pokes (pokes older than this
		 * attempt do not count), relaxed store of request */
		atomic {
			if
			:: req == 0 && self < RANDOM_REQS -> select(req : 1 .. REQMAX)
			:: req == 0 && self >= RANDOM_REQS -> req = REQMAX
			:: else -> skip
			fi;
			handle_pokes(self, got); request[self] = req; got = 0
		};
#ifdef MEMBERSHIP
		/* coupled__phase_entry: relaxed early-out load of prevent */
		if
		:: prevent -> goto call_over
		:: else -> skip
		fi;
#endif
		/* coupled__phase_entry: coupled__word_arrive_waiting (seq_cst RMW).
		 * Without MEMBERSHIP the member count is constant, so its load
		 * is folded in here. */
		atomic {
			word = word + WAITING_ONE;
			w = WAITING(word);
#ifndef MEMBERSHIP
			n = members
#endif
		};
#ifdef MEMBERSHIP
#ifndef MUTANT_NO_PREVENT_RECHECK
		/* coupled__phase_entry: seq_cst load of prevent */
		if
		:: prevent -> goto abort_waiting
		:: else -> skip
		fi;
#endif
		/* coupled__phase_entry: relaxed loads of member (ENOENT) and members */
		if
		:: !member[self] -> goto abort_waiting
		:: else -> n = members
		fi;
#endif
		if
		:: w == n ->
			/* coupled__phase_entry: last arriver, coupled__poke_members:
			 * one poke (release RMW) per step */
			i = 1;
			do
			:: atomic {
				i < N ->
				/* the k-th other id in increasing order */
				if
				:: i <= self -> acc = i - 1
				:: else -> acc = i
				fi;
				if
				:: member[acc] -> poke(acc, 1)
				:: else -> skip
				fi;
				acc = 0;
				i++
			   }
			:: i == N -> i = 0; w = 0; poked = 1; break
			od
		:: else -> w = 0; poked = 0
		fi;
#ifdef MUTANT_NO_POKE_WAIT
		poked = 1;
#endif

waiting:
		/* coupled__phase_waiting: coupled__handle_pokes, then
		 * coupled__abort_reason (phase 1; the abort is a choice of the
		 * environment) */
		atomic {
			handle_pokes(self, got);
			if
			:: got -> poked = 1; got = 0
			:: else -> skip
			fi;
			if
			:: prevent -> reason = 2
			:: !prevent && ABORT_FIRES -> TAKE_ABORT; reason = 1
			:: !prevent -> skip
			fi
		};
		/* coupled__phase_waiting: relaxed load of counts */
		if
		:: reason != 0 -> goto abort_waiting
		:: reason == 0 && WAITING(word) == n && poked -> goto ready
		:: else -> skip
		fi;
		/* coupled__phase_waiting: coupled_adapter_wait (until poked, or
		 * until work arrives: then the next poll aborts) */
		if
		:: poke_seq[self] != poke_handled[self] -> skip
		:: atomic { ABORT_FIRES -> TAKE_ABORT }; reason = 1; goto abort_waiting
#ifdef MEMBERSHIP
		/* a participant finished for good: its partners give up */
		:: finished > 0 -> reason = 1; goto abort_waiting
#endif
		fi;
		goto waiting;

abort_waiting:
		/* coupled__phase_waiting/_ready: coupled__word_leave_waiting (release RMW), and
		 * return the abort */
		atomic {
			word = word - WAITING_ONE;
			call_over_locals()
		};
		goto next_call;

ready:
		/* coupled__phase_ready: relaxed load of round_gen, then
		 * coupled__word_arrive_ready (acq_rel RMW): the caller whose
		 * increment completes the word is the closer.  (Folded into one
		 * step: no round is decided without this increment.) */
		atomic {
			gen = round_gen;
			word = word + READY_ONE;
			closer = (word == ALL_READY(n));
			if
			:: closer -> ghost_form(n)
			:: else -> skip
			fi
		};
		if
		:: closer ->
#ifdef MEMBERSHIP
			/* coupled__phase_decide: relaxed scan of member, poke_seq,
			 * poke_handled and request, one slot per step (a
			 * changer's poke may come in between) */
			for (i : 0 .. N - 1) {
				atomic {
					decide_slot(i)
				}
			}
#else
			/* coupled__phase_decide: relaxed scan of member, poke_seq,
			 * poke_handled and request (one step: every member is
			 * ready and spinning, nobody can poke) */
			atomic {
				for (i : 0 .. N - 1) {
					decide_slot(i)
				}
#endif
#ifdef MUTANT_NO_RESTART
				pending = 0;
#endif
#ifdef MEMBERSHIP
			/* coupled__phase_decide: relaxed stores of round_param and
			 * round_outcome, release store of round_gen */
			atomic {
#else
				/* coupled__phase_decide: then the relaxed stores of
				 * round_param and round_outcome, release store of
				 * round_gen (the same step) */
#endif
				round_param = acc;
				if
				:: pending -> round_outcome = OUTCOME_RESTART
				:: else -> round_outcome = OUTCOME_COMMIT
				fi;
				round_gen = (gen + 1) % GENMOD;
				acc = 0; pending = 0; i = 0
			}
		:: else -> skip
		fi;

ready_spin:
		/* coupled__phase_ready loop: acquire load of round_gen; else
		 * coupled__abort_reason (phase 2) and the relaxed load of counts */
		if
		:: round_gen != gen -> goto decided
		/* (the other reads only after a load that saw no decision: the
		 * header loads round_gen first in every pass) */
		:: round_gen == gen && prevent -> reason = 2; goto back_out
		:: atomic { round_gen == gen && !prevent && ABORT_FIRES -> TAKE_ABORT }; reason = 1; goto back_out
		:: round_gen == gen && WAITING(word) != n -> reason = 0; goto back_out
		fi;

back_out:
		/* coupled__phase_ready: coupled__word_back_out_ready (CAS loop that
		 * refuses at the all-ready value) */
		atomic {
#ifdef MUTANT_NO_GUARD
			word = word - READY_ONE; ok = 1
#else
			if
			:: word != ALL_READY(n) -> word = word - READY_ONE; ok = 1
			:: else -> ok = 0
			fi
#endif
		};
		if
		:: ok && reason != 0 -> ok = 0; goto abort_waiting
		:: ok && reason == 0 -> ok = 0; poked = 0; goto waiting
		:: !ok -> reason = 0; goto ready_spin   /* all ready */
		fi;

decided:
		/* coupled__phase_action: relaxed load of round_outcome, release store of
		 * ack (none with MUTANT_NO_GATE); on commit the relaxed load of
		 * round_param and the action, in the same step (nobody passes
		 * the exit wait before this member's done) */
		atomic {
			gen = (gen + 1) % GENMOD;
			outcome = round_outcome;
#ifndef MUTANT_NO_GATE
			ack[self] = gen;
#endif
			in_round++;
			if
			:: outcome == OUTCOME_COMMIT ->
				acts++;
				assert(round_param == ghost_min); /* one param: the min */
				assert(round_param <= req);
				assert(!apoke[self])              /* no lost wake-up */
			:: else -> skip
			fi
		};

#ifndef MUTANT_NO_GATE
		/* coupled__phase_exit */
		if
		:: closer ->
			/* coupled__phase_exit: closer's acquire scan of every ack, then
			 * the release store of exit_gate */
			atomic {
				ALL_ACKED(gen) -> exit_gate = gen
			}
		:: else ->
			/* coupled__phase_exit: acquire wait for exit_gate */
			(exit_gate == gen)
		fi;
#endif
#if defined(MUTANT_SPLIT_DONE)
		/* mutant: done as waiting -= 1, then ready -= 1 */
		word = word - WAITING_ONE;
		word = word - READY_ONE;
#elif defined(MUTANT_SPLIT_DONE_READY_FIRST)
		/* mutant: done as ready -= 1, then waiting -= 1 */
		word = word - READY_ONE;
		word = word - WAITING_ONE;
#else
		/* coupled__phase_exit: coupled__word_done (one release RMW) */
		word = word - (WAITING_ONE + READY_ONE);
#endif
		/* coupled__phase_exit: acquire wait until the ready half is 0; then
		 * the round is over for this member: all or none acted */
		atomic {
#ifndef MUTANT_NO_EXIT_WAIT
			READY(word) == 0;
#endif
			in_round--;
			assert(outcome == OUTCOME_COMMIT && acts == n ||
			       outcome == OUTCOME_RESTART && acts == 0);
			if
			:: outcome != OUTCOME_COMMIT -> outcome = 0; closer = 0
			:: else -> commits++; call_over_locals()
			fi
		};
		if
		:: outcome == 0 && req != 0 -> goto attempt   /* restart */
		:: else -> goto next_call
		fi;

call_over:
		atomic { call_over_locals() };
next_call:
		skip
	od;
	finished++
}

#ifdef MEMBERSHIP
/* coupled__membership_begin(): take prevent, poke every member, wait
 * until nobody waits */
inline membership_begin()
{
	/* coupled__membership_begin: seq_cst CAS of prevent 0 -> 1 */
	atomic { prevent == 0 -> prevent = 1 };
	/* coupled__membership_begin: coupled__poke_members(all) */
	for (j : 0 .. N - 1) {
		atomic {
			if
			:: member[j] -> poke(j, 0)
			:: else -> skip
			fi
		}
	}
	/* coupled__membership_begin: seq_cst wait for waiting == 0 */
	(WAITING(word) == 0)
}

/*
 * Removes the last id (coupled_leave) and adds it back (coupled_join)
 * while the others run.
 */
proctype changer()
{
	byte j;

	/* coupled_leave: acquire load of member (refuse early) */
	if
	:: member[N - 1] ->
		membership_begin();
		/* coupled_leave: seq_cst store member = 0, count - 1 */
		member[N - 1] = 0;
		members = members - 1;
		/* coupled_leave: seq_cst wait until the id's call returned */
#ifndef MUTANT_LEAVE_NO_DRAIN
		(inside[N - 1] == 0);
#endif
		/* coupled__membership_end: release store prevent = 0 */
		prevent = 0
	:: else -> skip
	fi;
	/* coupled_join: acquire load of member (refuse early) */
	if
	:: !member[N - 1] ->
		membership_begin();
		/* coupled_join: release stores of member and members */
		member[N - 1] = 1;
		members = members + 1;
#ifndef MUTANT_JOIN_STALE_ACK
		/* coupled_join: relaxed load of round_gen, relaxed store of
		 * the joiner's ack */
		ack[N - 1] = round_gen;
#endif
		/* coupled__membership_end: release store prevent = 0 */
		prevent = 0
	:: else -> skip
	fi;
	changer_done = 1
}
#endif

#else
/* ================ the kernel's algorithm (anchors) ================ */

/* Interrupt handler of a poke (cpuidle_coupled_handle_poke). */
inline handle_irq(c)
{
	k_pending[c] = 0;
	k_poked[c] = 1
}

/* cpuidle_coupled_set_done: set_not_waiting (waiting -= 1, then
 * requested_state = NOT_IDLE), then ready -= 1 */
inline set_done()
{
#ifdef KERNEL_DONE_READY_FIRST
	word = word - READY_ONE;
	word = word - WAITING_ONE;
	k_req[self] = NOT_IDLE
#else
	word = word - WAITING_ONE;
	k_req[self] = NOT_IDLE;
	word = word - READY_ONE
#endif
}

#ifdef VARIANT_LINUX6
#define POKED_OK k_poked[self]
#else
#define POKED_OK 1
#endif

proctype cpu(byte self)
{
	byte req, w, commits, param, i, v;
	bit ok, acted;

	do
	:: commits == ROUNDS -> break
#ifdef KERNEL_ESCAPE
	:: commits < ROUNDS && finished > 0 -> break
#endif
	:: commits < ROUNDS ->
		select(req : 1 .. REQMAX);
		/* outside the idle call interrupts are on: a pending poke may
		 * be handled now or only later */
		if
		:: k_pending[self] -> handle_irq(self)
		:: true -> skip
		fi;
reset:
#ifdef VARIANT_LINUX6
		/* reset: cpumask_clear_cpu(poked) */
		k_poked[self] = 0;
#endif
		/* set_waiting: requested_state[cpu] = next_state */
		k_req[self] = req;
		/* set_waiting: atomic_inc_return */
		atomic { word = word + WAITING_ONE; w = WAITING(word) };
		if
		:: w == N ->
#ifdef VARIANT_LINUX6
			k_poked[self] = 1;
#endif
			/* poke_others: test_and_set pending, send the IPI */
			for (i : 0 .. N - 1) {
				atomic {
					if
					:: i != self && !k_pending[i] -> k_pending[i] = 1
					:: else -> skip
					fi
				}
			}
		:: else -> skip
		fi;
retry:
		/* waiting loop: while (!cpus_waiting || !poked) */
		if
		:: WAITING(word) == N && POKED_OK -> goto after_wait
		:: else -> skip
		fi;
		/* clear_pokes: handle a pending poke (6.x: then continue) */
		if
		:: k_pending[self] ->
			handle_irq(self);
#ifdef VARIANT_LINUX6
			goto retry
#else
			skip
#endif
		:: else -> skip
		fi;
		/* need_resched() */
		if
		:: atomic { ABORT_FIRES -> TAKE_ABORT }; goto not_waiting
		:: skip
		fi;
		/* cpuidle_enter_state(safe state): until an interrupt */
		if
		:: k_pending[self] -> handle_irq(self)
		:: atomic { ABORT_FIRES -> TAKE_ABORT }; goto not_waiting
#ifdef KERNEL_ESCAPE
		/* some cpu stopped for good: the others may stop too */
		:: finished > 0 -> goto not_waiting
#endif
		fi;
		goto retry;

after_wait:
		/* clear_pokes, need_resched() */
		if
		:: k_pending[self] -> handle_irq(self)
		:: else -> skip
		fi;
		if
		:: atomic { ABORT_FIRES -> TAKE_ABORT }; goto not_waiting
		:: skip
		fi;
		/* set_ready: atomic_add(MAX_WAITING_CPUS) */
		atomic {
			word = word + READY_ONE;
			if
			:: READY(word) == N -> ghost_form(N)
			:: else -> skip
			fi
		};
ready_loop:
		/* while (!cpus_ready) */
		if
		:: READY(word) == N -> goto all_ready
		:: READY(word) != N -> skip
		fi;
		/* if (!cpus_waiting) */
		if
		:: WAITING(word) != N ->
			/* set_not_ready: atomic_add_unless(-MAX_WAITING_CPUS, all) */
			atomic {
				if
				:: word != ALL_READY(N) -> word = word - READY_ONE; ok = 1
				:: else -> ok = 0
				fi
			};
			if
			:: ok -> ok = 0; goto retry
			:: else -> skip
			fi
		:: else -> skip
		fi;
		goto ready_loop;

all_ready:
#ifdef VARIANT_LINUX6
		/* any_pokes_pending: then set_done, parallel barrier, reset */
		if
		:: atomic {
			(k_pending[0] || k_pending[1] || k_pending[2]
#if N > 3
			 || k_pending[3]
#endif
			) -> in_round++ };
			set_done();
			/* parallel barrier: count to n, then to 2n, last resets */
			k_barrier = k_barrier + 1;
			(k_barrier >= N);
			atomic { k_barrier = k_barrier + 1; v = k_barrier };
			if
			:: v == 2 * N -> k_barrier = 0
			:: else -> (k_barrier <= N)
			fi;
			atomic {
				in_round--;
#ifndef KERNEL_NO_ROUND_CHECK
				assert(acts == 0)
#endif
			};
			v = 0;
			goto reset
		:: else -> skip
		fi;
#endif
		in_round++;
		/* get_state: minimum of requested_state[], one load per cpu */
		param = 255;
		for (i : 0 .. N - 1) {
			if
			:: k_req[i] < param -> param = k_req[i]
			:: else -> skip
			fi
		}
		/* cpuidle_enter_state(coupled state) */
		atomic {
			acts++;
			acted = 1;
#ifndef KERNEL_NO_PARAM_CHECK
			assert(param == ghost_min)
#endif
		};
		set_done();
		goto out;

not_waiting:
		/* set_not_waiting: atomic_dec, requested_state = NOT_IDLE */
		word = word - WAITING_ONE;
		k_req[self] = NOT_IDLE;
out:
		/* wait until no cpu is ready (interrupts on: pokes may be
		 * handled meanwhile) */
		do
		:: k_pending[self] -> handle_irq(self)
		:: READY(word) == 0 -> break
		od;
		if
		:: acted ->
			atomic {
				in_round--;
#ifndef KERNEL_NO_ROUND_CHECK
				assert(acts == ghost_n)
#endif
			};
			commits++
		:: else -> skip
		fi;
		acted = 0; param = 0; w = 0; req = 0; i = 0
	od;
	finished++
}
#endif

/* ready <= waiting <= members, checked in every state.  The kernel's
 * two-step done breaks ready <= waiting on purpose, so the anchors check
 * only the bounds. */
active proctype monitor()
{
end:
#ifdef KERNEL_MODEL
	atomic { !(WAITING(word) <= N && READY(word) <= N) -> assert(false) }
#else
	atomic {
		!(READY(word) <= WAITING(word) && WAITING(word) <= N &&
		  (prevent || WAITING(word) <= members)) -> assert(false)
	}
#endif
}

init
{
	byte p;

	atomic {
		for (p : 0 .. N - 1) {
			member[p] = 1
		}
#if defined(MEMBERSHIP) && defined(INITIAL_OUT)
		member[N - 1] = 0;
#endif
#ifdef KERNEL_MODEL
		for (p : 0 .. N - 1) {
			run cpu(p)
		}
#else
#ifdef MEMBERSHIP
		changer_done = 0;
		run changer();
#endif
		for (p : 0 .. N - 1) {
			run participant(p)
		}
#endif
	}
}

/* Under weak fairness every participant finishes all its rounds: aborts
 * stop (finite budget), and then every call commits; with MEMBERSHIP the
 * change finishes too. */
ltl progress { <> (finished == N && changer_done) }

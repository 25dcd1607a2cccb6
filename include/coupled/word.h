/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/word.h - the packed waiting/ready word of the settled protocol.
 *
 * Private to coupled/settled.h, which includes it; the direct protocol has
 * its own word (coupled/direct.h).  Nothing here is part of the API: the
 * names carry the library's private prefix (coupled__, COUPLED__).
 *
 * One unsigned 32-bit atomic word holds two 16-bit counts:
 *
 *    31              16 15               0
 *   +------------------+------------------+
 *   |   ready count    |  waiting count   |
 *   +------------------+------------------+
 *
 * A participant counts as *waiting* from the moment it arrives at the
 * rendezvous until it leaves it (abort or done), and as *ready* from the
 * moment it promised to enter the shared action until it backs out or is done.
 * Every ready participant is also waiting, so ready <= waiting <= members.
 *
 * The word is unsigned and each half is 16 bits, so a group holds at most
 * COUPLED_MAX_MEMBERS (65535) members: then waiting and ready are both at most
 * 0xffff, "all ready" is 0xffffffff, and no operation below can carry from one
 * half into the other.
 *
 * All operations on the word are read-modify-writes, so every store to it
 * continues the release sequence of every earlier release RMW: an acquire RMW
 * or load that reads the word synchronizes with every release RMW before it in
 * the word's modification order.  The protocol relies on this to publish each
 * participant's request through its arrival.
 */
#ifndef COUPLED_WORD_H
#define COUPLED_WORD_H

#include "atomic.h"
#include "types.h"

/** Bits of the waiting half; the ready half starts here. */
#define COUPLED__WAITING_BITS 16u
/** One waiting participant. */
#define COUPLED__WAITING_ONE 1u
/** One ready participant. */
#define COUPLED__READY_ONE (1u << COUPLED__WAITING_BITS)
/** Mask of the waiting half. */
#define COUPLED__WAITING_MASK (COUPLED__READY_ONE - 1u)

/**
 * coupled__word_waiting() - waiting count of a word value
 * @w: a value read from the word
 *
 * Return: the low 16 bits.
 */
static inline uint32_t coupled__word_waiting(uint32_t w)
{
	return w & COUPLED__WAITING_MASK;
}

/**
 * coupled__word_ready() - ready count of a word value
 * @w: a value read from the word
 *
 * Return: the high 16 bits.
 */
static inline uint32_t coupled__word_ready(uint32_t w)
{
	return w >> COUPLED__WAITING_BITS;
}

/**
 * coupled__word_all_ready() - the value of the word when all are ready
 * @members: member count, at most COUPLED_MAX_MEMBERS
 *
 * Every member waiting and every member ready: members | members << 16, a
 * bitwise OR (a logical one would make the value 1 and disable the guard in
 * coupled__word_back_out_ready()).
 *
 * Return: the packed all-ready value.
 */
static inline uint32_t coupled__word_all_ready(uint32_t members)
{
	return members | (members << COUPLED__WAITING_BITS);
}

/**
 * coupled__word_arrive_waiting() - count the caller as waiting
 * @word: the group's packed word
 *
 * Context: the caller is not yet counted in either half.
 * Return: the word's value just after the increment.
 */
static inline uint32_t coupled__word_arrive_waiting(coupled_atomic_u32 *word)
{
	/*
	 * seq_cst: pairs with the seq_cst prevent/counts accesses of a
	 * membership change (coupled__membership_begin() in settled.h), a
	 * store-load (Dekker) pattern that release/acquire cannot order.
	 * It is also a release, publishing the caller's request to the
	 * closer.
	 */
	return coupled_fetch_add(word, COUPLED__WAITING_ONE, COUPLED_SEQ_CST) +
	       COUPLED__WAITING_ONE;
}

/**
 * coupled__word_leave_waiting() - stop counting the caller as waiting
 * @word: the group's packed word
 *
 * Context: the caller is counted as waiting and not as ready.
 */
static inline void coupled__word_leave_waiting(coupled_atomic_u32 *word)
{
	/*
	 * release: the caller's reads of the membership happen before a
	 * membership change that sees waiting == 0 with its acquire load.
	 */
	(void)coupled_fetch_sub(word, COUPLED__WAITING_ONE, COUPLED_RELEASE);
}

/**
 * coupled__word_arrive_ready() - count the caller as ready
 * @word: the group's packed word
 *
 * Context: the caller is counted as waiting and not as ready.
 * Return: the word's value just after the increment; exactly one caller per
 * round sees coupled__word_all_ready() here: the round's closer.
 */
static inline uint32_t coupled__word_arrive_ready(coupled_atomic_u32 *word)
{
	/*
	 * acq_rel: the release publishes this participant's request and its
	 * handled pokes to the closer; the acquire lets the closer, whose
	 * increment completes the word, see every other member's (they are
	 * all earlier in the word's release sequence).
	 */
	return coupled_fetch_add(word, COUPLED__READY_ONE, COUPLED_ACQ_REL) +
	       COUPLED__READY_ONE;
}

/**
 * coupled__word_back_out_ready() - stop counting the caller as ready, unless
 *                                 every member is ready
 * @word: the group's packed word
 * @members: the member count of the caller's round
 *
 * The guard makes the all-ready value absorbing: once the word reached it no
 * participant can back out, so every member of the round commits.
 *
 * Context: the caller is counted as ready.
 * Return: true if the caller is no longer ready; false if the word equalled
 * coupled__word_all_ready(@members) and nothing changed.
 */
static inline bool coupled__word_back_out_ready(coupled_atomic_u32 *word,
						uint32_t members)
{
	const uint32_t all = coupled__word_all_ready(members);
	/* relaxed: only a first guess for the CAS below, which re-checks. */
	uint32_t old = coupled_load(word, COUPLED_RELAXED);

	while (old != all) {
		/*
		 * relaxed, success and failure: nobody acquires what a
		 * back-out publishes.  A closer exists only once the word is
		 * all-ready, which needs this participant's next ready
		 * increment (acq_rel, after everything here); the exit wait
		 * concerns decided rounds, which nobody can back out of; and
		 * leaving for good goes through a release leave-waiting.  As
		 * an RMW it still continues the word's release sequence.
		 */
		if (coupled_cas(word, &old, old - COUPLED__READY_ONE,
				COUPLED_RELAXED, COUPLED_RELAXED))
			return true;
	}
	return false;
}

/**
 * coupled__word_done() - leave both halves in one atomic operation
 * @word: the group's packed word
 *
 * Used after the shared action and after a lost-wake restart.  A single
 * subtraction means no observer ever sees the caller ready but not waiting,
 * nor waiting after it was seen done.
 *
 * Context: the caller is counted as waiting and as ready.
 */
static inline void coupled__word_done(coupled_atomic_u32 *word)
{
	/*
	 * release: pairs with the acquire load of the exit wait
	 * (coupled__word_ready() == 0) and of a membership change, so the
	 * caller's action happens before whatever they do next.
	 */
	(void)coupled_fetch_sub(word, COUPLED__WAITING_ONE | COUPLED__READY_ONE,
				COUPLED_RELEASE);
}

#endif /* COUPLED_WORD_H */

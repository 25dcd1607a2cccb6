/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/settled_state.h - the settled protocol's own members of struct
 * coupled_slot and struct coupled_group (coupled/settled.h describes the
 * protocol and holds its round; coupled/word.h its word).
 *
 * coupled/protocol_state.h includes it once, before coupled/coupled.h's
 * structs, when the build selects the settled protocol; the structs then
 * embed struct coupled__settled_slot and _group as their field "variant".
 *
 * Who writes the state (the fields coupled/coupled.h names are listed
 * there); coupled_group_init() and the
 * test hook coupled_group_set_generation() also write it, at rest:
 *   slot.poke_seq      any poker (an RMW)
 *   slot.poke_handled  the owner
 *   slot.ack           the owner; coupled_join() (the current generation)
 *   round_outcome, exit_gate   the round's closer
 *
 */
#ifndef COUPLED_SETTLED_STATE_H
#define COUPLED_SETTLED_STATE_H

#include "word.h"

/**
 * struct coupled__settled_slot - the settled protocol's member of struct
 * coupled_slot (its field "variant")
 * @poke_seq: pokes sent to this participant
 * @poke_handled: the last @poke_seq handled
 * @ack: generation of the last decision seen
 */
struct coupled__settled_slot {
	coupled_atomic_u32 poke_seq;
	coupled_atomic_u32 poke_handled;
	coupled_atomic_u32 ack;
};

/**
 * struct coupled__settled_group - the settled protocol's member of struct
 * coupled_group (its field "variant")
 * @round_outcome: the last decision
 * @exit_gate: generation whose exit is open
 */
struct coupled__settled_group {
	coupled_atomic_u32 round_outcome;
	coupled_atomic_u32 exit_gate;
};

#endif /* COUPLED_SETTLED_STATE_H */

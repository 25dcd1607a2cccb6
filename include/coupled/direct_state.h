/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/direct_state.h - the direct protocol's state: the fields of its
 * word and its own members of struct coupled_slot and struct coupled_group
 * (coupled/direct.h describes the protocol and holds its round).
 *
 * coupled/protocol_state.h includes it once, before coupled/coupled.h's
 * structs, when the build selects the direct protocol; the structs then
 * embed struct coupled__direct_slot and _group as their field "variant".
 *
 * Who writes the state (the fields coupled/coupled.h names are listed
 * there):
 *   round_members      the completer, while the word is frozen;
 *                      coupled_group_init()
 *   line_used          changes (coupled_join(), coupled_leave()), with the
 *                      word drained and stopped; coupled_group_init()
 *   line_requests[e]   the member that owns entry e, before its arrival
 *   slot line_index    changes of that id, as line_used; coupled_group_init()
 *
 */
#ifndef COUPLED_DIRECT_STATE_H
#define COUPLED_DIRECT_STATE_H

#include "atomic.h"
#include "types.h"

/* The fields of the direct word (see the top of this file). */
#define COUPLED__DIRECT_ARRIVALS_MASK 0xffffu
#define COUPLED__DIRECT_STOP (1u << 16)
#define COUPLED__DIRECT_GEN_ONE (1u << 17)
#define COUPLED__DIRECT_GEN_MASK (~(COUPLED__DIRECT_GEN_ONE - 1u))

/*
 * Requests in the word's cache line: the first members get an entry of
 * line_requests (up to this many), which sits in the same line as the word
 * when the group starts a cache line (see the top of this file).  At least
 * 1; the default fills a 64-byte line.
 */
#ifndef COUPLED_DIRECT_LINE_REQUESTS
#define COUPLED_DIRECT_LINE_REQUESTS 9
#endif
#if COUPLED_DIRECT_LINE_REQUESTS < 1 || COUPLED_DIRECT_LINE_REQUESTS > 32
#error "COUPLED_DIRECT_LINE_REQUESTS must be 1 to 32"
#endif
/* A slot's line_index when the member has no entry (or is no member). */
#define COUPLED__DIRECT_NO_LINE 0xffffffffu

/**
 * struct coupled__direct_slot - the direct protocol's member of struct
 * coupled_slot (its field "variant")
 * @line_index: this id's entry of line_requests, or COUPLED__DIRECT_NO_LINE
 */
struct coupled__direct_slot {
	coupled_atomic_u32 line_index;
};

/**
 * struct coupled__direct_group - the direct protocol's member of struct
 * coupled_group (its field "variant"), right after the word's neighbours
 * so that line_requests shares the word's cache line
 * @round_members: the last round's members
 * @line_used: bit e: entry e of @line_requests is a member's
 * @line_requests: the requests of the members that own an entry
 */
struct coupled__direct_group {
	coupled_atomic_u32 round_members;
	coupled_atomic_u32 line_used;
	coupled_atomic_i32 line_requests[COUPLED_DIRECT_LINE_REQUESTS];
};

#endif /* COUPLED_DIRECT_STATE_H */

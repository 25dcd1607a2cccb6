/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/protocol_state.h - the selected protocol variant's own state,
 * for coupled/coupled.h's structs.
 *
 * The first half of the seam between the library and the variant
 * (coupled/protocol.h, which describes both variants, is the second): it
 * includes the state header of the variant the build selects
 * (COUPLED_PROTOCOL_SETTLED, coupled/adapter.h) and names its two structs
 * for coupled/coupled.h, which embeds them as the field "variant" of
 * struct coupled_slot and struct coupled_group:
 *
 *   direct   coupled/direct_state.h   struct coupled__direct_slot, _group
 *   settled  coupled/settled_state.h  struct coupled__settled_slot, _group
 *
 * Included once, by coupled/coupled.h, before its structs.
 */
#ifndef COUPLED_PROTOCOL_STATE_H
#define COUPLED_PROTOCOL_STATE_H

#include "adapter.h"

#if COUPLED_PROTOCOL_SETTLED
#include "settled_state.h"
typedef struct coupled__settled_slot coupled__variant_slot;
typedef struct coupled__settled_group coupled__variant_group;
#else
#include "direct_state.h"
typedef struct coupled__direct_slot coupled__variant_slot;
typedef struct coupled__direct_group coupled__variant_group;
#endif

#endif /* COUPLED_PROTOCOL_STATE_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/adapter.h - picks the platform adapter at compile time.
 *
 * Exactly one adapter is compiled in, chosen by one definition:
 *
 *   COUPLED_ADAPTER_PTHREAD        <coupled/adapter/pthread.h>
 *                                  (adapters/pthread/include/)
 *   COUPLED_ADAPTER_LINUX          <coupled/adapter/linux.h>
 *                                  (adapters/linux/include/)
 *   COUPLED_ADAPTER_BAREMETAL_ARM  <coupled/adapter/baremetal_arm.h>
 *                                  (adapters/baremetal-arm/include/)
 *   COUPLED_ADAPTER_BAREMETAL_RISCV <coupled/adapter/baremetal_riscv.h>
 *                                  (adapters/baremetal-riscv/include/)
 *   COUPLED_ADAPTER_HEADER="x.h"   any other platform: one header of your own
 *   (none of these)                <coupled/adapter/spin.h>, freestanding
 *                                  spinning (in include/)
 *
 * The adapters' include directories must be on the include path: the CMake
 * target coupled::coupled puts all of them there, and an installed package
 * holds every adapter under <prefix>/include/coupled/adapter/.  An adapter
 * header is only ever included from here: each refuses to be included
 * directly.  What an adapter provides, and when each hook is called, is the
 * contract in docs/adapters.md and in coupled/adapter/spin.h, the reference
 * implementation.
 */
#ifndef COUPLED_ADAPTER_H
#define COUPLED_ADAPTER_H

/* The marker the shipped adapter headers look for (see above). */
#define COUPLED__ADAPTER_SELECTING 1

#if defined(COUPLED_ADAPTER_HEADER)
#include COUPLED_ADAPTER_HEADER
#elif defined(COUPLED_ADAPTER_PTHREAD)
#include <coupled/adapter/pthread.h>
#elif defined(COUPLED_ADAPTER_LINUX)
#include <coupled/adapter/linux.h>
#elif defined(COUPLED_ADAPTER_BAREMETAL_ARM)
#include <coupled/adapter/baremetal_arm.h>
#elif defined(COUPLED_ADAPTER_BAREMETAL_RISCV)
#include <coupled/adapter/baremetal_riscv.h>
#else
#include "adapter/spin.h"
#endif

#undef COUPLED__ADAPTER_SELECTING

#ifndef COUPLED_ADAPTER_NAME
#error "the selected coupled adapter does not define COUPLED_ADAPTER_NAME"
#endif

/*
 * The optional adapter hook coupled_adapter_context() (docs/adapters.md):
 * an adapter that defines COUPLED_ADAPTER_HAS_CONTEXT to 1 names the calling
 * execution context, so that a membership change requested from inside a
 * call of the same group is refused instead of waiting for itself forever.
 */
#ifndef COUPLED_ADAPTER_HAS_CONTEXT
#define COUPLED_ADAPTER_HAS_CONTEXT 0
#endif

/*
 * The optional adapter hook coupled_adapter_wake_is_noop() (docs/adapters.md):
 * an adapter whose coupled_adapter_wake() does nothing for a group (its
 * waiters poll the group's word themselves, as pure spinning does) defines
 * COUPLED_ADAPTER_HAS_WAKE_IS_NOOP to 1 and says so per group; the direct
 * protocol's completer then skips its walk over the roster, whose entries
 * share cache lines with the other members' slots.
 */
#ifndef COUPLED_ADAPTER_HAS_WAKE_IS_NOOP
#define COUPLED_ADAPTER_HAS_WAKE_IS_NOOP 0
#endif

/*
 * What the adapter's wake-ups can do picks the protocol (coupled/protocol.h):
 * an adapter defines COUPLED_ADAPTER_WAKE_CAN_BE_LOST to 0 when a wake-up
 * sent after coupled_adapter_wait_prepare() always ends the matching wait
 * and leaves nothing pending behind (the direct protocol), to 1 when a
 * member must be known awake before a round commits (the settled one).  An
 * adapter that says nothing gets the settled protocol, which is correct for
 * both.  A build may force one with COUPLED_PROTOCOL_SETTLED or
 * COUPLED_PROTOCOL_DIRECT defined to 1.
 */
#ifndef COUPLED_ADAPTER_WAKE_CAN_BE_LOST
#define COUPLED_ADAPTER_WAKE_CAN_BE_LOST 1
#endif
#if defined(COUPLED_PROTOCOL_SETTLED) && defined(COUPLED_PROTOCOL_DIRECT)
#if COUPLED_PROTOCOL_SETTLED && COUPLED_PROTOCOL_DIRECT
#error "define one of COUPLED_PROTOCOL_SETTLED and COUPLED_PROTOCOL_DIRECT"
#endif
#endif
#if defined(COUPLED_PROTOCOL_DIRECT) && !defined(COUPLED_PROTOCOL_SETTLED)
#define COUPLED_PROTOCOL_SETTLED (!(COUPLED_PROTOCOL_DIRECT))
#endif
#ifndef COUPLED_PROTOCOL_SETTLED
#define COUPLED_PROTOCOL_SETTLED COUPLED_ADAPTER_WAKE_CAN_BE_LOST
#endif
#if !COUPLED_PROTOCOL_SETTLED && COUPLED_ADAPTER_WAKE_CAN_BE_LOST
#error "the direct protocol needs an adapter whose wake-ups cannot be lost (COUPLED_ADAPTER_WAKE_CAN_BE_LOST 0)"
#endif
/* The protocol's name, for reports. */
#if COUPLED_PROTOCOL_SETTLED
#define COUPLED_PROTOCOL_NAME "settled"
#else
#define COUPLED_PROTOCOL_NAME "direct"
#endif

#endif /* COUPLED_ADAPTER_H */

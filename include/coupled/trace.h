/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/trace.h - the trace points of the library, for an adapter to
 * bind to its platform's tracing (the Linux adapter: trace events; the
 * pthread adapter: USDT probes).  By default they compile to nothing.
 *
 * An adapter that traces defines some or all of these macros before this
 * file is read (coupled/adapter.h includes the adapter first); the core
 * calls them at the points below and nowhere else.  They must not block,
 * fail, or call back into the group; the core passes only values it
 * already holds (no extra atomic access is made for a trace point).
 *
 *   COUPLED_TRACE_ENTER(g, self, request)
 *        a call of coupled_enter_opts() passed its checks and is about to
 *        take part (the round's start for this participant);
 *   COUPLED_TRACE_COMMIT(round)
 *        this participant is about to run the action of a committed round
 *        (a const struct coupled_round *: group, self, generation, param,
 *        members);
 *   COUPLED_TRACE_ABORT(g, self, reason)
 *        the call gives up with a COUPLED_ABORT_* reason;
 *   COUPLED_TRACE_RETRY(g, self)
 *        settled: a back-out from ready to waiting (a member left the
 *        waiting count before the round was decided);
 *   COUPLED_TRACE_RESTART(g, self)
 *        settled: a round was decided as a restart and starts again;
 *   COUPLED_TRACE_JOIN(g, id), COUPLED_TRACE_LEAVE(g, id)
 *        a membership change took effect (the changer's context);
 *   COUPLED_TRACE_DOMAIN(leaf, core, depth)
 *        a domain call committed its leaf round and reached @depth
 *        levels (1 = the leaf only), before its action runs.
 *
 * Every call ends in exactly one of COMMIT and ABORT (or an error code,
 * not traced); RETRY and RESTART come between ENTER and that end.
 *
 * Included by coupled/coupled.h after coupled/hook.h.
 */
#include "coupled.h" /* first: this file is part of coupled/coupled.h */

#ifndef COUPLED_TRACE_H
#define COUPLED_TRACE_H

#ifndef COUPLED_TRACE_ENTER
#define COUPLED_TRACE_ENTER(g, self, request) \
	((void)(g), (void)(self), (void)(request))
#endif
#ifndef COUPLED_TRACE_COMMIT
#define COUPLED_TRACE_COMMIT(round) ((void)(round))
#endif
#ifndef COUPLED_TRACE_ABORT
#define COUPLED_TRACE_ABORT(g, self, reason) \
	((void)(g), (void)(self), (void)(reason))
#endif
#ifndef COUPLED_TRACE_RETRY
#define COUPLED_TRACE_RETRY(g, self) ((void)(g), (void)(self))
#endif
#ifndef COUPLED_TRACE_RESTART
#define COUPLED_TRACE_RESTART(g, self) ((void)(g), (void)(self))
#endif
#ifndef COUPLED_TRACE_JOIN
#define COUPLED_TRACE_JOIN(g, id) ((void)(g), (void)(id))
#endif
#ifndef COUPLED_TRACE_LEAVE
#define COUPLED_TRACE_LEAVE(g, id) ((void)(g), (void)(id))
#endif
#ifndef COUPLED_TRACE_DOMAIN
#define COUPLED_TRACE_DOMAIN(leaf, core, depth) \
	((void)(leaf), (void)(core), (void)(depth))
#endif

#endif /* COUPLED_TRACE_H */

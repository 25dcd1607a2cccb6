/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/hook.h - test hook points of the protocol.
 *
 * A test may define COUPLED_HOOK(group, self, point) before including
 * coupled/coupled.h to observe or pause a participant at each point below;
 * by default the hooks compile to nothing.  @self is the participant, or the
 * group's capacity for a membership changer.
 */
#ifndef COUPLED_HOOK_H
#define COUPLED_HOOK_H

/*
 * Both protocols pass ARRIVE, WAIT_SLEEP, DECIDED, EXITED, MEMBERSHIP and
 * LEAVE_DRAIN; the others belong to one of them (coupled/protocol.h).
 */
enum coupled_hook_point {
	COUPLED_HOOK_ARRIVE,       /* before the arrival (settled: counting
				    * as waiting) */
	COUPLED_HOOK_LAST_ARRIVER, /* counted as the last arriver, before poking */
	COUPLED_HOOK_WAIT_SLEEP,  /* before resting in the wait for the round */
	COUPLED_HOOK_READY,       /* before counting as ready */
	COUPLED_HOOK_READY_SPIN,  /* each turn of the ready loop */
	COUPLED_HOOK_BACK_OUT,    /* before trying to back out of ready */
	COUPLED_HOOK_DECIDED,     /* after acknowledging the decision
				    * (direct: once the round committed) */
	COUPLED_HOOK_DONE,        /* before coupled__word_done() */
	COUPLED_HOOK_EXITED,      /* after the exit wait (direct: after the
				    * action), before returning */
	COUPLED_HOOK_MEMBERSHIP,  /* a changer stopped rounds (prevent or
				    * stop) and nobody counts in one */
	COUPLED_HOOK_LEAVE_DRAIN, /* a leaver waits for the id's call to end */
	COUPLED_HOOK_GATE_WAIT,   /* each turn of the wait to leave a decided
				      * round (closer: for the acks; others:
				      * for the exit gate) */
	COUPLED_HOOK_EXIT_WAIT,   /* each turn of the wait for ready == 0 */
	COUPLED_HOOK_COMPLETE,    /* direct: the completer, before it reduces
				    * and publishes the round */
	COUPLED_HOOK_WITHDRAW,    /* direct: before trying to withdraw */
	COUPLED_HOOK_ARRIVED,     /* direct: counted, before reading the
				    * membership */
	COUPLED_HOOK_DOMAIN_TRY,  /* domain: before trying a level above the
				    * leaf (group and id of that level) */
	COUPLED_HOOK_DOMAIN_GIVE_UP, /* domain: a level was not committed,
				      * before giving it up (the same) */
	COUPLED_HOOK_DOMAIN_DRAIN,   /* domain: each turn of a changer's wait
				      * for the tree's calls (root group,
				      * capacity) */
	COUPLED_HOOK_DOMAIN_CHANGE   /* domain: a changer holds the tree's
				      * gate and no call of the tree is in
				      * progress, before changing the levels
				      * (the changed core's leaf group,
				      * capacity) */
};

#ifndef COUPLED_HOOK
#define COUPLED_HOOK(group, self, point) \
	((void)(group), (void)(self), (void)(point))
#endif

#endif /* COUPLED_HOOK_H */

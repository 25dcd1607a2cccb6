/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/errno.h - the return codes of the library and of its adapters,
 * and their names (coupled_strerror()).
 *
 * 0 is a committed round, positive values are aborts (the word is left as if
 * the call never happened), negative values are errors in the errno style
 * (nothing shared was touched).  The negative values are Linux's errno
 * numbers, so that kernel code can pass them on unchanged.
 */
#ifndef COUPLED_ERRNO_H
#define COUPLED_ERRNO_H

#define COUPLED_COMMITTED 0
#define COUPLED_ABORT_WORK 1       /* the adapter reported pending work */
#define COUPLED_ABORT_MEMBERSHIP 2 /* a membership change is in progress */
#define COUPLED_ABORT_CALLER 3     /* the caller's abort check said so */
#define COUPLED_ABORT_TIMEOUT 4    /* the caller's deadline passed first */
#define COUPLED_ABORT_REASONS 5    /* array size for per-reason counters */

/*
 * Why a level of a coupled domain did not commit, besides the codes above
 * (coupled/domain.h; never returned by a group call).
 */
#define COUPLED_DOMAIN_REFUSED 8    /* the core's request did not allow it */
#define COUPLED_DOMAIN_CANNOT 9     /* a core under it was not heading for it */
#define COUPLED_DOMAIN_NOT_TRIED 10 /* a level below it did not commit */

#define COUPLED_EPERM \
	(-1)                 /* not allowed here: a membership change
				   * from inside a call of the same group */
#define COUPLED_ENOENT (-2)  /* the id is not a member */
#define COUPLED_EBUSY (-16)  /* the participant is already inside */
#define COUPLED_EEXIST (-17) /* the id is already a member */
#define COUPLED_EINVAL (-22) /* a null pointer or a bad value */
#define COUPLED_ERANGE (-34) /* id or capacity out of range */
#define COUPLED_EOPNOTSUPP \
	(-95) /* deadline without an adapter clock, or
				   * statistics not compiled in */

/* coupled_strerror(): documented in coupled/coupled.h. */
static inline const char *coupled_strerror(int code)
{
	switch (code) {
	case COUPLED_COMMITTED: return "committed";
	case COUPLED_ABORT_WORK: return "abort: work pending";
	case COUPLED_ABORT_MEMBERSHIP: return "abort: membership change";
	case COUPLED_ABORT_CALLER: return "abort: caller";
	case COUPLED_ABORT_TIMEOUT: return "abort: timeout";
	case COUPLED_DOMAIN_REFUSED: return "level refused by the request";
	case COUPLED_DOMAIN_CANNOT: return "level cannot commit now";
	case COUPLED_DOMAIN_NOT_TRIED: return "level not tried";
	case COUPLED_EPERM: return "not permitted";
	case COUPLED_ENOENT: return "not a member";
	case COUPLED_EBUSY: return "already inside";
	case COUPLED_EEXIST: return "already a member";
	case COUPLED_EINVAL: return "invalid argument";
	case COUPLED_ERANGE: return "out of range";
	case COUPLED_EOPNOTSUPP: return "not supported";
	default: return "unknown";
	}
}

#endif /* COUPLED_ERRNO_H */

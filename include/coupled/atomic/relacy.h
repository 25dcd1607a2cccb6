/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/atomic/relacy.h - the atomics back-end for model checking: the
 * layer mapped onto the Relacy race detector's rl::atomic, so that the real
 * core and the real adapters run under the C++ relaxed memory model
 * (tests/verify/relacy/).
 *
 * Selected by coupled/atomic.h when COUPLED_ATOMIC_RELACY is defined; not to
 * be included directly.  Include <relacy/relacy.hpp> first.  Every operation
 * carries Relacy's debug info ($), so a failing execution history names the
 * line of the header that did it.
 */
#ifndef COUPLED_ATOMIC_RELACY_H
#define COUPLED_ATOMIC_RELACY_H

#ifndef COUPLED_ATOMIC_H
#error "include <coupled/atomic.h>, which selects this back-end"
#endif

#include <relacy/relacy.hpp>

#include <stdint.h>

typedef rl::atomic<uint32_t> coupled_atomic_u32;
typedef rl::atomic<int32_t> coupled_atomic_i32;

#define COUPLED_RELAXED rl::mo_relaxed
#define COUPLED_ACQUIRE rl::mo_acquire
#define COUPLED_RELEASE rl::mo_release
#define COUPLED_ACQ_REL rl::mo_acq_rel
#define COUPLED_SEQ_CST rl::mo_seq_cst

#define coupled_atomic_init(p, v) ((p)->store((v), rl::mo_relaxed, $))
#define coupled_load(p, mo) ((p)->load((mo), $))
#define coupled_store(p, v, mo) ((p)->store((v), (mo), $))
#define coupled_fetch_add(p, v, mo) \
	(COUPLED_ATOMIC_ON_RMW(), (p)->fetch_add((v), (mo), $))
#define coupled_fetch_sub(p, v, mo) \
	(COUPLED_ATOMIC_ON_RMW(), (p)->fetch_sub((v), (mo), $))
#define coupled_exchange(p, v, mo) \
	(COUPLED_ATOMIC_ON_RMW(), (p)->exchange((v), (mo), $))
/* Strong compare-and-swap; *expected is updated on failure. */
#define coupled_cas(p, expected, desired, mo_ok, mo_fail)                 \
	(COUPLED_ATOMIC_ON_RMW(),                                         \
	 (p)->compare_exchange_strong(*(expected), (desired), (mo_ok), $, \
				      (mo_fail), $))

#endif /* COUPLED_ATOMIC_RELACY_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled_atomic_relacy.h - the atomics layer of coupled/atomic.h mapped
 * onto Relacy's rl::atomic, so that the real core and the real adapters run
 * under the C++ relaxed memory model of the Relacy race detector.
 *
 * Include <relacy/relacy.hpp> first; then this file (it defines
 * COUPLED_ATOMIC_CUSTOM, so coupled/atomic.h adds nothing).  Every
 * operation carries Relacy's debug info ($), so a failing execution history
 * names the line of the header that did it.
 */
#ifndef COUPLED_ATOMIC_RELACY_H
#define COUPLED_ATOMIC_RELACY_H

#include <relacy/relacy.hpp>

#include <stdint.h>

#ifndef COUPLED_ATOMIC_CUSTOM
#define COUPLED_ATOMIC_CUSTOM 1
#endif

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

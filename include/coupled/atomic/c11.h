/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/atomic/c11.h - the atomics back-end for C11: <stdatomic.h>,
 * which freestanding C11 implementations provide.
 *
 * Selected by coupled/atomic.h, which states the contract every back-end
 * meets; not to be included directly.
 */
#ifndef COUPLED_ATOMIC_C11_H
#define COUPLED_ATOMIC_C11_H

#ifndef COUPLED_ATOMIC_H
#error "include <coupled/atomic.h>, which selects this back-end"
#endif

#include <stdatomic.h>
#include <stdint.h>

typedef _Atomic uint32_t coupled_atomic_u32;
typedef _Atomic int32_t coupled_atomic_i32;

#define COUPLED_RELAXED memory_order_relaxed
#define COUPLED_ACQUIRE memory_order_acquire
#define COUPLED_RELEASE memory_order_release
#define COUPLED_ACQ_REL memory_order_acq_rel
#define COUPLED_SEQ_CST memory_order_seq_cst

#define coupled_atomic_init(p, v) atomic_init((p), (v))
#define coupled_load(p, mo) atomic_load_explicit((p), (mo))
#define coupled_store(p, v, mo) atomic_store_explicit((p), (v), (mo))
#define coupled_fetch_add(p, v, mo) \
	(COUPLED_ATOMIC_ON_RMW(), atomic_fetch_add_explicit((p), (v), (mo)))
#define coupled_fetch_sub(p, v, mo) \
	(COUPLED_ATOMIC_ON_RMW(), atomic_fetch_sub_explicit((p), (v), (mo)))
#define coupled_exchange(p, v, mo) \
	(COUPLED_ATOMIC_ON_RMW(), atomic_exchange_explicit((p), (v), (mo)))
/* Strong compare-and-swap; *expected is updated on failure. */
#define coupled_cas(p, expected, desired, mo_ok, mo_fail)                    \
	(COUPLED_ATOMIC_ON_RMW(),                                            \
	 atomic_compare_exchange_strong_explicit((p), (expected), (desired), \
						 (mo_ok), (mo_fail)))

#endif /* COUPLED_ATOMIC_C11_H */

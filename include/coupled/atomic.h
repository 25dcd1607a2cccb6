/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/atomic.h - the small atomics layer the protocol is written in.
 *
 * Every shared field of the protocol is declared with one of the types below
 * and touched only through the macros below, each of which names its memory
 * order.  Three back-ends are picked at compile time:
 *
 *   - C11 <stdatomic.h> (the default; freestanding in C11);
 *   - C++ <atomic> when the header is compiled as C++ (g++ rejects C's
 *     _Atomic below C++23, so the layer spells std::atomic instead);
 *   - an adapter-supplied back-end when COUPLED_ATOMIC_CUSTOM is defined: the
 *     adapter then provides every type and macro of this file itself (the
 *     Linux adapter maps them onto atomic_t and the kernel's barriers).
 *
 * Instrumentation: if COUPLED_ATOMIC_ON_RMW() is defined before this header,
 * it is evaluated once for every read-modify-write the protocol performs.
 * Benchmarks use it to count RMWs per round; by default it expands to nothing.
 */
#ifndef COUPLED_ATOMIC_H
#define COUPLED_ATOMIC_H

#ifndef COUPLED_ATOMIC_ON_RMW
#define COUPLED_ATOMIC_ON_RMW() ((void)0)
#endif

#if defined(COUPLED_ATOMIC_CUSTOM)
/* The adapter has defined everything below; nothing to do. */
#elif defined(__cplusplus)

#include <atomic>
#include <cstdint>

typedef std::atomic<std::uint32_t> coupled_atomic_u32;
typedef std::atomic<std::int32_t> coupled_atomic_i32;

#define COUPLED_RELAXED std::memory_order_relaxed
#define COUPLED_ACQUIRE std::memory_order_acquire
#define COUPLED_RELEASE std::memory_order_release
#define COUPLED_ACQ_REL std::memory_order_acq_rel
#define COUPLED_SEQ_CST std::memory_order_seq_cst

#define coupled_atomic_init(p, v) std::atomic_init((p), (v))
#define coupled_load(p, mo) std::atomic_load_explicit((p), (mo))
#define coupled_store(p, v, mo) std::atomic_store_explicit((p), (v), (mo))
#define coupled_fetch_add(p, v, mo) \
	(COUPLED_ATOMIC_ON_RMW(), std::atomic_fetch_add_explicit((p), (v), (mo)))
#define coupled_fetch_sub(p, v, mo) \
	(COUPLED_ATOMIC_ON_RMW(), std::atomic_fetch_sub_explicit((p), (v), (mo)))
#define coupled_exchange(p, v, mo) \
	(COUPLED_ATOMIC_ON_RMW(), std::atomic_exchange_explicit((p), (v), (mo)))
/* Strong compare-and-swap; *expected is updated on failure. */
#define coupled_cas(p, expected, desired, mo_ok, mo_fail)                   \
	(COUPLED_ATOMIC_ON_RMW(),                                           \
	 std::atomic_compare_exchange_strong_explicit((p), (expected),      \
						      (desired), (mo_ok),  \
						      (mo_fail)))

#else /* C11 */

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
#define coupled_cas(p, expected, desired, mo_ok, mo_fail)                  \
	(COUPLED_ATOMIC_ON_RMW(),                                          \
	 atomic_compare_exchange_strong_explicit((p), (expected),          \
						 (desired), (mo_ok),       \
						 (mo_fail)))

#endif /* back-ends */

#endif /* COUPLED_ATOMIC_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/atomic.h - the small atomics layer the protocol is written in.
 *
 * Every shared field of the protocol is declared with one of two types,
 * coupled_atomic_u32 and coupled_atomic_i32, and touched only through these
 * operations, each of which names its memory order (COUPLED_RELAXED,
 * _ACQUIRE, _RELEASE, _ACQ_REL, _SEQ_CST, with their C11 meaning):
 *
 *   coupled_atomic_init(p, v)      plain initialisation, before sharing
 *   coupled_load(p, mo)            the value, of the object's value type
 *   coupled_store(p, v, mo)
 *   coupled_fetch_add(p, v, mo)    the value before the operation
 *   coupled_fetch_sub(p, v, mo)    the value before the operation
 *   coupled_exchange(p, v, mo)     the value before the operation
 *   coupled_cas(p, expected, desired, mo_ok, mo_fail)
 *                                  strong compare-and-swap; true if desired
 *                                  was stored, else *expected is updated
 *
 * A back-end may give a stronger order than the one named, never a weaker
 * one.  The back-ends, picked at compile time, all live under
 * coupled/atomic/:
 *
 *   relacy.h  COUPLED_ATOMIC_RELACY defined: Relacy's rl::atomic (the
 *             relaxed-memory model checks of tests/verify/relacy/)
 *   linux.h   __KERNEL__ defined: the kernel's atomic_t and barriers
 *   cxx.h     compiled as C++: std::atomic (g++ rejects C's _Atomic below
 *             C++23)
 *   c11.h     otherwise: C11 <stdatomic.h>, freestanding
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

#if defined(COUPLED_ATOMIC_RELACY)
#include "atomic/relacy.h"
#elif defined(__KERNEL__)
#include "atomic/linux.h"
#elif defined(__cplusplus)
#include "atomic/cxx.h"
#else
#include "atomic/c11.h"
#endif

#endif /* COUPLED_ATOMIC_H */

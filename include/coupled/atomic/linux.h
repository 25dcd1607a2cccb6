/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/atomic/linux.h - the atomics back-end for kernel code: every
 * coupled_atomic_* type is a wrapper around atomic_t and every coupled_*
 * operation maps onto a kernel atomic of equal or stronger order, so that a
 * kernel build never includes <stdatomic.h>.  Each line of the mapping says
 * why the kernel primitive gives at least the named C11 order; the
 * relaxed-memory check of the mapping is tests/verify/relacy/relacy_linux.cpp,
 * which compiles this file against a user-space stand-in of the kernel.
 *
 * Selected by coupled/atomic.h when __KERNEL__ is defined; not to be
 * included directly.
 */
#ifndef COUPLED_ATOMIC_LINUX_H
#define COUPLED_ATOMIC_LINUX_H

#ifndef COUPLED_ATOMIC_H
#error "include <coupled/atomic.h>, which selects this back-end"
#endif

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/barrier.h>

/*
 * Two distinct wrapper types, so that coupled_load() can return the right
 * signedness (the core compares loads with uint32_t and int32_t values).
 */
typedef struct {
	atomic_t v;
} coupled_atomic_u32;

typedef struct {
	atomic_t v;
} coupled_atomic_i32;

/* The orders are compile-time constants; every switch below folds away. */
#define COUPLED_RELAXED 0
#define COUPLED_ACQUIRE 2
#define COUPLED_RELEASE 3
#define COUPLED_ACQ_REL 4
#define COUPLED_SEQ_CST 5

/* Cast a raw int result to the value type of the object @p points to. */
#ifndef __cplusplus
#define COUPLED__ATOMIC_LINUX_VALUE(p, x)  \
	_Generic((p), coupled_atomic_u32 * \
		 : (uint32_t)(x), default  \
		 : (int32_t)(x))
#else
/*
 * C++ has no _Generic; overloads do the same.  Only for the relaxed-memory
 * check of this file on a user-space stand-in of the kernel
 * (tests/verify/relacy/relacy_linux.cpp): kernel code is C.
 */
static inline uint32_t coupled__atomic_linux_cast(const coupled_atomic_u32 *p,
						  int x)
{
	(void)p;
	return (uint32_t)x;
}
static inline int32_t coupled__atomic_linux_cast(const coupled_atomic_i32 *p,
						 int x)
{
	(void)p;
	return (int32_t)x;
}
#define COUPLED__ATOMIC_LINUX_VALUE(p, x) coupled__atomic_linux_cast((p), (x))
#endif

/**
 * coupled__atomic_linux_load() - load with a C11 order
 * @v: the kernel atomic
 * @mo: a COUPLED_* order (a constant)
 *
 * Context: any.
 * Return: the value read.
 */
static __always_inline int coupled__atomic_linux_load(const atomic_t *v, int mo)
{
	switch (mo) {
	case COUPLED_RELAXED:
		/* relaxed: atomic_read() is a READ_ONCE(), single-copy atomic. */
		return atomic_read(v);
	case COUPLED_ACQUIRE:
	case COUPLED_ACQ_REL:
		/* acquire: atomic_read_acquire() is smp_load_acquire(). */
		return atomic_read_acquire(v);
	default:
		/*
		 * seq_cst: leading smp_mb() orders every earlier access
		 * (including a seq_cst store's) before the load; the acquire
		 * load orders it before everything later.  This is the
		 * leading-fence mapping: a seq_cst store then a seq_cst load
		 * (the core's Dekker pairs) is ordered by this smp_mb().
		 */
		smp_mb();
		return atomic_read_acquire(v);
	}
}

/**
 * coupled__atomic_linux_store() - store with a C11 order
 * @v: the kernel atomic
 * @i: the value
 * @mo: a COUPLED_* order (a constant)
 *
 * Context: any.
 */
static __always_inline void coupled__atomic_linux_store(atomic_t *v, int i,
							int mo)
{
	switch (mo) {
	case COUPLED_RELAXED:
		/* relaxed: atomic_set() is a WRITE_ONCE(). */
		atomic_set(v, i);
		return;
	case COUPLED_RELEASE:
		/* release: atomic_set_release() is smp_store_release(). */
		atomic_set_release(v, i);
		return;
	default:
		/*
		 * seq_cst (acquire/acq_rel are not valid for a store; they get
		 * the strongest): the leading smp_mb() orders every earlier
		 * access before the store.  No trailing one: in the
		 * leading-fence mapping every seq_cst load and every fully
		 * ordered RMW starts with its own smp_mb(), which orders this
		 * store before it (the relaxed-memory check of this mapping,
		 * tests/verify/relacy/relacy_linux.cpp, finds either barrier
		 * redundant given the other).
		 */
		smp_mb();
		atomic_set(v, i);
		return;
	}
}

/**
 * coupled__atomic_linux_fetch_add() - fetch-and-add with a C11 order
 * @v: the kernel atomic
 * @i: the addend (may be negative)
 * @mo: a COUPLED_* order (a constant)
 *
 * Context: any.
 * Return: the value before the addition.
 */
static __always_inline int coupled__atomic_linux_fetch_add(atomic_t *v, int i,
							   int mo)
{
	switch (mo) {
	case COUPLED_RELAXED:
		/* relaxed: the _relaxed variant is atomic, with no ordering. */
		return atomic_fetch_add_relaxed(i, v);
	case COUPLED_ACQUIRE:
		/* acquire: the _acquire variant is an ACQUIRE RMW. */
		return atomic_fetch_add_acquire(i, v);
	case COUPLED_RELEASE:
		/* release: the _release variant is a RELEASE RMW. */
		return atomic_fetch_add_release(i, v);
	default:
		/*
		 * acq_rel and seq_cst: a value-returning atomic without
		 * suffix is fully ordered (smp_mb() before and after, see
		 * Documentation/atomic_t.txt), stronger than both.
		 */
		return atomic_fetch_add(i, v);
	}
}

/**
 * coupled__atomic_linux_xchg() - exchange with a C11 order
 * @v: the kernel atomic
 * @i: the new value
 * @mo: a COUPLED_* order (a constant)
 *
 * Context: any.
 * Return: the previous value.
 */
static __always_inline int coupled__atomic_linux_xchg(atomic_t *v, int i,
						      int mo)
{
	switch (mo) {
	case COUPLED_RELAXED:
		/* relaxed: atomic, no ordering. */
		return atomic_xchg_relaxed(v, i);
	case COUPLED_ACQUIRE:
		/* acquire: an ACQUIRE RMW. */
		return atomic_xchg_acquire(v, i);
	case COUPLED_RELEASE:
		/* release: a RELEASE RMW. */
		return atomic_xchg_release(v, i);
	default:
		/* acq_rel, seq_cst: atomic_xchg() is fully ordered. */
		return atomic_xchg(v, i);
	}
}

/**
 * coupled__atomic_linux_cas() - strong compare-and-swap with C11 orders
 * @v: the kernel atomic
 * @old: in: the expected value; out: the value found on failure
 * @desired: the value to store on success
 * @mo_ok: the order on success (a constant)
 * @mo_fail: the order on failure (a constant)
 *
 * Context: any.
 * Return: true if @desired was stored.
 */
static __always_inline bool coupled__atomic_linux_cas(atomic_t *v, int *old,
						      int desired, int mo_ok,
						      int mo_fail)
{
	bool ok;

	switch (mo_ok) {
	case COUPLED_RELAXED:
		/* relaxed: the _relaxed try_cmpxchg is atomic, unordered. */
		ok = atomic_try_cmpxchg_relaxed(v, old, desired);
		break;
	case COUPLED_ACQUIRE:
		/* acquire: ACQUIRE on success. */
		ok = atomic_try_cmpxchg_acquire(v, old, desired);
		break;
	case COUPLED_RELEASE:
		/* release: RELEASE on success. */
		ok = atomic_try_cmpxchg_release(v, old, desired);
		break;
	default:
		/* acq_rel, seq_cst: fully ordered on success. */
		ok = atomic_try_cmpxchg(v, old, desired);
		break;
	}
	/*
	 * A failed kernel cmpxchg implies no ordering at all; a failure
	 * order above relaxed (C11 allows up to acquire, the core only ever
	 * asks for relaxed) gets a full barrier, which is stronger.
	 */
	if (!ok && mo_fail != COUPLED_RELAXED)
		smp_mb();
	return ok;
}

#define coupled_atomic_init(p, val) atomic_set(&(p)->v, (int)(val))
#define coupled_load(p, mo)              \
	COUPLED__ATOMIC_LINUX_VALUE((p), \
				    coupled__atomic_linux_load(&(p)->v, (mo)))
#define coupled_store(p, val, mo) \
	coupled__atomic_linux_store(&(p)->v, (int)(val), (mo))
#define coupled_fetch_add(p, val, mo)                                      \
	(COUPLED_ATOMIC_ON_RMW(),                                          \
	 COUPLED__ATOMIC_LINUX_VALUE((p), coupled__atomic_linux_fetch_add( \
						  &(p)->v, (int)(val), (mo))))
#define coupled_fetch_sub(p, val, mo) \
	(COUPLED_ATOMIC_ON_RMW(),     \
	 COUPLED__ATOMIC_LINUX_VALUE( \
		 (p),                 \
		 coupled__atomic_linux_fetch_add(&(p)->v, -(int)(val), (mo))))
#define coupled_exchange(p, val, mo)  \
	(COUPLED_ATOMIC_ON_RMW(),     \
	 COUPLED__ATOMIC_LINUX_VALUE( \
		 (p), coupled__atomic_linux_xchg(&(p)->v, (int)(val), (mo))))
/* Strong compare-and-swap; *expected is updated on failure. */
#define coupled_cas(p, expected, desired, mo_ok, mo_fail)              \
	(COUPLED_ATOMIC_ON_RMW(),                                      \
	 coupled__atomic_linux_cas(&(p)->v, (int *)(void *)(expected), \
				   (int)(desired), (mo_ok), (mo_fail)))

#endif /* COUPLED_ATOMIC_LINUX_H */

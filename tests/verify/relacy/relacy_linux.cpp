/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_linux.cpp - the Linux kernel adapter under the Relacy race detector.
 *
 * The real Linux adapter (<coupled/adapter/linux.h>) and the kernel atomics
 * back-end it runs on (coupled/atomic/linux.h) are compiled here against a
 * user-space stand-in of the kernel primitives (tests/verify/relacy/kshim/, each
 * primitive with exactly its documented ordering) and checked twice:
 *
 *   1. Its atomics layer, which maps every coupled_* operation and C11 order
 *      onto kernel atomics and barriers: litmus tests, one or more per
 *      (operation, order) path of the mapping, each of which fails unless
 *      the path gives at least the named C11 order.  Message passing (MP):
 *      data written before a release-side operation must be visible after
 *      an acquire-side operation that reads its value (a plain rl::var: a
 *      missing happens-before is a data race).  Store buffering (SB): two
 *      seq_cst store-then-load sequences cannot both read the old values.
 *   2. Its platform hooks: the poke is an asynchronous cross-CPU call whose
 *      descriptor is guarded by the slot's busy flag.  The wait/wake
 *      handshake (relacy_handshake.h) with the driver's safe state modelled
 *      as "sti; hlt; cli" (it returns once an IPI was taken); a quiesce
 *      check (a descriptor freed after coupled_linux_slot_quiesce() is not
 *      used any more); and wakes of an offline CPU (the failed call gives
 *      the descriptor back).  The stand-in refuses a descriptor still in
 *      flight with -EBUSY, as the kernel does, which the adapter must never
 *      see.
 *
 * Build: c++ -std=c++17 -O1 -I<include> -I<adapters>/linux/include
 *        -Itests/verify/relacy/kshim -Itests/verify/relacy tests/verify/relacy/relacy_linux.cpp
 * Usage: relacy_linux list | all | <check>
 */
#include <relacy/relacy.hpp>

#include <cstdio>
#include <cstring>
#include <sstream>

#include "kshim_relacy.h"

kshim_cpus *g_kshim;

#define __KERNEL__ 1
#define COUPLED_ADAPTER_LINUX 1
#include <coupled/adapter.h>

namespace
{

/* --- 1. the atomics layer --------------------------------------------- */

enum op_kind { OP_LOAD, OP_STORE, OP_FETCH_ADD, OP_XCHG, OP_CAS, OP_CAS_FAIL };

/*
 * The release side writes flag = 1 with @op and @mo (a read-modify-write
 * starts from 0); returns nothing.
 */
void write_flag(coupled_atomic_u32 *flag, int op, int mo)
{
	uint32_t expected = 0;

	switch (op) {
	case OP_STORE: coupled_store(flag, 1u, mo); break;
	case OP_FETCH_ADD: (void)coupled_fetch_add(flag, 1u, mo); break;
	case OP_XCHG: (void)coupled_exchange(flag, 1u, mo); break;
	case OP_CAS:
		RL_ASSERT(
			coupled_cas(flag, &expected, 1u, mo, COUPLED_RELAXED));
		break;
	default: RL_ASSERT(!"not a write");
	}
}

/* The acquire side: true if it read the flag as 1. */
bool read_flag(coupled_atomic_u32 *flag, int op, int mo)
{
	uint32_t expected;

	switch (op) {
	case OP_LOAD: return coupled_load(flag, mo) == 1u;
	case OP_FETCH_ADD: return coupled_fetch_add(flag, 0u, mo) == 1u;
	case OP_XCHG:
		/* Exchange 1 for 1: reads it without changing it. */
		return coupled_exchange(flag, 1u, mo) == 1u;
	case OP_CAS:
		expected = 1u;
		return coupled_cas(flag, &expected, 1u, mo, COUPLED_RELAXED);
	case OP_CAS_FAIL:
		/* Expects 0: fails on 1, ordered by the failure order. */
		expected = 0u;
		if (coupled_cas(flag, &expected, 2u, COUPLED_SEQ_CST, mo))
			return false;
		return expected == 1u;
	default: RL_ASSERT(!"not a read"); return false;
	}
}

struct litmus {
	const char *name;
	bool sb;      /* store buffering instead of message passing */
	int wop, wmo; /* MP: release side; SB: both first operations */
	int rop, rmo; /* MP: acquire side */
};

/*
 * The tests, by the side under test: a release-side write read by an
 * acquire load (MP_WRITE), an acquire-side read after a release store
 * (MP_READ), a seq_cst write then a seq_cst load on each side (SB).
 */
#define MP_WRITE(name, op, mo)                                                \
	{                                                                     \
		"mp_" name, false, op, COUPLED_##mo, OP_LOAD, COUPLED_ACQUIRE \
	}
#define MP_READ(name, op, mo)                                                  \
	{                                                                      \
		"mp_" name, false, OP_STORE, COUPLED_RELEASE, op, COUPLED_##mo \
	}
#define SB(name, op)                                                   \
	{                                                              \
		"sb_" name "_seq_cst", true, op, COUPLED_SEQ_CST, 0, 0 \
	}

const litmus litmi[] = {
	/* the release side of each path */
	MP_WRITE("store_release", OP_STORE, RELEASE),
	MP_WRITE("store_seq_cst", OP_STORE, SEQ_CST),
	MP_WRITE("fetch_add_release", OP_FETCH_ADD, RELEASE),
	MP_WRITE("fetch_add_acq_rel_w", OP_FETCH_ADD, ACQ_REL),
	MP_WRITE("xchg_release", OP_XCHG, RELEASE),
	MP_WRITE("xchg_acq_rel_w", OP_XCHG, ACQ_REL),
	MP_WRITE("cas_release", OP_CAS, RELEASE),
	MP_WRITE("cas_acq_rel_w", OP_CAS, ACQ_REL),
	/* the acquire side of each path */
	MP_READ("load_acquire", OP_LOAD, ACQUIRE),
	MP_READ("load_seq_cst", OP_LOAD, SEQ_CST),
	MP_READ("fetch_add_acquire", OP_FETCH_ADD, ACQUIRE),
	MP_READ("fetch_add_acq_rel_r", OP_FETCH_ADD, ACQ_REL),
	MP_READ("xchg_acquire", OP_XCHG, ACQUIRE),
	MP_READ("xchg_acq_rel_r", OP_XCHG, ACQ_REL),
	MP_READ("cas_acquire", OP_CAS, ACQUIRE),
	MP_READ("cas_acq_rel_r", OP_CAS, ACQ_REL),
	MP_READ("cas_fail_acquire", OP_CAS_FAIL, ACQUIRE),
	/* seq_cst */
	SB("store", OP_STORE),
	SB("fetch_add", OP_FETCH_ADD),
	SB("xchg", OP_XCHG),
	SB("cas", OP_CAS),
};

const litmus *g_litmus;

struct litmus_test : rl::test_suite<litmus_test, 2> {
	kshim_cpus cpus;
	coupled_atomic_u32 x, y;
	rl::var<int> data;
	uint32_t r[2];

	void before()
	{
		kshim_reset(&cpus);
		coupled_atomic_init(&x, 0u);
		coupled_atomic_init(&y, 0u);
		data($) = 0;
		r[0] = r[1] = 0;
	}

	void thread(unsigned idx)
	{
		const litmus *l = g_litmus;

		if (l->sb) {
			coupled_atomic_u32 *mine = idx ? &y : &x;
			coupled_atomic_u32 *other = idx ? &x : &y;

			write_flag(mine, l->wop, l->wmo);
			r[idx] = coupled_load(other, COUPLED_SEQ_CST);
			return;
		}
		if (idx == 0) {
			data($) = 1;
			write_flag(&x, l->wop, l->wmo);
		} else if (read_flag(&x, l->rop, l->rmo)) {
			RL_ASSERT(data($) == 1);
		}
	}

	void after()
	{
		if (g_litmus->sb)
			RL_ASSERT(r[0] == 1u || r[1] == 1u);
	}
};

} /* namespace */

/* --- 2. the platform hooks -------------------------------------------- */

/* The driver's safe state: "sti; hlt; cli" returns once an IPI was taken. */
static void model_safe_state(void *arg)
{
	unsigned me = smp_processor_id();

	(void)arg;
	while (!kshim_ipi_pending(me))
		rl::yield(1, $);
	(void)kshim_handle_ipi(me);
}

struct handshake_platform {
	kshim_cpus cpus;

	void before(unsigned threads)
	{
		RL_ASSERT(threads <= KSHIM_CPUS);
		kshim_reset(&cpus);
	}
	void after(struct coupled_adapter_slot *slots, unsigned n)
	{
		(void)slots;
		(void)n;
		/* The adapter never reused a descriptor in flight. */
		RL_ASSERT(cpus.busy_refusals == 0);
	}
	void boundary(unsigned self)
	{
		/* Interrupts are off in phase 1: no IPI is taken here. */
		(void)self;
	}
	void waker_done(unsigned self)
	{
		(void)self;
	}
};

static void handshake_setup(struct coupled_adapter_group *ag, int mode)
{
	(void)mode;
	coupled_linux_set_safe_state(ag, model_safe_state, NULL);
}

#include "relacy_handshake.h"

namespace
{

/*
 * Quiesce: CPU 0 takes its IPIs until the slot is freed; CPU 1 wakes slot 0
 * twice (the second wake may find the first in flight); CPU 2 waits until
 * CPU 1 is done (its wakes happen before, as the quiesce's precondition
 * requires), quiesces the slot and frees the descriptor (a plain write).  The
 * IPI handling reads the descriptor before its handler gives the busy flag
 * back, so a quiesce that returned too early is a data race.
 */
struct quiesce_test : rl::test_suite<quiesce_test, 3> {
	kshim_cpus cpus;
	struct coupled_adapter_group ag;
	struct coupled_adapter_slot slot[1];
	rl::atomic<int> woken, freed;

	void before()
	{
		kshim_reset(&cpus);
		coupled_adapter_group_init(&ag, 1);
		coupled_adapter_slot_init(&ag, &slot[0], 0);
		woken.store(0, rl::mo_relaxed, $);
		freed.store(0, rl::mo_relaxed, $);
	}

	void thread(unsigned idx)
	{
		switch (idx) {
		case 0:
			/* Relaxed flags: test scheduling, no data. */
			while (!freed.load(rl::mo_relaxed, $)) {
				if (kshim_ipi_pending(0))
					(void)kshim_handle_ipi(0);
				rl::yield(1, $);
			}
			break;
		case 1:
			coupled_adapter_wake(&ag, &slot[0], 0);
			coupled_adapter_wake(&ag, &slot[0], 0);
			/*
			 * release, with the acquire below: the quiesce's
			 * precondition, nobody pokes the slot any more, comes
			 * from such an order in real use (the leave, the
			 * helper's active flags).
			 */
			woken.store(1, rl::mo_release, $);
			break;
		default:
			while (!woken.load(rl::mo_acquire, $))
				rl::yield(1, $);
			coupled_linux_slot_quiesce(&slot[0]);
			slot[0].csd.live($) = 0; /* kfree() */
			freed.store(1, rl::mo_relaxed, $);
			break;
		}
	}

	void after()
	{
		RL_ASSERT(cpus.busy_refusals == 0);
	}
};

/*
 * Offline: the target CPU 0 is offline, so every call fails with -ENXIO and
 * the waker gives the descriptor back; CPUs 1 and 2 wake it twice each.  A
 * waker that takes the busy flag next must find the descriptor unlocked.
 */
struct offline_test : rl::test_suite<offline_test, 3> {
	kshim_cpus cpus;
	struct coupled_adapter_group ag;
	struct coupled_adapter_slot slot[1];

	void before()
	{
		kshim_reset(&cpus);
		cpus.online[0] = false;
		coupled_adapter_group_init(&ag, 1);
		coupled_adapter_slot_init(&ag, &slot[0], 0);
	}

	void thread(unsigned idx)
	{
		if (idx == 0)
			return;
		coupled_adapter_wake(&ag, &slot[0], 0);
		coupled_adapter_wake(&ag, &slot[0], 0);
	}

	void after()
	{
		RL_ASSERT(cpus.busy_refusals == 0);
		RL_ASSERT(atomic_read(&slot[0].busy) == 0);
	}
};

bool mapping()
{
	int fails = 0;

	for (size_t i = 0; i < sizeof(litmi) / sizeof(litmi[0]); i++) {
		g_litmus = &litmi[i];
		fails += relacy_run<litmus_test>(litmi[i].name, true, 0) ? 0
									 : 1;
	}
	return fails == 0;
}

bool handshake_1w()
{
	return run_handshake<0, 1>("ipi_handshake", true, 0);
}
bool handshake_2w()
{
	return run_handshake<0, 2>("ipi_handshake", false, 3);
}
bool quiesce()
{
	return relacy_run<quiesce_test>("quiesce", false, 3);
}
bool offline()
{
	return relacy_run<offline_test>("offline", false, 4);
}

const relacy_check checks[] = {
	{ "mapping", mapping },           { "handshake_1w", handshake_1w },
	{ "handshake_2w", handshake_2w }, { "quiesce", quiesce },
	{ "offline", offline },
};

} /* namespace */

int main(int argc, char **argv)
{
	return relacy_checks_main(argc, argv, checks,
				  sizeof(checks) / sizeof(checks[0]));
}

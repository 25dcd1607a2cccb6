/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_riscv.cpp - the bare-metal RISC-V adapter's wait/wake handshake
 * under the Relacy race detector, for its strategies.
 *
 * The real adapter (<coupled/adapter/baremetal_riscv.h>) is compiled here
 * (COUPLED_RISCV_INSTRUCTIONS_PROVIDED) with its atomics on rl::atomic, its
 * instructions replaced by a model and its MSIP reached through the send
 * and clear hooks of struct coupled_riscv_ipi; one hart per Relacy thread:
 *   MSIP   one word per hart: the wake's send stores 1 (relaxed), the
 *          adapter's clear stores 0 (relaxed): stores to an I/O register,
 *          ordered only by the fences around them;
 *   FENCE  w,o and o,r: a seq_cst fence (the model is stronger than the
 *          two fences only in ordering more; what it shows is that the
 *          adapter's fences are where an order is needed);
 *   WFI    waits until the hart's MSIP is 1, whatever mstatus.MIE says;
 *   trap   with MIE set, a pending MSIP is taken at instruction boundaries
 *          (the modelled instructions and the hart's steps in between): the
 *          handler stores 0 to MSIP and fences, as the test board's does;
 *   MIE    per hart, plain; PAUSE a Relacy yield.
 * The waiter runs with MIE set (wfi_irq: the trap handler clears the
 * MSIPs) or clear throughout (wfi_masked: the adapter clears its own after
 * WFI).  A lost wake-up leaves the waiter in WFI for good: a Relacy
 * livelock.
 *
 * Two more kinds of check, of the WFI strategy in both MIE modes:
 *   *_scrambled_*  the handshake with participant i on hart N - i (N + 1
 *          threads; thread t is participant t and runs on hart N - t, set
 *          with coupled_riscv_set_hart()): a wake must reach the target's
 *          hart, not the hart that has the target's id (that one is a
 *          waker's, and the waiter would sleep for good);
 *   *_deadline  one participant waits as the core does with a deadline
 *          (prepare, check, coupled_adapter_now() against the deadline,
 *          wait) and nobody wakes it: it must see its deadline pass.  The
 *          model's mtime advances a tick at every read; a wait that rested
 *          in WFI although a deadline was set would never return.
 *
 * Build: c++ -std=c++17 -O1 -I<include> -I<adapters>/baremetal-riscv/include
 *        -Itests/verify/relacy tests/verify/relacy/relacy_riscv.cpp
 * Usage: relacy_riscv list | all | <check>
 */
#include "relacy_model.h"

/* --- the instruction model ---------------------------------------------- */

/*
 * masked (mstatus.MIE clear) and taken: per thread; msip: per hart;
 * hart_of: the hart each thread runs on; mtime: the clock, a tick per read.
 */
struct riscv_model : model_irqs {
	rl::atomic<int> msip[MODEL_CORES];
	unsigned hart_of[MODEL_CORES];
	rl::atomic<uint64_t> mtime;
};

static riscv_model *g_rv;

/* The hart the calling thread runs on (its mhartid). */
static unsigned model_hart()
{
	return g_rv->hart_of[model_me()];
}

/* mtime: a clock that advances one tick at each read. */
static uint64_t model_time()
{
	/* relaxed: a clock, ordering nothing. */
	return g_rv->mtime.fetch_add(1u, rl::mo_relaxed, $);
}

/* An instruction boundary: with MIE set, the trap handler takes the MSIP. */
static void model_boundary()
{
	unsigned me = model_me(), hart = model_hart();

	if (!g_rv->masked[me] && g_rv->msip[hart].load(rl::mo_relaxed, $)) {
		g_rv->msip[hart].store(0, rl::mo_relaxed, $);
		rl::atomic_thread_fence(rl::mo_seq_cst, $);
		g_rv->taken[me]++;
	}
}

static void model_wfi()
{
	unsigned me = model_hart();

	/* An unmasked interrupt may still be taken right before WFI. */
	model_boundary();
	while (!g_rv->msip[me].load(rl::mo_relaxed, $))
		rl::yield(1, $);
}

/* The saved flags: mstatus, MIE (0x8) set if interrupts were enabled. */
static unsigned long model_irq_save()
{
	return model_mask(g_rv->masked) ? 0ul : 0x8ul;
}

static void model_irq_restore(unsigned long flags)
{
	model_unmask(g_rv->masked, !(flags & 0x8ul));
}

static void model_send(void *arg, uint32_t hart)
{
	(void)arg;
	model_boundary();
	g_rv->msip[hart].store(1, rl::mo_relaxed, $);
}

static void model_clear(void *arg, uint32_t hart)
{
	(void)arg;
	g_rv->msip[hart].store(0, rl::mo_relaxed, $);
}

#define COUPLED_RISCV_WFI() model_wfi()
#define COUPLED_RISCV_PAUSE() model_yield()
#define COUPLED_RISCV_FENCE_W_O() model_fence()
#define COUPLED_RISCV_FENCE_O_R() model_fence()
#define COUPLED_RISCV_IRQ_SAVE() model_irq_save()
#define COUPLED_RISCV_IRQ_RESTORE(flags) model_irq_restore(flags)
#define COUPLED_RISCV_MMIO_WRITE32(addr, v) RL_ASSERT(!"no MMIO in the model")
#define COUPLED_RISCV_TIME(clint_base) ((void)(clint_base), model_time())
#define COUPLED_RISCV_HART_ID() model_hart()
#define COUPLED_RISCV_INSTRUCTIONS_PROVIDED 1

#define COUPLED_ADAPTER_BAREMETAL_RISCV 1
#include <coupled/adapter.h>

/* --- the handshake ------------------------------------------------------ */

/* The modes: the strategy, and for WFI the waiter's mstatus.MIE. */
enum { MODE_SPIN, MODE_WFI_IRQ, MODE_WFI_MASKED };

struct handshake_platform : model_platform {
	riscv_model rv;

	void before(unsigned threads)
	{
		model_irqs_reset(&rv, threads);
		for (unsigned i = 0; i < MODEL_CORES; i++) {
			rv.msip[i].store(0, rl::mo_relaxed, $);
			rv.hart_of[i] = i;
		}
		rv.mtime.store(0u, rl::mo_relaxed, $);
		g_rv = &rv;
	}
};

static void handshake_setup(struct coupled_adapter_group *ag, int mode)
{
	struct coupled_riscv_ipi ipi;

	if (mode == MODE_SPIN) {
		RL_ASSERT(coupled_riscv_set_spin(ag) == 0);
		return;
	}
	std::memset(&ipi, 0, sizeof(ipi));
	ipi.send = model_send;
	ipi.clear = model_clear;
	RL_ASSERT(coupled_riscv_set_ipi(ag, &ipi) == 0);
	/* The waiter (thread 0) runs its calls with MIE clear, or set. */
	g_rv->masked[0] = mode == MODE_WFI_MASKED;
}

#include "relacy_handshake.h"

/*
 * The handshake of relacy_handshake.h with the harts scrambled: WAKERS + 1
 * threads, thread t is participant t and runs on hart WAKERS - t, and the
 * adapter is told so (coupled_riscv_set_hart()).  The waiter is
 * participant 0, on the last hart; the wake to it must set that hart's
 * MSIP, not MSIP 0 (a waker's own hart).
 */
struct scrambled_harts {
	static void place(struct coupled_adapter_slot *slot, unsigned i,
			  unsigned n)
	{
		RL_ASSERT(coupled_riscv_set_hart(slot, n - 1u - i) == 0);
		g_rv->hart_of[i] = n - 1u - i;
	}
};

/*
 * A wait with a deadline that nobody wakes, as the core's phase 1 runs it
 * (settled.h, direct.h; the deadline check of protocol.h): participant 0 of
 * a group of two, alone, on hart 1 (participant 1 never comes).  It must
 * see coupled_adapter_now() reach the deadline and give up.
 */
enum { DEADLINE_TICKS = 4 };

template <int MODE>
struct deadline_test : rl::test_suite<deadline_test<MODE>, 1> {
	struct coupled_adapter_group ag;
	struct coupled_adapter_slot slot[2];
	coupled_atomic_u32 poke_seq;
	handshake_platform platform;

	void before()
	{
		platform.before(1);
		coupled_adapter_group_init(&ag, 2);
		for (unsigned i = 0; i < 2; i++) {
			coupled_adapter_slot_init(&ag, &slot[i], i);
			RL_ASSERT(coupled_riscv_set_hart(&slot[i], 1 - i) == 0);
		}
		g_rv->hart_of[0] = 1;
		handshake_setup(&ag, MODE);
		coupled_atomic_init(&poke_seq, 0u);
	}

	void thread(unsigned idx)
	{
		uint64_t deadline = coupled_adapter_now(&ag) + DEADLINE_TICKS;
		unsigned waits = 0;

		(void)idx;
		for (;;) {
			uint32_t token =
				coupled_adapter_wait_prepare(&ag, &slot[0], 0);

			platform.boundary(0);
			/* acquire: as in relacy_handshake.h (never moves). */
			RL_ASSERT(coupled_load(&poke_seq, COUPLED_ACQUIRE) ==
				  0u);
			if (coupled_adapter_now(&ag) >= deadline)
				break;
			coupled_adapter_wait(&ag, &slot[0], 0, token, deadline);
			waits++;
		}
		/* The clock ran a tick per read: a few waits at most. */
		RL_ASSERT(waits <= DEADLINE_TICKS);
	}
};

/* The scrambled handshake of the wait mode @MODE with @WAKERS wakers. */
template <int MODE, int WAKERS>
bool run_scrambled(const char *name, bool full, unsigned bound)
{
	return run_handshake<MODE, WAKERS, scrambled_harts>(
		(std::string(name) + "_scrambled").c_str(), full, bound);
}

#define RISCV_SCRAMBLED_FN(mode, name, wakers, full, bound)             \
	bool name##_scrambled_##wakers##w()                             \
	{                                                               \
		return run_scrambled<mode, wakers>(#name, full, bound); \
	}
#define RISCV_EXTRA_FNS(mode, name)                                       \
	RISCV_SCRAMBLED_FN(mode, name, 1, true, 0)                        \
	RISCV_SCRAMBLED_FN(mode, name, 2, false, 3)                       \
	bool name##_deadline()                                            \
	{                                                                 \
		return relacy_run<deadline_test<mode>>(#name "_deadline", \
						       true, 0);          \
	}
#define RISCV_EXTRA_ENTRIES(mode, name)                         \
	{ #name "_scrambled_1w", name##_scrambled_1w },         \
		{ #name "_scrambled_2w", name##_scrambled_2w }, \
		{ #name "_deadline", name##_deadline },

/* The checks: the wait modes, one and two wakers. */
#define HANDSHAKE_CASES(ONE, BOTH)     \
	ONE(MODE_SPIN, spin)           \
	BOTH(MODE_WFI_IRQ, wfi_irq, 3) \
	BOTH(MODE_WFI_MASKED, wfi_masked, 3)
/* The scrambled harts and the deadline, for both WFI modes. */
#define RISCV_EXTRA_CASES(X)     \
	X(MODE_WFI_IRQ, wfi_irq) \
	X(MODE_WFI_MASKED, wfi_masked)

namespace
{
HANDSHAKE_CASES(RELACY_HANDSHAKE_ONE_FN, RELACY_HANDSHAKE_BOTH_FN)
RISCV_EXTRA_CASES(RISCV_EXTRA_FNS)
const relacy_check checks[] = {
	HANDSHAKE_CASES(RELACY_HANDSHAKE_ONE_ENTRY, RELACY_HANDSHAKE_BOTH_ENTRY)
		RISCV_EXTRA_CASES(RISCV_EXTRA_ENTRIES)
};
} // namespace

int main(int argc, char **argv)
{
	return relacy_checks_main(argc, argv, checks,
				  sizeof(checks) / sizeof(checks[0]));
}

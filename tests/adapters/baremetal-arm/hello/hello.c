/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * hello.c - smoke test of the QEMU virt board support.
 *
 * Every core prints "hello from cpu N" under a C11 ticket lock (waits in
 * WFE, release + DSB + SEV).  Core 0 waits until all have printed, checks
 * board_cpu_count() against EXPECT_CPUS, sends SGI HELLO_SGI to every
 * secondary through the GIC and checks that each one's board_on_irq saw
 * it, then prints "hello: PASS cpus=N" and exits 0.  Failures print
 * "hello: FAIL ..." and exit 1.
 */
#include "board.h"
#include "../../baremetal-common/image_print.h"

#include <stdatomic.h>
#include <stdbool.h>

#ifndef EXPECT_CPUS
#define EXPECT_CPUS 4
#endif

#define HELLO_SGI 7u
#define HELLO_TIMEOUT_S 10u

static atomic_uint ticket_next;
static atomic_uint ticket_serving;
static atomic_uint printed;
static atomic_uint sgi_seen[BOARD_MAX_CPUS];
static atomic_uint sgi_wrong[BOARD_MAX_CPUS];

static void lock(void)
{
	/* relaxed: only hands out tickets; the acquire below orders the rest. */
	unsigned me = atomic_fetch_add_explicit(&ticket_next, 1,
						memory_order_relaxed);

	/* acquire: pairs with unlock()'s release; the previous holder is done. */
	while (atomic_load_explicit(&ticket_serving, memory_order_acquire) !=
	       me)
		board_wfe();
}

static void unlock(void)
{
	/* release: our output happens before the next holder's. */
	atomic_fetch_add_explicit(&ticket_serving, 1, memory_order_release);
	board_sev();
}

void board_on_irq(uint32_t cpu, uint32_t irq_id)
{
	if (cpu >= BOARD_MAX_CPUS)
		return;
	if (irq_id == HELLO_SGI) {
		/* release: pairs with the acquire loads of sgi_seen below. */
		atomic_fetch_add_explicit(&sgi_seen[cpu], 1,
					  memory_order_release);
		board_sev(); /* core 0 waits for it in WFE */
	} else {
		/* relaxed: a counter, read at the end only. */
		atomic_fetch_add_explicit(&sgi_wrong[cpu], 1,
					  memory_order_relaxed);
	}
	board_sev();
}

static void fail(const char *what, uint64_t a, uint64_t b)
{
	lock();
	image_fail("hello", what, a, b);
}

static uint64_t deadline(void)
{
	return board_counter() + board_counter_freq() * HELLO_TIMEOUT_S;
}

void app_main(uint32_t cpu)
{
	uint32_t n = board_cpu_count();

	lock();
	board_puts("hello from cpu ");
	board_put_u64(cpu);
	board_puts(" (gic interface ");
	board_put_u64(board_gic_cpu_interface(cpu));
	board_puts(")\n");
	unlock();
	/* release: pairs with core 0's acquire load of printed. */
	atomic_fetch_add_explicit(&printed, 1, memory_order_release);
	board_sev();

	if (cpu != 0) {
		/* Wait for the SGI: check with IRQs masked, WFI (which wakes
		 * on a pending IRQ even when masked), then take it. */
		uint64_t end = deadline();
		for (;;) {
			board_irq_disable();
			if (atomic_load_explicit(&sgi_seen[cpu],
						 memory_order_acquire))
				break;
			if (board_counter() > end)
				fail("secondary saw no SGI: cpu, irqs", cpu, 0);
			board_wfi();
			board_irq_enable();
		}
		return; /* the BSP parks this core */
	}

	uint64_t end = deadline();
	while (atomic_load_explicit(&printed, memory_order_acquire) != n) {
		if (board_counter() > end)
			fail("not every core printed: printed, cpus",
			     atomic_load(&printed), n);
		board_wfe();
	}
	if (n != EXPECT_CPUS)
		fail("board_cpu_count() != EXPECT_CPUS", n, EXPECT_CPUS);

	for (uint32_t t = 1; t < n; t++) {
		board_gic_send_sgi(t, HELLO_SGI);
		end = deadline();
		while (!atomic_load_explicit(&sgi_seen[t],
					     memory_order_acquire)) {
			if (board_counter() > end)
				fail("SGI not seen by cpu: cpu, sgi", t,
				     HELLO_SGI);
			board_wfe();
		}
	}
	for (uint32_t t = 0; t < n; t++) {
		if (atomic_load(&sgi_wrong[t]) || atomic_load(&sgi_seen[t]) > 1)
			fail("unexpected interrupts on cpu: cpu, count", t,
			     atomic_load(&sgi_wrong[t]) +
				     atomic_load(&sgi_seen[t]));
	}

	lock();
	board_puts("hello: PASS cpus=");
	board_put_u64(n);
	board_puts(" counter=");
	board_put_u64(board_counter());
	board_puts("\n");
	board_exit(0);
}

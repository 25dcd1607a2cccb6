/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * bench_image.c - the bindings-free benchmark harness (bench/harness/) on
 * bare metal: the generic timer is its clock, the cores of the board are its
 * execution contexts, the PL011 carries its JSON.
 *
 * Core 0 runs the harness; the other cores wait in WFE for a job (a body to
 * run as context tid) and report back through a counter.  The two wait
 * strategies of the adapter are the harness's strategies "wfe" and
 * "wfi-sgi" (the settled protocol); built with -DCOUPLED_ARM_WFE_ONLY=1 only
 * "wfe" is there, and the rounds run the direct protocol.  The JSON document is framed by BENCH-JSON-BEGIN/END lines so
 * the test can cut it out of the console; "bench: PASS" follows when every
 * round committed.  Figures under emulation are not performance claims:
 * the point is that the harness works freestanding.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "coupled_harness.h"

#ifndef BENCH_MIN_TIME_MS
#define BENCH_MIN_TIME_MS 20u
#endif
#ifndef BOARD_GICD_BASE
#define BOARD_GICD_BASE 0x08000000u /* QEMU virt's GICv2 distributor */
#endif
#define BENCH_WAKE_SGI 1u

/* The job every core but 0 picks up: published by a release of job_seq. */
static coupled_harness_body_fn job_body;
static void *job_arg;
static uint32_t job_n;
static atomic_uint job_seq, job_done;
static uint32_t ncpus;

static uint64_t now_ns(void *ctx)
{
	uint64_t t = board_counter(), f = board_counter_freq();

	(void)ctx;
	return t / f * 1000000000u + t % f * 1000000000u / f;
}

static void write_out(void *ctx, const char *buf, size_t len)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < len; i++)
		board_putc(buf[i]);
}

static void run_on_cores(void *ctx, uint32_t n, coupled_harness_body_fn body,
			 void *arg)
{
	(void)ctx;
	job_body = body;
	job_arg = arg;
	job_n = n;
	/* relaxed: no core looks at it before the release below. */
	atomic_store_explicit(&job_done, 0u, memory_order_relaxed);
	/* release: publishes the job; pairs with the workers' acquire. */
	atomic_fetch_add_explicit(&job_seq, 1u, memory_order_release);
	board_sev();
	body(arg, 0);
	/* acquire: pairs with each worker's release; their writes are ours. */
	while (atomic_load_explicit(&job_done, memory_order_acquire) + 1u < n)
		board_wfe();
}

static int set_strategy(void *ctx, struct coupled_group *g, int strategy)
{
	struct coupled_adapter_group *ag = coupled_group_adapter(g);
	struct coupled_arm_ipi ipi = { 0 };
	uint32_t i;

	(void)ctx;
	if (strategy == 0)
		return coupled_arm_set_wfe(ag);
	ipi.gicd_base = BOARD_GICD_BASE;
	ipi.sgi_id = BENCH_WAKE_SGI;
	if (coupled_arm_set_wfi_sgi(ag, &ipi) != 0)
		return -1;
	for (i = 0; i < g->capacity; i++)
		if (coupled_arm_set_gic_target(coupled_participant_adapter(g,
									   i),
					       board_gic_cpu_interface(i)) != 0)
			return -1;
	return 0;
}

static void worker(uint32_t cpu)
{
	uint32_t seen = 0;

	for (;;) {
		uint32_t seq;

		/* acquire: pairs with the release in run_on_cores(). */
		while ((seq = atomic_load_explicit(
				&job_seq, memory_order_acquire)) == seen)
			board_wfe();
		seen = seq;
		if (cpu < job_n) {
			job_body(job_arg, cpu);
			/* release: publishes what the body wrote. */
			atomic_fetch_add_explicit(&job_done, 1u,
						  memory_order_release);
			board_sev();
		}
	}
}

void app_main(uint32_t cpu)
{
	static struct coupled_slot slots[BOARD_MAX_CPUS];
	static const char *const names[] = { "wfe", "wfi-sgi" };
	static const unsigned char spinning[] = { 0, 0 };
	uint32_t threads[3], n = 0;
	struct coupled_harness_platform p = { 0 };
	struct coupled_harness_options o = { 0 };
	int ret;

	board_irq_enable(); /* the BSP acknowledges the wake SGIs */
	if (cpu != 0)
		worker(cpu);

	ncpus = board_cpu_count();
	threads[n++] = 1;
	if (ncpus >= 2)
		threads[n++] = 2;
	if (ncpus >= 4)
		threads[n++] = 4;

	p.now_ns = now_ns;
	p.write = write_out;
	p.run = run_on_cores;
	p.set_strategy = set_strategy;
	p.strategy_names = names;
	/* A WFE-only build has no WFI strategy to measure. */
	p.n_strategies = COUPLED_ARM_WFE_ONLY ? 1 : 2;
	p.spinning = spinning;
	p.num_cpus = ncpus;
	p.host_name = "qemu-virt";
#if defined(__aarch64__)
	p.executable = "bench_image (aarch64)";
#else
	p.executable = "bench_image (armv7-a)";
#endif
	o.threads = threads;
	o.n_threads = n;
	o.min_time_ns = BENCH_MIN_TIME_MS * 1000000ull;
	o.repetitions = 1;

	board_puts("BENCH-JSON-BEGIN\n");
	ret = coupled_harness_run(&p, &o, slots, BOARD_MAX_CPUS);
	board_puts("\nBENCH-JSON-END\n");
	if (ret != 0) {
		board_puts("bench: FAIL ");
		board_puts(coupled_strerror(ret));
		board_puts("\n");
		board_exit(1);
	}
	board_puts("bench: PASS cpus=");
	board_put_u64(ncpus);
	board_puts(" protocol=" COUPLED_PROTOCOL_NAME "\n");
	board_exit(0);
}

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled_harness.c - the harness core: no C library, no allocation; the
 * platform callbacks do everything else (see coupled_harness.h).
 */
#include "coupled_harness.h"

#include <stdbool.h>

/* --- output -------------------------------------------------------------- */

struct out {
	const struct coupled_harness_platform *p;
	char buf[256];
	size_t len;
};

static void out_flush(struct out *o)
{
	if (o->len)
		o->p->write(o->p->ctx, o->buf, o->len);
	o->len = 0;
}

static void out_char(struct out *o, char c)
{
	if (o->len == sizeof(o->buf))
		out_flush(o);
	o->buf[o->len++] = c;
}

static void out_str(struct out *o, const char *s)
{
	while (s && *s)
		out_char(o, *s++);
}

/* A JSON string literal: quotes, backslashes and control bytes escaped. */
static void out_jstr(struct out *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	out_char(o, '"');
	while (s && *s) {
		unsigned char c = (unsigned char)*s++;

		if (c == '"' || c == '\\') {
			out_char(o, '\\');
			out_char(o, (char)c);
		} else if (c < 0x20) {
			out_str(o, "\\u00");
			out_char(o, hex[c >> 4]);
			out_char(o, hex[c & 15]);
		} else {
			out_char(o, (char)c);
		}
	}
	out_char(o, '"');
}

static void out_u64(struct out *o, uint64_t v)
{
	char tmp[21];
	int i = 0;

	do {
		tmp[i++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	while (i)
		out_char(o, tmp[--i]);
}

/* A non-negative value in fixed point with three decimals. */
static void out_fixed3(struct out *o, double v)
{
	uint64_t milli;

	if (!(v > 0.0))
		v = 0.0;
	if (v > 1e15)
		v = 1e15;
	milli = (uint64_t)(v * 1000.0 + 0.5);
	out_u64(o, milli / 1000u);
	out_char(o, '.');
	out_char(o, (char)('0' + milli / 100u % 10u));
	out_char(o, (char)('0' + milli / 10u % 10u));
	out_char(o, (char)('0' + milli % 10u));
}

/* --- the cases ------------------------------------------------------------ */

static const char *const case_names[COUPLED_HARNESS_CASES] = { "coupled_round",
							       "coupled_abort_"
							       "retry",
							       "coupled_join_"
							       "leave",
							       "coupled_"
							       "uncontended" };

/* Starts a cache line: coupled/direct.h keeps requests beside the word. */
static _Alignas(64) struct coupled_group group;

struct run {
	const struct coupled_harness_platform *p;
	int which;
	uint32_t n;
	uint64_t iters;
	/* Written by context 0, read by the caller after p->run(). */
	uint64_t t0, t1;
	/* Set by any context whose round failed. */
	coupled_atomic_u32 failed;
};

struct thread_ctx {
	bool armed;
	uint32_t members;
};

static void empty_action(const struct coupled_round *r, void *ctx)
{
	(void)r;
	(void)ctx;
}

static void members_action(const struct coupled_round *r, void *ctx)
{
	((struct thread_ctx *)ctx)->members = r->members;
}

static bool abort_once(void *arg, uint32_t self)
{
	struct thread_ctx *t = (struct thread_ctx *)arg;

	(void)self;
	if (!t->armed)
		return false;
	t->armed = false;
	return true;
}

static void fail(struct run *r)
{
	coupled_store(&r->failed, 1u, COUPLED_RELAXED);
}

/* Enter until committed; only membership aborts are expected here. */
static void round_until_committed(struct run *r, uint32_t self,
				  coupled_action_fn action, void *ctx)
{
	for (;;) {
		int ret = coupled_enter(&group, self, 0, action, ctx);

		if (ret == COUPLED_COMMITTED)
			return;
		if (ret != COUPLED_ABORT_MEMBERSHIP) {
			fail(r);
			return;
		}
		/* Let a membership changer run (sched_yield() when hosted). */
		coupled_adapter_relax(coupled_group_adapter(&group));
	}
}

static void body(void *arg, uint32_t self)
{
	struct run *r = (struct run *)arg;
	struct thread_ctx t;
	struct coupled_abort_opts opts;
	const bool changer = self == r->n - 1;
	uint64_t i;

	t.armed = false;
	t.members = 0;
	opts.deadline = 0;
	opts.should_abort = abort_once;
	opts.abort_arg = &t;

	/* A first round lines the contexts up before the clock starts. */
	round_until_committed(r, self, empty_action, 0);
	if (self == 0)
		r->t0 = r->p->now_ns(r->p->ctx);

	for (i = 0; i < r->iters; i++) {
		switch (r->which) {
		case COUPLED_HARNESS_ROUND:
		case COUPLED_HARNESS_UNCONTENDED:
			if (coupled_enter(&group, self, 0, empty_action, 0) !=
			    COUPLED_COMMITTED)
				fail(r);
			break;
		case COUPLED_HARNESS_ABORT_RETRY:
			/*
			 * The armed call must abort: both protocols poll the
			 * abort sources before the call can be part of a
			 * commit (direct: before its arrival; settled: in
			 * phase 1).  Were it to commit anyway, it was this
			 * iteration's round (counted as a failure).
			 */
			if (self == 0) {
				int ret;

				t.armed = true;
				ret = coupled_enter_opts(&group, self, 0,
							 empty_action, 0,
							 &opts);
				if (ret != COUPLED_ABORT_CALLER)
					fail(r);
				if (ret == COUPLED_COMMITTED)
					break;
			}
			round_until_committed(r, self, empty_action, 0);
			break;
		case COUPLED_HARNESS_JOIN_LEAVE:
			/* Count only rounds with every member in. */
			do {
				t.members = 0;
				round_until_committed(r, self, members_action,
						      &t);
			} while (t.members != r->n &&
				 !coupled_load(&r->failed, COUPLED_RELAXED));
			if (changer && (coupled_leave(&group, self) != 0 ||
					coupled_join(&group, self) != 0))
				fail(r);
			break;
		default: break;
		}
	}
	if (self == 0)
		r->t1 = r->p->now_ns(r->p->ctx);
}

static int setup_group(const struct coupled_harness_platform *p,
		       struct coupled_slot *slots, uint32_t n, int strategy)
{
	if (coupled_group_init(&group, slots, n, n, 0) != 0)
		return -1;
	if (p->set_strategy && p->set_strategy(p->ctx, &group, strategy) != 0)
		return -1;
	return 0;
}

/* One timed run; returns elapsed ns, or 0 on failure (*failed set). */
static uint64_t timed_run(const struct coupled_harness_platform *p,
			  struct coupled_slot *slots, int which, uint32_t n,
			  int strategy, uint64_t iters, bool *failed)
{
	struct run r;

	if (setup_group(p, slots, n, strategy) != 0) {
		*failed = true;
		return 0;
	}
	r.p = p;
	r.which = which;
	r.n = n;
	r.iters = iters;
	r.t0 = r.t1 = 0;
	coupled_atomic_init(&r.failed, 0u);
	p->run(p->ctx, n, body, &r);
	if (coupled_load(&r.failed, COUPLED_RELAXED)) {
		*failed = true;
		return 0;
	}
	return r.t1 > r.t0 ? r.t1 - r.t0 : 1;
}

static void out_name(struct out *o, int which, const char *strategy, uint32_t n)
{
	out_char(o, '"');
	out_str(o, case_names[which]);
	out_char(o, '/');
	out_str(o, strategy);
	out_str(o, "/real_time/threads:");
	out_u64(o, n);
	out_char(o, '"');
}

static void out_entry(struct out *o, bool *first, int which,
		      const char *strategy, uint32_t n, unsigned family,
		      unsigned instance, unsigned reps, unsigned rep,
		      uint64_t iters, uint64_t elapsed)
{
	/* As Google Benchmark: iterations summed over threads. */
	uint64_t total = iters * n;
	double per_iter = (double)elapsed / (double)total;
	double per_round = (double)elapsed / (double)iters;

	out_str(o, *first ? "\n    {\n" : ",\n    {\n");
	*first = false;
	out_str(o, "      \"name\": ");
	out_name(o, which, strategy, n);
	out_str(o, ",\n      \"family_index\": ");
	out_u64(o, family);
	out_str(o, ",\n      \"per_family_instance_index\": ");
	out_u64(o, instance);
	out_str(o, ",\n      \"run_name\": ");
	out_name(o, which, strategy, n);
	out_str(o, ",\n      \"run_type\": \"iteration\",\n      "
		   "\"repetitions\": ");
	out_u64(o, reps);
	out_str(o, ",\n      \"repetition_index\": ");
	out_u64(o, rep);
	out_str(o, ",\n      \"threads\": ");
	out_u64(o, n);
	out_str(o, ",\n      \"iterations\": ");
	out_u64(o, total);
	/* No CPU-time clock is assumed: cpu_time repeats real_time. */
	out_str(o, ",\n      \"real_time\": ");
	out_fixed3(o, per_iter);
	out_str(o, ",\n      \"cpu_time\": ");
	out_fixed3(o, per_iter);
	out_str(o, ",\n      \"time_unit\": \"ns\",\n      \"ns_per_round\": ");
	out_fixed3(o, per_round);
	out_str(o, "\n    }");
}

static void out_context(struct out *o, const struct coupled_harness_platform *p)
{
	out_str(o, "{\n  \"context\": {\n    \"date\": ");
	out_jstr(o, p->date ? p->date : "");
	out_str(o, ",\n    \"host_name\": ");
	out_jstr(o, p->host_name ? p->host_name : "");
	out_str(o, ",\n    \"executable\": ");
	out_jstr(o, p->executable ? p->executable : "");
	out_str(o, ",\n    \"num_cpus\": ");
	out_u64(o, p->num_cpus);
	out_str(o, ",\n    \"mhz_per_cpu\": 0,\n"
		   "    \"cpu_scaling_enabled\": false,\n"
		   "    \"caches\": [],\n"
		   "    \"load_avg\": [],\n"
		   "    \"library_build_type\": \"release\",\n"
		   "    \"harness\": \"coupled C harness (bench/harness)\",\n"
		   "    \"adapter\": ");
	out_jstr(o, COUPLED_ADAPTER_NAME);
	out_str(o, "\n  },\n  \"benchmarks\": [");
}

int coupled_harness_run(const struct coupled_harness_platform *p,
			const struct coupled_harness_options *opt,
			struct coupled_slot *slots, uint32_t capacity)
{
	static const char *const default_names[] = { "spin" };
	const char *const *names = p && p->strategy_names ? p->strategy_names
							  : default_names;
	unsigned n_strat = p && p->strategy_names ? p->n_strategies : 1;
	unsigned cpus, reps, mask, t, s, rep, family = 0;
	uint64_t max_iters, oversub;
	int which, ret = 0;
	bool first = true;
	struct out o;

	if (!p || !opt || !slots || !p->now_ns || !p->write || !p->run ||
	    !opt->threads || opt->n_threads == 0 || n_strat == 0)
		return COUPLED_EINVAL;
	for (t = 0; t < opt->n_threads; t++)
		if (opt->threads[t] == 0 || opt->threads[t] > capacity)
			return COUPLED_ERANGE;
	cpus = p->num_cpus ? p->num_cpus : 1;
	reps = opt->repetitions ? opt->repetitions : 1;
	mask = opt->case_mask ? opt->case_mask : ~0u;
	max_iters = opt->max_iterations ? opt->max_iterations : 1000000000u;
	oversub = opt->oversub_iterations ? opt->oversub_iterations : 5u;

	o.p = p;
	o.len = 0;
	out_context(&o, p);

	for (which = 0; which < COUPLED_HARNESS_CASES; which++) {
		if (!(mask & (1u << which)))
			continue;
		for (s = 0; s < n_strat; s++) {
			unsigned instance = 0;
			bool spins = !p->spinning || p->spinning[s];

			for (t = 0; t < opt->n_threads; t++) {
				uint32_t n = opt->threads[t];
				uint64_t iters = 1, elapsed = 0;
				bool failed = false, fixed;

				if (which == COUPLED_HARNESS_UNCONTENDED) {
					if (t > 0)
						break;
					n = 1;
				}
				fixed = spins && n > cpus;
				/* Grow the count as Google Benchmark does. */
				if (fixed) {
					iters = oversub;
				} else {
					for (;;) {
						uint64_t next;

						elapsed = timed_run(
							p, slots, which, n,
							(int)s, iters, &failed);
						if (failed ||
						    elapsed >=
							    opt->min_time_ns ||
						    iters >= max_iters)
							break;
						next = elapsed ? (uint64_t)((double)iters *
									    1.4 *
									    (double)opt
										    ->min_time_ns /
									    (double)elapsed)
							       : iters * 10u;
						if (next > iters * 10u)
							next = iters * 10u;
						if (next <= iters)
							next = iters + 1u;
						iters = next > max_iters
								? max_iters
								: next;
					}
				}
				for (rep = 0; rep < reps && !failed; rep++) {
					elapsed = timed_run(p, slots, which, n,
							    (int)s, iters,
							    &failed);
					if (failed)
						break;
					out_entry(&o, &first, which, names[s],
						  n, family, instance, reps,
						  rep, iters, elapsed);
				}
				if (failed)
					ret = COUPLED_EPERM;
				instance++;
			}
			family++;
		}
	}
	out_str(&o, "\n  ]\n}\n");
	out_flush(&o);
	return ret;
}

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled/tracepoints/coupled.h - the library's trace events for the Linux
 * kernel (system "coupled"), read through tracefs, trace-cmd or perf.
 *
 * The Linux adapter binds the core's trace points (coupled/trace.h) to
 * these events when the including code defines COUPLED_LINUX_TRACE; see
 * docs/linux.md ("Tracing") for the events, a recipe and a sample.  Exactly
 * one module of a kernel creates and exports the trace points:
 *
 *   #define CREATE_TRACE_POINTS
 *   #include <coupled/tracepoints/coupled.h>
 *   #undef CREATE_TRACE_POINTS
 *   EXPORT_TRACEPOINT_SYMBOL_GPL(coupled_enter); ... (one per event)
 *
 * (tests/adapters/linux/modules/coupled_trace.c does exactly that); the
 * others only define COUPLED_LINUX_TRACE.  The folder's name has no
 * "linux" in it on purpose: define_trace.h turns TRACE_INCLUDE_PATH into a
 * string, and GNU C predefines "linux" as 1.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM coupled

#if !defined(COUPLED_TRACEPOINTS_COUPLED_H) || defined(TRACE_HEADER_MULTI_READ)
#define COUPLED_TRACEPOINTS_COUPLED_H

#include <linux/tracepoint.h>
#include <linux/types.h>

/* The trace-event macros read best in the kernel's own layout. */
/* clang-format off */

/* The abort reasons (coupled/errno.h), as the events print them. */
#define COUPLED_TRACE_REASONS \
	{ 1, "work" }, { 2, "membership" }, { 3, "caller" }, { 4, "timeout" }

TRACE_EVENT(coupled_enter,
	TP_PROTO(const void *group, u32 self, s32 request),
	TP_ARGS(group, self, request),
	TP_STRUCT__entry(
		__field(const void *, group)
		__field(u32, self)
		__field(s32, request)
	),
	TP_fast_assign(
		__entry->group = group;
		__entry->self = self;
		__entry->request = request;
	),
	TP_printk("group=%p self=%u request=%d", __entry->group,
		  __entry->self, __entry->request)
);

TRACE_EVENT(coupled_commit,
	TP_PROTO(const void *group, u32 self, u32 generation, s32 param,
		 u32 members, u64 wait_ns),
	TP_ARGS(group, self, generation, param, members, wait_ns),
	TP_STRUCT__entry(
		__field(const void *, group)
		__field(u32, self)
		__field(u32, generation)
		__field(s32, param)
		__field(u32, members)
		__field(u64, wait_ns)
	),
	TP_fast_assign(
		__entry->group = group;
		__entry->self = self;
		__entry->generation = generation;
		__entry->param = param;
		__entry->members = members;
		__entry->wait_ns = wait_ns;
	),
	TP_printk("group=%p self=%u generation=%u param=%d members=%u wait_ns=%llu",
		  __entry->group, __entry->self, __entry->generation,
		  __entry->param, __entry->members,
		  (unsigned long long)__entry->wait_ns)
);

TRACE_EVENT(coupled_abort,
	TP_PROTO(const void *group, u32 self, int reason, u64 wait_ns),
	TP_ARGS(group, self, reason, wait_ns),
	TP_STRUCT__entry(
		__field(const void *, group)
		__field(u32, self)
		__field(int, reason)
		__field(u64, wait_ns)
	),
	TP_fast_assign(
		__entry->group = group;
		__entry->self = self;
		__entry->reason = reason;
		__entry->wait_ns = wait_ns;
	),
	TP_printk("group=%p self=%u reason=%s wait_ns=%llu", __entry->group,
		  __entry->self,
		  __print_symbolic(__entry->reason, COUPLED_TRACE_REASONS),
		  (unsigned long long)__entry->wait_ns)
);

DECLARE_EVENT_CLASS(coupled_member,
	TP_PROTO(const void *group, u32 id),
	TP_ARGS(group, id),
	TP_STRUCT__entry(
		__field(const void *, group)
		__field(u32, id)
	),
	TP_fast_assign(
		__entry->group = group;
		__entry->id = id;
	),
	TP_printk("group=%p id=%u", __entry->group, __entry->id)
);

DEFINE_EVENT(coupled_member, coupled_retry,
	TP_PROTO(const void *group, u32 id),
	TP_ARGS(group, id));
DEFINE_EVENT(coupled_member, coupled_restart,
	TP_PROTO(const void *group, u32 id),
	TP_ARGS(group, id));
DEFINE_EVENT(coupled_member, coupled_join,
	TP_PROTO(const void *group, u32 id),
	TP_ARGS(group, id));
DEFINE_EVENT(coupled_member, coupled_leave,
	TP_PROTO(const void *group, u32 id),
	TP_ARGS(group, id));

TRACE_EVENT(coupled_domain,
	TP_PROTO(const void *leaf, u32 core, u32 depth),
	TP_ARGS(leaf, core, depth),
	TP_STRUCT__entry(
		__field(const void *, leaf)
		__field(u32, core)
		__field(u32, depth)
	),
	TP_fast_assign(
		__entry->leaf = leaf;
		__entry->core = core;
		__entry->depth = depth;
	),
	TP_printk("leaf=%p core=%u depth=%u", __entry->leaf, __entry->core,
		  __entry->depth)
);

#endif /* COUPLED_TRACEPOINTS_COUPLED_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH coupled/tracepoints
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE coupled
#include <trace/define_trace.h>
/* clang-format on */

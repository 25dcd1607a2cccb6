// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * coupled_trace.c - creates the library's trace events (system "coupled",
 * coupled/tracepoints/coupled.h) and exports them to the test modules,
 * which are built with COUPLED_LINUX_TRACE.  Loaded first, so that the
 * init script can set up the events (hist triggers) before any test runs.
 */
#include <linux/module.h>

#define CREATE_TRACE_POINTS
#include <coupled/tracepoints/coupled.h>
#undef CREATE_TRACE_POINTS

EXPORT_TRACEPOINT_SYMBOL_GPL(coupled_enter);
EXPORT_TRACEPOINT_SYMBOL_GPL(coupled_commit);
EXPORT_TRACEPOINT_SYMBOL_GPL(coupled_abort);
EXPORT_TRACEPOINT_SYMBOL_GPL(coupled_retry);
EXPORT_TRACEPOINT_SYMBOL_GPL(coupled_restart);
EXPORT_TRACEPOINT_SYMBOL_GPL(coupled_join);
EXPORT_TRACEPOINT_SYMBOL_GPL(coupled_leave);
EXPORT_TRACEPOINT_SYMBOL_GPL(coupled_domain);

MODULE_DESCRIPTION("the coupled library's trace events");
MODULE_LICENSE("Dual MIT/GPL");

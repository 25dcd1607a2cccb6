/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * coupled_idle_gov.h - the test governor (coupled_idle_gov.ko) as the
 * cpuidle test (coupled_idle_test.ko) sees it: per CPU, the state its last
 * select() chose and when.  Both implementations under test get their
 * requests from it, so the test knows every CPU's choice (to check that the
 * coupled state entered is the shallowest of them) and the moment each CPU
 * went idle (to time the last CPU's idle entry to the coupled entry).
 */
#ifndef COUPLED_TESTS_LINUX_IDLE_GOV_H
#define COUPLED_TESTS_LINUX_IDLE_GOV_H

#include <linux/threads.h>
#include <linux/types.h>

/**
 * struct coupled_idle_gov_cpu - one CPU's last choice
 * @request: the state index select() returned last
 * @idle_ns: ktime_get_mono_fast_ns() at that select(): the CPU going idle
 *           (the fast clock: the rounds read it where RCU is not watching,
 *           and ktime_get()'s lockdep annotation would warn there)
 * @selects: select() calls on this CPU
 *
 * Written only by the CPU itself, in its idle loop; read by the other CPUs
 * of its cluster inside a coupled round, which the round's own barriers
 * order after the write (the CPU called select() before it entered).
 */
struct coupled_idle_gov_cpu {
	int request;
	u64 idle_ns;
	unsigned long selects;
};

extern struct coupled_idle_gov_cpu coupled_idle_gov_cpus[NR_CPUS];

#endif /* COUPLED_TESTS_LINUX_IDLE_GOV_H */

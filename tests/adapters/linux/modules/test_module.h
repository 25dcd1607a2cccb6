/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_module.h - what the Linux adapter's test modules (coupled_torture,
 * coupled_domain_test, coupled_idle_test) share: their parameters'
 * declaration, their error count and failure lines, and their verdict.
 * Define TEST_NAME (the module's name, a string) before including it.
 */
#ifndef COUPLED_TESTS_LINUX_TEST_MODULE_H
#define COUPLED_TESTS_LINUX_TEST_MODULE_H

#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>

/*
 * TEST_PARAM() - a read-only module parameter: a static variable, its
 * module_param() and its description.
 * @ctype: the variable's C type.
 * @ptype: module_param()'s type (uint, ulong, bool).
 * @name: the parameter.
 * @dflt: its default.
 * @desc: its description (modinfo).
 */
#define TEST_PARAM(ctype, ptype, name, dflt, desc) \
	static ctype name = dflt;                  \
	module_param(name, ptype, 0444);           \
	MODULE_PARM_DESC(name, desc)

/* TEST_PARAM_TIMEOUT() - the watchdog, timeout_s, @dflt seconds. */
#define TEST_PARAM_TIMEOUT(dflt)                        \
	TEST_PARAM(unsigned int, uint, timeout_s, dflt, \
		   "watchdog: give up (FAIL) after this many seconds")

/* Failed checks so far; the verdict is FAIL unless 0. */
static atomic_t errors = ATOMIC_INIT(0);

/**
 * test_count_fail() - count a failed check and print the first few
 * @what: a static description
 * @a: first value to print
 * @b: second value to print
 *
 * Context: any where printing is allowed (may run with interrupts
 * disabled).
 *
 * Return: the number of failed checks, this one included.
 */
static inline int test_count_fail(const char *what, long a, long b)
{
	int n = atomic_inc_return(&errors);

	if (n <= 5)
		pr_err(TEST_NAME ": check failed: %s (%ld, %ld)\n", what, a, b);
	return n;
}

/**
 * test_verdict() - the verdict word
 *
 * Return: "PASS" if no check failed, else "FAIL".
 */
static inline const char *test_verdict(void)
{
	return atomic_read(&errors) ? "FAIL" : "PASS";
}

/**
 * test_setup_failed() - print the verdict of a run that could not start
 * @ret: the error
 *
 * Return: @ret.
 */
static inline int test_setup_failed(int ret)
{
	pr_err(TEST_NAME ": verdict FAIL setup error %d\n", ret);
	return ret;
}

#endif /* COUPLED_TESTS_LINUX_TEST_MODULE_H */

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * check.h - the tests' assertion macros (C and C++).
 *
 * CHECK() reports the failed condition with its location and exits with
 * status 1 at once: a test that finds a violation must not go on and hang on
 * the consequences.  Assertions stay on in every build type.
 */
#ifndef COUPLED_TEST_CHECK_H
#define COUPLED_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
			fflush(stderr);                                        \
			exit(1);                                               \
		}                                                              \
	} while (0)

#define CHECK_EQ(a, b)                                                \
	do {                                                          \
		long long check_a_ = (long long)(a);                  \
		long long check_b_ = (long long)(b);                  \
		if (check_a_ != check_b_) {                           \
			fprintf(stderr,                               \
				"%s:%d: CHECK failed: %s == %s "      \
				"(%lld != %lld)\n",                   \
				__FILE__, __LINE__, #a, #b, check_a_, \
				check_b_);                            \
			fflush(stderr);                               \
			exit(1);                                      \
		}                                                     \
	} while (0)

/* Announce one sub-test; keeps failures easy to place in ctest output. */
#define TEST_CASE(name) printf("-- %s\n", (name))

#endif /* COUPLED_TEST_CHECK_H */

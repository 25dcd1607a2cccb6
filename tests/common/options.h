/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * options.h - a test's command-line options, each "--name value".
 */
#ifndef COUPLED_TEST_OPTIONS_H
#define COUPLED_TEST_OPTIONS_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* One option: its value goes to the one of @i, @d, @s that is set. */
struct test_option {
	const char *name;
	int *i;         /* atoi() of the value */
	double *d;      /* atof() of the value */
	const char **s; /* the value as given */
};

/*
 * Read the options of argv[1..argc-1] as @opts (@n of them) say.
 * Return: 0, or -1 if a word is no option of @opts or lacks its value.
 */
static inline int test_options(int argc, char **argv,
			       const struct test_option *opts, size_t n)
{
	int a;
	size_t k;

	for (a = 1; a < argc; a += 2) {
		for (k = 0; k < n && strcmp(argv[a], opts[k].name) != 0; k++)
			;
		if (k == n || a + 1 >= argc)
			return -1;
		if (opts[k].i)
			*opts[k].i = atoi(argv[a + 1]);
		else if (opts[k].d)
			*opts[k].d = atof(argv[a + 1]);
		else
			*opts[k].s = argv[a + 1];
	}
	return 0;
}

#endif /* COUPLED_TEST_OPTIONS_H */

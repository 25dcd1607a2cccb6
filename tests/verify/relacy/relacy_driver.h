/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_driver.h - the command line the scenario programs
 * (relacy_coupled.cpp, relacy_domain.cpp) share:
 *
 *   prog list | all | <scenario> <shape> [iterations]
 *
 * where a program has two shapes (its participant counts or trees), passed
 * to its run function as 2 and 3, and the search settings come from the
 * environment: COUPLED_RELACY_QUICK=1 (quick mode for mutation testing:
 * context bound 1 and the program's quick iteration count),
 * COUPLED_RELACY_BOUND=K and COUPLED_RELACY_ITERS=N (which override it).
 */
#ifndef COUPLED_RELACY_DRIVER_H
#define COUPLED_RELACY_DRIVER_H

#include <cstdio>
#include <cstdlib>
#include <cstring>

struct run_config {
	unsigned long iterations; /* the random scheduler's */
	unsigned bound;           /* the context bound, 0 for the full search */
};

/* The settings: @iterations and bound 2, or in quick mode @quick_iterations
 * and bound 1; then the environment's overrides. */
inline run_config relacy_config(unsigned long iterations,
				unsigned long quick_iterations)
{
	run_config cfg;
	const char *env = std::getenv("COUPLED_RELACY_QUICK");
	bool quick = env && *env && std::strcmp(env, "0") != 0;

	cfg.iterations = quick ? quick_iterations : iterations;
	cfg.bound = quick ? 1u : 2u;
	env = std::getenv("COUPLED_RELACY_BOUND");
	if (env && *env)
		cfg.bound = (unsigned)std::strtoul(env, NULL, 10);
	env = std::getenv("COUPLED_RELACY_ITERS");
	if (env && *env)
		cfg.iterations = std::strtoul(env, NULL, 10);
	return cfg;
}

/* A scenario program: its scenarios and shapes, and how one runs. */
struct relacy_program {
	int count;                   /* scenarios */
	const char *(*name)(int sc); /* a scenario's name */
	const char *shape[2];        /* the names of shapes 2 and 3 */
	/* Run scenario @sc in shape @n (2 or 3): 0 passed, 1 failed, 77
	 * skipped (the reason printed). */
	int (*run)(int sc, unsigned n, const run_config &cfg);
};

inline int relacy_usage(const relacy_program &prog, const char *argv0)
{
	std::fprintf(stderr,
		     "usage: %s list | all | <scenario> %s|%s [iterations]\n",
		     argv0, prog.shape[0], prog.shape[1]);
	return 2;
}

/*
 * The programs' main(): "list" prints the scenario names, "all" runs every
 * scenario in both shapes, "<scenario> <shape> [iterations]" one run.
 * Return: the exit code: 0 passed, 1 failed (in "all": a run failed), 2 on
 * a usage error, 77 skipped.
 */
inline int relacy_scenario_main(const relacy_program &prog, run_config cfg,
				int argc, char **argv)
{
	int sc = -1;
	unsigned n = 0;

	if (argc < 2)
		return relacy_usage(prog, argv[0]);
	if (!std::strcmp(argv[1], "list")) {
		for (int s = 0; s < prog.count; s++)
			std::printf("%s\n", prog.name(s));
		return 0;
	}
	if (!std::strcmp(argv[1], "all")) {
		int fails = 0;
		for (int s = 0; s < prog.count; s++)
			for (unsigned k = 2; k <= 3; k++)
				/* 77: skipped, with its reason printed */
				fails += prog.run(s, k, cfg) == 1;
		return fails ? 1 : 0;
	}
	for (int s = 0; s < prog.count; s++)
		if (!std::strcmp(prog.name(s), argv[1]))
			sc = s;
	for (unsigned k = 0; argc >= 3 && k < 2; k++)
		if (!std::strcmp(argv[2], prog.shape[k]))
			n = 2 + k;
	if (sc < 0 || n == 0)
		return relacy_usage(prog, argv[0]);
	if (argc > 3)
		cfg.iterations = std::strtoul(argv[3], NULL, 10);
	return prog.run(sc, n, cfg);
}

#endif /* COUPLED_RELACY_DRIVER_H */

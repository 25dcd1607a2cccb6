/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * relacy_handshake.h - the wait/wake handshake of an adapter under Relacy.
 *
 * The core relies on one rule of every adapter (docs/adapters.md): a wake of
 * a participant that happens after its coupled_adapter_wait_prepare() makes
 * the matching coupled_adapter_wait() return.  This test runs the real
 * adapter functions of the translation unit that includes it in the very
 * sequence of the core's wait, the same in both protocol variants:
 *
 *   waiter:  loop { token = wait_prepare(); acquire load of the word the
 *            waiter waits on; if it shows every wake-up's news, stop;
 *            wait(token) }
 *   wakers:  write data; publish with release; wake(waiter)
 *
 * The settled protocol waits so for its pokes (the poke counter, release
 * increment in coupled__poke(), acquire load in coupled__handle_pokes());
 * the direct one for the generation to move (the completer's release store
 * of the word, the waiter's acquire load in coupled__direct_wait()), and
 * for stop (a membership change's CAS, then its wakes).  The model's
 * counter stands for either: one waker is the completer's case, two the
 * poke's or a change racing a completer.
 *
 * A lost wake-up leaves the waiter asleep for good: a Relacy deadlock
 * (blocking models) or livelock (spinning models).  The data written before
 * each poke is plain (rl::var) and read by the waiter at the end, so a
 * missing happens-before is a data race.
 *
 * The including file provides, before including this one:
 *   the adapter (struct coupled_adapter_group/slot and the hooks);
 *   struct handshake_platform with before(threads), after(slots, n),
 *     boundary(self) (an instruction boundary of the waiter, where e.g. an
 *     interrupt may be taken) and waker_done(self);
 *   handshake_setup(struct coupled_adapter_group *, int mode).
 */
#ifndef COUPLED_RELACY_HANDSHAKE_H
#define COUPLED_RELACY_HANDSHAKE_H

#include <relacy/relacy.hpp>

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

/*
 * Where the participants run: the default leaves each where the adapter
 * puts it.  Another placement (a program's own, passed as handshake_test's
 * PLACE) tells the adapter and the model where participant @i of @n runs
 * once its slot @slot is set up.
 */
struct handshake_in_place {
	static void place(struct coupled_adapter_slot *slot, unsigned i,
			  unsigned n)
	{
		(void)slot;
		(void)i;
		(void)n;
	}
};

/*
 * WAKERS threads poke and wake participant 0 once each; thread t is
 * participant t, placed by PLACE.
 */
template <int MODE, int WAKERS, typename PLACE = handshake_in_place>
struct handshake_test
    : rl::test_suite<handshake_test<MODE, WAKERS, PLACE>, 1 + WAKERS> {
	struct coupled_adapter_group ag;
	struct coupled_adapter_slot slot[1 + WAKERS];
	coupled_atomic_u32 poke_seq;
	rl::var<int> data[WAKERS];
	handshake_platform platform;

	void before()
	{
		platform.before(1 + WAKERS);
		coupled_adapter_group_init(&ag, 1 + WAKERS);
		for (unsigned i = 0; i < 1 + WAKERS; i++) {
			coupled_adapter_slot_init(&ag, &slot[i], i);
			PLACE::place(&slot[i], i, 1 + WAKERS);
		}
		handshake_setup(&ag, MODE);
		coupled_atomic_init(&poke_seq, 0u);
		for (int k = 0; k < WAKERS; k++)
			data[k]($) = 0;
	}

	void after()
	{
		platform.after(slot, 1 + WAKERS);
	}

	void waiter()
	{
		for (;;) {
			uint32_t token =
				coupled_adapter_wait_prepare(&ag, &slot[0], 0);

			platform.boundary(0);
			/*
			 * acquire: coupled__handle_pokes() (settled),
			 * coupled__direct_wait() (direct).
			 */
			if (coupled_load(&poke_seq, COUPLED_ACQUIRE) ==
			    (uint32_t)WAKERS)
				break;
			platform.boundary(0);
			coupled_adapter_wait(&ag, &slot[0], 0, token, 0);
			platform.boundary(0);
		}
		/* Every waker's data came with its poke. */
		for (int k = 0; k < WAKERS; k++)
			RL_ASSERT(data[k]($) == k + 1);
	}

	void thread(unsigned idx)
	{
		if (idx == 0) {
			waiter();
			return;
		}
		data[idx - 1]($) = (int)idx;
		/*
		 * release: coupled__poke() (settled), the completer's
		 * store of the word (direct).
		 */
		(void)coupled_fetch_add(&poke_seq, 1u, COUPLED_RELEASE);
		coupled_adapter_wake(&ag, &slot[0], 0);
		platform.waker_done(idx);
	}
};

/*
 * Run the Relacy test @T (named @name in the output): full search when
 * @full, else context bound @bound.
 * Return: true if no execution failed.
 */
template <typename T>
bool relacy_run(const std::string &name, bool full, unsigned bound)
{
	rl::test_params p;
	std::ostringstream sink;

	p.output_stream = &std::cout;
	p.progress_stream = &sink;
	p.execution_depth_limit = 4000;
	if (full) {
		p.search_type = rl::sched_full;
	} else {
		p.search_type = rl::sched_bound;
		p.context_bound = bound;
	}
	std::printf("== %s\n", name.c_str());
	std::fflush(stdout);
	bool ok = rl::simulate<T>(p);
	std::cout << "  search: " << (full ? "full" : "context bound") << " ";
	if (!full)
		std::cout << bound << ", ";
	std::cout << "iterations " << p.stop_iteration << "\n";
	std::cout.flush();
	std::printf("%s: %s\n", ok ? "PASS" : "FAIL", name.c_str());
	return ok;
}

/*
 * One handshake with @WAKERS wakers of the adapter's wait mode @MODE, the
 * participants placed by PLACE.
 */
template <int MODE, int WAKERS, typename PLACE = handshake_in_place>
bool run_handshake(const char *name, bool full, unsigned bound)
{
	return relacy_run<handshake_test<MODE, WAKERS, PLACE>>(
		std::string(name) + " " + std::to_string(WAKERS) + "w", full,
		bound);
}

/* A named check of a program. */
struct relacy_check {
	const char *name;
	bool (*run)();
};

/*
 * The programs' main(): "list" prints the check names, "all" runs every
 * check, a name runs that one.
 * Return: the exit code: 0 if every check run passed, 1 if one failed,
 * 2 on a usage error.
 */
inline int relacy_checks_main(int argc, char **argv, const relacy_check *checks,
			      size_t n)
{
	int fails = 0;
	bool found = false;

	if (argc != 2) {
		std::fprintf(stderr, "usage: %s list | all | <check>\n",
			     argv[0]);
		return 2;
	}
	if (!std::strcmp(argv[1], "list")) {
		for (size_t i = 0; i < n; i++)
			std::printf("%s\n", checks[i].name);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (!std::strcmp(argv[1], "all") ||
		    !std::strcmp(argv[1], checks[i].name)) {
			found = true;
			fails += checks[i].run() ? 0 : 1;
		}
	if (!found) {
		std::fprintf(stderr, "unknown check %s\n", argv[1]);
		return 2;
	}
	return fails ? 1 : 0;
}

/*
 * RELACY_HANDSHAKE_PROGRAM() - the checks and main() of an adapter's
 * handshake program.  Define HANDSHAKE_CASES(ONE, BOTH) first, a list in
 * the order of the checks: ONE(MODE, name) checks the wait mode MODE with
 * one waker in full (check "name_1w"); BOTH(MODE, name, bound) does that
 * and then checks it with two wakers within the preemption bound @bound
 * (check "name_2w").
 */
#define RELACY_HANDSHAKE_ONE_FN(mode, name)                    \
	bool name##_1w()                                       \
	{                                                      \
		return run_handshake<mode, 1>(#name, true, 0); \
	}
#define RELACY_HANDSHAKE_BOTH_FN(mode, name, bound)                 \
	RELACY_HANDSHAKE_ONE_FN(mode, name)                         \
	bool name##_2w()                                            \
	{                                                           \
		return run_handshake<mode, 2>(#name, false, bound); \
	}
#define RELACY_HANDSHAKE_ONE_ENTRY(mode, name) { #name "_1w", name##_1w },
#define RELACY_HANDSHAKE_BOTH_ENTRY(mode, name, bound) \
	RELACY_HANDSHAKE_ONE_ENTRY(mode, name){ #name "_2w", name##_2w },
#define RELACY_HANDSHAKE_PROGRAM()                                             \
	namespace                                                              \
	{                                                                      \
	HANDSHAKE_CASES(RELACY_HANDSHAKE_ONE_FN, RELACY_HANDSHAKE_BOTH_FN)     \
	const relacy_check checks[] = { HANDSHAKE_CASES(                       \
		RELACY_HANDSHAKE_ONE_ENTRY, RELACY_HANDSHAKE_BOTH_ENTRY) };    \
	}                                                                      \
	int main(int argc, char **argv)                                        \
	{                                                                      \
		return relacy_checks_main(argc, argv, checks,                  \
					  sizeof(checks) / sizeof(checks[0])); \
	}

#endif /* COUPLED_RELACY_HANDSHAKE_H */

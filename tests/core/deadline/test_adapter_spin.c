/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * test_adapter_spin.c - the pthread adapter's futex spin phase lasts twice
 * what the participant's sleeps cost to wake up from.
 *
 * Usage: test_adapter_spin
 *
 * The futex strategy spins COUPLED_PTHREAD_SPIN_TURNS yields, then goes on
 * yielding for twice its wake-cost estimate (at most
 * COUPLED_PTHREAD_SPIN_MAX_US) before it sleeps; each sleep that a
 * FUTEX_WAKE ended moves the estimate a quarter of the way towards the
 * time from that wake to the sleeper's return.  Single-threaded and
 * deterministic: the adapter's clock, yield and futex calls are replaced
 * (before the header is included, as the adapter allows) by a script:
 *   - the clock is a variable; every yield advances it by 1 us;
 *   - FUTEX_WAIT either is woken (the script calls coupled_adapter_wake()
 *     as another participant would, then advances the clock by the wake's
 *     cost) or times out (the clock advances, nothing wakes);
 *   - a yield may deliver a wake at a chosen turn.
 * Checked: the extension's length after a learned cost and its cap, the
 * estimate's rise and decay, that a sleep no FUTEX_WAKE ended (a timeout,
 * with an older stamp left over) teaches nothing, that a wake or the
 * deadline ends the extension at once, that a slot that never slept spins
 * the turns alone, and coupled_pthread_set_spin_extension()'s cap.  The mutation suite's "wait" check runs it.
 */
#include <stdint.h>
#include <stdio.h>

static uint64_t fake_ns = 1000000000u;
static unsigned long yields, sleeps, futex_wakes;
/* The turn (1-based count of yields in a wait) that delivers a wake. */
static unsigned long wake_at_yield;
/* What the next FUTEX_WAIT does: 1 woken, 0 times out; and its cost. */
static int sleep_woken;
static uint64_t sleep_cost_ns;

struct coupled_adapter_group;
struct coupled_adapter_slot;
static void script_yield(void);
static void script_futex_wait(void *word, uint32_t val);

#define COUPLED_PTHREAD_NOW_NS() (fake_ns)
#define COUPLED_PTHREAD_YIELD() script_yield()
#define COUPLED_PTHREAD_FUTEX_WAIT(word, val, timeout) \
	((void)(timeout), script_futex_wait((void *)(word), (val)))
#define COUPLED_PTHREAD_FUTEX_WAKE(word) ((void)(word), futex_wakes++)

#include "coupled/coupled.h"

#include "check.h"

#define TURNS COUPLED_PTHREAD_SPIN_TURNS

static struct coupled_adapter_group *ag;
static struct coupled_adapter_slot *as;

/* Another participant's wake, as coupled_adapter_wake() does it. */
static void wake_now(void)
{
	coupled_adapter_wake(ag, as, 0);
}

static void script_yield(void)
{
	yields++;
	fake_ns += 1000u;
	if (wake_at_yield && yields == wake_at_yield)
		wake_now();
}

static void script_futex_wait(void *word, uint32_t val)
{
	/* relaxed: single-threaded; the kernel's compare. */
	if (coupled_load((coupled_atomic_u32 *)word, COUPLED_RELAXED) != val)
		return;
	sleeps++;
	fake_ns += 50000u; /* asleep until somebody wakes (or times out) */
	if (sleep_woken)
		wake_now();
	fake_ns += sleep_cost_ns;
}

/*
 * One wait that nobody wakes while it spins; its sleep is woken with a
 * cost of @cost_us (or times out when @woken is 0).  Returns the yields
 * after the turns: the extension's length in us.
 */
static unsigned long wait_once(int woken, uint64_t cost_us)
{
	uint32_t token = coupled_adapter_wait_prepare(ag, as, 0);
	unsigned long sleeps_before = sleeps;

	yields = 0;
	wake_at_yield = 0;
	sleep_woken = woken;
	sleep_cost_ns = cost_us * 1000u;
	coupled_adapter_wait(ag, as, 0, token, 0);
	CHECK(yields >= TURNS);
	CHECK_EQ(sleeps - sleeps_before, 1);
	return yields - TURNS;
}

int main(void)
{
	static struct coupled_group g;
	static struct coupled_slot slots[1];
	unsigned long ext, prev, i;
	uint32_t token;
	uint64_t deadline;

	CHECK_EQ(coupled_group_init(&g, slots, 1, 1, NULL), 0);
	ag = coupled_group_adapter(&g);
	as = coupled_participant_adapter(&g, 0);
	CHECK_EQ(coupled_pthread_set_strategy(ag, COUPLED_PTHREAD_FUTEX), 0);

	TEST_CASE("a slot that never slept spins the turns alone");
	CHECK_EQ(wait_once(1, 3000), 0);
	CHECK_EQ(futex_wakes, 1);

	TEST_CASE("one woken sleep of 3 ms: a quarter learned, spun twice");
	/* Estimate 0 + (3000 - 0) / 4 = 750 us: the extension is 1500 us. */
	ext = wait_once(1, 3000);
	printf("extension after one 3 ms wake-up: %lu us\n", ext);
	CHECK_EQ(ext, 1500);

	TEST_CASE("the estimate rises towards a steady cost");
	prev = ext;
	for (i = 0; i < 6; i++) {
		ext = wait_once(1, 3000);
		CHECK(ext > prev);
		CHECK(ext <= 6000);
		prev = ext;
	}
	printf("extension after 7 wake-ups of 3 ms: %lu us\n", ext);
	CHECK(ext >= 5000);

	TEST_CASE("a timeout teaches nothing, though an older stamp is left");
	/* This wait spins what the estimate says, then times out... */
	prev = wait_once(0, 40000);
	CHECK(prev > ext);
	/* ...and the next spins exactly as long. */
	CHECK_EQ(wait_once(1, 3000), prev);

	TEST_CASE("the extension stops at COUPLED_PTHREAD_SPIN_MAX_US");
	for (i = 0; i < 12; i++)
		ext = wait_once(1, 40000);
	printf("extension after wake-ups of 40 ms: %lu us (cap %u)\n", ext,
	       (unsigned)COUPLED_PTHREAD_SPIN_MAX_US);
	CHECK(COUPLED_PTHREAD_SPIN_MAX_US < 2u * 40000u);
	CHECK_EQ(ext, COUPLED_PTHREAD_SPIN_MAX_US);

	TEST_CASE("fast wake-ups bring the extension back down");
	prev = wait_once(1, 10);
	for (i = 0; i < 40; i++) {
		ext = wait_once(1, 10);
		CHECK(ext <= prev);
		prev = ext;
	}
	printf("extension after 40 wake-ups of 10 us: %lu us\n", ext);
	CHECK(ext < 100);

	TEST_CASE("a wake during the extension ends the wait at once");
	for (i = 0; i < 8; i++)
		(void)wait_once(1, 3000);
	token = coupled_adapter_wait_prepare(ag, as, 0);
	yields = 0;
	wake_at_yield = TURNS + 10;
	i = sleeps;
	coupled_adapter_wait(ag, as, 0, token, 0);
	CHECK_EQ(yields, TURNS + 10);
	CHECK_EQ(sleeps, i);

	TEST_CASE("the deadline ends the extension");
	token = coupled_adapter_wait_prepare(ag, as, 0);
	yields = 0;
	wake_at_yield = 0;
	deadline = fake_ns + (TURNS + 300u) * 1000u;
	coupled_adapter_wait(ag, as, 0, token, deadline);
	CHECK(fake_ns >= deadline);
	CHECK(fake_ns <= deadline + 1000u);
	CHECK_EQ(sleeps, i);

	TEST_CASE("coupled_pthread_set_spin_extension(): a lower cap, or none");
	CHECK_EQ(coupled_pthread_set_spin_extension(NULL, 100), COUPLED_EINVAL);
	CHECK_EQ(coupled_pthread_set_spin_extension(ag, 1000001u),
		 COUPLED_EINVAL);
	CHECK(wait_once(1, 3000) > 300);
	CHECK_EQ(coupled_pthread_set_spin_extension(ag, 300), 0);
	CHECK_EQ(wait_once(1, 3000), 300);
	CHECK_EQ(coupled_pthread_set_spin_extension(ag, 0), 0);
	CHECK_EQ(wait_once(1, 3000), 0);

	printf("PASS\n");
	return 0;
}

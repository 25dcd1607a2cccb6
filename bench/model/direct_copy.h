// SPDX-License-Identifier: MIT OR GPL-2.0-only
//
// direct_copy.h - a bench-only copy of the direct protocol's committed round
// (include/coupled/direct.h with the entry guard of protocol.h, spin
// strategy, no aborts, no membership changes), to measure where the
// requests live.  Not the library: the library is not changed by it.
//
// The round is the library's, access by access, on the same kinds of cache
// lines: the caller's slot (member, roster, request, the inside flag and the
// context id, the adapter's wake counter) and the group's arrival word (with
// the round's parameter, generation and member count beside it).  One
// compile-time choice differs, where the requests are:
//
//   kSlots      each member's request in its own slot, as in the library:
//               the completer walks the roster and reads every member's
//               request (and the roster entry) from that member's slot line,
//               then walks the roster again to wake (nothing, for spin);
//   kWordLine   the requests of a small group in the arrival word's cache
//               line, indexed by id: a member stores its request into the
//               line that its arrival fetches anyway, and the completer
//               reduces them from the line its increment just brought in;
//               no member ever reads another member's slot;
//   kNone       every request is the same constant: the completer skips the
//               reduction (the lower bound of kWordLine).
//
// Compared in one run with coupled_round/spin (which kSlots should match:
// that validates the copy), ck_centralized and the ping-pong floor, the
// difference kSlots - kWordLine is what the second cache line in the
// completer's critical path costs.

#ifndef BENCH_MODEL_DIRECT_COPY_H
#define BENCH_MODEL_DIRECT_COPY_H

#include <atomic>
#include <cstdint>

#include "coupled/relax.h"

namespace direct_copy
{

enum Layout { kSlots, kWordLine, kNone };

// Requests the arrival word's line can hold beside the word's fields.
constexpr uint32_t kLineRequests = 8;
constexpr uint32_t kMaxMembers = 64;
constexpr uint32_t kGenOne = 1u << 17;
constexpr uint32_t kGenMask = ~(kGenOne - 1u);
constexpr uint32_t kArrivalsMask = 0xffffu;

// The group: the word and what the completer publishes beside it, as in
// struct coupled_group (one line), plus the word-line requests.
struct alignas(64) Group {
	std::atomic<uint32_t> counts;
	std::atomic<uint32_t> members;
	std::atomic<uint32_t> round_gen;
	std::atomic<int32_t> round_param;
	std::atomic<uint32_t> prevent;
	std::atomic<uint32_t> round_members;
	std::atomic<int32_t> line_request[kLineRequests];
};
static_assert(sizeof(Group) == 64, "the group is one cache line");

// A member's slot: the fields the library's round touches, its own line.
struct alignas(64) Slot {
	std::atomic<uint32_t> member;
	std::atomic<uint32_t> roster;
	std::atomic<int32_t> request;
	std::atomic<uint32_t> inside;
	std::atomic<uint32_t> ctx;
	std::atomic<uint32_t> wake_seq;
	std::atomic<uint32_t> work;
};

struct State {
	Group g;
	Slot slots[kMaxMembers];
};

/**
 * init() - a group of @n members, ids 0..n-1, roster in id order
 * @s: the state
 * @n: members, 1..kMaxMembers (kLineRequests at most for kWordLine)
 *
 * Context: before any thread runs a round.
 */
inline void init(State *s, uint32_t n)
{
	s->g.counts.store(0, std::memory_order_relaxed);
	s->g.members.store(n, std::memory_order_relaxed);
	s->g.round_gen.store(0, std::memory_order_relaxed);
	s->g.round_param.store(0, std::memory_order_relaxed);
	s->g.prevent.store(0, std::memory_order_relaxed);
	s->g.round_members.store(0, std::memory_order_relaxed);
	for (auto &r : s->g.line_request)
		r.store(0, std::memory_order_relaxed);
	for (uint32_t k = 0; k < kMaxMembers; k++) {
		Slot &sl = s->slots[k];
		sl.member.store(k < n, std::memory_order_relaxed);
		sl.roster.store(k, std::memory_order_relaxed);
		sl.request.store(0, std::memory_order_relaxed);
		sl.inside.store(0, std::memory_order_relaxed);
		sl.ctx.store(0, std::memory_order_relaxed);
		sl.wake_seq.store(0, std::memory_order_relaxed);
		sl.work.store(0, std::memory_order_relaxed);
	}
	std::atomic_thread_fence(std::memory_order_seq_cst);
}

/**
 * round() - one committed round of member @self, spin strategy
 * @s: the state
 * @self: the caller's id
 * @request: its request, >= 0
 * @ctx_id: a nonzero id of the calling thread (the adapter's context)
 *
 * Every member calls it once per round; the orders are the library's (see
 * include/coupled/direct.h and protocol.h for why each suffices there).
 *
 * Return: the round's reduced parameter (the minimum of the requests).
 */
template <Layout L>
inline int32_t round(State *s, uint32_t self, int32_t request, uint32_t ctx_id)
{
	Group &g = s->g;
	Slot &me = s->slots[self];
	uint32_t n, w, gen;

	// The entry guard: early refusals, then the seq_cst Dekker pair
	// with a leave (store inside, load member), then the context id.
	if (!me.member.load(std::memory_order_relaxed) ||
	    me.inside.load(std::memory_order_relaxed))
		return -1;
	me.inside.store(1, std::memory_order_seq_cst);
	if (!me.member.load(std::memory_order_seq_cst)) {
		me.inside.store(0, std::memory_order_relaxed);
		return -1;
	}
	me.ctx.store(ctx_id, std::memory_order_relaxed);

	// relaxed: the stop early-out (never set here).
	(void)g.counts.load(std::memory_order_relaxed);
	// relaxed: the work poll before the arrival.
	(void)me.work.load(std::memory_order_relaxed);
	// relaxed: published by the arrival's release.
	if (L == kSlots)
		me.request.store(request, std::memory_order_relaxed);
	else if (L == kWordLine)
		g.line_request[self].store(request, std::memory_order_relaxed);
	// acq_rel: as the library's arrival.
	w = g.counts.fetch_add(1, std::memory_order_acq_rel);
	gen = w & kGenMask;
	// acquire, both: as the library (pair with a change's releases).
	n = g.members.load(std::memory_order_acquire);
	(void)me.member.load(std::memory_order_acquire);
	// acquire: has another member completed the round already?
	if ((g.counts.load(std::memory_order_acquire) & kGenMask) == gen) {
		if ((w & kArrivalsMask) + 1 == n) {
			int32_t acc = 0;

			for (uint32_t k = 0; k < n; k++) {
				int32_t r = 0;

				if (L == kSlots) {
					// relaxed, both: acquired through
					// the word's release sequence.
					uint32_t id = s->slots[k].roster.load(
						std::memory_order_relaxed);
					r = s->slots[id].request.load(
						std::memory_order_relaxed);
				} else if (L == kWordLine) {
					r = g.line_request[k].load(
						std::memory_order_relaxed);
				} else {
					r = request;
				}
				acc = k ? (r < acc ? r : acc) : r;
			}
			// relaxed: published by the release store below.
			g.round_param.store(acc, std::memory_order_relaxed);
			g.round_members.store(n, std::memory_order_relaxed);
			g.round_gen.store(
				g.round_gen.load(std::memory_order_relaxed) + 1,
				std::memory_order_relaxed);
			// release: the members' acquire loads pair with it.
			g.counts.store(gen + kGenOne,
				       std::memory_order_release);
			// The wake walk: the library reads every roster entry
			// (the spin strategy's wake does nothing).
			if (L == kSlots)
				for (uint32_t k = 0; k < n; k++)
					(void)s->slots[k].roster.load(
						std::memory_order_relaxed);
		} else {
			for (;;) {
				// acquire: the adapter's wait_prepare.
				(void)me.wake_seq.load(
					std::memory_order_acquire);
				// acquire: pairs with the completer's release.
				uint32_t v = g.counts.load(
					std::memory_order_acquire);

				if ((v & kGenMask) != gen)
					break;
				// relaxed: the work poll of the wait.
				(void)me.work.load(std::memory_order_relaxed);
				coupled_cpu_relax();
			}
		}
	}
	// relaxed: the completer's stores, acquired with the word.
	int32_t param = g.round_param.load(std::memory_order_relaxed);
	(void)g.round_gen.load(std::memory_order_relaxed);
	(void)g.round_members.load(std::memory_order_relaxed);
	me.ctx.store(0, std::memory_order_relaxed);
	// release: as the library's exit from the entry guard.
	me.inside.store(0, std::memory_order_release);
	return param;
}

} // namespace direct_copy

#endif // BENCH_MODEL_DIRECT_COPY_H

/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * ck_peers.c - the five Concurrency Kit barriers, set up for a fixed set of
 * threads (see ck_peers.h).
 */
#include "ck_peers.h"

#include <ck_barrier.h>

#define MAXT CK_PEER_MAX_THREADS
/* Enough flags/rounds per thread for MAXT threads (log2(64) = 6). */
#define MAXLOG 8

static unsigned cur_nthr[CK_PEER_KINDS];

/* centralized: one counter and sense; a sense per thread. */
static ck_barrier_centralized_t cen = CK_BARRIER_CENTRALIZED_INITIALIZER;
static ck_barrier_centralized_state_t cen_state[MAXT];

/* combining: a tree of groups of (at most) two threads. */
static ck_barrier_combining_t comb;
static ck_barrier_combining_group_t comb_root;
static ck_barrier_combining_group_t comb_groups[(MAXT + 1) / 2];
static ck_barrier_combining_state_t comb_state[MAXT];

/* dissemination: one barrier object and two flag sets per thread. */
static ck_barrier_dissemination_t dis[MAXT];
static ck_barrier_dissemination_flag_t dis_flags[MAXT][2 * MAXLOG];
static ck_barrier_dissemination_flag_t *dis_flag_ptr[MAXT];
static ck_barrier_dissemination_state_t dis_state[MAXT];

/* tournament: a row of rounds per thread. */
static ck_barrier_tournament_t tour;
static ck_barrier_tournament_round_t tour_rounds[MAXT][MAXLOG];
static ck_barrier_tournament_round_t *tour_round_ptr[MAXT];
static ck_barrier_tournament_state_t tour_state[MAXT];

/* MCS: one tree node per thread. */
static ck_barrier_mcs_t mcs[MAXT];
static ck_barrier_mcs_state_t mcs_state[MAXT];

const char *ck_peer_name(int kind)
{
	switch (kind) {
	case CK_PEER_CENTRALIZED: return "ck_centralized";
	case CK_PEER_COMBINING: return "ck_combining";
	case CK_PEER_DISSEMINATION: return "ck_dissemination";
	case CK_PEER_TOURNAMENT: return "ck_tournament";
	case CK_PEER_MCS: return "ck_mcs";
	default: return "ck_unknown";
	}
}

int ck_peer_setup(int kind, unsigned nthr)
{
	unsigned i;

	if (nthr == 0 || nthr > MAXT || kind < 0 || kind >= CK_PEER_KINDS)
		return -1;
	switch (kind) {
	case CK_PEER_CENTRALIZED:
		cen.value = 0;
		cen.sense = 0;
		for (i = 0; i < nthr; i++)
			cen_state[i].sense = 0;
		break;
	case CK_PEER_COMBINING:
		ck_barrier_combining_init(&comb, &comb_root);
		for (i = 0; i < (nthr + 1) / 2; i++) {
			unsigned members = (2 * i + 1 < nthr) ? 2 : 1;

			ck_barrier_combining_group_init(&comb, &comb_groups[i],
							members);
		}
		for (i = 0; i < nthr; i++)
			comb_state[i].sense = ~0u;
		break;
	case CK_PEER_DISSEMINATION:
		if (ck_barrier_dissemination_size(nthr) > 2 * MAXLOG)
			return -1;
		for (i = 0; i < nthr; i++)
			dis_flag_ptr[i] = dis_flags[i];
		ck_barrier_dissemination_init(dis, dis_flag_ptr, nthr);
		/* Subscribing in order gives thread i the id i. */
		for (i = 0; i < nthr; i++)
			ck_barrier_dissemination_subscribe(dis, &dis_state[i]);
		break;
	case CK_PEER_TOURNAMENT:
		if (ck_barrier_tournament_size(nthr) > MAXLOG)
			return -1;
		for (i = 0; i < nthr; i++)
			tour_round_ptr[i] = tour_rounds[i];
		ck_barrier_tournament_init(&tour, tour_round_ptr, nthr);
		for (i = 0; i < nthr; i++)
			ck_barrier_tournament_subscribe(&tour, &tour_state[i]);
		break;
	case CK_PEER_MCS:
		ck_barrier_mcs_init(mcs, nthr);
		for (i = 0; i < nthr; i++)
			ck_barrier_mcs_subscribe(mcs, &mcs_state[i]);
		break;
	}
	cur_nthr[kind] = nthr;
	return 0;
}

void ck_peer_wait(int kind, unsigned tid)
{
	switch (kind) {
	case CK_PEER_CENTRALIZED:
		ck_barrier_centralized(&cen, &cen_state[tid], cur_nthr[kind]);
		break;
	case CK_PEER_COMBINING:
		ck_barrier_combining(&comb, &comb_groups[tid / 2],
				     &comb_state[tid]);
		break;
	case CK_PEER_DISSEMINATION:
		ck_barrier_dissemination(dis, &dis_state[tid]);
		break;
	case CK_PEER_TOURNAMENT:
		ck_barrier_tournament(&tour, &tour_state[tid]);
		break;
	case CK_PEER_MCS: ck_barrier_mcs(mcs, &mcs_state[tid]); break;
	default: break;
	}
}

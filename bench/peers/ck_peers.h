/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * ck_peers.h - Concurrency Kit barriers behind a C interface.
 *
 * ck_barrier.h does not compile as C++ (implicit void * conversions in
 * ck_spinlock.h), so the benchmark reaches it through this small C
 * translation unit.  All barrier state, shared and per thread, lives here in
 * static storage: it persists across Google Benchmark's repeated runs of the
 * same benchmark (which start fresh threads each time), and is rebuilt only
 * by ck_peer_setup(), called while no thread is inside a barrier.
 */
#ifndef COUPLED_BENCH_CK_PEERS_H
#define COUPLED_BENCH_CK_PEERS_H

#ifdef __cplusplus
extern "C" {
#endif

enum ck_peer_kind {
	CK_PEER_CENTRALIZED,
	CK_PEER_COMBINING,
	CK_PEER_DISSEMINATION,
	CK_PEER_TOURNAMENT,
	CK_PEER_MCS,
	CK_PEER_KINDS
};

/* Largest thread count ck_peer_setup() accepts. */
#define CK_PEER_MAX_THREADS 64

/* Printable name of a kind ("ck_centralized", ...). */
const char *ck_peer_name(int kind);

/*
 * (Re)initialise barrier @kind for @nthr threads with ids 0..@nthr-1.
 * Returns 0, or -1 for a bad kind or thread count.
 */
int ck_peer_setup(int kind, unsigned nthr);

/* Thread @tid waits at barrier @kind (set up before). */
void ck_peer_wait(int kind, unsigned tid);

#ifdef __cplusplus
}
#endif

#endif /* COUPLED_BENCH_CK_PEERS_H */

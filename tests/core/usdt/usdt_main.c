// SPDX-License-Identifier: MIT OR GPL-2.0-only
/*
 * usdt_main.c - a program whose probes check_usdt.sh reads back: the
 * pthread adapter's USDT probes (provider "coupled") in two files of one
 * binary, which must share one semaphore per probe.
 *
 * It runs, in each file, a committed round, an aborted call, a join, a
 * leave and a committed domain call, once as an untraced program and once
 * with the commit and abort semaphores raised by hand (as a tracer that
 * attaches raises them), and checks what the program can see: the calls'
 * results are the same, and with the semaphores raised each traced entry
 * stamped its time (the wait_ns the probes then carry).
 *
 * Exit status 0 when every call did what it should.
 */
#include <stdio.h>

#include "usdt_calls.h"

int main(void)
{
	int bad = 0;

	bad |= usdt_calls_a(0);
	bad |= usdt_calls_b(0);
	coupled_usdt_commit_semaphore = 1;
	coupled_usdt_abort_semaphore = 1;
	bad |= usdt_calls_a(1);
	bad |= usdt_calls_b(1);
	coupled_usdt_commit_semaphore = 0;
	coupled_usdt_abort_semaphore = 0;
	printf("usdt_main: %s\n", bad ? "FAIL" : "ok");
	return bad;
}

/* sched_wait_none.h: sched_wait.h where the OS gives no per-thread
 * run-queue wait: the counter is unavailable (the OS's counters_<os>.c
 * says why). Written once, it is the whole of sched_wait_darwin.c and
 * sched_wait_windows.c, each of which includes it once (configure.py
 * builds exactly one sched_wait_<os>.c per target). */
#ifndef GATE_SCHED_WAIT_NONE_H
#define GATE_SCHED_WAIT_NONE_H

#include <errno.h>

#include "counters/sched_wait.h"

int sched_wait_open(void)
{
	return -ENOSYS;
}

int sched_wait_read(uint64_t *ns)
{
	(void)ns;
	return -1;
}

void sched_wait_thread_done(void)
{
}

void sched_wait_close(void)
{
}

#endif

/* sched_wait.h: how long the measured threads waited in the run queue
 * (runnable, not running), the trace other tasks leave on a timing sample
 * (docs/counters.md, "Interference").
 *
 * One file per OS: sched_wait_linux.c reads the second field of
 * /proc/thread-self/schedstat (ns spent waiting on a run queue; proc(5),
 * CONFIG_SCHED_INFO, on in Debian's and Ubuntu's kernels);
 * sched_wait_darwin.c and sched_wait_windows.c have none, and the counter
 * is unavailable there. */
#ifndef GATE_SCHED_WAIT_H
#define GATE_SCHED_WAIT_H

#include <stdint.h>

/* Opens the calling thread's figures (the thread that runs the regions).
 * Returns 0, or a negative errno when this machine gives none. */
int sched_wait_open(void);

/* The run-queue wait so far, in ns, of the thread that called
 * sched_wait_open plus the whole wait of every thread that called
 * sched_wait_thread_done, into *NS. Returns 0, or -1 when the read failed.
 * Allocates nothing. */
int sched_wait_read(uint64_t *ns);

/* Adds the calling thread's run-queue wait since it started to the total:
 * called by a worker of gate_parallel_region as it ends (inside the
 * region, so all of its wait is the region's). */
void sched_wait_thread_done(void);

/* Closes what sched_wait_open opened. */
void sched_wait_close(void);

#endif

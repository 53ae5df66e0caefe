/* machine_load.h: how much of the machine's CPU time other processes took
 * while a round of samples ran (docs/counters.md, "Interference"): a
 * neighbour on another core slows a kernel through the shared caches and
 * memory without keeping its threads waiting to run.
 *
 * One implementation per OS: machine_load_linux.c (/proc/stat's "cpu"
 * line and getrusage); machine_load_darwin.c and machine_load_windows.c
 * have none (-ENOSYS), and no round is marked there. */
#ifndef GATE_MACHINE_LOAD_H
#define GATE_MACHINE_LOAD_H

#include <stdint.h>

struct machine_load {
	double wall_ns;    /* CLOCK_MONOTONIC */
	double busy_ns;    /* every CPU's time not idle and not waiting for I/O,
			    * steal (other virtual machines) included */
	double own_ns;     /* this process's CPU time and its waited-for children's */
	int cpus;          /* CPUs the busy time is summed over */
};

/* Reads the figures so far into M. Returns 0 or a negative errno (-ENOSYS
 * where the OS gives no machine-wide figure). */
int machine_load_read(struct machine_load *m);

/* The resolution of busy_ns: /proc/stat counts in clock ticks (USER_HZ,
 * 100 a second: proc(5)). */
#define MACHINE_LOAD_TICK_NS 10e6

/* Per mille of the machine's CPU time between A and B that other
 * processes took: busy time less the gate's and its children's, less one
 * tick per CPU (the figures' resolution), over the wall time times the
 * CPUs; 0 when that is not positive. */
unsigned machine_load_others_permille(const struct machine_load *a, const struct machine_load *b);

#endif

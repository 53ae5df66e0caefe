/* duet.h: duet sampling for `gate ab --duet` (docs/noise.md, "Duet").
 *
 * Duet benchmarking (Bulej et al., "Duet Benchmarking: Improving
 * Measurement Accuracy in the Cloud", ICPE 2020) runs the two versions at
 * the same time, one per core, so that what disturbs the machine disturbs
 * both. Here each round's sample of a variant on side A and the same
 * variant on side B are started at the same instant from two threads,
 * each process pinned to its own CPUs, and which side gets which CPUs
 * swaps every round; the paired ratio of the two simultaneous samples is
 * what compare_ab.h tests.
 *
 * The CPUs: those this process may run on, one per physical core first
 * (two logical CPUs of one core share its execution units), in that
 * order; side X takes positions 0, 2, 4, ..., side Y positions 1, 3, 5,
 * ... (duet_split), as many each as the variant's threads. OS part:
 * duet_cpus_read and duet_run_pair, in gates/os/duet_{linux,darwin,
 * windows}.c and duet_thread_posix.c. */
#ifndef GATE_DUET_H
#define GATE_DUET_H

#include <stddef.h>

#include "sample/spawn.h"

struct duet_cpus {
	int cpu[SPAWN_CPUS_MAX];   /* one per physical core first, then the rest */
	size_t count;
};

/* The CPUs this process may run on, ordered as above, into OUT. Returns
 * 0, or -ENOSYS where the OS cannot pin a process to a CPU (macOS) or
 * another negative errno. */
int duet_cpus_read(struct duet_cpus *out);

/* Orders the N CPUs of CPUS (CORE[i]: an identifier of CPUS[i]'s physical
 * core, package included; -1 unknown, counted as a core of its own) into
 * OUT: the first CPU of each core in the order met, then the others in
 * the order met. */
void duet_cpus_order(const int *cpus, const long *core, size_t n, int *out);

/* Why duet sampling cannot run with CPUS (READ: duet_cpus_read's return),
 * --pin-cpu PIN_CPU (-1: none) and --backend BACKEND (NULL: none), as one
 * clause into WHY ("duet needs two CPUs: this process may run on 1");
 * returns 0 when it can, -1 when it cannot. */
int duet_unavailable(const struct duet_cpus *cpus, int read, int pin_cpu, const char *backend,
		     char *why, size_t size);

/* Whether a group whose variants run THREADS threads each (0: as many as
 * the machine has CPUs) fits twice on CPUS: each side gets THREADS CPUs. */
int duet_fits(const struct duet_cpus *cpus, long threads);

/* The CPUs of side X and side Y for THREADS threads each (at least 1),
 * into X and Y (room for THREADS each); with SWAP, X and Y exchanged.
 * CPUS must fit them (duet_fits). */
void duet_split(const struct duet_cpus *cpus, long threads, int swap, int *x, int *y);

/* Runs FN(A) on a new thread and FN(B) on this one, releasing both at the
 * same instant, and returns when both have returned: 0, or a negative
 * errno when no thread could be started (then neither ran). */
int duet_run_pair(void (*fn)(void *), void *a, void *b);

#endif

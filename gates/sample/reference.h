/* reference.h: the reference workload. The same work in every run of every
 * version of every project, independent of the kernels, timed after a
 * group's rounds and at its end when reference_due says (run/run_gate.c):
 * REFERENCE_EVERY_SECONDS apart at most, at least once a group, so that
 * its samples span the run as the kernels' do, about four a second. Three
 * parts, each timed on the monotonic clock; a sample of a part is the
 * fastest of REFERENCE_REPEATS passes, as a kernel's sample is the
 * fastest of its best_of repetitions, so that the reference sees what
 * stays (the machine's pace) and not a moment's preemption, as the
 * kernels do:
 *
 *   cpu:    multiply-xorshift passes over a 16 KiB table (in L1: the
 *           core's speed, its frequency, a sibling thread);
 *   memory: a pointer chase through a random cycle of 64 MiB, each pass
 *           walking on from where the last one stopped (lines no recent
 *           pass cached: the memory's latency, what a neighbour does to
 *           it);
 *   faults: a byte written to each page of 512 KiB of fresh pages (the
 *           kernel's page fault path, the hypervisor's part in it).
 *
 * Each pass is sized to take about 1-2 ms, a sample of all three about
 * 20 ms; the first sample also builds the cycle (about 0.2 s, most of it
 * faulting in 64 MiB), so run/run_gate.c takes
 * none where nothing would read them (no baseline, no update). The
 * kernels allocate through all three, so a machine that moved shows in at
 * least one of them. How the gate reads them: decide/reference.h. */
#ifndef GATE_REFERENCE_H
#define GATE_REFERENCE_H

#include "core/result.h"

#define REFERENCE_REPEATS 5
#define REFERENCE_EVERY_SECONDS 0.25
#define REFERENCE_CPU_TABLE_BYTES (16u << 10)
#define REFERENCE_CPU_PASSES (1u << 18)
#define REFERENCE_MEMORY_BYTES (64u << 20)
#define REFERENCE_MEMORY_STEPS (1u << 13)     /* one cache line each */
#define REFERENCE_FAULT_BYTES (512u << 10)    /* 128 pages of 4 KiB */

/* Takes one sample of every part into REF (result_reference_append).
 * Returns 0, or -1 when memory or pages were refused (no sample taken). */
int reference_sample(struct reference *ref);

/* Whether a sample is due SINCE_LAST seconds after the last one, at the
 * end of a group (GROUP_END) or after one of its rounds, the group having
 * one already or not (TAKEN_IN_GROUP): REFERENCE_EVERY_SECONDS apart at
 * most, and at least one a group, however short. */
bool reference_due(double since_last, bool group_end, bool taken_in_group);

/* Frees what the memory part keeps between samples (its 64 MiB cycle). */
void reference_release(void);

#endif

/* interference.h: whether other tasks disturbed a timing sample
 * (docs/counters.md, "Interference").
 *
 * A region reports how long its threads waited on a run queue
 * (sched_wait_ns, Linux) beside its CPU time (task_clock_ns, or cpu_ns)
 * and wall time. With N threads on C cores and no other task, a thread
 * spread over the cores waits only while every core runs another of the
 * region's threads: with N <= C never, with N > C at most (N - C) x run / C
 * ns in all. The wait beyond that is other tasks', or the scheduler's
 * stacking of the region's threads on fewer cores (measured:
 * docs/measurements.md#the-interference-figures): not the code's either
 * way. And each sample
 * carries the share of the machine's CPU time that other processes took
 * during its round (others_cpu_permille, sample/machine_load.h): a
 * neighbour on another core slows a kernel through the shared caches
 * without making it wait. A sample is disturbed when the excess wait is at
 * least INTERFERENCE_SHARE of its wall time and INTERFERENCE_FLOOR_NS, or
 * when others took INTERFERENCE_MACHINE_SHARE of the machine during its
 * round: its timing is left out of every timing
 * verdict (against the baseline, or a claim), and a verdict left with too
 * few undisturbed samples is inconclusive, with the figure, never a
 * failure. Counts and cost are never affected. */
#ifndef GATE_INTERFERENCE_H
#define GATE_INTERFERENCE_H

#include <stdbool.h>
#include "core/result.h"

/* The share of a region's wall time that other tasks may take before its
 * sample counts as disturbed, and the least wait that can (a timer tick's
 * wake-up of a kernel thread takes some microseconds). */
#define INTERFERENCE_SHARE 0.05
#define INTERFERENCE_FLOOR_NS 50000.0
/* The share of the machine's CPU time (every core) that other processes
 * may take during a round before its samples count as disturbed: a
 * neighbour busy on one core of two takes half. */
#define INTERFERENCE_MACHINE_SHARE 0.2

/* The run-queue wait not explained by the region's own THREADS threads on
 * CORES cores: WAIT_NS beyond (THREADS - CORES) x RUN_NS / CORES; 0 when
 * none. */
double interference_excess_ns(double wait_ns, double run_ns, double threads, int cores);

/* Sets the disturbed flags of every timing series of R (series.disturbed,
 * .disturbed_count, .disturbed_share) from the run-queue wait its region
 * reported in the same round. Series of a machine that reports no wait
 * keep none. Returns 0 or -ENOMEM. */
int interference_mark(struct run_result *r);

/* interference_mark, by the machine's load (others_cpu_permille) only when
 * MACHINE_SHARE: `gate ab` leaves it out, since a round's two samples met
 * the same load (duet: at the same time; interleaved: in one shuffled
 * order, so a neighbour falls on either side by chance and the paired test
 * stays fair), and only a sample's own wait to run tells the sides apart.
 * Left in, a neighbour busy on one core leaves every round out (measured:
 * docs/measurements.md#leaving-out-rounds-for-the-machines-share-not-the-rule). */
int interference_mark_as(struct run_result *r, bool machine_share);

/* interference_mark_as for the series of one group (KERNEL, PARAMS) of R:
 * what `gate ab` reads at a look (decide/sequential.h) before the run's
 * marking. Returns 0 or -ENOMEM. */
int interference_mark_group_as(struct run_result *r, const char *kernel, const char *params,
			       bool machine_share);

/* Whether sample I of S was disturbed. */
bool interference_sample_disturbed(const struct series *s, size_t i);

/* Whether a verdict resting on USABLE of TOTAL samples or rounds, DISTURBED
 * of which were left out, has too few to decide: fewer than half of them,
 * or fewer than 3. */
bool interference_too_few(size_t usable, size_t disturbed);

/* Whether a verdict too few of whose USABLE rounds are left (DISTURBED out)
 * will stay so however the LEFT rounds still to come turn out: even were
 * they all usable, or when at least 9 rounds were seen and 90% of them or
 * more were disturbed (a machine that disturbs nine rounds in ten, as
 * threads that need every core do, is not expected to stop): gate ab's
 * looks (decide/sequential.h) stop waiting for it, and it reads
 * "disturbed", inconclusive. */
bool interference_beyond_reach(size_t usable, size_t disturbed, size_t left);

/* Sets the disturbed samples of R's timing series to NaN (a baseline
 * records the machine's quiet speed), except in a series that would keep
 * fewer than 3. Returns how many samples it left out. */
size_t interference_forget(struct run_result *r);

#endif

/* reference.h: how far the machine moved since the baseline, read from the
 * reference workload (sample/reference.h) and not from the code under test.
 *
 * Each part's samples now are compared with the baseline's as the timing
 * series are (stats_ratio_ci: Hodges-Lehmann ratio, Moses 95% interval).
 * A part moved when the whole interval lies above 1 + REFERENCE_MOVE_MIN;
 * the machine moved when a part did, by the largest such part's ratio. It
 * held when every part's whole interval lies below 1 + REFERENCE_MOVE_MIN,
 * and is unsure otherwise (an interval across the mark): then, as without
 * a baseline reference, the kernels' median move stands for the machine's.
 * Then (decide/compare.c) a timing failure stands only if its ratio,
 * divided by the machine's, still reaches 1 + its tolerance; the others are
 * inconclusive. When every part holds, nothing is put down to the machine;
 * when every part is faster beyond doubt, one by REFERENCE_MOVE_MIN or
 * more, the machine is faster than at the baseline (reference.faster), and
 * the report says that a slowdown of the code can hide behind it.
 * After confirmation, a slowdown of most kernels beyond the most the
 * machine may have slowed (reference_bound) is the code's when
 * the reference held or was unsure, and fails where timing gates
 * (reference_settle_uniform); when it moved, timing stays inconclusive.
 * A baseline without reference samples (an older file) leaves the
 * question to the kernels' median move (result_timing_shift), as before
 * there was a reference. docs/noise.md, "The reference workload". */
#ifndef GATE_DECIDE_REFERENCE_H
#define GATE_DECIDE_REFERENCE_H

#include <stdbool.h>

#include "core/result.h"

/* A part's slowdown the gate puts down to the machine: its interval's lower
 * bound must pass 1 + this; a machine holds when every part's upper bound
 * stays below it (docs/noise.md). */
#define REFERENCE_MOVE_MIN 0.05

/* Fewest samples of a part, on each side, for a comparison. */
#define REFERENCE_MIN_SAMPLES 3

/* Sets NOW's medians, its comparison with BASE's (NULL: no baseline) and
 * its state. SAME_HARDWARE false: not compared (timing is not either). */
void reference_compare(struct reference *now, const struct reference *base,
		       bool same_hardware);

/* The most the machine may have slowed since the baseline, as a ratio: the
 * largest of the cpu and faults parts' 95% upper bounds and the memory
 * part's ratio, at least 1 (the part that gives it into *PART when PART
 * is not NULL and the bound is above 1). The memory part by its ratio: its
 * interval is the host's memory latency moving within the run, which the
 * kernels' medians average over as its median does (reference.c). NaN when
 * REF was not compared part by part (no baseline reference, another
 * hardware, a part without samples). */
double reference_bound(const struct reference *ref, enum reference_part_id *part);

/* The code slowed as a whole: after confirmation, when R's reference was
 * compared and did not move (it held, or neither held nor moved beyond
 * doubt: reference_bound B),
 * at least REFERENCE_UNIFORM_GROUPS groups (kernel, parameter set) have
 * timing series compared with an interval (disturbed and scheduling
 * series left out; advisory ones counted: compare.c gives them their
 * interval, and a baseline whose batches drifted leaves few others), more
 * than half of those groups are slower (their median change, divided by
 * B, above 1) and the median of the groups' median changes, divided by
 * B, still reaches the smaller of POL's minimum effect and its minimum
 * effect for the code as a whole (min_effect_whole: 10% by default, where
 * a single series needs 25%), then every timing series with its interval
 * above 1 whose change divided by B reaches that effect fails, also one
 * left inconclusive (its own drift
 * tolerance, an unconfirmed confirmation batch, the machine's move) or
 * advisory, with a note saying so; R's reference gets the median and B.
 * A slowdown of many kernels beyond the most the machine's own pace may
 * have slowed is the code's (each series alone may stay within a tolerance
 * widened by the baseline's drift). The bound, not only *holds*: a faults
 * part whose interval crosses +5% (unsure) still bounds the machine's
 * move. Not *moved*: a part slower beyond doubt is a slow spell of the
 * host, which slowed unchanged kernels by several times the part's own
 * move (an unchanged run failed 14 series when the rule read the bound in
 * that state too). Groups, not
 * series: one group's series are measured in the same minutes and drift
 * together (unchanged, resize's 10 series slowed 13-33% at once against a
 * baseline of minutes before: docs/noise.md). Returns how many series it
 * failed. */
#define REFERENCE_UNIFORM_GROUPS 3
size_t reference_settle_uniform(struct run_result *r, const struct run_policy *pol);

#endif

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
 * inconclusive. When every part holds, nothing is put down to the machine:
 * a slowdown of every kernel at once is the code's, and fails where timing
 * gates. A baseline without reference samples (an older file) leaves the
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

/* The code slowed as a whole: after confirmation, when R's reference held
 * and at least REFERENCE_UNIFORM_GROUPS groups (kernel, parameter set) have
 * timing series compared with an interval (disturbed and scheduling
 * series left out), more than half of those groups are slower (most of
 * their series with the whole 95% interval above 1) and the median of the
 * groups' median changes reaches POL's minimum effect, then every timing
 * series slower by the minimum effect or more with its interval above 1
 * that was left inconclusive or passing for its own drift tolerance or an
 * unconfirmed confirmation batch fails, with a note saying so. A slowdown
 * of many kernels while the machine's own pace held is the code's (each
 * series alone may stay within a tolerance widened by the baseline's
 * drift). Groups, not series: one group's series are measured in the same
 * minutes and drift together (unchanged, resize's 10 series slowed 13-33%
 * at once against a baseline of minutes before: docs/noise.md). Returns
 * how many series it failed. */
#define REFERENCE_UNIFORM_GROUPS 3
size_t reference_settle_uniform(struct run_result *r, const struct run_policy *pol);

#endif

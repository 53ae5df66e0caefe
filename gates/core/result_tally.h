/* result_tally.h: the counts of a result that the reports say (the
 * terminal's summary, the markdown's and the HTML page's counts): by
 * verdict, what regressed without gating, the timing samples other tasks
 * disturbed, how far the machine moved. Counted here, once, from the
 * result alone, so that every renderer says the same numbers and none
 * counts on its own. */
#ifndef GATE_RESULT_TALLY_H
#define GATE_RESULT_TALLY_H

#include <stddef.h>

#include "core/result.h"

/* Counts of R's gated series and expectations by verdict (arrays of
 * VERDICT_ERROR + 1), its expectations measured as information (not
 * gated), and its problems that concern a kernel. */
void result_tally_verdicts(const struct run_result *r, size_t *series, size_t *expects,
			   size_t *information, size_t *problems);

/* Series of R that regressed but do not gate (the policy's --gate left
 * their class out): reported as information. */
size_t result_tally_not_gated(const struct run_result *r);

/* How many of R's timing samples other tasks disturbed (decide/
 * interference.h), counted over its wall_ns series, into *DISTURBED, of
 * *SAMPLES in all. */
void result_tally_disturbed(const struct run_result *r, size_t *disturbed, size_t *samples);

/* How far the machine moved, as R's comparisons with a baseline see it:
 * the median change (ratio - 1) of its compared timing series
 * (result_timing_shift; gate ab's paired ratios are no machine's move)
 * into *MEDIAN. Returns how many there were; below RESULT_SHIFT_MIN_SERIES
 * (and for gate ab) 0, *MEDIAN then NAN. A report says it from
 * RESULT_SHIFT_NOTABLE on. */
size_t result_tally_machine_shift(const struct run_result *r, double *median);

#endif

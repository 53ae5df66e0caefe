/* compare.h: every series of a run against the stored baseline.
 *
 * exact:  median against baseline median, relative tolerance (default 1%).
 * cost:   the cost pass's counts (cost_*): against the baseline's median,
 *         tolerance from the spread of its cost samples (POLICY_COST_*),
 *         compared whenever the cost key matches (comparable.h),
 *         whatever the hardware.
 * near:   median against the baseline's median plus its own spread plus a
 *         relative tolerance (default 10%) and an absolute floor.
 * timing: only when the hardware matches; Hodges-Lehmann ratio and Moses
 *         interval, one-sided Mann-Whitney p adjusted by Holm over every
 *         timing comparison of the run, and a tolerance: a regression is a
 *         ratio >= 1 + tolerance that is also significant, where tolerance is
 *         the minimum effect or three times the drift between the baseline's own
 *         batches (--runs), whichever is larger.
 */
#ifndef GATE_COMPARE_H
#define GATE_COMPARE_H

#include <stdbool.h>
#include "core/policy.h"
#include "core/result.h"
#include "decide/comparable.h"

/* Every threshold (tolerances, floors, the drift factor, alpha, the
 * minimum effect) comes from the run policy passed in (core/policy.h, whose
 * POLICY_* defaults say where each value comes from). What gate ab's
 * comparison shares with this one (the counts, the correction over the
 * run, the classes that gate) is compare_common.h. */

/* Largest |batch median / overall median - 1| over the batches of S
 * (consecutive equal chunks of its samples) and the batch medians of its
 * history (earlier recordings, history.h); NaN when S has one batch and no
 * history. */
double compare_batch_drift(const struct series *s);

/* Compares CUR's series with BASE's (matched by kernel, variant, params,
 * metric) and sets their baseline fields and verdicts. SAME_HARDWARE false
 * skips timing series with a note. Series of BASE missing from CUR, for a
 * (kernel, params) that CUR ran, are added to CUR's problems. */
void compare_run(struct run_result *cur, const struct run_result *base,
		 const struct run_policy *pol, bool same_hardware);

/* compare_run with what is comparable decided by the caller
 * (comparable_decide, once per run): C's same_hardware and cost key.
 * When the reference workload moved (decide/reference.h), a timing failure
 * stands only if its series slowed past its tolerance beyond the machine's
 * slowdown; the others are inconclusive. When it held, nothing is put down
 * to the machine. Against a baseline without reference samples, a run
 * whose compared timing series slowed by a median of RESULT_SHIFT_NOTABLE
 * or more (result_timing_shift) is read the same way with that median (a
 * machine's speed can move as a whole within an hour of unchanged runs:
 * docs/noise.md, "The reference workload"). */
void compare_run_with(struct run_result *cur, const struct run_result *base,
		      const struct run_policy *pol, const struct comparability *c);

/* `gate run`'s decision against its baseline BASE (NULL: none), by CUR's
 * policy: what is comparable decided once into *C (kept for the
 * confirmation batches, compare_run_with), its note made once into CUR's
 * baseline_note, every series compared and the allocation sites that
 * changed found (compare_baseline.c). Returns 0 or -ENOMEM. */
int compare_baseline(struct run_result *cur, const struct run_result *base,
		     struct comparability *c);

#endif

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
 * POLICY_* defaults say where each value comes from). */

/* The p-values of the series of R whose TIMED entry is set (their p_value
 * fields, or P's entries when P is given, indexed like R's series)
 * adjusted together by ADJUST (stats_holm, stats_bh), as an array indexed
 * like R's series (NaN where not timed); NULL on no memory. Free it. */
double *compare_adjusted(const struct run_result *r, const int *timed, const double *p,
			 void (*adjust)(const double *p, size_t n, double *adjusted));

/* A timing verdict: fail when RATIO (now / before) reaches 1 + TOLERANCE
 * and the test said SIGNIFICANT; improved when it is at most
 * 1 / (1 + TOLERANCE) and the interval's upper bound CI_HIGH is below 1;
 * inconclusive when it reaches the tolerance without significance. */
enum verdict compare_timing_verdict(double ratio, double tolerance, int significant,
				    double ci_high);

/* Exact or near-exact series S (median set) against B, whose median is in
 * S->baseline_median, S's sample having run THREADS threads: sets S's
 * test, verdict and note. OTHER is the result B belongs to (the baseline,
 * or gate ab's side A): a cost estimate is allowed what its region's
 * misses there are allowed. proc_live_bytes and proc_live_blocks of a
 * region of more than one thread are not compared (VERDICT_SKIPPED, the
 * note says why): they follow the host's stack limit. */
void compare_counts(struct series *s, const struct series *b, const struct run_result *other,
		    const struct run_policy *pol, double threads);

/* Threads the sample of S ran on (the probe's "threads" metric of the
 * same kernel, variant and params in R); 1 when it reported none. */
double compare_threads(const struct run_result *r, const struct series *s);

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

/* When the reference workload moved (decide/reference.h), a timing failure
 * stands only if its series slowed past its tolerance beyond the machine's
 * slowdown; the others are inconclusive. When it held, nothing is put down
 * to the machine. Against a baseline without reference samples, a run
 * whose compared timing series slowed by a median of COMPARE_SHIFT_NOTABLE
 * or more (result_timing_shift) is read the same way with that median (a
 * machine's speed can move as a whole within an hour of unchanged runs:
 * docs/noise.md, "The reference workload"). */
#define COMPARE_SHIFT_NOTABLE 0.10

/* The POLICY_GATE_* class of S: cost for the cost pass's counts, timing
 * for timing series, counts for the other counts. */
unsigned compare_gate_class(const struct series *s);

/* Sets every series' GATED from POL's gates: a class left out is still
 * compared, and reported as information (never failing the run). */
void compare_apply_gates(struct run_result *r, const struct run_policy *pol);

/* compare_run with what is comparable decided by the caller
 * (comparable_decide, once per run): C's same_hardware and cost key. */
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

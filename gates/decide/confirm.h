/* confirm.h: confirmation before failing. A timing regression found in the
 * first batch is measured again in a fresh interleaved batch of its
 * (kernel, parameter set); it fails the gate only when the second batch
 * fails too, otherwise it is reported as inconclusive ("not confirmed").
 * Exact and near-exact counts need no confirmation. */
#ifndef GATE_CONFIRM_H
#define GATE_CONFIRM_H

#include <stdint.h>

#include "core/result.h"
#include "decide/comparable.h"
#include "core/rng.h"
#include "sample/groups.h"

/* Whether (KERNEL, PARAMS) of R has a timing regression waiting for
 * confirmation. */
int confirm_suspect(const struct run_result *r, const char *kernel, const char *params);

/* Whether two batches' changes (e.g. 0.61 and 0.20 for +61% then +20%)
 * confirm a regression: the smaller ratio, divided by the ratio between the
 * two batches, is still at least 1 + TOLERANCE. Batches that disagree by a
 * factor 1.34 (1.61 vs 1.20) show that the machine itself drifts that much,
 * so 1.20 / 1.34 = 0.90 is no regression; 2.34 and 4.05 disagree by 1.73
 * but 2.34 / 1.73 = 1.35 still is one (a machine's neighbours come and go within
 * seconds; a real regression stays above the drift in both batches). */
int confirm_consistent(double change1, double change2, double tolerance);

/* Copies the verdicts of AGAIN, a confirmation batch of (KERNEL, PARAMS)
 * compared the same way, onto the timing regressions of R: one that does
 * not fail again (consistently, confirm_consistent) becomes inconclusive. */
void confirm_settle(struct run_result *r, const struct run_result *again, const char *kernel,
		    const char *params);

/* Announces, measures (and settles) one suspected group G in a fresh batch
 * with RNG; returns the number of samples that failed. */
/* Whether a run's suspected regressions are measured again against its
 * baseline: only where there is one (HAVE_BASELINE) and it was recorded on
 * the same hardware (C, decided once by compare_baseline); on other
 * hardware a fresh batch would be compared with the same foreign numbers. */
bool confirm_against_baseline(bool have_baseline, const struct comparability *c);

/* Whether a confirmation batch takes the cost pass again: never. Only
 * timing regressions are suspects (confirm_suspect), and the cost pass's
 * counts repeat exactly, so a second cost sample would confirm nothing. */
bool confirm_takes_cost_pass(void);

/* Whether a confirmation batch takes the counted pass again: never, for
 * the same reason: its counts were decided by the first batch's, and the
 * batch's own would be thrown away. The batch is its timed rounds alone. */
bool confirm_takes_counted_pass(void);

typedef int (*confirm_measure_fn)(const struct group *g, struct rng *rng, void *ctx);

/* The one confirmation loop of `gate run` and `gate ab`: every group of
 * TIER among the COUNT KERNELS with a timing regression in R, in the
 * groups' order, handed to MEASURE with CTX (which announces it: nothing
 * here prints); the
 * batches draw their shuffles from one RNG seeded from SEED (apart from
 * the first batch's). Returns the sum of MEASURE's failed samples. */
int confirm_suspects(const struct kernel_info *kernels, size_t count, unsigned tier,
		     uint64_t seed, const struct run_result *r, confirm_measure_fn measure,
		     void *ctx);

#endif

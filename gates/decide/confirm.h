/* confirm.h: confirmation before failing. A timing regression found in the
 * first batch is measured again in a fresh interleaved batch of its
 * (kernel, parameter set); it fails the gate only when the second batch
 * fails too, otherwise it is reported as inconclusive ("not confirmed").
 * Exact and near-exact counts need no confirmation. */
#ifndef GATE_CONFIRM_H
#define GATE_CONFIRM_H

#include "sample/kernel_info.h"
#include "cli/run_options.h"
#include "core/result.h"

/* Whether (KERNEL, PARAMS) of R has a timing regression waiting for
 * confirmation. */
int confirm_suspect(const struct run_result *r, const char *kernel, const char *params);

/* Whether two batches' changes (e.g. 0.61 and 0.20 for +61% then +20%)
 * confirm a regression: the smaller ratio, divided by the ratio between the
 * two batches, is still at least 1 + TOLERANCE. Batches that disagree by a
 * factor 1.34 (1.61 vs 1.20) show that the machine itself drifts that much,
 * so 1.20 / 1.34 = 0.90 is no regression; 2.34 and 4.05 disagree by 1.73
 * but 2.34 / 1.73 = 1.35 still is one (a VM's neighbours come and go within
 * seconds; a real regression stays above the drift in both batches). */
int confirm_consistent(double change1, double change2, double tolerance);

/* Re-measures every (kernel, params) of KERNELS with a timing FAIL in R
 * against BASE (same hardware assumed) and settles those verdicts. Returns
 * the number of samples that failed in the confirmation batches. */
int confirm_regressions(const struct kernel_info *kernels, size_t kernel_count,
			const struct run_options *o, struct run_result *r,
			const struct run_result *base);

#endif

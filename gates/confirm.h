/* confirm.h: confirmation before failing. A timing regression found in the
 * first batch is measured again in a fresh interleaved batch of its
 * (kernel, parameter set); it fails the gate only when the second batch
 * fails too, otherwise it is reported as inconclusive ("not confirmed").
 * Exact and near-exact counts need no confirmation. */
#ifndef GATE_CONFIRM_H
#define GATE_CONFIRM_H

#include "kernel_info.h"
#include "options.h"
#include "result.h"

/* Whether two batches' changes (e.g. 0.61 and 0.20 for +61% then +20%)
 * confirm a regression: the smaller one is at least TOLERANCE and at least
 * twice the discrepancy between the two ratios. Batches that disagree by
 * 34% show that the machine itself drifts that much, so neither change can
 * be told from drift (a VM's neighbours come and go within seconds). */
int confirm_consistent(double change1, double change2, double tolerance);

/* Re-measures every (kernel, params) of KERNELS with a timing FAIL in R
 * against BASE (same hardware assumed) and settles those verdicts. Returns
 * the number of samples that failed in the confirmation batches. */
int confirm_regressions(const struct kernel_info *kernels, size_t kernel_count,
			const struct run_options *o, struct run_result *r,
			const struct run_result *base);

#endif

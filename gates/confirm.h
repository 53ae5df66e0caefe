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

/* Re-measures every (kernel, params) of KERNELS with a timing FAIL in R
 * against BASE (same hardware assumed) and settles those verdicts. Returns
 * the number of samples that failed in the confirmation batches. */
int confirm_regressions(const struct kernel_info *kernels, size_t kernel_count,
			const struct run_options *o, struct run_result *r,
			const struct run_result *base);

#endif

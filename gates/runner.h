/* runner.h: takes the samples. Every sample is one kernel process; rounds
 * run each variant of a (kernel, parameter set) once, in a freshly
 * shuffled order, after warm-up rounds whose samples are discarded. */
#ifndef GATE_RUNNER_H
#define GATE_RUNNER_H

#include "kernel_info.h"
#include "options.h"
#include "result.h"
#include "stats.h"

/* Asks the kernel executable at PATH for its `--list` into OUT. Returns 0,
 * or -EINVAL with ERR saying why (did not start, crashed, bad output). */
int runner_list_kernel(const char *path, double timeout_seconds, struct kernel_info *out,
		       char *err, size_t err_size);

/* Runs the warm-up and measured rounds of every variant of K on parameter
 * set P, appending samples to R (one series per variant and metric, one
 * sample per round, NaN where a sample failed; the first measured round is
 * sample FIRST_ROUND, so batches follow each other) and problems for failed
 * samples and refused counters. RNG shuffles the order of each round.
 * Returns the number of samples that failed. */
int runner_run_params(const struct kernel_info *k, const struct kernel_paramset *p,
		      const struct run_options *o, struct stats_rng *rng,
		      struct run_result *r, size_t first_round);

#endif

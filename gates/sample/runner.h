/* runner.h: takes the samples. Every sample is one kernel process; rounds
 * run each variant of a (kernel, parameter set) once, in a freshly
 * shuffled order, after warm-up rounds whose samples are discarded. */
#ifndef GATE_RUNNER_H
#define GATE_RUNNER_H

#include "sample/kernel_info.h"
#include "cli/run_options.h"
#include "core/result.h"
#include "decide/stats.h"

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

/* Seconds on a monotonic clock (what --deadline is measured on). */
double runner_now(void);

/* --warmup auto: two consecutive warm-up rounds agree when every one of
 * the N items (side, variant) has a wall time within this fraction of its
 * wall time in the previous round; at most this many rounds are run. */
#define RUNNER_WARMUP_TOLERANCE 0.10
#define RUNNER_WARMUP_MAX 5

/* Whether warm-up round CUR agrees with round PREV (N wall times each; a
 * NaN or non-positive value never agrees). */
int runner_warmup_stable(const double *prev, const double *cur, size_t n);

/* One side of an A/B run: a kernel (from its own directory), its parameter
 * set, the options it runs with (environment) and where its samples go. */
struct runner_side {
	const struct kernel_info *k;
	const struct kernel_paramset *p;
	const struct run_options *o;
	struct run_result *r;
};

/* runner_run_params over several sides at once: every round runs every
 * variant of every side once, all in one shuffled order, so round i of A
 * and round i of B are taken within the same seconds and the machine's
 * drift hits both. Rounds and warm-up come from SIDES[0].o. Returns the
 * number of samples that failed. */
int runner_run_sides(const struct runner_side *sides, size_t side_count,
		     struct stats_rng *rng, size_t first_round);

#endif

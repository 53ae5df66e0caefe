/* readjust.h: the timing comparisons of shards (`gate run --shard I/N`,
 * `gate ab --shard I/N`) adjusted again as one run when `gate merge` joins
 * them.
 *
 * Each shard adjusts its timing p-values by Holm (or Benjamini-Hochberg)
 * over its own comparisons only, so N shards are N smaller families: a
 * raw p that the whole run's family holds under the bar can fail a shard
 * (measured: docs/measurements.md, "Figures behind the code's rules").
 * The merge
 * takes every input's compared timing series of one platform as one family
 * again, from the raw p-values the results carry, and a failure that is no
 * longer significant there becomes inconclusive, with the figures. Nothing
 * becomes a failure that a shard did not fail (a shard's confirmation
 * batch and its machine checks are not in the file), and an improvement
 * stays as the shard read it (gate ab holds it to the other tail's p,
 * which the results do not carry). */
#ifndef GATE_READJUST_H
#define GATE_READJUST_H

#include <stddef.h>

#include "core/policy.h"
#include "core/result.h"

/* Whether S is one of its run's adjusted timing comparisons: a timing
 * series that was tested (its test is one of the timing tests) and has a
 * raw p-value. */
int readjust_is_tested_timing(const struct series *s);

/* Adjusts the raw p-values of the tested timing series of RUNS[0..N-1]
 * (the inputs of one merge) together, one family per platform (the runs
 * whose context has the same platform key), by POL's correction; each failure whose adjusted p is
 * not below POL's alpha is decided again as not significant (inconclusive)
 * and noted with both adjusted p-values. LOST[i] (when LOST is not NULL)
 * gets the failures run I lost. Returns the number of failures lost, or -1
 * without memory. */
long readjust_timing(struct run_result *runs, size_t n, const struct run_policy *pol,
		     size_t *lost);

#endif

/* expect_eval.h: decides declared expectations on paired per-round values. */
#ifndef GATE_EXPECT_EVAL_H
#define GATE_EXPECT_EVAL_H

#include <stdbool.h>

#include "core/result.h"
#include "core/conditions.h"
#include "sample/kernel_info.h"

/* Evaluates expectation E of kernel K on parameter set PARAMS against the
 * series in R (round i of every variant was taken in the same round), and
 * adds one expect_result to R. The per-round quantity is lhs / rhs when
 * every rhs is positive and lhs non-negative (compared with 1), else
 * lhs - rhs (compared with 0); the verdict comes from the distribution-free
 * interval of its median at level LEVEL: pass when the interval lies on the
 * promised side, fail when it lies on the other, inconclusive otherwise.
 * Returns 0, or -ENOMEM. */
int expect_evaluate(const struct kernel_info *k, const struct kernel_expect *e,
		    const char *params, double level, struct run_result *r);

/* Adds expectation E of K on PARAMS to R as skipped, with WHY. */
int expect_eval_skip(const struct kernel_info *k, const struct kernel_expect *e, const char *params,
		const char *why, struct run_result *r);

/* Evaluates every declared expectation of KERNELS (COUNT of them) on every
 * parameter set of TIER (groups.h) against R, where the run is target T
 * (conditions.h): not at all when declared for another OS, skipped when a
 * machine condition fails, as information (gated false) when declared for
 * another allocator. */
void expect_check_kernels(const struct kernel_info *kernels, size_t count, unsigned tier,
			  const struct condition_target *t, struct run_result *r);

/* Whether every expectation of K on PARAMS that names VARIANT (NULL: every
 * one) and that a run of target T gates is decided on R's rounds so far at LEVEL (pass or fail; one naming a
 * metric R holds none of yet, a count taken after the rounds, waits for
 * nothing; nor does one with so many rounds disturbed that ROUNDS_LEFT
 * more could not make it decidable): `gate ab`'s looks
 * (decide/sequential.h). R is left as it was. */
bool expect_group_decided(const struct kernel_info *k, const char *params, const char *variant,
			  const struct condition_target *t, double level, size_t rounds_left,
			  struct run_result *r);

#endif

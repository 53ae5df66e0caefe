/* changepoint.h: change points of one series of per-commit values, as
 * pure functions (no I/O).
 *
 * Exact series (counts, the cost pass's counts): the step rule. A change
 * point at every value that leaves the current level, the value where the
 * last change began (or the first), by more than a relative tolerance;
 * tolerance 0 means any difference, since exact means exact.
 *
 * Noisy series (timing, near-exact counts): E-divisive means, Matteson and
 * James, "A Nonparametric Approach for Multiple Change Point Analysis of
 * Multivariate Data", JASA 109(505), 2014, as MongoDB's signal processing
 * (Daly et al., ICPE 2020) and Hunter/Otava (Fleming et al., ICPE 2023)
 * use it on performance histories. For a segment Z_1..Z_n and a split tau
 * (left X = Z_1..Z_tau, right Y = the rest, sizes m and k), with alpha = 1:
 *
 *   Q(tau) = m k / n * ( 2/(m k) sum |X_i - Y_j|
 *                        - 2/(m (m-1)) sum_{i<l} |X_i - X_l|
 *                        - 2/(k (k-1)) sum_{j<l} |Y_j - Y_l| ),
 *
 * the scaled energy distance of the two sides. The split with the largest Q
 * (each side at least MIN_SEGMENT points) is significant when a permutation
 * test says so: the segment's values shuffled PERMUTATIONS times (core/rng.h,
 * a fixed seed), p = (1 + #{max Q of a shuffle >= Q}) / (1 + PERMUTATIONS),
 * significant at p <= ALPHA. Each significant split is bisected again
 * (recursive bisection). Then the change points whose neighbouring
 * segments' medians differ by less than MIN_EFFECT are removed, the
 * smallest first, the segments around each merged again: a shift too small
 * to matter is not reported, however real. Sums of |differences| are kept
 * in a Fenwick tree over the values' ranks, so one Q curve costs
 * O(n log n).
 */
#ifndef GATE_CHANGEPOINT_H
#define GATE_CHANGEPOINT_H

#include <stddef.h>

#include "core/change_points.h"

/* The defaults of `gate history`: alpha 0.05 with 199 permutations (the
 * smallest p is then 0.005), segments of at least 5 commits, and a minimum
 * effect of gate ab's, 2% (core/policy.h, POLICY_MIN_EFFECT_AB); seed 1. */
#define CHANGEPOINT_ALPHA 0.05
#define CHANGEPOINT_PERMUTATIONS 199
#define CHANGEPOINT_MIN_SEGMENT 5
#define CHANGEPOINT_SEED 1

/* Fills S with the defaults above and POLICY_MIN_EFFECT_AB. */
void changepoint_defaults(struct change_settings *s);

/* The step rule on V[0..N) with relative TOLERANCE (>= 0): the change
 * points into a malloc'd *OUT (NULL when none) and their number into
 * *COUNT; p_value NaN, between -1. Returns 0 or -ENOMEM. */
int changepoint_steps(const double *v, size_t n, double tolerance, struct change_point **out,
		      size_t *count);

/* The split of V[0..N) with the largest Q, each side at least MIN_SEGMENT
 * (>= 2) points: its index (the right side's first point) into *TAU and
 * its Q into *Q. Returns 0; -EDOM when N < 2 MIN_SEGMENT; -ENOMEM. */
int changepoint_best_split(const double *v, size_t n, size_t min_segment, size_t *tau,
			   double *q);

/* E-divisive means on V[0..N) with S (above): the change points into a
 * malloc'd *OUT (NULL when none), sorted, and their number into *COUNT;
 * before and after are the neighbouring segments' medians, between -1.
 * Returns 0 or -ENOMEM. */
int changepoint_edivisive(const double *v, size_t n, const struct change_settings *s,
			  struct change_point **out, size_t *count);

#endif

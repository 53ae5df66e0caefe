/* stats.h: statistics for the gate, as pure functions.
 *
 * Distribution-free methods only: timing samples are skewed and few.
 * Every function leaves its input arrays unchanged unless it says so.
 */
#ifndef GATE_STATS_H
#define GATE_STATS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Median of N values (NaN values are ignored); NaN when none is left. */
double stats_median(const double *values, size_t n);

/* Interval [x_(k), x_(n-k+1)] of the sorted values that covers the
 * population median with probability >= LEVEL (binomial order statistics,
 * e.g. n = 9 gives [x_(2), x_(8)] at 0.961 for level 0.95). Writes the bounds
 * and the exact coverage; returns 0, or -1 when N is too small for LEVEL
 * (then the bounds are min and max and *coverage says what they give). */
int stats_median_ci(const double *values, size_t n, double level,
		    double *low, double *high, double *coverage);

/* Mann-Whitney U of sample X against Y (ties count one half):
 * U_x = number of pairs (x_i, y_j) with x_i > y_j plus half the ties. */
double stats_mann_whitney_u(const double *x, size_t nx, const double *y, size_t ny);

/* One-sided p-value that X tends to be larger than Y: exact distribution of
 * U for nx, ny <= 50 without ties, normal approximation with tie and
 * continuity correction otherwise. */
double stats_mann_whitney_p_greater(const double *x, size_t nx, const double *y, size_t ny);

/* Distribution-free interval (Hodges-Lehmann / Moses) for the ratio of
 * typical values X / Y, from the pairwise log differences of positive
 * samples, at confidence >= LEVEL. Writes the point estimate (median of
 * pairwise ratios) and bounds. Returns 0, or -1 when a value is <= 0 or
 * the samples are too small for LEVEL (bounds are then min/max ratio). */
int stats_ratio_ci(const double *x, size_t nx, const double *y, size_t ny,
		   double level, double *estimate, double *low, double *high);

/* Whether a round's pair of values B and A gives a usable ratio B / A:
 * both finite and positive (a failed or missing sample is NaN). The one
 * rule of gate ab's final test and of its looks (decide/sequential.h). */
static inline bool stats_pair_usable(double b, double a)
{
	return isfinite(b) && isfinite(a) && b > 0 && a > 0;
}

/* One-sided p-value that the paired differences D (e.g. log(b_i / a_i))
 * tend to be above zero: Wilcoxon signed-rank, zeros and NaN dropped, exact
 * null law for up to 50 differences without tied magnitudes, normal
 * approximation with tie and continuity correction otherwise
 * (stats_paired.c). NaN when no nonzero difference is left. */
double stats_signed_rank_p_greater(const double *d, size_t n);

/* Holm step-down adjustment of N p-values, written to ADJUSTED
 * (monotone, capped at 1). */
void stats_holm(const double *p, size_t n, double *adjusted);

/* Benjamini-Hochberg step-up adjustment of N p-values, written to
 * ADJUSTED (monotone, capped at 1; NaN stays NaN and is not counted).
 * Controls the false discovery rate, and, when every hypothesis is true
 * (an unchanged build), the chance of any rejection at the same level as
 * Holm (Simes' test); more power when several comparisons share an effect. */
void stats_bh(const double *p, size_t n, double *adjusted);

#endif

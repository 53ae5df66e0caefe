/* test_stats_paired.c: the Wilcoxon signed-rank test (gates/decide/stats_paired.c)
 * against the published critical values, hand counts and brute-force
 * enumeration of the 2^n sign patterns. Nothing here is timed. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/theories.h>
#include <math.h>
#include <stdint.h>

#include "core/rng.h"
#include "decide/stats.h"

/* N differences with magnitudes 1..N, negative where bit r-1 of MASK is set. */
static void signed_ranks_of(double *d, size_t n, uint64_t mask)
{
	for (size_t r = 1; r <= n; r++)
		d[r - 1] = (mask >> (r - 1) & 1) ? -(double)r : (double)r;
}

Test(signed_rank, hand_counts)
{
	double d[10];
	/* n = 5, all positive: only 1 of 32 sign patterns has W+ = 15 */
	signed_ranks_of(d, 5, 0);
	cr_expect_float_eq(stats_signed_rank_p_greater(d, 5), 1.0 / 32, 1e-15);
	/* n = 6, rank 2 negative: W- = 2, subsets of 1..6 with sum <= 2 are
	 * {}, {1}, {2}: 3/64 */
	signed_ranks_of(d, 6, 0x2);
	cr_expect_float_eq(stats_signed_rank_p_greater(d, 6), 3.0 / 64, 1e-15);
	/* rank 3 negative: {}, {1}, {2}, {3}, {1,2}: 5/64 */
	signed_ranks_of(d, 6, 0x4);
	cr_expect_float_eq(stats_signed_rank_p_greater(d, 6), 5.0 / 64, 1e-15);
	/* all negative: every pattern has W+ >= 0 */
	signed_ranks_of(d, 6, 0x3f);
	cr_expect_float_eq(stats_signed_rank_p_greater(d, 6), 1.0, 1e-15);
}

/* One-sided alpha = 0.05 critical values T (reject when the smaller rank
 * sum is <= T) from the standard tables (e.g. Hollander, Wolfe & Chicken,
 * table A.4; Siegel): n = 10: 10, n = 15: 30, n = 20: 60. At T the exact
 * p is at most 0.05 and at T + 1 above it. */
struct critical { size_t n; unsigned t; double p_at_t; };

ParameterizedTestParameters(signed_rank, critical_values)
{
	static struct critical c[] = {
		{ 10, 10, 43.0 / 1024 }, { 15, 30, 1550.0 / 32768 }, { 20, 60, 51017.0 / 1048576 },
	};
	return cr_make_param_array(struct critical, c, sizeof c / sizeof c[0]);
}

/* Negative ranks summing to exactly T: the smallest ranks, then the rest
 * of the sum on one more rank. */
static uint64_t mask_with_sum(size_t n, unsigned t)
{
	uint64_t mask = 0;
	unsigned sum = 0;
	for (unsigned r = 1; r <= n && sum + r <= t; r++) {
		mask |= 1ull << (r - 1);
		sum += r;
	}
	unsigned rest = t - sum;
	if (rest) {   /* move the largest chosen rank up by REST */
		unsigned top = 64 - (unsigned)__builtin_clzll(mask);
		mask &= ~(1ull << (top - 1));
		mask |= 1ull << (top + rest - 1);
	}
	return mask;
}

ParameterizedTest(struct critical *c, signed_rank, critical_values)
{
	double d[20];
	signed_ranks_of(d, c->n, mask_with_sum(c->n, c->t));
	double p = stats_signed_rank_p_greater(d, c->n);
	cr_expect_float_eq(p, c->p_at_t, 1e-12, "n=%zu T=%u: p %.6f", c->n, c->t, p);
	cr_expect(p <= 0.05);
	signed_ranks_of(d, c->n, mask_with_sum(c->n, c->t + 1));
	cr_expect(stats_signed_rank_p_greater(d, c->n) > 0.05, "n=%zu T=%u+1", c->n, c->t);
}

/* Every sign pattern of n = 1..12: the exact p equals the share of the
 * 2^n patterns whose W+ is at least as large. */
Test(signed_rank, exact_matches_enumeration)
{
	double d[12];
	for (size_t n = 1; n <= 12; n++) {
		unsigned top = 1u << n;
		unsigned *w = malloc(top * sizeof *w);
		for (unsigned m = 0; m < top; m++) {
			w[m] = 0;
			for (unsigned r = 1; r <= n; r++)
				w[m] += (m >> (r - 1) & 1) ? 0 : r;
		}
		for (unsigned m = 0; m < top; m += 1 + m / 7) {
			unsigned at_least = 0;
			for (unsigned k = 0; k < top; k++)
				at_least += w[k] >= w[m];
			signed_ranks_of(d, n, m);
			cr_expect_float_eq(stats_signed_rank_p_greater(d, n), (double)at_least / top,
					   1e-15, "n=%zu mask=%u", n, m);
		}
		free(w);
	}
}

Test(signed_rank, zeros_and_nan_dropped)
{
	double d[] = { 0, 1, NAN, 2, 0, 3, 4, 5 };
	cr_expect_float_eq(stats_signed_rank_p_greater(d, 8), 1.0 / 32, 1e-15);
	double none[] = { 0, NAN };
	cr_expect(isnan(stats_signed_rank_p_greater(none, 2)));
}

/* Tied magnitudes: normal approximation with tie correction, by hand.
 * d = {1, 1, 1, 1, -2, 3, 3, 3, 3, 3, 3, 3}: 12 differences; the four 1s
 * share rank 2.5, -2 has rank 5, the seven 3s share rank 9; W+ = 4 x 2.5 +
 * 7 x 9 = 73; mean 12 x 13 / 4 = 39; variance 12 x 13 x 25 / 24 - ((64 - 4)
 * + (343 - 7)) / 48 = 162.5 - 8.25 = 154.25; z = (73 - 39 - 0.5) /
 * sqrt(154.25) = 2.6973; p = 1 - Phi(z) = 0.003495. */
Test(signed_rank, ties_normal_approximation)
{
	double d[] = { 1, 1, 1, 1, -2, 3, 3, 3, 3, 3, 3, 3 };
	cr_expect_float_eq(stats_signed_rank_p_greater(d, 12), 0.003495, 2e-6);
}

/* Rescaling every difference changes no rank: the same p. */
TheoryDataPoints(signed_rank, scale_invariant) = {
	DataPoints(double, 0.001, 0.5, 3.0, 1e6),
	DataPoints(uint64_t, 1, 7, 12345),
};

Theory((double c, uint64_t seed), signed_rank, scale_invariant)
{
	struct rng rng;
	double d[30], scaled[30];
	rng_seed(&rng, seed);
	for (size_t i = 0; i < 30; i++) {
		d[i] = ((double)rng_below(&rng, 2001) - 900.0) / 1000.0;
		scaled[i] = c * d[i];
	}
	cr_expect_float_eq(stats_signed_rank_p_greater(scaled, 30),
			   stats_signed_rank_p_greater(d, 30), 1e-12);
}

/* test_stats.c: gates/decide/stats.c against published tables, hand computations
 * and brute-force enumeration. Nothing here is timed; every sample comes
 * from fixed data or a fixed seed. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/theories.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "decide/stats.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void expect_close(double got, double want, double rel)
{
	cr_expect(fabs(got - want) <= rel * fabs(want) + 1e-300,
		  "got %.17g, want %.17g (relative tolerance %g)", got, want, rel);
}

/* ---- median ---- */

Test(median, odd_even_and_nan)
{
	double odd[] = { 5, 1, 4, 2, 3 };
	double even[] = { 8, 2, 6, 4 };
	double with_nan[] = { NAN, 3, 1, NAN, 2 };
	double all_nan[] = { NAN, NAN };

	cr_expect_eq(stats_median(odd, 5), 3.0);
	cr_expect_eq(stats_median(even, 4), 5.0);
	cr_expect_eq(stats_median(with_nan, 5), 2.0);
	cr_expect(isnan(stats_median(all_nan, 2)));
	cr_expect(isnan(stats_median(odd, 0)));
	cr_expect_eq(odd[0], 5.0, "the input must stay unsorted");
}

/* ---- median confidence interval ---- */

/* 95% interval [x_(k), x_(n-k+1)] for n = 6..20, as in the binomial
 * order-statistic tables (Conover, Practical Nonparametric Statistics,
 * 3rd ed., sec. 3.2). Coverage is 1 - 2 P(B <= k-1), B ~ Binom(n, 1/2), and
 * TAIL = 2^n P(B <= k-1) = C(n,0) + ... + C(n,k-1), worked by hand:
 *   n=6:  k=1, tail 1                 -> 1 - 2/64   = 0.96875
 *         (k=2 would need tail 1+6 = 7 -> 1 - 14/64 = 0.78 < 0.95)
 *   n=9:  k=2, tail 1+9 = 10          -> 1 - 20/512 = 0.9609
 *         (k=3: 1+9+36 = 46 -> 1 - 92/512 = 0.82)
 *   n=10: k=2, tail 1+10 = 11         -> 1 - 22/1024 = 0.9785
 *         (k=3: 1+10+45 = 56 -> 1 - 112/1024 = 0.89)
 *   n=17: k=5, tail 1+17+136+680+2380 = 3214 -> 1 - 6428/131072 = 0.95096
 * and likewise for the others. */
struct median_ci_case {
	size_t n, k;
	double tail;
};

ParameterizedTestParameters(median_ci, table_95)
{
	static struct median_ci_case cases[] = {
		{ 6, 1, 1 }, { 7, 1, 1 }, { 8, 1, 1 }, { 9, 2, 10 }, { 10, 2, 11 },
		{ 11, 2, 12 }, { 12, 3, 79 }, { 13, 3, 92 }, { 14, 3, 106 },
		{ 15, 4, 576 }, { 16, 4, 697 }, { 17, 5, 3214 }, { 18, 5, 4048 },
		{ 19, 5, 5036 }, { 20, 6, 21700 },
	};
	return cr_make_param_array(struct median_ci_case, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct median_ci_case *c, median_ci, table_95)
{
	double values[20], low, high, coverage;
	size_t i;

	/* descending 1..n, so x_(k) = k after sorting */
	for (i = 0; i < c->n; i++)
		values[i] = (double)(c->n - i);
	cr_assert_eq(stats_median_ci(values, c->n, 0.95, &low, &high, &coverage), 0);
	cr_expect_eq(low, (double)c->k, "n=%zu: low rank", c->n);
	cr_expect_eq(high, (double)(c->n - c->k + 1), "n=%zu: high rank", c->n);
	expect_close(coverage, 1.0 - 2.0 * c->tail / ldexp(1.0, (int)c->n), 1e-12);
}

Test(median_ci, too_few_for_level)
{
	/* n = 5: even min and max cover only 1 - 2/32 = 0.9375 < 0.95 */
	double values[] = { 4, NAN, 2, 9, 1, 7 };
	double low, high, coverage;

	cr_expect_eq(stats_median_ci(values, 6, 0.95, &low, &high, &coverage), -1);
	cr_expect_eq(low, 1.0);
	cr_expect_eq(high, 9.0);
	expect_close(coverage, 0.9375, 1e-12);
	cr_expect_eq(stats_median_ci(values, 6, 0.90, &low, &high, &coverage), 0);
	cr_expect_eq(stats_median_ci(values, 0, 0.95, &low, &high, &coverage), -1);
	cr_expect(isnan(low) && isnan(high));
}

Test(median_ci, large_n_does_not_underflow)
{
	/* 2^-10000 underflows a double. Normal approximation of the rank:
	 * k ~ (n+1)/2 - 1.96 sqrt(n)/2 = 5000.5 - 98 = 4902.5, so the exact
	 * rank lies within a step or two of it. */
	size_t n = 10000, i;
	double *values = malloc(n * sizeof *values), low, high, coverage;

	cr_assert_not_null(values);
	for (i = 0; i < n; i++)
		values[i] = (double)(i + 1);
	cr_assert_eq(stats_median_ci(values, n, 0.95, &low, &high, &coverage), 0);
	cr_expect(low >= 4900 && low <= 4905, "low rank %g", low);
	cr_expect_eq(high, (double)n + 1.0 - low);
	cr_expect(coverage >= 0.95 && coverage < 0.952, "coverage %g", coverage);
	free(values);
}

/* ---- Mann-Whitney ---- */

/* Permeability constants of the human chorioamnion (Hollander & Wolfe,
 * Nonparametric Statistical Methods, 1973, p. 69; R's wilcox.test example):
 * W = U = 35 and the exact one-sided p-value is 0.1272 = 382/3003, i.e. 382
 * of the C(15,5) = 3003 orderings give U >= 35 (checked by enumeration). */
Test(mann_whitney, hollander_wolfe_permeability)
{
	double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };

	cr_expect_eq(stats_mann_whitney_u(x, 10, y, 5), 35.0);
	cr_expect_eq(stats_mann_whitney_u(y, 5, x, 10), 15.0);
	expect_close(stats_mann_whitney_p_greater(x, 10, y, 5), 382.0 / 3003.0, 1e-12);
}

/* 3 vs 3 fully separated: of the C(6,3) = 20 orderings only one puts all x
 * above all y, so P(U >= 9) = 1/20; the other way round U = 0, p = 1. */
Test(mann_whitney, three_by_three_separated)
{
	double x[] = { 4, 6, 5 }, y[] = { 1, 3, 2 };

	cr_expect_eq(stats_mann_whitney_u(x, 3, y, 3), 9.0);
	expect_close(stats_mann_whitney_p_greater(x, 3, y, 3), 1.0 / 20.0, 1e-12);
	cr_expect_eq(stats_mann_whitney_u(y, 3, x, 3), 0.0);
	expect_close(stats_mann_whitney_p_greater(y, 3, x, 3), 1.0, 1e-12);
}

Test(mann_whitney, ties_count_half_and_nan_is_ignored)
{
	/* pairs x > y: (3,2) twice; ties: (2,2) twice -> U = 2 + 2/2 = 3 */
	double x[] = { 1, 2, 3, NAN }, y[] = { 2, NAN, 2 };

	cr_expect_eq(stats_mann_whitney_u(x, 4, y, 3), 3.0);
	cr_expect_eq(stats_mann_whitney_u(y, 3, x, 4), 3.0);
	cr_expect(isnan(stats_mann_whitney_p_greater(x, 4, y, 0)));
}

/* U of a labelling of the pooled ranks 1..N: bit i of MASK set means rank
 * i+1 belongs to x. Counted pair by pair, independently of stats.c. */
static unsigned enumerated_u(unsigned mask, unsigned n)
{
	unsigned i, j, u = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			u += ((mask >> i) & 1) && !((mask >> j) & 1);
	return u;
}

static unsigned popcount(unsigned v)
{
	unsigned c = 0;

	for (; v; v &= v - 1)
		c++;
	return c;
}

struct sizes {
	unsigned nx, ny;
};

ParameterizedTestParameters(mann_whitney, exact_p_matches_enumeration)
{
	static struct sizes cases[] = {
		{ 1, 1 }, { 1, 4 }, { 2, 3 }, { 3, 3 }, { 4, 6 }, { 6, 4 }, { 7, 7 }, { 5, 9 },
	};
	return cr_make_param_array(struct sizes, cases, ARRAY_SIZE(cases));
}

/* Every labelling of N = nx + ny distinct values: the exact p-value must
 * be the share of labellings whose U is at least as large. */
ParameterizedTest(struct sizes *s, mann_whitney, exact_p_matches_enumeration)
{
	unsigned n = s->nx + s->ny, mask, i, u, count[64] = { 0 }, total = 0;
	double x[16], y[16], tail;
	size_t a, b;

	for (mask = 0; mask < (1u << n); mask++)
		if (popcount(mask) == s->nx) {
			count[enumerated_u(mask, n)]++;
			total++;
		}
	for (mask = 0; mask < (1u << n); mask++) {
		if (popcount(mask) != s->nx)
			continue;
		for (i = 0, a = 0, b = 0; i < n; i++)
			if ((mask >> i) & 1)
				x[a++] = i + 1;
			else
				y[b++] = i + 1;
		u = enumerated_u(mask, n);
		cr_assert_eq(stats_mann_whitney_u(x, a, y, b), (double)u);
		for (i = u, tail = 0; i <= s->nx * s->ny; i++)
			tail += count[i];
		expect_close(stats_mann_whitney_p_greater(x, a, y, b), tail / total, 1e-12);
	}
}

/* Normal approximation with ties (Hollander, Wolfe & Chicken, 3rd ed.,
 * sec. 4.1), worked by hand:
 *   x = 3 4 4 5 6 6 7 8, y = 1 2 2 3 4 5 5: m = 8, n = 7, N = 15
 *   U = 46.5 (x > y pairs 45, 3 tied pairs); E U = mn/2 = 28
 *   tie groups: three of size 2 (2, 3, 6), two of size 3 (4, 5)
 *   sum t^3 - t = 3*6 + 2*24 = 66
 *   var = mn/12 * (N + 1 - 66/(N(N-1))) = 56/12 * (16 - 66/210) = 73.2
 *   z = (46.5 - 28 - 0.5) / sqrt(73.2) = 2.103861
 *   p = 1 - Phi(z) = 0.0176953 (0.5 * erfc(z / sqrt 2)) */
Test(mann_whitney, normal_approximation_with_ties)
{
	double x[] = { 3, 4, 4, 5, 6, 6, 7, 8 }, y[] = { 1, 2, 2, 3, 4, 5, 5 };

	cr_expect_eq(stats_mann_whitney_u(x, 8, y, 7), 46.5);
	expect_close(stats_mann_whitney_p_greater(x, 8, y, 7), 0.017695303503281495, 1e-9);
}

/* Past 50 per sample the normal approximation is used even without ties:
 *   x = 2 4 .. 102, y = 1 3 .. 101 (51 each): x = 2i beats i values of y,
 *   U = 1 + 2 + ... + 51 = 1326; E U = 2601/2 = 1300.5
 *   var = mn(N+1)/12 = 2601 * 103 / 12 = 22325.25
 *   z = (1326 - 1300.5 - 0.5) / sqrt(22325.25) = 0.1673177
 *   p = 1 - Phi(z) = 0.4335600 */
Test(mann_whitney, normal_approximation_large)
{
	double x[51], y[51];
	size_t i;

	for (i = 0; i < 51; i++) {
		x[i] = 2.0 * (double)(i + 1);
		y[i] = 2.0 * (double)i + 1.0;
	}
	cr_expect_eq(stats_mann_whitney_u(x, 51, y, 51), 1326.0);
	expect_close(stats_mann_whitney_p_greater(x, 51, y, 51), 0.433560045414083, 1e-9);
}

/* Random samples on a small range of integers, so ties are frequent. */
static void fill_integers(struct rng *rng, double *v, size_t n, uint64_t range)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (double)rng_below(rng, range);
}

TheoryDataPoints(mann_whitney, u_xy_plus_u_yx_is_nx_ny) = {
	DataPoints(size_t, 1, 2, 5, 13, 60),
	DataPoints(size_t, 1, 3, 8, 51),
	DataPoints(uint64_t, 1, 2, 3),
	DataPoints(uint64_t, 3, 1000),
};

Theory((size_t nx, size_t ny, uint64_t seed, uint64_t range), mann_whitney,
       u_xy_plus_u_yx_is_nx_ny)
{
	struct rng rng;
	double x[60], y[60];

	rng_seed(&rng, seed);
	fill_integers(&rng, x, nx, range);
	fill_integers(&rng, y, ny, range);
	cr_assert_eq(stats_mann_whitney_u(x, nx, y, ny) + stats_mann_whitney_u(y, ny, x, nx),
		     (double)(nx * ny));
}

/* ---- ratio interval (Hodges-Lehmann / Moses) ---- */

/* Brute force: all pairwise log differences, sorted. */
static double *sorted_log_differences(const double *x, size_t nx, const double *y, size_t ny)
{
	double *d = malloc(nx * ny * sizeof *d);
	size_t i, j;

	cr_assert_not_null(d);
	for (i = 0; i < nx; i++)
		for (j = 0; j < ny; j++)
			d[i * ny + j] = log(x[i]) - log(y[j]);
	qsort(d, nx * ny, sizeof *d, compare_double);
	return d;
}

/* Checks the interval against the sorted differences at rank K. */
static void expect_moses(const double *x, size_t nx, const double *y, size_t ny,
			 double level, size_t k)
{
	size_t pairs = nx * ny;
	double *d = sorted_log_differences(x, nx, y, ny), est, low, high, mid;

	cr_assert_eq(stats_ratio_ci(x, nx, y, ny, level, &est, &low, &high), 0);
	mid = pairs % 2 ? d[pairs / 2] : 0.5 * d[pairs / 2 - 1] + 0.5 * d[pairs / 2];
	expect_close(est, exp(mid), 1e-12);
	expect_close(low, exp(d[k - 1]), 1e-12);
	expect_close(high, exp(d[pairs - k]), 1e-12);
	free(d);
}

/* m = n = 10 at 95%: C_alpha = 24 (Hollander, Wolfe & Chicken, sec. 4.3;
 * the two-sided 5% critical value of U is 23). Exactly: 3996 of the
 * C(20,10) = 184756 orderings have U <= 23, so the coverage of
 * [D_(24), D_(77)] is 1 - 2 * 3996 / 184756 = 0.9567 >= 0.95, while
 * k = 25 falls below 0.95. */
Test(ratio_ci, exact_rank_m10_n10)
{
	double x[] = { 12, 15, 9, 20, 17, 11, 14, 18, 16, 13 };
	double y[] = { 10, 8, 12, 9, 11, 7, 13, 10.5, 9.5, 8.5 };

	expect_moses(x, 10, y, 10, 0.95, 24);
}

/* m = 60, n = 70 uses the normal approximation with a continuity
 * correction: the largest k with 1 - 2 Phi((k - 1 + 0.5 - mn/2) / sd) >=
 * 0.95, sd = sqrt(mn(m+n+1)/12) = sqrt(4200 * 131 / 12) = 214.1261, is
 * k <= 2100.5 - 1.959964 * 214.1261 = 1680.82, so k = 1680. */
Test(ratio_ci, normal_rank_m60_n70)
{
	struct rng rng;
	double x[60], y[70];
	size_t i;

	rng_seed(&rng, 2024);
	for (i = 0; i < 60; i++)
		x[i] = 100.0 + (double)rng_below(&rng, 1000) / 10.0;
	for (i = 0; i < 70; i++)
		y[i] = 90.0 + (double)rng_below(&rng, 1000) / 10.0;
	expect_moses(x, 60, y, 70, 0.95, 1680);
}

Test(ratio_ci, y_twice_x_gives_one_half)
{
	double x[10], y[10], est, low, high;
	size_t i;

	for (i = 0; i < 10; i++) {
		x[i] = (double)(i + 1) * 1.5;
		y[i] = 2.0 * x[i];
	}
	/* the log differences log(i/j) - log 2 are symmetric about -log 2 */
	cr_assert_eq(stats_ratio_ci(x, 10, y, 10, 0.95, &est, &low, &high), 0);
	expect_close(est, 0.5, 1e-12);
	cr_expect(low < 0.5 && high > 0.5, "[%g, %g]", low, high);
	cr_assert_eq(stats_ratio_ci(y, 10, x, 10, 0.95, &est, &low, &high), 0);
	expect_close(est, 2.0, 1e-12);
}

Test(ratio_ci, constant_ratio_has_zero_width)
{
	double x[] = { 3, 3, 3, 3, 3, 3 }, y[] = { 1, 1, 1, 1, 1, 1 }, est, low, high;

	cr_assert_eq(stats_ratio_ci(x, 6, y, 6, 0.95, &est, &low, &high), 0);
	expect_close(est, 3.0, 1e-15);
	expect_close(low, 3.0, 1e-15);
	expect_close(high, 3.0, 1e-15);
}

/* 3 vs 3: P(U <= 0) = 1/20, so [min, max] covers 0.90 and nothing covers
 * 0.95; the bounds are then min and max ratio and the estimate still
 * stands. */
Test(ratio_ci, too_small_and_invalid)
{
	double x[] = { 2, 4, 8 }, y[] = { 1, 2, 4 }, bad[] = { 1, 0, 2 };
	double est, low, high;

	cr_expect_eq(stats_ratio_ci(x, 3, y, 3, 0.90, &est, &low, &high), 0);
	cr_expect_eq(stats_ratio_ci(x, 3, y, 3, 0.95, &est, &low, &high), -1);
	expect_close(est, 2.0, 1e-12);
	expect_close(low, 0.5, 1e-12);
	expect_close(high, 8.0, 1e-12);
	cr_expect_eq(stats_ratio_ci(x, 3, bad, 3, 0.5, &est, &low, &high), -1);
	cr_expect(isnan(est) && isnan(low) && isnan(high));
	cr_expect_eq(stats_ratio_ci(x, 0, y, 3, 0.5, &est, &low, &high), -1);
}

Test(ratio_ci, nan_is_ignored)
{
	double x[] = { 2, NAN, 4, 8 }, y[] = { NAN, 1, 2, 4 };
	double x_clean[] = { 2, 4, 8 }, y_clean[] = { 1, 2, 4 };
	double e1, l1, h1, e2, l2, h2;

	cr_expect_eq(stats_ratio_ci(x, 4, y, 4, 0.9, &e1, &l1, &h1), 0);
	cr_expect_eq(stats_ratio_ci(x_clean, 3, y_clean, 3, 0.9, &e2, &l2, &h2), 0);
	cr_expect(e1 == e2 && l1 == l2 && h1 == h2);
}

TheoryDataPoints(ratio_ci, scale_invariant) = {
	DataPoints(double, 1e-3, 0.5, 3.0, 1e6),
	DataPoints(size_t, 4, 12, 55),
	DataPoints(uint64_t, 1, 2),
};

/* Multiplying both samples by C cancels in every ratio x_i / y_j. */
Theory((double c, size_t n, uint64_t seed), ratio_ci, scale_invariant)
{
	struct rng rng;
	double x[55], y[55], cx[55], cy[55], e1, l1, h1, e2, l2, h2;
	size_t i;
	int r1, r2;

	rng_seed(&rng, seed);
	for (i = 0; i < n; i++) {
		x[i] = 1.0 + (double)rng_below(&rng, 1000) / 10.0;
		y[i] = 1.0 + (double)rng_below(&rng, 1000) / 10.0;
		cx[i] = c * x[i];
		cy[i] = c * y[i];
	}
	r1 = stats_ratio_ci(x, n, y, n, 0.95, &e1, &l1, &h1);
	r2 = stats_ratio_ci(cx, n, cy, n, 0.95, &e2, &l2, &h2);
	cr_assert_eq(r1, r2);
	expect_close(e2, e1, 1e-9);
	expect_close(l2, l1, 1e-9);
	expect_close(h2, h1, 1e-9);
}

/* ---- Holm ---- */

/* Holm (1979): sorted p = 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 gives
 * 0.02, 0.03, 0.06, 0.04; the running maximum makes the last 0.06. */
Test(holm, textbook)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, adj[4];
	double want[] = { 0.03, 0.06, 0.06, 0.02 };
	size_t i;

	stats_holm(p, 4, adj);
	for (i = 0; i < 4; i++)
		expect_close(adj[i], want[i], 1e-12);
}

Test(holm, capped_in_place_and_nan)
{
	/* NaN is a test not run: it stays NaN and the others count as 3 */
	double p[] = { 0.5, NAN, 0.2, 0.01 };

	stats_holm(p, 4, p);
	expect_close(p[3], 0.03, 1e-12);
	expect_close(p[2], 0.4, 1e-12);
	expect_close(p[0], 0.5, 1e-12);
	cr_expect(isnan(p[1]));
	p[0] = 0.9;
	p[1] = 0.8;
	stats_holm(p, 2, p);
	cr_expect_eq(p[0], 1.0);
	cr_expect_eq(p[1], 1.0);
	stats_holm(p, 0, p);
}

/* ---- Benjamini-Hochberg ---- */

/* Benjamini and Hochberg (1995), section 4: 15 p-values of a study; at
 * q = 0.05 the step-up procedure rejects the four smallest. Adjusted
 * values: m / k x p_(k), then the running minimum from the largest down
 * (e.g. 0.0201 x 15/5 = 0.0603; 0.0278 x 15/6 = 0.0695 > 0.0298 x 15/7 =
 * 0.063857). Given shuffled, so the result must follow the input order. */
Test(bh, textbook_shuffled)
{
	double p[] = { 0.0298, 1.0, 0.0001, 0.4262, 0.0201, 0.0095, 0.7590, 0.0344,
		       0.0004, 0.5719, 0.0278, 0.0459, 0.0019, 0.3240, 0.6528 };
	double want[] = { 0.4470 / 7, 1.0, 0.0015, 0.5811818181818182, 0.0603, 0.035625,
			  0.8132142857142857, 0.0645, 0.003, 0.714875, 0.4470 / 7, 0.0765,
			  0.0095, 0.486, 0.7532307692307692 };
	double adj[15];
	int rejected = 0;

	stats_bh(p, 15, adj);
	for (size_t i = 0; i < 15; i++) {
		expect_close(adj[i], want[i], 1e-9);
		rejected += adj[i] <= 0.05;
	}
	cr_expect_eq(rejected, 4);
}

Test(bh, capped_in_place_and_nan)
{
	/* NaN is a test not run: it stays NaN and the others count as 3:
	 * 0.01 x 3 = 0.03, 0.2 x 3/2 = 0.3, 0.5 x 3/3 = 0.5 */
	double p[] = { 0.5, NAN, 0.2, 0.01 };

	stats_bh(p, 4, p);
	expect_close(p[3], 0.03, 1e-12);
	expect_close(p[2], 0.3, 1e-12);
	expect_close(p[0], 0.5, 1e-12);
	cr_expect(isnan(p[1]));
	/* four equal p-values: BH leaves them, Holm multiplies by 4 */
	double q[] = { 0.02, 0.02, 0.02, 0.02 }, h[4];
	stats_holm(q, 4, h);
	stats_bh(q, 4, q);
	for (size_t i = 0; i < 4; i++) {
		expect_close(q[i], 0.02, 1e-12);
		expect_close(h[i], 0.08, 1e-12);
	}
	stats_bh(p, 0, p);
}

/* BH never adjusts above Holm (so it rejects whatever Holm rejects), and
 * its smallest adjusted value is Simes' global test: min over k of
 * m p_(k) / k. 500 random vectors of 1-30 p-values, seeded. */
Test(bh, at_most_holm_and_smallest_is_simes)
{
	struct rng rng;
	double p[30], holm[30], bh[30];

	rng_seed(&rng, 7);
	for (int t = 0; t < 500; t++) {
		size_t n = 1 + (size_t)rng_below(&rng, 30);
		for (size_t i = 0; i < n; i++)   /* uniform in [0, 1) or [0, 0.1) */
			p[i] = (double)(rng_next(&rng) >> 11) * 0x1p-53 * (t % 2 ? 1.0 : 0.1);
		stats_holm(p, n, holm);
		stats_bh(p, n, bh);
		double min_bh = 1.0, simes = 1.0;
		for (size_t i = 0; i < n; i++) {
			cr_assert(bh[i] <= holm[i] + 1e-12, "t %d: bh %g > holm %g", t, bh[i], holm[i]);
			cr_assert(bh[i] >= p[i] - 1e-12);
			min_bh = fmin(min_bh, bh[i]);
			size_t k = 1;   /* rank of p[i] among the n (ties: the count at or below) */
			for (size_t j = 0; j < n; j++)
				k += j != i && p[j] <= p[i];
			simes = fmin(simes, (double)n * p[i] / (double)k);
		}
		expect_close(min_bh, simes, 1e-12);
	}
}

/* ---- random numbers ---- */

/* Expected values computed once with an independent Python implementation
 * of splitmix64 and xoshiro256** written from the reference C code of
 * Steele et al. and Blackman & Vigna (prng.di.unimi.it), not from stats.c.
 * The first splitmix64 output for seed 0, 0xe220a8397b1dcdaf, is also the
 * value published with the reference code. */
Test(rng, seed_and_first_outputs)
{
	static const uint64_t want0[] = {
		0x99ec5f36cb75f2b4, 0xbf6e1f784956452a, 0x1a5f849d4933e6e0,
		0x6aa594f1262d2d2c, 0xbba5ad4a1f842e59,
	};
	static const uint64_t want42[] = {
		0x15780b2e0c2ec716, 0x6104d9866d113a7e, 0xae17533239e499a1,
		0xecb8ad4703b360a1, 0xfde6dc7fe2ec5e64,
	};
	struct rng rng;
	size_t i;

	rng_seed(&rng, 0);
	cr_expect_eq(rng.s[0], UINT64_C(0xe220a8397b1dcdaf));
	cr_expect_eq(rng.s[3], UINT64_C(0xf88bb8a8724c81ec));
	for (i = 0; i < 5; i++)
		cr_expect_eq(rng_next(&rng), want0[i], "seed 0, output %zu", i);
	rng_seed(&rng, 42);
	for (i = 0; i < 5; i++)
		cr_expect_eq(rng_next(&rng), want42[i], "seed 42, output %zu", i);
}

/* Same Python reference: rejection below 2^64 mod bound, then modulo. */
Test(rng, below_known_values)
{
	static const uint64_t want[] = { 994, 674, 638, 664, 664, 721, 716, 196 };
	struct rng rng;
	size_t i;

	rng_seed(&rng, 7);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		cr_expect_eq(rng_below(&rng, 1000), want[i]);
}

Test(rng, below_stays_in_range)
{
	static const uint64_t bounds[] = {
		1, 2, 3, 7, 1000, (UINT64_C(1) << 63) + 1, UINT64_MAX,
	};
	struct rng rng;
	size_t b, i;

	rng_seed(&rng, 1);
	for (b = 0; b < ARRAY_SIZE(bounds); b++)
		for (i = 0; i < 2000; i++)
			cr_assert_lt(rng_below(&rng, bounds[b]), bounds[b]);
}

Test(rng, below_is_roughly_uniform)
{
	/* 60000 draws in 6 cells: 10000 each, sd ~ 91; the fixed seed makes
	 * this deterministic, and 400 is more than four sd. */
	struct rng rng;
	unsigned count[6] = { 0 };
	size_t i;

	rng_seed(&rng, 3);
	for (i = 0; i < 60000; i++)
		count[rng_below(&rng, 6)]++;
	for (i = 0; i < 6; i++)
		cr_expect(count[i] > 9600 && count[i] < 10400, "cell %zu: %u", i, count[i]);
}

Test(rng, shuffle_is_a_permutation)
{
	static const size_t sizes[] = { 0, 1, 2, 10, 1000 };
	size_t items[1000], seen[1000], s, i;
	struct rng rng;

	rng_seed(&rng, 11);
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		for (i = 0; i < sizes[s]; i++)
			items[i] = i;
		rng_shuffle(&rng, items, sizes[s]);
		memset(seen, 0, sizeof seen);
		for (i = 0; i < sizes[s]; i++) {
			cr_assert_lt(items[i], sizes[s]);
			cr_assert_eq(seen[items[i]]++, 0, "%zu appears twice", items[i]);
		}
	}
}

Test(rng, shuffle_known_order)
{
	/* same Python reference: Fisher-Yates from the top, j = below(i) */
	static const size_t want[] = { 7, 3, 8, 9, 5, 6, 4, 1, 0, 2 };
	size_t items[10], i;
	struct rng rng;

	for (i = 0; i < 10; i++)
		items[i] = i;
	rng_seed(&rng, 42);
	rng_shuffle(&rng, items, 10);
	for (i = 0; i < 10; i++)
		cr_expect_eq(items[i], want[i]);
}

/* stats_paired.c: the Wilcoxon signed-rank test for paired samples (A/B
 * runs, where round i of A and of B ran back to back). Wilcoxon (1945);
 * exact null law and tie correction as in Hollander, Wolfe & Chicken,
 * Nonparametric Statistical Methods, 3rd ed., sec. 3.1. */
#include <math.h>
#include <stdlib.h>

#include "decide/stats.h"

/* Largest n for the exact law: 2^50 subsets still count exactly in a
 * double, and the table has n(n+1)/2 + 1 = 1276 entries. */
#define EXACT_W_MAX 50

struct ranked {
	double magnitude;
	int positive;
};

static int compare_magnitude(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->magnitude, y = ((const struct ranked *)b)->magnitude;
	return (x > y) - (x < y);
}

/* W+ (sum of the ranks of the positive differences, ties at their average
 * rank) over the nonzero finite D; writes the count used and the tie term
 * sum(t^3 - t). Returns 0, or -1 on no memory. */
static int signed_ranks(const double *d, size_t n, double *w_plus, size_t *used, double *ties)
{
	struct ranked *v = malloc((n + 1) * sizeof *v);
	size_t m = 0;
	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (isfinite(d[i]) && d[i] != 0)
			v[m++] = (struct ranked){ fabs(d[i]), d[i] > 0 };
	qsort(v, m, sizeof *v, compare_magnitude);
	*w_plus = 0;
	*ties = 0;
	for (size_t i = 0; i < m;) {
		size_t j = i + 1;
		while (j < m && v[j].magnitude == v[i].magnitude)
			j++;
		double rank = (double)(i + 1 + j) / 2.0, t = (double)(j - i);
		for (size_t k = i; k < j; k++)
			*w_plus += v[k].positive ? rank : 0;
		*ties += t * t * t - t;
		i = j;
	}
	*used = m;
	free(v);
	return 0;
}

/* P(W+ >= W) under the null for N differences without ties: the number of
 * subsets of the ranks 1..N whose sum is at least W, over 2^N. */
static double exact_upper(size_t n, size_t w)
{
	size_t top = n * (n + 1) / 2;
	double *count = calloc(top + 1, sizeof *count), tail = 0;
	if (!count)
		return NAN;
	count[0] = 1;
	for (size_t r = 1; r <= n; r++)
		for (size_t s = top; s >= r; s--)
			count[s] += count[s - r];
	for (size_t s = w; s <= top; s++)
		tail += count[s];
	free(count);
	return ldexp(tail, -(int)n);
}

double stats_signed_rank_p_greater(const double *d, size_t n)
{
	double w, ties;
	size_t m;
	if (signed_ranks(d, n, &w, &m, &ties) || m == 0)
		return NAN;
	if (ties == 0 && m <= EXACT_W_MAX)
		return exact_upper(m, (size_t)w);
	double mean = (double)m * (double)(m + 1) / 4.0;
	double var = (double)m * (double)(m + 1) * (double)(2 * m + 1) / 24.0 - ties / 48.0;
	if (!(var > 0))
		return w > mean ? 0.0 : 1.0;
	double z = (w - mean - 0.5) / sqrt(var);   /* continuity correction */
	return 0.5 * erfc(z / sqrt(2.0));
}

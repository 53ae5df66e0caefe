/* stats.c: distribution-free statistics for the gate (contract in stats.h).
 *
 * NaN marks a failed sample (see struct series in result.h), so every
 * function here drops NaN values before it counts or ranks anything. The
 * functions that need sorted copies allocate them; when that fails they
 * return NaN or -1 and never abort.
 *
 * Sources:
 *   Conover, Practical Nonparametric Statistics, 3rd ed. (1999), sec. 3.2:
 *     confidence interval for a quantile from binomial order statistics.
 *   Mann & Whitney, Ann. Math. Statist. 18 (1947) 50-60: the U statistic
 *     and the recurrence for its null distribution.
 *   Hollander, Wolfe & Chicken, Nonparametric Statistical Methods, 3rd ed.
 *     (2014), sec. 4.1 (normal approximation with ties) and 4.3
 *     (Hodges-Lehmann estimate and Moses interval for a shift).
 *   Holm, Scand. J. Statist. 6 (1979) 65-70: step-down adjustment.
 *   Blackman & Vigna, "Scrambled linear pseudorandom number generators"
 *     (2018), xoshiro256**; Steele, Lea & Flood (OOPSLA 2014), splitmix64.
 */
#include "decide/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Coverages are sums of binomial or U probabilities; one that equals the
 * requested level on paper may miss it by a rounding error. */
#define LEVEL_SLACK 1e-12

/* Up to this size per sample (and without ties) U's null distribution is
 * tabulated exactly; the table has (50 + 1) * (50 * 50 + 1) doubles, 1 MiB. */
#define EXACT_U_MAX 50

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorted copy of the non-NaN values; *KEPT says how many. NULL when the
 * allocation fails (an all-NaN input still gets a buffer). */
static double *sorted_copy(const double *values, size_t n, size_t *kept)
{
	double *v = malloc((n ? n : 1) * sizeof *v);
	size_t i, m = 0;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++)
		if (!isnan(values[i]))
			v[m++] = values[i];
	qsort(v, m, sizeof *v, compare_double);
	*kept = m;
	return v;
}

/* Median of M >= 1 sorted values; halves before adding so that two huge
 * values do not overflow. */
static double sorted_median(const double *v, size_t m)
{
	if (m % 2)
		return v[m / 2];
	return 0.5 * v[m / 2 - 1] + 0.5 * v[m / 2];
}

double stats_median(const double *values, size_t n)
{
	size_t m;
	double *v = sorted_copy(values, n, &m);
	double median;

	if (!v)
		return NAN;
	median = m ? sorted_median(v, m) : NAN;
	free(v);
	return median;
}

/* Largest rank K <= (N + 1) / 2 such that [x_(K), x_(N-K+1)] covers the
 * median with probability 1 - 2 P(B <= K - 1) >= LEVEL, B ~ Binom(N, 1/2)
 * (Conover 3.2). The binomial terms are walked in log space: 2^-N
 * underflows a double beyond N = 1074. Writes the coverage of the chosen K;
 * *OK is 0 when even K = 1 (min and max) falls short of LEVEL. */
static size_t median_ci_rank(size_t n, double level, double *coverage, int *ok)
{
	double log_term = -(double)n * log(2.0); /* log P(B = 0) */
	double cdf = exp(log_term), next_cdf;
	size_t k = 1;

	*coverage = 1.0 - 2.0 * cdf;
	*ok = *coverage >= level - LEVEL_SLACK;
	if (!*ok)
		return 1;
	while (k + 1 <= (n + 1) / 2) {
		/* P(B = k) = P(B = k - 1) * (n - k + 1) / k */
		log_term += log((double)(n - k + 1)) - log((double)k);
		next_cdf = cdf + exp(log_term);
		if (1.0 - 2.0 * next_cdf < level - LEVEL_SLACK)
			break;
		cdf = next_cdf;
		*coverage = 1.0 - 2.0 * cdf;
		k++;
	}
	return k;
}

int stats_median_ci(const double *values, size_t n, double level,
		    double *low, double *high, double *coverage)
{
	size_t m, k;
	double *v;
	int ok;

	*low = *high = NAN;
	*coverage = 0.0;
	v = sorted_copy(values, n, &m);
	if (!v)
		return -1;
	if (!m) {
		free(v);
		return -1;
	}
	k = median_ci_rank(m, level, coverage, &ok);
	*low = v[k - 1];
	*high = v[m - k];
	free(v);
	return ok ? 0 : -1;
}

double stats_mann_whitney_u(const double *x, size_t nx, const double *y, size_t ny)
{
	double u = 0.0;
	size_t i, j;

	/* Direct pair count: no allocation, and the samples of one gate
	 * series are tens to hundreds of values. */
	for (i = 0; i < nx; i++) {
		if (isnan(x[i]))
			continue;
		for (j = 0; j < ny; j++) {
			if (x[i] > y[j])
				u += 1.0;
			else if (x[i] == y[j])
				u += 0.5;
		}
	}
	return u;
}

/* P(U <= u) for u = 0 .. M*N, samples of M and N values without ties. The
 * number of the C(M+N, M) orderings with U = u follows Mann & Whitney's
 * recurrence f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u): the largest value
 * of the pooled sample is either an x (above all j y's) or a y. Counts are
 * doubles: C(100, 50) ~ 1e29 exceeds 64 bits, and with additions only the
 * relative error stays near machine epsilon. Row j of the table holds
 * f(i, j, .) for the current i. Returns NULL when the allocation fails. */
static double *u_null_cdf(size_t m, size_t n)
{
	size_t width = m * n + 1, i, j, u;
	double *f = calloc((n + 1) * width, sizeof *f), total = 0.0, run = 0.0;

	if (!f)
		return NULL;
	for (j = 0; j <= n; j++)
		f[j * width] = 1.0; /* i = 0: U is 0 */
	for (i = 1; i <= m; i++) {
		for (j = 1; j <= n; j++) {
			double *cur = f + j * width, *prev = f + (j - 1) * width;

			/* Downwards, so cur[u - j] is still f(i - 1, j, .). */
			for (u = i * j + 1; u-- > 0;)
				cur[u] = (u >= j ? cur[u - j] : 0.0) + prev[u];
		}
	}
	for (u = 0; u < width; u++)
		total += f[n * width + u];
	for (u = 0; u < width; u++) {
		run += f[n * width + u];
		f[u] = run / total; /* row 0 is no longer needed */
	}
	return f;
}

/* Standard normal distribution function. */
static double normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/* One value of the pooled sample, remembering which sample it came from. */
struct pooled {
	double value;
	int from_x;
};

static int compare_pooled(const void *a, const void *b)
{
	return compare_double(&((const struct pooled *)a)->value,
			      &((const struct pooled *)b)->value);
}

/* Ranks the pooled non-NaN values (midranks for ties) and writes U_x,
 * the sample sizes and sum(t^3 - t) over tie groups. -1 when the
 * allocation fails. */
static int rank_pooled(const double *x, size_t nx, const double *y, size_t ny,
		       double *u, size_t *mx, size_t *my, double *ties)
{
	struct pooled *p = malloc((nx + ny ? nx + ny : 1) * sizeof *p);
	size_t i, j, n = 0, in_x;
	double rank_sum = 0.0, t;

	if (!p)
		return -1;
	for (i = 0; i < nx; i++)
		if (!isnan(x[i]))
			p[n++] = (struct pooled){ x[i], 1 };
	*mx = n;
	for (i = 0; i < ny; i++)
		if (!isnan(y[i]))
			p[n++] = (struct pooled){ y[i], 0 };
	*my = n - *mx;
	qsort(p, n, sizeof *p, compare_pooled);
	*ties = 0.0;
	for (i = 0; i < n; i = j) {
		for (j = i, in_x = 0; j < n && p[j].value == p[i].value; j++)
			in_x += (size_t)p[j].from_x;
		t = (double)(j - i);
		/* ranks i+1 .. j share their mean */
		rank_sum += (double)in_x * ((double)(i + 1) + (double)j) / 2.0;
		*ties += t * t * t - t;
	}
	*u = rank_sum - (double)*mx * ((double)*mx + 1.0) / 2.0;
	free(p);
	return 0;
}

/* P(U >= u) under the normal approximation with the tie correction of the
 * variance and a continuity correction (Hollander, Wolfe & Chicken 4.1). */
static double u_normal_upper(size_t m, size_t n, double u, double ties)
{
	double dm = (double)m, dn = (double)n, big_n = dm + dn;
	double var = dm * dn / 12.0 * ((big_n + 1.0) - ties / (big_n * (big_n - 1.0)));

	if (!(var > 0.0))
		return 1.0; /* every value tied: U sits at its mean */
	return 1.0 - normal_cdf((u - dm * dn / 2.0 - 0.5) / sqrt(var));
}

double stats_mann_whitney_p_greater(const double *x, size_t nx, const double *y, size_t ny)
{
	size_t mx, my, small, large, u_low;
	double u, ties, p, *cdf;

	if (rank_pooled(x, nx, y, ny, &u, &mx, &my, &ties) < 0)
		return NAN;
	if (!mx || !my)
		return NAN;
	if (ties > 0.0 || mx > EXACT_U_MAX || my > EXACT_U_MAX)
		return u_normal_upper(mx, my, u, ties);
	small = mx < my ? mx : my;
	large = mx < my ? my : mx;
	cdf = u_null_cdf(large, small); /* U's law is symmetric in (m, n) */
	if (!cdf)
		return NAN;
	/* P(U >= u) = P(U <= mn - u) by symmetry: no 1 - cdf cancellation
	 * in the small tail that matters. */
	u_low = mx * my - (size_t)u;
	p = cdf[u_low];
	free(cdf);
	return p;
}

/* The null law of U for the Moses interval: an exact table (cdf) for small
 * samples, else the normal approximation (cdf NULL). */
struct u_law {
	size_t m, n;
	double *cdf;
};

/* P(U <= u) under LAW. */
static double u_law_cdf(const struct u_law *law, size_t u)
{
	double mn = (double)law->m * (double)law->n;
	double sd = sqrt(mn * ((double)law->m + (double)law->n + 1.0) / 12.0);

	if (law->cdf)
		return law->cdf[u];
	return normal_cdf(((double)u + 0.5 - mn / 2.0) / sd);
}

/* Largest K <= ceil(mn / 2) with coverage 1 - 2 P(U <= K - 1) >= LEVEL for
 * the interval [D_(K), D_(mn-K+1)] of the sorted pairwise differences
 * (Hollander, Wolfe & Chicken 4.3, C_alpha = K). Coverage falls as K
 * grows, so a binary search finds it; *OK is 0 when K = 1 falls short. */
static size_t moses_rank(const struct u_law *law, double level, int *ok)
{
	size_t lo = 1, hi = (law->m * law->n + 1) / 2, mid;

	*ok = 1.0 - 2.0 * u_law_cdf(law, 0) >= level - LEVEL_SLACK;
	if (!*ok)
		return 1;
	while (lo < hi) { /* coverage(lo) >= level throughout */
		mid = lo + (hi - lo + 1) / 2;
		if (1.0 - 2.0 * u_law_cdf(law, mid - 1) >= level - LEVEL_SLACK)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Sorted logs of the non-NaN values. *BAD is set when a value is <= 0 or
 * infinite (no ratio can be formed); NULL when the allocation fails. */
static double *sorted_logs(const double *values, size_t n, size_t *kept, int *bad)
{
	double *v = sorted_copy(values, n, kept);
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < *kept; i++) {
		if (!(v[i] > 0.0) || isinf(v[i]))
			*bad = 1;
		else
			v[i] = log(v[i]);
	}
	return v;
}

/* Maps a finite double to an unsigned key with the same order, so that a
 * binary search over keys walks every double between two values. */
static uint64_t order_key(double d)
{
	uint64_t b;

	memcpy(&b, &d, sizeof b);
	return (b >> 63) ? ~b : b | (UINT64_C(1) << 63);
}

static double key_value(uint64_t key)
{
	uint64_t b = (key >> 63) ? key & ~(UINT64_C(1) << 63) : ~key;
	double d;

	memcpy(&d, &b, sizeof d);
	return d;
}

/* Number of pairs with lx[i] - ly[j] <= T, both arrays sorted: for each i
 * the qualifying j form a suffix of ly that only shrinks as i grows
 * (rounding is monotone, so this holds for the computed differences). */
static size_t pairs_at_most(const double *lx, size_t mx, const double *ly, size_t my, double t)
{
	size_t i, j = 0, count = 0;

	for (i = 0; i < mx; i++) {
		while (j < my && lx[i] - ly[j] > t)
			j++;
		count += my - j;
	}
	return count;
}

/* K-th smallest (1-based) of the mx * my differences lx[i] - ly[j] without
 * forming them: binary search over the order keys of doubles (at most 64
 * steps of O(mx + my)), so memory stays linear in the sample sizes. */
static double kth_difference(const double *lx, size_t mx, const double *ly, size_t my, size_t k)
{
	uint64_t lo = order_key(lx[0] - ly[my - 1]);
	uint64_t hi = order_key(lx[mx - 1] - ly[0]), mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pairs_at_most(lx, mx, ly, my, key_value(mid)) >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return key_value(lo);
}

/* Fills the estimate and bounds from the sorted logs; 0, or -1 when the
 * exact table cannot be allocated or the samples are too small. */
static int ratio_from_logs(const double *lx, size_t mx, const double *ly, size_t my,
			   double level, double *estimate, double *low, double *high)
{
	size_t pairs = mx * my, k;
	struct u_law law = { mx, my, NULL };
	double mid;
	int ok;

	if (mx <= EXACT_U_MAX && my <= EXACT_U_MAX) {
		law.cdf = u_null_cdf(mx, my);
		if (!law.cdf)
			return -1;
	}
	k = moses_rank(&law, level, &ok);
	free(law.cdf);
	mid = kth_difference(lx, mx, ly, my, (pairs + 1) / 2);
	if (pairs % 2 == 0)
		mid = 0.5 * mid + 0.5 * kth_difference(lx, mx, ly, my, pairs / 2 + 1);
	*estimate = exp(mid);
	*low = exp(kth_difference(lx, mx, ly, my, k));
	*high = exp(kth_difference(lx, mx, ly, my, pairs - k + 1));
	return ok ? 0 : -1;
}

int stats_ratio_ci(const double *x, size_t nx, const double *y, size_t ny,
		   double level, double *estimate, double *low, double *high)
{
	size_t mx = 0, my = 0;
	int bad = 0, ret = -1;
	double *lx = sorted_logs(x, nx, &mx, &bad);
	double *ly = sorted_logs(y, ny, &my, &bad);

	*estimate = *low = *high = NAN;
	if (!lx || !ly || bad || !mx || !my)
		goto out;
	if (mx > SIZE_MAX / my)
		goto out;
	ret = ratio_from_logs(lx, mx, ly, my, level, estimate, low, high);
out:
	free(lx);
	free(ly);
	return ret;
}

/* A p-value and where it came from, for sorting without losing the index. */
struct ranked_p {
	double p;
	size_t index;
};

/* Ascending p, NaN last, ties by index so the order is deterministic. */
static int compare_ranked_p(const void *a, const void *b)
{
	const struct ranked_p *x = a, *y = b;

	if (isnan(x->p) != isnan(y->p))
		return isnan(x->p) ? 1 : -1;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* ORDER: P's N entries by ascending p (NaN last); returns how many are
 * not NaN (the hypotheses tested), or SIZE_MAX when out of memory. */
static size_t rank_p(const double *p, size_t n, struct ranked_p **order)
{
	size_t tested = 0;
	*order = malloc((n ? n : 1) * sizeof **order);
	if (!*order)
		return SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		(*order)[i] = (struct ranked_p){ p[i], i };
		tested += !isnan(p[i]);
	}
	qsort(*order, n, sizeof **order, compare_ranked_p);
	return tested;
}

/* Bonferroni: bounds Holm and Benjamini-Hochberg from above, a valid
 * adjustment when there is no memory to sort. */
static void bonferroni(const double *p, size_t n, double *adjusted)
{
	size_t tested = 0;
	for (size_t i = 0; i < n; i++)
		tested += !isnan(p[i]);
	for (size_t i = 0; i < n; i++)
		adjusted[i] = isnan(p[i]) ? NAN : fmin(1.0, (double)tested * p[i]);
}

void stats_holm(const double *p, size_t n, double *adjusted)
{
	struct ranked_p *order;
	size_t tested = rank_p(p, n, &order);
	double running = 0.0, v;

	/* A NaN p-value is a test that was not run: it stays NaN and does not
	 * count among the hypotheses. */
	if (tested == SIZE_MAX) {
		bonferroni(p, n, adjusted);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (i >= tested) {
			adjusted[order[i].index] = NAN;
			continue;
		}
		/* the i-th smallest of TESTED p-values is multiplied by
		 * TESTED - i; the running maximum keeps the result monotone */
		v = (double)(tested - i) * order[i].p;
		running = v > running ? v : running;
		adjusted[order[i].index] = fmin(1.0, running);
	}
	free(order);
}

void stats_bh(const double *p, size_t n, double *adjusted)
{
	struct ranked_p *order;
	size_t tested = rank_p(p, n, &order);
	double running = 1.0;

	if (tested == SIZE_MAX) {
		bonferroni(p, n, adjusted);
		return;
	}
	for (size_t i = tested; i < n; i++)
		adjusted[order[i].index] = NAN;
	/* step-up: the k-th smallest (1-based) is multiplied by TESTED / k,
	 * and the running minimum from the largest down keeps it monotone */
	for (size_t k = tested; k >= 1; k--) {
		double v = (double)tested / (double)k * order[k - 1].p;
		running = v < running ? v : running;
		adjusted[order[k - 1].index] = running;
	}
	free(order);
}

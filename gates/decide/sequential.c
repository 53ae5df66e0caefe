/* sequential.c: looks, the futility and the efficacy rule of `gate ab`
 * (sequential.h). */
#include <math.h>
#include <stdlib.h>

#include "decide/sequential.h"
#include "decide/stats.h"

/* The log ratios log(b_i / a_i) of the N rounds that are usable (both
 * values finite and positive) into LOGS; returns how many. */
static size_t usable_logs(const double *b, const double *a, size_t n, double *logs)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (stats_pair_usable(b[i], a[i]))
			logs[m++] = log(b[i] / a[i]);
	return m;
}

size_t seq_looks(size_t rounds, size_t *looks)
{
	size_t n = 0;
	for (size_t i = 0; i < SEQ_LOOKS; i++) {
		size_t at = (size_t)lround((SEQ_FIRST_LOOK + SEQ_LOOK_STEP * (double)i) / 61 *
					   (double)rounds);
		if (at < SEQ_MIN_ROUNDS || at >= rounds || (n && at <= looks[n - 1]))
			continue;
		looks[n++] = at;
	}
	return n;
}

double seq_claim_level(size_t looks)
{
	return 1 - SEQ_CLAIM_LOOKS_ALPHA / (double)(looks ? looks : 1);
}

bool seq_within_min_effect(const double *b, const double *a, size_t n, double min_effect)
{
	double *ratio = malloc((n + 1) * sizeof *ratio), low, high, coverage;
	size_t m = 0;
	if (!ratio)
		return false;
	for (size_t i = 0; i < n; i++)
		if (stats_pair_usable(b[i], a[i]))
			ratio[m++] = b[i] / a[i];
	bool within = m >= SEQ_MIN_ROUNDS &&
		      stats_median_ci(ratio, m, SEQ_LEVEL, &low, &high, &coverage) == 0 &&
		      low > 1 / (1 + min_effect) && high < 1 + min_effect;
	free(ratio);
	return within;
}

/* The one-sided normal quantile z with P(Z > z) = P, by bisection (0 < P < 1). */
static double upper_quantile(double p)
{
	double lo = -10, hi = 10;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		if (0.5 * erfc(mid / sqrt(2.0)) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double seq_conditional_power(const double *logs, size_t m, size_t future, double min_effect,
			     double alpha)
{
	double *d = malloc((m + 1) * sizeof *d);
	if (!d || m == 0) {
		free(d);
		return 1;
	}
	double theta = stats_median(logs, m), effect = log1p(min_effect);
	for (size_t i = 0; i < m; i++)
		d[i] = fabs(logs[i] - theta);
	double s = 1.4826 * stats_median(d, m);
	free(d);
	double n_final = (double)(m + future);
	/* the median the final test needs: the minimum effect, and far enough
	 * above 0 for its one-sided test at ALPHA (the test's own spread taken
	 * as s / sqrt(n), smaller than the median's: the bar is set low, so the
	 * power estimated is high and the rule stops less) */
	double bar = fmax(effect, upper_quantile(alpha) * s / sqrt(n_final));
	if (future == 0)
		return theta >= bar ? 1 : 0;
	/* the final median taken as the rounds' weighted mean: these rounds'
	 * median and the rounds to come at the minimum effect, their median's
	 * spread 1.2533 s / sqrt(future) */
	double mean = ((double)m * theta + (double)future * effect) / n_final;
	double spread = 1.2533 * s * sqrt((double)future) / n_final;
	if (!(spread > 0))
		return mean >= bar ? 1 : 0;
	return 0.5 * erfc((bar - mean) / (spread * sqrt(2.0)));
}

bool seq_settled(const double *b, const double *a, size_t n, size_t budget, double min_effect,
		 double alpha)
{
	double *logs = malloc((n + 1) * sizeof *logs);
	if (!logs)
		return false;
	size_t m = usable_logs(b, a, n, logs);
	bool settled = m >= SEQ_MIN_ROUNDS &&
		       (seq_within_min_effect(b, a, n, min_effect) ||
			seq_conditional_power(logs, m, budget > n ? budget - n : 0, min_effect,
					      alpha) < SEQ_FUTILITY_POWER);
	free(logs);
	return settled;
}

/* Whether the usable rounds of B and A (N of BUDGET's looks) are beyond
 * doubt at ALPHA spent over the looks: a median ratio of at least 1 +
 * MIN_EFFECT and the one-sided signed-rank p of B > A below a look's share
 * of ALPHA, or, with BOTH_WAYS, the mirror image. */
static bool beyond_doubt(const double *b, const double *a, size_t n, size_t budget,
			 double min_effect, double alpha, bool both_ways)
{
	size_t at[SEQ_LOOKS], looks = seq_looks(budget, at);
	double *logs = malloc((n + 1) * sizeof *logs);
	if (!logs || !looks) {
		free(logs);
		return false;
	}
	size_t m = usable_logs(b, a, n, logs);
	bool decided = false;
	if (m >= SEQ_MIN_ROUNDS) {
		double level = alpha / (double)looks, effect = log1p(min_effect);
		double median = stats_median(logs, m);
		if (median >= effect) {
			decided = stats_signed_rank_p_greater(logs, m) < level;
		} else if (both_ways && median <= -effect) {
			for (size_t i = 0; i < m; i++)
				logs[i] = -logs[i];
			decided = stats_signed_rank_p_greater(logs, m) < level;
		}
	}
	free(logs);
	return decided;
}

bool seq_efficacious(const double *b, const double *a, size_t n, size_t budget,
		     double min_effect)
{
	return beyond_doubt(b, a, n, budget, min_effect, SEQ_EFFICACY_ALPHA, true);
}

bool seq_confirmed(const double *b, const double *a, size_t n, size_t budget,
		   double min_effect)
{
	return beyond_doubt(b, a, n, budget, min_effect, SEQ_CONFIRM_ALPHA, false);
}

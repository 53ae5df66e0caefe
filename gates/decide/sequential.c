/* sequential.c: looks and the futility rule of `gate ab` (sequential.h). */
#include <math.h>
#include <stdlib.h>

#include "decide/sequential.h"
#include "decide/stats.h"

static const double look_fraction[SEQ_LOOKS] = { 11.0 / 61, 21.0 / 61, 41.0 / 61 };

size_t seq_looks(size_t rounds, size_t *looks)
{
	size_t n = 0;
	for (size_t i = 0; i < SEQ_LOOKS; i++) {
		size_t at = (size_t)lround(look_fraction[i] * (double)rounds);
		if (at < SEQ_MIN_ROUNDS || at >= rounds || (n && at <= looks[n - 1]))
			continue;
		looks[n++] = at;
	}
	return n;
}

bool seq_within_min_effect(const double *b, const double *a, size_t n, double min_effect)
{
	double *ratio = malloc((n + 1) * sizeof *ratio), low, high, coverage;
	size_t m = 0;
	if (!ratio)
		return false;
	for (size_t i = 0; i < n; i++)
		if (isfinite(b[i]) && isfinite(a[i]) && b[i] > 0 && a[i] > 0)
			ratio[m++] = b[i] / a[i];
	bool within = m >= SEQ_MIN_ROUNDS &&
		      stats_median_ci(ratio, m, SEQ_LEVEL, &low, &high, &coverage) == 0 &&
		      low > 1 / (1 + min_effect) && high < 1 + min_effect;
	free(ratio);
	return within;
}

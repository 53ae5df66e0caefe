/* reference.c: the machine's move since the baseline (reference.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/reference.h"
#include "decide/stats.h"

static void compare_part(struct reference_part *now, const struct reference_part *base)
{
	double ratio, low, high;
	now->baseline_median = stats_median(base->samples, base->count);
	if (now->count < REFERENCE_MIN_SAMPLES || base->count < REFERENCE_MIN_SAMPLES ||
	    stats_ratio_ci(now->samples, now->count, base->samples, base->count, 0.95, &ratio,
			   &low, &high))
		return;
	now->change = ratio - 1;
	now->ci_low = low;
	now->ci_high = high;
}

void reference_compare(struct reference *now, const struct reference *base,
		       bool same_hardware)
{
	bool measured = false, compared = false;
	now->state = REFERENCE_NOT_COMPARED;
	now->shift = 0;
	now->shift_part = REFERENCE_CPU;
	for (int i = 0; i < REFERENCE_PARTS; i++) {
		struct reference_part *p = &now->part[i];
		p->median = stats_median(p->samples, p->count);
		p->baseline_median = p->change = p->ci_low = p->ci_high = NAN;
		measured |= p->count > 0;
		if (!base || !same_hardware)
			continue;
		compare_part(p, &base->part[i]);
		compared |= isfinite(p->change);
		if (isfinite(p->ci_low) && p->ci_low > 1 + REFERENCE_MOVE_MIN &&
		    p->change > now->shift) {
			now->shift = p->change;
			now->shift_part = (enum reference_part_id)i;
		}
	}
	if (!measured || !base || !same_hardware)
		return;
	if (!compared) {
		bool base_has = false;
		for (int i = 0; i < REFERENCE_PARTS; i++)
			base_has |= base->part[i].count > 0;
		if (!base_has)
			now->state = REFERENCE_NO_BASELINE;
		return;
	}
	now->state = now->shift > 0 ? REFERENCE_MOVED : REFERENCE_HOLDS;
}

/* A timing series of R that the uniform rule may fail: compared with an
 * interval (neither disturbed nor skipped), not a scheduler count. */
static bool uniform_candidate(const struct series *s)
{
	return s->cls == METRIC_TIMING && s->has_baseline && isfinite(s->change) &&
	       isfinite(s->ci_low) && !result_metric_is_scheduling(s->metric) &&
	       (s->verdict == VERDICT_PASS || s->verdict == VERDICT_FAIL ||
		s->verdict == VERDICT_INCONCLUSIVE);
}

size_t reference_settle_uniform(struct run_result *r, const struct run_policy *pol)
{
	const struct reference *ref = &r->reference;
	size_t n, slower = 0, failed = 0;
	if (ref->state != REFERENCE_HOLDS)
		return 0;
	double *change = calloc(r->series_count + 1, sizeof *change);
	if (!change)
		return 0;
	n = 0;
	for (size_t i = 0; i < r->series_count; i++)
		if (uniform_candidate(&r->series[i])) {
			change[n++] = r->series[i].change;
			slower += r->series[i].ci_low > 1;
		}
	double shift = stats_median(change, n);
	free(change);
	if (n < RESULT_SHIFT_MIN_SERIES || !(shift >= pol->min_effect) || 2 * slower <= n)
		return 0;
	char parts[160] = "";
	size_t len = 0;
	for (int i = 0; i < REFERENCE_PARTS && len < sizeof parts; i++)
		if (isfinite(ref->part[i].change))
			len += (size_t)snprintf(parts + len, sizeof parts - len, "%s%s %+.1f%%",
						len ? ", " : "",
						result_reference_part_name((enum reference_part_id)i),
						100 * ref->part[i].change);
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *s = &r->series[i];
		if (!uniform_candidate(s) || s->verdict == VERDICT_FAIL || !(s->ci_low > 1) ||
		    !(s->change >= pol->min_effect))
			continue;
		char note[600];
		snprintf(note, sizeof note, "the code slowed as a whole: %zu of the %zu compared "
			 "timing series are slower, by a median of %+.1f%%, while the reference "
			 "workload held (%s); this one %+.1f%% [%+.1f%%, %+.1f%%]%s%s", slower, n,
			 100 * shift, parts, 100 * s->change, 100 * (s->ci_low - 1),
			 100 * (s->ci_high - 1), s->note ? "; alone: " : "", s->note ? s->note : "");
		s->verdict = VERDICT_FAIL;
		free(s->note);
		s->note = strdup(note);
		failed++;
	}
	return failed;
}

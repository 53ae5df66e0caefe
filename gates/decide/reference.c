/* reference.c: the machine's move since the baseline (reference.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/reference.h"
#include "decide/stats.h"
#include "core/group_key.h"

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

/* NOW->faster: every part's whole interval below 1, and the one that sped
 * up most by REFERENCE_MOVE_MIN or more (its interval's upper bound). */
static void mark_faster(struct reference *now)
{
	int fastest = -1;
	for (int i = 0; i < REFERENCE_PARTS; i++) {
		const struct reference_part *p = &now->part[i];
		if (!(p->ci_high < 1))
			return;
		if (fastest < 0 || p->change < now->part[fastest].change)
			fastest = i;
	}
	if (fastest >= 0 && now->part[fastest].ci_high < 1 - REFERENCE_MOVE_MIN) {
		now->faster = true;
		now->faster_part = (enum reference_part_id)fastest;
	}
}

void reference_compare(struct reference *now, const struct reference *base,
		       bool same_hardware)
{
	bool measured = false, compared = false, steady = true;
	now->state = REFERENCE_NOT_COMPARED;
	now->shift = 0;
	now->shift_part = REFERENCE_CPU;
	now->code_shift = 0;
	now->bound = 1;
	now->faster = false;
	for (int i = 0; i < REFERENCE_PARTS; i++) {
		struct reference_part *p = &now->part[i];
		p->median = stats_median(p->samples, p->count);
		p->baseline_median = p->change = p->ci_low = p->ci_high = NAN;
		measured |= p->count > 0;
		if (!base || !same_hardware)
			continue;
		compare_part(p, &base->part[i]);
		compared |= isfinite(p->change);
		steady &= !isfinite(p->change) || p->ci_high < 1 + REFERENCE_MOVE_MIN;
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
	now->state = now->shift > 0 ? REFERENCE_MOVED : steady ? REFERENCE_HOLDS : REFERENCE_UNSURE;
	mark_faster(now);
}

/* A timing series of R that the uniform rule may fail: compared with an
 * interval (neither disturbed nor skipped), or advisory with one (its
 * baseline drifted too much to gate it alone), not a scheduler count. */
static bool uniform_candidate(const struct series *s)
{
	return s->cls == METRIC_TIMING && s->has_baseline && isfinite(s->change) &&
	       isfinite(s->ci_low) && !result_metric_is_scheduling(s->metric) &&
	       (s->verdict == VERDICT_PASS || s->verdict == VERDICT_FAIL ||
		s->verdict == VERDICT_INCONCLUSIVE ||
		(s->verdict == VERDICT_SKIPPED && s->advisory));
}

/* uniform_candidate as a group_key_pick. */
static bool pick_candidate(const struct series *s, const void *arg)
{
	(void)arg;
	return uniform_candidate(s);
}

/* Over the groups that have candidates: how many (*GROUPS), how many are
 * slower (their median change, divided by BOUND, above 1; *SLOWER) and
 * the median of the groups' median changes (returned; NaN on no memory).
 * A group by its median, not by how many of its series' intervals lie
 * above 1: one group's series are not independent, and advisory ones,
 * against a baseline whose batches drifted, have intervals reaching below
 * 1 while their group slowed as a whole (docs/noise.md). */
static double group_changes(const struct run_result *r, double bound, size_t *groups,
			    size_t *slower)
{
	double *group_median = calloc(r->series_count + 1, sizeof *group_median);
	double *change = calloc(r->series_count + 1, sizeof *change);
	double median = NAN;
	*groups = *slower = 0;
	if (!group_median || !change)
		goto out;
	for (size_t i = 0; i < r->series_count; i++) {
		/* a group (kernel, parameter set) is measured in the same
		 * minutes, so its series drift together: one median each */
		const struct series *s = &r->series[i];
		if (!group_key_first_series(r, i, GROUP_SCOPE_GROUP, pick_candidate, NULL))
			continue;
		size_t n = 0;
		for (size_t j = i; j < r->series_count; j++)
			if (uniform_candidate(&r->series[j]) &&
			    group_key_same(GROUP_KEY(&r->series[j]), GROUP_KEY(s),
					   GROUP_SCOPE_GROUP))
				change[n++] = r->series[j].change;
		double m = stats_median(change, n);
		group_median[(*groups)++] = m;
		*slower += (1 + m) / bound > 1;
	}
	median = stats_median(group_median, *groups);
out:
	free(group_median);
	free(change);
	return median;
}

/* What part I of REF says of the machine's most: the cpu and faults parts
 * their 95% upper bound; the memory part its ratio, because its interval
 * is the host's memory latency moving within the run, which the kernels'
 * medians average over as its own median does, and which these kernels
 * feel less than its upper bound says (docs/noise.md, "The code slowed as
 * a whole"; measured:
 * docs/measurements.md#the-reference-workload-a-slowdown-of-every-kernel-against-a-baseline). */
static double part_most(const struct reference *ref, int i)
{
	const struct reference_part *p = &ref->part[i];
	return i == REFERENCE_MEMORY ? 1 + p->change : p->ci_high;
}

double reference_bound(const struct reference *ref, enum reference_part_id *part)
{
	double bound = 1;
	if (ref->state != REFERENCE_HOLDS && ref->state != REFERENCE_UNSURE &&
	    ref->state != REFERENCE_MOVED)
		return NAN;
	for (int i = 0; i < REFERENCE_PARTS; i++) {
		double high = part_most(ref, i);
		if (!isfinite(high) || !isfinite(ref->part[i].ci_high))
			return NAN;
		if (high > bound) {
			bound = high;
			if (part)
				*part = (enum reference_part_id)i;
		}
	}
	return bound;
}

/* "+2.4% (its faults part's 95% upper bound)" ("its memory part's
 * change"), or what a BOUND of 1 means. */
static void bound_words(double bound, enum reference_part_id part, char *buf, size_t size)
{
	if (bound > 1)
		snprintf(buf, size, "%+.1f%% (its %s part's %s)", 100 * (bound - 1),
			 result_reference_part_name(part),
			 part == REFERENCE_MEMORY ? "change" : "95% upper bound");
	else
		snprintf(buf, size, "+0.0%% (every part at or below its baseline)");
}

size_t reference_settle_uniform(struct run_result *r, const struct run_policy *pol)
{
	struct reference *ref = &r->reference;
	enum reference_part_id part = REFERENCE_CPU;
	size_t groups, slower, failed = 0;
	/* A part slower beyond doubt: the host is in a slow spell, and the
	 * reference says that it moved, not by how much for each kernel
	 * (unchanged code can slow far more than the part): timing stays
	 * inconclusive (docs/noise.md, "The code slowed as a whole"). */
	if (ref->state == REFERENCE_MOVED)
		return 0;
	double bound = reference_bound(ref, &part);
	if (!isfinite(bound))
		return 0;
	double shift = group_changes(r, bound, &groups, &slower);
	double effect = fmin(pol->min_effect, pol->min_effect_whole);
	if (groups < REFERENCE_UNIFORM_GROUPS || !((1 + shift) / bound - 1 >= effect) ||
	    2 * slower <= groups)
		return 0;
	char most[120];
	bound_words(bound, part, most, sizeof most);
	ref->code_shift = shift;
	ref->bound = bound;
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *s = &r->series[i];
		if (!uniform_candidate(s) || s->verdict == VERDICT_FAIL || !(s->ci_low > 1) ||
		    !((1 + s->change) / bound - 1 >= effect))
			continue;
		char note[700];
		/* each part's figure once, in the report's machine line */
		snprintf(note, sizeof note, "the code slowed as a whole: %zu of the %zu compared "
			 "groups are slower, by a median of %+.1f%%, the machine by at most %s; "
			 "this one %+.1f%% [%+.1f%%, %+.1f%%]%s%s", slower, groups, 100 * shift,
			 most, 100 * s->change, 100 * (s->ci_low - 1), 100 * (s->ci_high - 1),
			 s->note ? "; alone: " : "", s->note ? s->note : "");
		s->verdict = VERDICT_FAIL;
		s->advisory = false;   /* gated now: the note keeps why it was advisory */
		free(s->note);
		s->note = strdup(note);
		failed++;
	}
	return failed;
}

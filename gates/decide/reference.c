/* reference.c: the machine's move since the baseline (reference.h). */
#include <math.h>

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

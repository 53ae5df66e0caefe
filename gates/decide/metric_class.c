/* metric_class.c: the class of a series, settled (metric_class.h). */
#include <math.h>

#include "decide/metric_class.h"
#include "core/metric_name.h"

/* Whether the finite samples of S are not all the same. */
static int series_varies(const struct series *s)
{
	double first = NAN;
	for (size_t i = 0; i < s->sample_count; i++) {
		if (isnan(s->samples[i]))
			continue;
		if (isnan(first))
			first = s->samples[i];
		else if (s->samples[i] != first)
			return 1;
	}
	return 0;
}

void metric_class_settle(struct run_result *r)
{
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *s = &r->series[i];
		if (metric_is_cost(s->metric) && series_varies(s))
			s->cls = METRIC_NEAR;
	}
}

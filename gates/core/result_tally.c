/* result_tally.c: the counts of a result the reports say (result_tally.h). */
#include <math.h>
#include <string.h>

#include "core/result_tally.h"

void result_tally_verdicts(const struct run_result *r, size_t *series, size_t *expects,
			   size_t *information, size_t *problems)
{
	memset(series, 0, (VERDICT_ERROR + 1) * sizeof *series);
	memset(expects, 0, (VERDICT_ERROR + 1) * sizeof *expects);
	*problems = *information = 0;
	for (size_t i = 0; i < r->series_count; i++)
		if (r->series[i].gated || r->series[i].verdict != VERDICT_FAIL)
			series[r->series[i].verdict]++;
	for (size_t i = 0; i < r->expect_count; i++) {
		if (r->expects[i].gated)
			expects[r->expects[i].verdict]++;
		else
			++*information;
	}
	for (size_t i = 0; i < r->problem_count; i++)
		*problems += r->problems[i].kernel != NULL;
}

size_t result_tally_not_gated(const struct run_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->series_count; i++)
		n += r->series[i].verdict == VERDICT_FAIL && !r->series[i].gated;
	return n;
}

void result_tally_disturbed(const struct run_result *r, size_t *disturbed, size_t *samples)
{
	const char *name = "wall_ns";
	*disturbed = *samples = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		size_t len = strlen(s->metric), n = strlen(name);
		if (!s->disturbed || len < n || strcmp(s->metric + len - n, name) ||
		    (len > n && s->metric[len - n - 1] != '.'))
			continue;
		*disturbed += s->disturbed_count;
		*samples += s->disturbed_len;
	}
}

size_t result_tally_machine_shift(const struct run_result *r, double *median)
{
	size_t n = 0;
	*median = NAN;
	if (!r->comparison)
		*median = result_timing_shift(r, &n);
	return n;
}

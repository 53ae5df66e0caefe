/* series_rows.c: one row per fact of the series that moved (series_rows.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/series_rows.h"

bool series_rows_alike(const struct series *a, const struct series *b)
{
	return a->cls != METRIC_TIMING && b->cls != METRIC_TIMING &&
	       group_key_same(GROUP_KEY(a), GROUP_KEY(b), GROUP_SCOPE_VARIANT) &&
	       !strcmp(a->unit, b->unit) && a->verdict == b->verdict && a->gated == b->gated &&
	       a->median == b->median && a->baseline_median == b->baseline_median;
}

bool series_rows_first(const struct run_result *r, size_t i, group_key_pick pick,
		       const void *arg)
{
	if (!pick(&r->series[i], arg))
		return false;
	for (size_t j = 0; j < i; j++)
		if (pick(&r->series[j], arg) && series_rows_alike(&r->series[j], &r->series[i]))
			return false;
	return true;
}

size_t series_rows_metrics(const struct run_result *r, size_t i, group_key_pick pick,
			   const void *arg, char *buf, size_t size)
{
	size_t n = 0, used = 0;
	if (size)
		buf[0] = '\0';
	for (size_t j = 0; j < r->series_count; j++) {
		const struct series *s = &r->series[j];
		if (!pick(s, arg) || (j != i && !series_rows_alike(s, &r->series[i])))
			continue;
		n++;
		size_t len = strlen(s->metric) + (used ? 2 : 0);
		if (used + len >= size)
			continue;
		memcpy(buf + used, used ? ", " : "", used ? 2 : 0);
		memcpy(buf + used + (used ? 2 : 0), s->metric, strlen(s->metric) + 1);
		used += len;
	}
	return n;
}

/* How decisive row S is, lower first: a gated failure 0, a failure that
 * does not gate 1, anything else 2. */
static int decisive_class(const struct series *s)
{
	return s->verdict == VERDICT_FAIL ? (s->gated ? 0 : 1) : 2;
}

/* The size of S's change: |change|, a move from 0 the largest, none 0. */
static double change_size(const struct series *s)
{
	if (s->has_baseline && s->baseline_median == 0 && s->median != 0)
		return INFINITY;
	return isfinite(s->change) ? fabs(s->change) : 0;
}

/* Whether row A of R comes before row B (series_rows_ordered's order). */
static bool before(const struct run_result *r, size_t a, size_t b)
{
	const struct series *x = &r->series[a], *y = &r->series[b];
	int cx = decisive_class(x), cy = decisive_class(y);
	double sx = change_size(x), sy = change_size(y);
	if (cx != cy)
		return cx < cy;
	if (sx != sy)
		return sx > sy;
	return a < b;
}

size_t series_rows_ordered(const struct run_result *r, group_key_pick pick, const void *arg,
			   size_t **rows)
{
	size_t n = 0;
	*rows = NULL;
	for (size_t i = 0; i < r->series_count; i++)
		n += series_rows_first(r, i, pick, arg);
	if (!n)
		return 0;
	if (!(*rows = malloc(n * sizeof **rows)))
		return (size_t)-1;
	n = 0;
	for (size_t i = 0; i < r->series_count; i++) {   /* an insertion sort: stable */
		if (!series_rows_first(r, i, pick, arg))
			continue;
		size_t at = n++;
		for (; at && before(r, i, (*rows)[at - 1]); at--)
			(*rows)[at] = (*rows)[at - 1];
		(*rows)[at] = i;
	}
	return n;
}

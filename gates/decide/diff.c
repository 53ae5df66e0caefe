/* diff.c: the difference records of `gate diff` (see diff.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decide/diff.h"
#include "decide/stats.h"
#include "core/group_key.h"

/* Median of the usable samples of S (its stored median when it has one). */
static double diff_median(const struct series *s)
{
	if (isfinite(s->median))
		return s->median;
	double *v = malloc((s->sample_count + 1) * sizeof *v);
	size_t n = 0;
	if (!v)
		return NAN;
	for (size_t i = 0; i < s->sample_count; i++)
		if (!isnan(s->samples[i]))
			v[n++] = s->samples[i];
	double m = n ? stats_median(v, n) : NAN;
	free(v);
	return m;
}

/* Change from A to B: b/a - 1; 0 when both are 0; +inf from 0 to more. */
static double diff_change(double a, double b)
{
	if (isnan(a) || isnan(b))
		return NAN;
	if (a == 0)
		return b == 0 ? 0 : INFINITY;
	return b / a - 1;
}

static void diff_fill(struct diff_row *row, const struct series *a, const struct series *b)
{
	const struct series *s = a ? a : b;
	*row = (struct diff_row){ s->kernel, s->variant, s->params, s->metric, s->unit, s->cls,
				  a != NULL, b != NULL, a ? diff_median(a) : NAN,
				  b ? diff_median(b) : NAN, NAN, 0, 0 };
	row->change = diff_change(row->a, row->b);
	/* one-sided rows first: they are the largest change there is */
	row->effect = !(a && b) ? INFINITY : isnan(row->change) ? 0 : fabs(row->change);
}

/* Group order: largest effect first, then by name; inside a group the
 * metrics that moved most first, then by name. */
static int diff_cmp(const void *pa, const void *pb)
{
	const struct diff_row *x = pa, *y = pb;
	if (x->group_effect != y->group_effect)
		return x->group_effect > y->group_effect ? -1 : 1;
	int c = group_key_cmp(GROUP_KEY(x), GROUP_KEY(y));
	if (c)
		return c;
	if (x->effect != y->effect)
		return x->effect > y->effect ? -1 : 1;
	return strcmp(x->metric, y->metric);
}

/* Sets every row's group_effect (rows of a group are found by name). */
static void diff_rank(struct diff *d)
{
	for (size_t i = 0; i < d->count; i++) {
		double most = 0;
		for (size_t j = 0; j < d->count; j++)
			if (group_key_same(GROUP_KEY(&d->rows[i]), GROUP_KEY(&d->rows[j]),
					   GROUP_SCOPE_VARIANT) && d->rows[j].effect > most)
				most = d->rows[j].effect;
		d->rows[i].group_effect = most;
	}
	qsort(d->rows, d->count, sizeof *d->rows, diff_cmp);
}

int diff_compute(const struct run_result *a, const struct run_result *b, struct diff *out)
{
	memset(out, 0, sizeof *out);
	out->rows = calloc(a->series_count + b->series_count + 1, sizeof *out->rows);
	if (!out->rows)
		return -ENOMEM;
	for (size_t i = 0; i < a->series_count; i++) {
		const struct series *s = &a->series[i];
		diff_fill(&out->rows[out->count++], s,
			  result_find_series(b, s->kernel, s->variant, s->params, s->metric));
	}
	for (size_t i = 0; i < b->series_count; i++) {
		const struct series *s = &b->series[i];
		if (!result_find_series(a, s->kernel, s->variant, s->params, s->metric))
			diff_fill(&out->rows[out->count++], NULL, s);
	}
	diff_rank(out);
	return 0;
}

void diff_drop_unchanged(struct diff *d)
{
	size_t kept = 0;
	for (size_t i = 0; i < d->count; i++)
		if (!(d->rows[i].in_a && d->rows[i].in_b && d->rows[i].change == 0))
			d->rows[kept++] = d->rows[i];
	d->count = kept;
}

void diff_free(struct diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof *d);
}

/* matrix_table.c: the claims x allocators table (matrix_table.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/expr.h"
#include "decide/matrix_table.h"
#include "decide/stats.h"
#include "core/group_key.h"

const char *const matrix_explaining_metrics[] = {
	"realloc_moved", "sys_mremap", "sys_mmap", "sys_munmap", "sys_brk", "sys_madvise",
	"page_faults", NULL,
};

static void *grow(void *array, size_t count, size_t size)
{
	/* room for one more, zeroed */
	char *p = realloc(array, (count + 1) * size);
	if (p)
		memset(p + count * size, 0, size);
	return p;
}

static double median_of(const struct series *s)
{
	double *v = s ? malloc((s->sample_count + 1) * sizeof *v) : NULL;
	size_t n = 0;
	for (size_t i = 0; v && i < s->sample_count; i++)
		if (isfinite(s->samples[i]))
			v[n++] = s->samples[i];
	double m = n ? stats_median(v, n) : NAN;
	free(v);
	return m;
}

static struct matrix_claim *find_claim(struct matrix *m, const struct expect_result *e)
{
	for (size_t i = 0; i < m->claim_count; i++) {
		struct matrix_claim *c = &m->claims[i];
		if (c->line == e->line &&
		    group_key_same(GROUP_KEY_OF(c->kernel, NULL, c->params),
				   GROUP_KEY_OF(e->kernel, NULL, e->params), GROUP_SCOPE_GROUP) &&
		    !strcmp(c->file, e->file))
			return c;
	}
	return NULL;
}

static struct matrix_claim *add_claim(struct matrix *m, const struct expect_result *e)
{
	struct matrix_claim *c = grow(m->claims, m->claim_count, sizeof *c);
	if (!c)
		return NULL;
	m->claims = c;
	c += m->claim_count++;
	c->kernel = strdup(e->kernel);
	c->params = strdup(e->params);
	c->file = strdup(e->file);
	c->expr = strdup(e->expr);
	c->conditions = result_dup_or_null(e->conditions);
	c->line = e->line;
	c->cells = calloc(m->allocator_count + 1, sizeof *c->cells);
	if (!c->kernel || !c->params || !c->file || !c->expr || !c->cells ||
	    (e->conditions && !c->conditions))
		return NULL;
	return c;
}

static int add_cells(struct matrix *m, size_t a, const struct run_result *r)
{
	for (size_t i = 0; i < r->expect_count; i++) {
		const struct expect_result *e = &r->expects[i];
		struct matrix_claim *c = find_claim(m, e);
		if (!c && !(c = add_claim(m, e)))
			return -ENOMEM;
		struct matrix_cell *cell = &c->cells[a];
		cell->measured = true;
		cell->declared = e->gated;
		cell->verdict = e->verdict;
		cell->ratio = e->ratio;
		cell->estimate = e->estimate;
		cell->ci_low = e->ci_low;
		cell->ci_high = e->ci_high;
		cell->rounds = e->rounds;
	}
	return 0;
}

/* The variants (with their region prefix, "random_order" + "free.") that
 * a claim's expression refers to. */
struct refs {
	char variant[8][64], region[8][64];
	size_t n;
};

static int note_ref(const struct expr_ref *ref, void *arg)
{
	struct refs *rs = arg;
	const char *dot = strrchr(ref->metric, '.');
	char region[64] = "";
	if (dot)
		snprintf(region, sizeof region, "%.*s", (int)(dot - ref->metric + 1), ref->metric);
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->variant[i], ref->variant) && !strcmp(rs->region[i], region))
			return 0;
	if (rs->n < 8) {
		snprintf(rs->variant[rs->n], sizeof rs->variant[0], "%s", ref->variant);
		snprintf(rs->region[rs->n], sizeof rs->region[0], "%s", region);
		rs->n++;
	}
	return 0;
}

static int add_count(struct matrix *m, struct matrix_claim *c, const struct run_result *runs,
		     const char *variant, const char *metric)
{
	double *medians = calloc(m->allocator_count + 1, sizeof *medians), first = NAN;
	int differ = 0;
	if (!medians)
		return -ENOMEM;
	for (size_t a = 0; a < m->allocator_count; a++) {
		const struct series *s = result_find_series(&runs[a], c->kernel, variant, c->params,
							    metric);
		medians[a] = s ? median_of(s) : NAN;
		if (!isfinite(medians[a]))
			continue;
		differ |= isfinite(first) && medians[a] != first;
		if (!isfinite(first))
			first = medians[a];
	}
	/* a count that is the same under every allocator explains no
	 * difference between them */
	if (!differ) {
		free(medians);
		return 0;
	}
	struct matrix_count *k = grow(c->counts, c->count_count, sizeof *k);
	if (!k) {
		free(medians);
		return -ENOMEM;
	}
	c->counts = k;
	k += c->count_count++;
	k->variant = strdup(variant);
	k->metric = strdup(metric);
	k->medians = medians;
	return k->variant && k->metric ? 0 : -ENOMEM;
}

static int add_counts(struct matrix *m, struct matrix_claim *c, const struct run_result *runs)
{
	struct expr x;
	struct refs rs;
	char err[200];
	memset(&rs, 0, sizeof rs);
	if (expr_parse(c->expr, &x, err, sizeof err))
		return 0;   /* the cell says why */
	expr_each_ref(&x, note_ref, &rs);
	expr_free(&x);
	for (size_t i = 0; i < rs.n; i++)
		for (const char *const *k = matrix_explaining_metrics; *k; k++) {
			char metric[160];
			snprintf(metric, sizeof metric, "%s%s", rs.region[i], *k);
			if (add_count(m, c, runs, rs.variant[i], metric))
				return -ENOMEM;
		}
	return 0;
}

static int is_wall(const char *metric)
{
	const char *dot = strrchr(metric, '.');
	return !strcmp(dot ? dot + 1 : metric, "wall_ns");
}

/* S of allocator A against FIRST, round by round. */
static void paired_ratio(const struct series *first, const struct series *s, double *ratio,
			 double *lo, double *hi)
{
	size_t n = first->sample_count < s->sample_count ? first->sample_count : s->sample_count;
	double *v = malloc((n + 1) * sizeof *v), conf;
	size_t k = 0;
	*ratio = *lo = *hi = NAN;
	for (size_t i = 0; v && i < n; i++)
		if (isfinite(first->samples[i]) && isfinite(s->samples[i]) && first->samples[i] > 0)
			v[k++] = s->samples[i] / first->samples[i];
	if (k >= 2) {
		*ratio = stats_median(v, k);
		stats_median_ci(v, k, 0.95, lo, hi, &conf);
	}
	free(v);
}

static int add_speeds(struct matrix *m, const struct run_result *runs)
{
	const struct run_result *first = &runs[0];
	for (size_t i = 0; i < first->series_count; i++) {
		const struct series *s0 = &first->series[i];
		if (!is_wall(s0->metric))
			continue;
		struct matrix_speed *sp = grow(m->speeds, m->speed_count, sizeof *sp);
		if (!sp)
			return -ENOMEM;
		m->speeds = sp;
		sp += m->speed_count++;
		char variant[256];
		const char *dot = strrchr(s0->metric, '.');
		if (dot)
			snprintf(variant, sizeof variant, "%s.%.*s", s0->variant,
				 (int)(dot - s0->metric), s0->metric);
		else
			snprintf(variant, sizeof variant, "%s", s0->variant);
		sp->kernel = strdup(s0->kernel);
		sp->variant = strdup(variant);
		sp->params = strdup(s0->params);
		size_t n = m->allocator_count + 1;
		sp->median_ns = calloc(n, sizeof *sp->median_ns);
		sp->ratio = calloc(n, sizeof *sp->ratio);
		sp->ci_low = calloc(n, sizeof *sp->ci_low);
		sp->ci_high = calloc(n, sizeof *sp->ci_high);
		if (!sp->kernel || !sp->variant || !sp->params || !sp->median_ns || !sp->ratio ||
		    !sp->ci_low || !sp->ci_high)
			return -ENOMEM;
		for (size_t a = 0; a < m->allocator_count; a++) {
			const struct series *s = result_find_series(&runs[a], s0->kernel,
								    s0->variant, s0->params,
								    s0->metric);
			sp->median_ns[a] = s ? median_of(s) : NAN;
			if (s)
				paired_ratio(s0, s, &sp->ratio[a], &sp->ci_low[a], &sp->ci_high[a]);
			else
				sp->ratio[a] = sp->ci_low[a] = sp->ci_high[a] = NAN;
		}
	}
	return 0;
}

/* Parameter set names in their natural order: "n_1k" < "n_10k" < "n_100k",
 * digits compared as numbers. */
static int natural_order(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			char *ea, *eb;
			unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int claim_order(const void *a, const void *b)
{
	const struct matrix_claim *x = a, *y = b;
	int c = group_key_cmp(GROUP_KEY_OF(x->kernel, NULL, NULL),
			      GROUP_KEY_OF(y->kernel, NULL, NULL));
	if (!c)
		c = natural_order(x->params, y->params);
	if (!c)
		c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

int matrix_table_build(struct matrix *m, const struct run_result *runs)
{
	for (size_t a = 0; a < m->allocator_count; a++)
		if (add_cells(m, a, &runs[a]))
			return -ENOMEM;
	if (m->claim_count)
		qsort(m->claims, m->claim_count, sizeof *m->claims, claim_order);
	for (size_t i = 0; i < m->claim_count; i++)
		if (add_counts(m, &m->claims[i], runs))
			return -ENOMEM;
	return m->allocator_count ? add_speeds(m, runs) : 0;
}

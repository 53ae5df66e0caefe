/* readjust.c: shards' timing comparisons as one family (readjust.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/compare_common.h"
#include "decide/readjust.h"
#include "decide/stats.h"

int readjust_is_tested_timing(const struct series *s)
{
	/* compare.c and compare_ab.c name every timing test "timing..." */
	return s->cls == METRIC_TIMING && s->test && !strncmp(s->test, "timing", 6) &&
	       isfinite(s->p_value);
}

/* The raw p-values of the tested timing series of RUNS whose family is
 * FAM (or of run ONLY alone when ONLY < N), adjusted; *COUNT gets how
 * many. The array runs over those series in order (run by run). */
static double *adjusted(const struct run_result *runs, size_t n, const int *family, int fam,
			size_t only, const struct run_policy *pol, size_t *count)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; (only >= n || only == i) && family[i] == fam &&
				   j < runs[i].series_count; j++)
			m += (size_t)readjust_is_tested_timing(&runs[i].series[j]);
	double *p = calloc(m + 1, sizeof *p), *adj = calloc(m + 1, sizeof *adj);
	if (!p || !adj) {
		free(p);
		free(adj);
		return NULL;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; (only >= n || only == i) && family[i] == fam &&
				   j < runs[i].series_count; j++)
			if (readjust_is_tested_timing(&runs[i].series[j]))
				p[k++] = runs[i].series[j].p_value;
	(pol->fdr ? stats_bh : stats_holm)(p, m, adj);
	free(p);
	*count = m;
	return adj;
}

/* Decides the failures of run I (family FAM) again against MERGED (the
 * family's adjusted p-values, M of them, run I's from index AT); OWN are
 * run I's own adjusted p-values (OWN_COUNT). Returns the failures lost. */
static size_t decide_run(struct run_result *r, const double *merged, size_t m, size_t at,
			 const double *own, size_t own_count, const struct run_policy *pol)
{
	size_t lost = 0, k = 0;
	for (size_t j = 0; j < r->series_count; j++) {
		struct series *s = &r->series[j];
		if (!readjust_is_tested_timing(s))
			continue;
		double padj = merged[at + k], mine = own[k];
		k++;
		if (s->verdict != VERDICT_FAIL || padj < pol->alpha)
			continue;
		s->verdict = compare_timing_verdict(s->change + 1, s->tolerance, 0, s->ci_high);
		char note[300];
		snprintf(note, sizeof note, "p = %.2g: %s-adjusted %.2g over its shard's %zu timing "
			 "comparisons, %.2g over the merged run's %zu: not significant at %.2g",
			 s->p_value, pol->fdr ? "BH" : "Holm", mine, own_count, padj, m, pol->alpha);
		free(s->note);
		s->note = strdup(note);
		lost++;
	}
	return lost;
}

/* FAMILY[i]: the first run of RUNS with run I's platform key. */
static void platform_families(const struct run_result *runs, size_t n, int *family)
{
	for (size_t i = 0; i < n; i++) {
		const char *key = runs[i].ctx.platform_key ? runs[i].ctx.platform_key : "";
		family[i] = (int)i;
		for (size_t j = 0; j < i && family[i] == (int)i; j++)
			if (!strcmp(runs[j].ctx.platform_key ? runs[j].ctx.platform_key : "", key))
				family[i] = (int)j;
	}
}

long readjust_timing(struct run_result *runs, size_t n, const struct run_policy *pol,
		     size_t *lost)
{
	int *family = calloc(n + 1, sizeof *family);
	long total = 0;
	if (!family)
		return -1;
	platform_families(runs, n, family);
	for (size_t i = 0; lost && i < n; i++)
		lost[i] = 0;
	for (size_t i = 0; i < n; i++) {
		int first = 1;
		for (size_t e = 0; e < i && first; e++)
			first = family[e] != family[i];
		if (!first)
			continue;   /* the family of an earlier run: done */
		size_t m, own_count;
		double *merged = adjusted(runs, n, family, family[i], n, pol, &m);
		if (!merged) {
			free(family);
			return -1;
		}
		for (size_t r = i, at = 0; r < n; r++) {
			if (family[r] != family[i])
				continue;
			double *own = adjusted(runs, n, family, family[i], r, pol, &own_count);
			if (!own) {
				free(merged);
				free(family);
				return -1;
			}
			size_t gone = decide_run(&runs[r], merged, m, at, own, own_count, pol);
			free(own);
			at += own_count;
			total += (long)gone;
			if (lost)
				lost[r] = gone;
		}
		free(merged);
	}
	free(family);
	return total;
}

/* compare_common.c: what the baseline comparison and gate ab's share
 * (compare_common.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/compare_common.h"
#include "decide/stats.h"
#include "core/group_key.h"
#include "core/metric_name.h"

void compare_note(struct series *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *note = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (note) {
		va_start(ap, fmt);
		vsnprintf(note, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	free(s->note);
	s->note = note;
}

const struct series *compare_match(struct series *s, const struct run_result *other,
				   size_t *near)
{
	s->median = stats_median(s->samples, s->sample_count);
	s->p_value = s->ci_low = s->ci_high = NAN;
	const struct series *x = other ? result_find_series_near(other, near, s->kernel, s->variant,
								 s->params, s->metric)
				       : NULL;
	if (!x) {
		s->verdict = isnan(s->median) ? VERDICT_ERROR : VERDICT_NEW;
		s->baseline_median = s->change = NAN;
	}
	return x;
}

void compare_against(struct series *s, const struct series *x)
{
	s->has_baseline = true;
	s->baseline_median = stats_median(x->samples, x->sample_count);
	s->baseline_count = x->sample_count;
	s->change = s->baseline_median != 0 ? s->median / s->baseline_median - 1
					    : (s->median != 0 ? INFINITY : 0);
}

const char *compare_untested(const struct series *s, bool ab)
{
	if (result_metric_is_counted(s->metric))
		return ab ? "one sample per side (the counted pass) that varies between runs: "
			    "shown, not tested"
			  : "one sample per batch (the counted pass) that varies between runs: "
			    "shown, not tested";
	if (ab && result_metric_is_machine_load(s->metric))
		return "the machine's load during each round, the same figure for both sides: "
		       "shown, not tested";
	/* against a baseline the machine's load is one of the scheduler's */
	if (result_metric_is_scheduling(s->metric))
		return ab ? "scheduler events: they follow the host's load and the threads' "
			    "overlap, so shown, not tested (the samples they disturbed are left "
			    "out of the others)"
			  : "scheduler events: they follow the host's load and the threads' "
			    "overlap, so shown, not tested against the baseline";
	return NULL;
}

bool compare_too_few_events(const struct series *s, double other_median,
			    const struct run_policy *pol)
{
	return !strcmp(s->unit, "count") && other_median < pol->min_events;
}

double *compare_adjusted(const struct run_result *r, const int *timed, const double *given,
			 void (*adjust)(const double *p, size_t n, double *adjusted))
{
	size_t n = 0;
	for (size_t i = 0; i < r->series_count; i++)
		n += !!timed[i];
	double *p = calloc(n + 1, sizeof *p), *adj = calloc(n + 1, sizeof *adj);
	double *out = calloc(r->series_count + 1, sizeof *out);
	if (!p || !adj || !out) {
		free(out);
		out = NULL;
		goto done;
	}
	for (size_t i = 0, j = 0; i < r->series_count; i++)
		if (timed[i])
			p[j++] = given ? given[i] : r->series[i].p_value;
	adjust(p, n, adj);
	for (size_t i = 0, j = 0; i < r->series_count; i++)
		out[i] = timed[i] ? adj[j++] : NAN;
done:
	free(p);
	free(adj);
	return out;
}

enum verdict compare_timing_verdict(double ratio, double tolerance, int significant,
				    double ci_high)
{
	if (ratio >= 1 + tolerance && significant)
		return VERDICT_FAIL;
	if (ratio <= 1 / (1 + tolerance) && ci_high < 1)
		return VERDICT_IMPROVED;
	return ratio >= 1 + tolerance ? VERDICT_INCONCLUSIVE : VERDICT_PASS;
}

void compare_decide_timing(struct run_result *r, const struct run_policy *pol, const int *timed,
			   const struct compare_timing_rule *rule)
{
	/* Holm, or with --correction bh Benjamini-Hochberg: when every null
	 * is true it rejects anything at most as often as alpha (Simes), and
	 * comparisons that share a change (wall and task clock) lend each other
	 * power; but those near-duplicates also let one chance fluctuation
	 * count twice (docs/noise.md, "Holm or Benjamini-Hochberg"). */
	void (*adjust)(const double *, size_t, double *) = pol->fdr ? stats_bh : stats_holm;
	double *adj = compare_adjusted(r, timed, NULL, adjust);
	/* gate ab: "improved" is held to the same bar over the run as a
	 * regression: the 95% interval alone, one per series, let chance
	 * fluctuations of a whole-suite A/A run read as improvements */
	double *adj_less = rule->p_less ? compare_adjusted(r, timed, rule->p_less, adjust) : NULL;
	for (size_t i = 0; adj && (!rule->p_less || adj_less) && i < r->series_count; i++) {
		if (!timed[i])
			continue;
		struct series *s = &r->series[i];
		double ratio = s->change + 1, padj = adj[i], tol = s->tolerance;
		int significant = (!rule->interval_too || s->ci_low > 1) && padj < pol->alpha;
		s->verdict = compare_timing_verdict(ratio, tol, significant, s->ci_high);
		if (adj_less && s->verdict == VERDICT_IMPROVED && !(adj_less[i] < pol->alpha))
			s->verdict = VERDICT_PASS;
		if (s->verdict == VERDICT_FAIL || s->verdict == VERDICT_INCONCLUSIVE)
			compare_note(s, "%s p = %.2g, %s-adjusted %.2g, %s %.0f%%", rule->test,
				     s->p_value, pol->fdr ? "BH" : "Holm", padj, rule->effect,
				     100 * tol);
	}
	free(adj);
	free(adj_less);
}

/* Whether R has a series of group (KERNEL, PARAMS). */
static bool group_ran(const struct run_result *r, const char *kernel, const char *params)
{
	for (size_t i = 0; i < r->series_count; i++)
		if (group_key_in(GROUP_KEY(&r->series[i]), GROUP_KEY_OF(kernel, NULL, params)))
			return true;
	return false;
}

/* Whether R's run asked for VARIANT: --variant left the others out. */
static bool variant_asked(const struct run_result *r, const char *variant)
{
	for (size_t i = 0; i < r->variants_asked_count; i++)
		if (!strcmp(r->variants_asked[i], variant))
			return true;
	return !r->variants_asked_count;
}

void compare_report_missing(struct run_result *r, const struct run_result *other, bool skip_cost,
			    const char *reason)
{
	/* both sides file their series in the same order: each lookup starts
	 * where the last one was found (result_find_series_near) */
	size_t near = 0;
	for (size_t i = 0; i < other->series_count; i++) {
		const struct series *x = &other->series[i];
		if ((skip_cost && metric_is_cost(x->metric)) || !variant_asked(r, x->variant))
			continue;
		if (!result_find_series_near(r, &near, x->kernel, x->variant, x->params,
					     x->metric) &&
		    group_ran(r, x->kernel, x->params))
			result_add_problem(r, x->kernel, x->variant, x->params, x->metric, reason);
	}
}

double compare_threads(const struct run_result *r, const struct series *s)
{
	const struct series *t = result_find_series(r, s->kernel, s->variant, s->params,
						    "threads");
	double n = t ? stats_median(t->samples, t->sample_count) : NAN;
	return n > 1 ? n : 1;
}

unsigned compare_gate_class(const struct series *s)
{
	return metric_is_cost(s->metric) ? POLICY_GATE_COST
	       : s->cls == METRIC_TIMING ? POLICY_GATE_TIMING : POLICY_GATE_COUNTS;
}

void compare_apply_gates(struct run_result *r, const struct run_policy *pol)
{
	for (size_t i = 0; i < r->series_count; i++)
		r->series[i].gated = (pol->gates & compare_gate_class(&r->series[i])) != 0;
}

/* confirm.c: suspected timing regressions measured again (confirm.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/compare.h"
#include "decide/confirm.h"
#include "sample/runner.h"

int confirm_suspect(const struct run_result *r, const char *kernel, const char *params)
{
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (s->cls == METRIC_TIMING && s->verdict == VERDICT_FAIL &&
		    !strcmp(s->kernel, kernel) && !strcmp(s->params, params))
			return 1;
	}
	return 0;
}

int confirm_consistent(double change1, double change2, double tolerance)
{
	double r1 = 1 + change1, r2 = 1 + change2;
	if (!(r1 > 0 && r2 > 0))
		return 0;
	double low = fmin(r1, r2), disagreement = fmax(r1, r2) / low;
	return low / disagreement >= 1 + tolerance;
}

/* Copies the confirmation batch's verdicts onto the first batch's timing
 * regressions: one that does not fail again is only inconclusive. */
static void settle(struct run_result *r, const struct run_result *again, const char *kernel,
		   const char *params)
{
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *s = &r->series[i];
		if (s->cls != METRIC_TIMING || s->verdict != VERDICT_FAIL ||
		    strcmp(s->kernel, kernel) || strcmp(s->params, params))
			continue;
		const struct series *a = result_find_series(again, kernel, s->variant, params,
							    s->metric);
		s->confirm_change = a ? a->change : NAN;
		s->confirmed = a && a->verdict == VERDICT_FAIL &&
			       confirm_consistent(s->change, a->change, s->tolerance);
		char note[300];
		snprintf(note, sizeof note, "%s; confirmation batch %+.1f%%: %s", s->note ? s->note : "",
			 100 * s->confirm_change, s->confirmed ? "confirmed" : "not confirmed");
		free(s->note);
		s->note = strdup(note);
		if (!s->confirmed)
			s->verdict = VERDICT_INCONCLUSIVE;
	}
}

/* A suspected timing regression is measured again in a fresh interleaved
 * batch before the gate fails on it (a VM's neighbours come and go). */
int confirm_regressions(const struct kernel_info *kernels, size_t kernel_count,
			const struct run_options *o, struct run_result *r,
			const struct run_result *base)
{
	struct stats_rng rng;
	int failures = 0;
	/* only timing is confirmed: the cost pass is not taken again */
	struct run_options timed_only = *o;
	timed_only.cost = false;
	stats_rng_seed(&rng, o->seed ^ 0x9e3779b97f4a7c15ull);
	for (size_t k = 0; k < kernel_count; k++) {
		const struct kernel_info *ki = &kernels[k];
		for (size_t p = 0; p < ki->paramset_count; p++) {
			const struct kernel_paramset *ps = &ki->paramsets[p];
			if (!(ps->tiers & o->tier) || !confirm_suspect(r, ki->name, ps->name))
				continue;
			fprintf(stderr, "gate: confirming %s %s in a fresh batch\n", ki->name, ps->name);
			struct run_result again;
			memset(&again, 0, sizeof again);
			failures += runner_run_params(ki, ps, &timed_only, &rng, &again, 0);
			compare_run(&again, base, o, true);
			settle(r, &again, ki->name, ps->name);
			result_free(&again);
		}
	}
	return failures;
}


/* confirm.c: suspected timing regressions measured again (confirm.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/confirm.h"
#include "core/group_key.h"

int confirm_suspect(const struct run_result *r, const char *kernel, const char *params)
{
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		/* a timing failure that does not gate (--gate) is information:
		 * not worth a second batch */
		if (s->cls == METRIC_TIMING && s->verdict == VERDICT_FAIL && s->gated &&
		    group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, NULL, params)))
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

void confirm_settle(struct run_result *r, const struct run_result *again, const char *kernel,
		    const char *params)
{
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *s = &r->series[i];
		if (s->cls != METRIC_TIMING || s->verdict != VERDICT_FAIL ||
		    !group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, NULL, params)))
			continue;
		const struct series *a = result_find_series(again, kernel, s->variant, params,
							    s->metric);
		s->confirm_change = a ? a->change : NAN;
		s->confirmed = a && a->verdict == VERDICT_FAIL &&
			       confirm_consistent(s->change, a->change, s->tolerance);
		/* a confirmation batch the machine disturbed decides nothing: say
		 * so, with its figure (decide/interference.h), rather than a bare
		 * "not confirmed" */
		const char *disturbed = a && !s->confirmed && a->note &&
					!strncmp(a->note, "disturbed: ", 11) ? a->note : NULL;
		char note[700];
		snprintf(note, sizeof note, "%s; confirmation batch %+.1f%%: %s%s%s",
			 s->note ? s->note : "", 100 * s->confirm_change,
			 disturbed ? disturbed : "", disturbed ? "; " : "",
			 s->confirmed ? "confirmed" : "not confirmed");
		free(s->note);
		s->note = strdup(note);
		if (!s->confirmed)
			s->verdict = VERDICT_INCONCLUSIVE;
	}
}

int confirm_suspects(const struct kernel_info *kernels, size_t count, unsigned tier,
		     uint64_t seed, const struct run_result *r, confirm_measure_fn measure,
		     void *ctx)
{
	struct rng rng;
	struct group_iter it;
	struct group g;
	int failures = 0;
	rng_seed(&rng, seed ^ 0x9e3779b97f4a7c15ull);
	groups_begin(&it, kernels, count, tier);
	while (groups_next(&it, &g)) {
		if (!confirm_suspect(r, g.kernel->name, g.params->name))
			continue;
		failures += measure(&g, &rng, ctx);
	}
	return failures;
}

bool confirm_against_baseline(bool have_baseline, const struct comparability *c)
{
	return have_baseline && c && c->same_hardware;
}

bool confirm_takes_cost_pass(void)
{
	return false;
}

bool confirm_takes_counted_pass(void)
{
	return false;
}

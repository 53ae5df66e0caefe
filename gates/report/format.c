/* format.c: one-line verdict descriptions (format.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_term.h"
#include "report/format.h"

static const char *series_word(enum verdict v)
{
	switch (v) {
	case VERDICT_FAIL: return "regression";
	case VERDICT_IMPROVED: return "improvement";
	case VERDICT_INCONCLUSIVE: return "inconclusive";
	case VERDICT_PASS: return "unchanged";
	case VERDICT_SKIPPED: return "not compared";
	case VERDICT_NEW: return "new (no baseline)";
	default: return result_verdict_name(v);
	}
}

void report_text_series(const struct series *s, char *buf, size_t size)
{
	char now[32], was[32], change[32] = "";
	report_term_value(s->median, s->unit, now, sizeof now);
	report_term_value(s->has_baseline ? s->baseline_median : NAN, s->unit, was,
			  sizeof was);
	if (s->has_baseline && isfinite(s->change))
		snprintf(change, sizeof change, " (%+.1f%%)", 100 * s->change);
	snprintf(buf, size, "%s %s/%s/%s %s: %s -> %s%s%s%s", series_word(s->verdict), s->kernel,
		 s->variant, s->params, s->metric, was, now, change, s->note ? "; " : "",
		 s->note ? s->note : "");
}

static const char *expect_word(enum verdict v)
{
	switch (v) {
	case VERDICT_FAIL: return "expectation violated";
	case VERDICT_PASS: return "expectation holds";
	case VERDICT_INCONCLUSIVE: return "expectation inconclusive";
	case VERDICT_SKIPPED: return "expectation skipped";
	default: return "expectation could not be checked";
	}
}

void report_text_expect(const struct expect_result *e, char *buf, size_t size)
{
	snprintf(buf, size, "%s on %s: %s (estimate %.4g, interval [%.4g, %.4g], %zu rounds)%s%s",
		 expect_word(e->verdict), e->params, e->expr, e->estimate, e->ci_low, e->ci_high,
		 e->rounds, e->note ? "; " : "", e->note ? e->note : "");
}

void report_text_counts(const struct run_result *r, size_t *series, size_t *expects,
			size_t *problems)
{
	memset(series, 0, (VERDICT_ERROR + 1) * sizeof *series);
	memset(expects, 0, (VERDICT_ERROR + 1) * sizeof *expects);
	*problems = 0;
	for (size_t i = 0; i < r->series_count; i++)
		series[r->series[i].verdict]++;
	for (size_t i = 0; i < r->expect_count; i++)
		expects[r->expects[i].verdict]++;
	for (size_t i = 0; i < r->problem_count; i++)
		*problems += r->problems[i].kernel != NULL;
}

const char *report_text_word(int exit_code)
{
	return exit_code == 0 ? "PASS" : exit_code == 1 ? "FAIL" : exit_code == 3 ? "UNMEASURED"
										  : "ERROR";
}

/* compare_ab.c: B against A on paired rounds (compare_ab.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/compare_ab.h"
#include "decide/compare_common.h"
#include "decide/counted.h"
#include "decide/interference.h"
#include "decide/sequential.h"
#include "decide/stats.h"
#include "core/group_key.h"

static const char *const ab_test_holm =
	"timing (A/B): per-round ratio B/A, median with binomial 95% interval, Wilcoxon "
	"signed-rank one-sided, Holm over the run, minimum effect";
static const char *const ab_test_bh =
	"timing (A/B): per-round ratio B/A, median with binomial 95% interval, Wilcoxon "
	"signed-rank one-sided, Benjamini-Hochberg over the run, minimum effect";

int compare_ab_paired(const double *b, const double *a, size_t n, struct ab_paired *out)
{
	double *ratio = calloc(n + 1, sizeof *ratio), *logs = calloc(n + 1, sizeof *logs);
	size_t m = 0;
	int ret = -1;
	if (!ratio || !logs)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (!stats_pair_usable(b[i], a[i]))
			continue;
		ratio[m] = b[i] / a[i];
		logs[m++] = log(b[i] / a[i]);
	}
	out->pairs = m;
	if (m < COMPARE_AB_MIN_PAIRS)
		goto out;
	double coverage;
	out->ratio = stats_median(ratio, m);
	stats_median_ci(ratio, m, 0.95, &out->low, &out->high, &coverage);
	out->p_greater = stats_signed_rank_p_greater(logs, m);
	for (size_t i = 0; i < m; i++)
		logs[i] = -logs[i];
	out->p_less = stats_signed_rank_p_greater(logs, m);
	if (isnan(out->p_greater))   /* every ratio exactly 1 */
		out->p_greater = out->p_less = 1;
	ret = 0;
out:
	free(ratio);
	free(logs);
	return ret;
}

/* Rounds of B's S and A's X that can be paired: the shorter of the two. */
static size_t paired_rounds(const struct series *s, const struct series *x)
{
	return s->sample_count < x->sample_count ? s->sample_count : x->sample_count;
}

/* Why timing series S, whose A median is A_MEDIAN, is never tested,
 * however many rounds it has (compare_untested, or too few events), into
 * WHY; NULL when it is tested. */
static const char *why_untested(const struct series *s, double a_median,
				const struct run_policy *pol, char *why, size_t size)
{
	const char *never = compare_untested(s, true);
	if (never)
		snprintf(why, size, "%s", never);
	else if (compare_too_few_events(s, a_median, pol))
		snprintf(why, size, "too few events to compare as a ratio (A's median %.0f "
			 "< %.0f)", a_median, pol->min_events);
	else
		return NULL;
	return why;
}

/* Why timing series S (against A's X) is not compared, its rounds paired
 * into PR (PAIRED_OK: enough of them); NULL when it is. */
static const char *why_not_paired(const struct series *s, const struct series *x,
				  const struct run_policy *pol, const struct ab_paired *pr,
				  int paired_ok)
{
	static char why[160];
	if (why_untested(s, s->baseline_median, pol, why, sizeof why))
		return why;
	if (!paired_ok)
		snprintf(why, sizeof why, "too few rounds with a positive value on both sides "
			 "(%zu of %zu; at least %d)", pr->pairs, x->sample_count,
			 COMPARE_AB_MIN_PAIRS);
	else
		return NULL;
	return why;
}

/* Rounds FIRST..FIRST+N-1 of S (B) and X (A) into BV and AV, NAN where
 * either side's sample was disturbed (decide/interference.h); returns the
 * rounds left out. */
static size_t undisturbed_from(const struct series *s, const struct series *x, size_t first,
			       size_t n, double *bv, double *av)
{
	size_t disturbed = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = first + i;
		int out = interference_sample_disturbed(s, k) || interference_sample_disturbed(x, k);
		bv[i] = out ? NAN : s->samples[k];
		av[i] = out ? NAN : x->samples[k];
		disturbed += (size_t)out;
	}
	return disturbed;
}

/* Rounds 0..N-1 of S and X: undisturbed_from the first round. */
static size_t undisturbed(const struct series *s, const struct series *x, size_t n, double *bv,
			  double *av)
{
	return undisturbed_from(s, x, 0, n, bv, av);
}

/* The paired estimate of S against X over their undisturbed rounds, the
 * rounds left out in *DISTURBED: compare_ab_paired's return. */
static int paired_undisturbed(const struct series *s, const struct series *x,
			      struct ab_paired *out, size_t *disturbed)
{
	size_t n = paired_rounds(s, x);
	double *bv = calloc(n + 1, sizeof *bv), *av = calloc(n + 1, sizeof *av);
	int ret = -1;
	*disturbed = 0;
	if (bv && av) {
		*disturbed = undisturbed(s, x, n, bv, av);
		ret = compare_ab_paired(bv, av, n, out);
	}
	free(bv);
	free(av);
	return ret;
}

/* Timing against A's X, paired: the estimate and raw p; the verdict waits
 * for the adjustment over the run (compare_decide_timing). A round in
 * which either side was disturbed is left out. Returns whether S is one
 * of those. */
static int timing_paired(struct series *s, const struct series *x, const struct run_policy *pol,
			 double *p_less)
{
	struct ab_paired pr = { 0 };
	size_t n = paired_rounds(s, x), disturbed;
	int ok = paired_undisturbed(s, x, &pr, &disturbed) == 0;
	s->tolerance = pol->min_effect;
	char why_not[160];
	/* a series never tested (scheduler events, the machine's load) says
	 * what the machine did, so its own disturbance is no verdict either */
	if (interference_too_few(pr.pairs, disturbed) &&
	    !why_untested(s, s->baseline_median, pol, why_not, sizeof why_not)) {
		s->verdict = VERDICT_INCONCLUSIVE;
		compare_note(s, "disturbed: %zu of %zu rounds disturbed on one side or both "
			     "(docs/counters.md, \"Interference\"): timing not decided", disturbed,
			     n);
		return 0;
	}
	const char *why = why_not_paired(s, x, pol, &pr, ok);
	if (why) {
		s->verdict = VERDICT_SKIPPED;
		compare_note(s, "%s", why);
		return 0;
	}
	s->test = pol->fdr ? ab_test_bh : ab_test_holm;
	s->change = pr.ratio - 1;
	s->ci_low = pr.low;
	s->ci_high = pr.high;
	s->p_value = pr.p_greater;
	*p_less = pr.p_less;
	return 1;
}

/* Series S of B against A's X (of A), S's sample having run THREADS
 * threads: its figures, then its counts or its timing (*TIMED set for a
 * timing series whose verdict waits for the adjustment over the run, its
 * p the other way in *P_LESS). */
static void against_a(struct series *s, const struct series *x, const struct run_result *a,
		      const struct run_policy *pol, double threads, int *timed, double *p_less)
{
	compare_against(s, x);
	if (isnan(s->median) || isnan(s->baseline_median)) {
		s->verdict = VERDICT_ERROR;
		compare_note(s, "%s", isnan(s->median) ? "no sample of B succeeded"
						       : "no sample of A succeeded");
	} else if (s->cls != METRIC_TIMING) {
		compare_counts(s, x, a, pol, threads);
	} else {
		*timed = timing_paired(s, x, pol, p_less);
	}
}

void compare_ab_run(struct run_result *b, const struct run_result *a, const struct run_policy *pol)
{
	int *timed = calloc(b->series_count + 1, sizeof *timed);
	double *p_less = calloc(b->series_count + 1, sizeof *p_less);
	if (!timed || !p_less) {
		free(timed);
		free(p_less);
		return;
	}
	size_t near = 0;
	for (size_t i = 0; i < b->series_count; i++) {
		struct series *s = &b->series[i];
		const struct series *x = compare_match(s, a, &near);
		if (!x)
			compare_note(s, "measured for B only (A's kernel has no such variant or "
				     "metric)");
		else
			against_a(s, x, a, pol, compare_threads(b, s), &timed[i], &p_less[i]);
	}
	const struct compare_timing_rule rule = {
		.interval_too = false, .p_less = p_less, .test = "signed-rank",
		.effect = "minimum effect",
	};
	compare_decide_timing(b, pol, timed, &rule);
	counted_mark(b);
	compare_apply_gates(b, pol);
	compare_report_missing(b, a, false, "measured for A but not for B");
	free(timed);
	free(p_less);
}

/* The undisturbed rounds of the first batch (S, X) followed by those of
 * the confirmation batch (S2, X2): the pooled paired estimate. */
static int pooled(const struct series *s, const struct series *x, const struct series *s2,
		  const struct series *x2, struct ab_paired *out)
{
	size_t n1 = paired_rounds(s, x), n2 = paired_rounds(s2, x2);
	double *b = calloc(n1 + n2 + 1, sizeof *b), *a = calloc(n1 + n2 + 1, sizeof *a);
	int ret = -1;
	if (b && a) {
		undisturbed(s, x, n1, b, a);
		undisturbed(s2, x2, n2, b + n1, a + n1);
		ret = compare_ab_paired(b, a, n1 + n2, out);
	}
	free(b);
	free(a);
	return ret;
}

void compare_ab_settle(struct run_result *b, const struct run_result *a,
		       const struct run_result *b2, const struct run_result *a2,
		       const char *kernel, const char *params, const struct run_policy *pol)
{
	for (size_t i = 0; i < b->series_count; i++) {
		struct series *s = &b->series[i];
		if (s->cls != METRIC_TIMING || s->verdict != VERDICT_FAIL ||
		    !group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, NULL, params)))
			continue;
		const struct series *x = result_find_series(a, kernel, s->variant, params, s->metric);
		const struct series *s2 = result_find_series(b2, kernel, s->variant, params, s->metric);
		const struct series *x2 = result_find_series(a2, kernel, s->variant, params, s->metric);
		struct ab_paired second = { 0 }, both = { 0 };
		size_t disturbed = 0;
		int ok = x && s2 && x2 && !paired_undisturbed(s2, x2, &second, &disturbed) &&
			 !interference_too_few(second.pairs, disturbed) &&
			 !pooled(s, x, s2, x2, &both);
		s->confirm_change = ok ? second.ratio - 1 : NAN;
		/* The fresh batch must show the minimum effect by itself: under no
		 * change its ratio is above 1 half the time, so "above 1" only
		 * halves the first batch's false alarms (docs/noise.md, "What
		 * `gate ab`'s confirmation does"). */
		s->confirmed = ok && second.ratio >= 1 + s->tolerance &&
			       both.ratio >= 1 + s->tolerance && both.p_greater < pol->alpha;
		const char *was = s->note ? s->note : "";
		if (ok)
			compare_note(s, "%s; confirmation batch %+.1f%%, both batches %+.1f%% "
				     "(p = %.2g): %s", was, 100 * (second.ratio - 1),
				     100 * (both.ratio - 1), both.p_greater,
				     s->confirmed ? "confirmed" : "not confirmed");
		else if (s2 && x2 && interference_too_few(second.pairs, disturbed))
			compare_note(s, "%s; confirmation batch disturbed: %zu of %zu rounds "
				     "disturbed on one side or both: not confirmed", was, disturbed,
				     paired_rounds(s2, x2));
		else
			compare_note(s, "%s; confirmation batch not measurable: not confirmed",
				     was);
		if (!s->confirmed)
			s->verdict = VERDICT_INCONCLUSIVE;
	}
}

bool compare_ab_decided_now(const double *b, const double *a, size_t n,
			    const struct run_policy *pol)
{
	struct ab_paired pr;
	if (compare_ab_paired(b, a, n, &pr))
		return false;
	/* compare_decide_timing's rule, on the raw p: the adjustment over
	 * the run only raises it */
	enum verdict v = compare_timing_verdict(pr.ratio, pol->min_effect,
						pr.p_greater < pol->alpha, pr.high);
	return v == VERDICT_FAIL || (v == VERDICT_IMPROVED && pr.p_less < pol->alpha);
}

/* Whether series S of B, a suspected regression of FIRST (the first
 * batch's B), waits for the confirmation batch; with no FIRST, every series
 * is the first batch's own. */
static bool holds_batch(const struct series *s, const struct run_result *first)
{
	if (!first)
		return true;
	const struct series *f = result_find_series(first, s->kernel, s->variant, s->params,
						    s->metric);
	return f && f->cls == METRIC_TIMING && f->verdict == VERDICT_FAIL && f->gated;
}

/* compare_ab_group_settled, and with FIRST compare_ab_confirm_settled. */
static bool group_settled(struct run_result *b, struct run_result *a,
			  const struct run_result *first, const char *kernel, const char *params,
			  const char *variant, size_t first_round, size_t rounds, size_t budget,
			  const struct run_policy *pol)
{
	if (interference_mark_group_as(b, kernel, params, false) ||
	    interference_mark_group_as(a, kernel, params, false))
		return false;
	double *bv = calloc(rounds + 1, sizeof *bv), *av = calloc(rounds + 1, sizeof *av);
	bool settled = bv && av;
	for (size_t i = 0; settled && i < b->series_count; i++) {
		const struct series *s = &b->series[i];
		if (s->cls != METRIC_TIMING ||
		    !group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, variant, params)) ||
		    !holds_batch(s, first))
			continue;
		const struct series *x = result_find_series(a, kernel, s->variant, params, s->metric);
		char why[160];
		if (!x || s->sample_count < first_round + rounds ||
		    x->sample_count < first_round + rounds)
			continue;   /* B alone, or a variant no longer sampled after it failed */
		if (why_untested(s, stats_median(x->samples + first_round, rounds), pol, why,
				 sizeof why))
			continue;
		size_t disturbed = undisturbed_from(s, x, first_round, rounds, bv, av), usable = 0;
		for (size_t r = 0; r < rounds; r++)
			usable += stats_pair_usable(bv[r], av[r]);
		/* too many rounds disturbed already for the rest to make up:
		 * the verdict will be "disturbed", inconclusive */
		if (budget > rounds &&
		    interference_beyond_reach(usable, disturbed, budget - rounds))
			continue;
		/* settled: decided beyond doubt (efficacy; in a confirmation
		 * batch, confirmed beyond doubt), or nothing the rounds left
		 * could make a verdict of (futility) */
		bool decided = first ? seq_confirmed(bv, av, rounds, budget, pol->min_effect)
				     : seq_efficacious(bv, av, rounds, budget, pol->min_effect);
		settled = !interference_too_few(usable, disturbed) &&
			  (decided || (!compare_ab_decided_now(bv, av, rounds, pol) &&
				       seq_settled(bv, av, rounds, budget, pol->min_effect,
						   pol->alpha)));
	}
	free(bv);
	free(av);
	return settled;
}

bool compare_ab_group_settled(struct run_result *b, struct run_result *a, const char *kernel,
			      const char *params, const char *variant, size_t first_round,
			      size_t rounds, size_t budget, const struct run_policy *pol)
{
	return group_settled(b, a, NULL, kernel, params, variant, first_round, rounds, budget,
			     pol);
}

bool compare_ab_confirm_settled(struct run_result *b, struct run_result *a,
				const struct run_result *first, const char *kernel,
				const char *params, const char *variant, size_t first_round,
				size_t rounds, size_t budget, const struct run_policy *pol)
{
	return group_settled(b, a, first, kernel, params, variant, first_round, rounds, budget,
			     pol);
}

enum verdict compare_ab_claim(enum verdict a, enum verdict b)
{
	int a_decided = a == VERDICT_PASS || a == VERDICT_FAIL || a == VERDICT_INCONCLUSIVE;
	int b_decided = b == VERDICT_PASS || b == VERDICT_FAIL || b == VERDICT_INCONCLUSIVE;
	if (!a_decided || !b_decided)
		return b;
	if (a == VERDICT_INCONCLUSIVE || b == VERDICT_INCONCLUSIVE)
		return VERDICT_INCONCLUSIVE;
	if (a == VERDICT_PASS)
		return b;   /* pass, or fail: the change broke it */
	return b == VERDICT_PASS ? VERDICT_IMPROVED : VERDICT_FAIL_BOTH;
}

static int same_text(const char *x, const char *y)
{
	return (!x && !y) || (x && y && !strcmp(x, y));
}

/* A's evaluation of the claim E of B, NULL when A has none. */
static const struct expect_result *find_claim(const struct run_result *a,
					      const struct expect_result *e)
{
	for (size_t i = 0; i < a->expect_count; i++) {
		const struct expect_result *x = &a->expects[i];
		if (same_text(x->kernel, e->kernel) && same_text(x->params, e->params) &&
		    same_text(x->expr, e->expr) && same_text(x->conditions, e->conditions))
			return x;
	}
	return NULL;
}

void compare_ab_expectations(struct run_result *b, const struct run_result *a)
{
	for (size_t i = 0; i < b->expect_count; i++) {
		struct expect_result *e = &b->expects[i];
		const struct expect_result *x = find_claim(a, e);
		if (!e->gated || !x)
			continue;
		e->a.measured = true;
		e->a.verdict = x->verdict;
		e->a.rounds = x->rounds;
		e->a.estimate = x->estimate;
		e->a.ci_low = x->ci_low;
		e->a.ci_high = x->ci_high;
		e->b_verdict = e->verdict;
		e->verdict = compare_ab_claim(x->verdict, e->verdict);
	}
}

int compare_ab_mark_interference(struct run_result *b, struct run_result *a)
{
	int ret = interference_mark_as(b, false);
	return ret ? ret : interference_mark_as(a, false);
}

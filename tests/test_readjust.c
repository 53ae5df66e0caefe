/* test_readjust.c: gates/decide/readjust.c, shards' timing comparisons
 * adjusted again as one family when `gate merge` joins them. Hand-made
 * results: a failure significant in its shard's small family and not in
 * the merged one becomes inconclusive; one significant in both stays; the
 * families are per platform; counts, untested series and verdicts other
 * than a failure are left as they are. Nothing is timed. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/policy.h"
#include "core/result.h"
#include "decide/exit_decide.h"
#include "decide/readjust.h"

static const char *const timing_test =
	"timing (A/B): per-round ratio B/A, median with binomial 95% interval, Wilcoxon "
	"signed-rank one-sided, Holm over the run, minimum effect";

/* A tested timing series of R (kernel K, variant V) with raw p P, median
 * ratio 1 + CHANGE and VERDICT. */
static struct series *timed(struct run_result *r, const char *k, const char *v, double p,
			    double change, enum verdict verdict)
{
	struct series *s = result_add_series(r, k, v, "small", "wall_ns", "ns", METRIC_TIMING);
	cr_assert(s);
	cr_assert(result_series_append(s, 100) == 0);
	s->test = timing_test;
	s->p_value = p;
	s->change = change;
	s->tolerance = 0.02;
	s->ci_low = 1 + change / 2;
	s->ci_high = 1 + 2 * change;
	s->verdict = verdict;
	return s;
}

/* Shard R (of platform linux-x86_64-glibc) holds the kernel K: one series
 * with raw p P at +5% (a failure when P < 0.05, else passing) and NOTHING
 * series with p 0.9 (passing): a family of 1 + NOTHING. */
static struct series *shard(struct run_result *r, const char *k, double p, size_t nothing)
{
	memset(r, 0, sizeof *r);
	r->ctx.platform_key = strdup("linux-x86_64-glibc");
	struct series *s = timed(r, k, "hit", p, 0.05, p < 0.05 ? VERDICT_FAIL : VERDICT_PASS);
	for (size_t i = 0; i < nothing; i++) {
		char v[16];
		snprintf(v, sizeof v, "v%zu", i);
		timed(r, k, v, 0.9, 0.001, VERDICT_PASS);
	}
	return &r->series[0] == s ? s : NULL;
}

static struct run_policy policy(void)
{
	struct run_policy p;
	policy_defaults(&p);
	p.recorded = true;
	return p;
}

/* p = 0.01 in a shard of 4 comparisons: Holm 0.04 < 0.05, a failure; in
 * the merged run of 8, 0.08: not significant. */
Test(readjust, a_failure_of_a_small_family_is_not_one_of_the_whole_run)
{
	struct run_result runs[2];
	shard(&runs[0], "a", 0.01, 3);
	shard(&runs[1], "b", 0.9, 3);
	size_t lost[2];
	struct run_policy pol = policy();
	cr_assert_eq(readjust_timing(runs, 2, &pol, lost), 1);
	cr_expect_eq(lost[0], 1);
	cr_expect_eq(lost[1], 0);
	const struct series *s = &runs[0].series[0];
	cr_expect_eq(s->verdict, VERDICT_INCONCLUSIVE, "verdict %d", s->verdict);
	cr_assert(s->note);
	cr_expect(strstr(s->note, "Holm-adjusted 0.04 over its shard's 4 timing comparisons, "
			 "0.08 over the merged run's 8: not significant at 0.05"), "%s", s->note);
	for (size_t i = 1; i < runs[0].series_count; i++)
		cr_expect_eq(runs[0].series[i].verdict, VERDICT_PASS);
	/* the shard's exit status, decided again: nothing else failed */
	runs[0].series[0].gated = true;
	cr_expect_eq(exit_decide_run(&runs[0], 0), GATE_EXIT_OK);
	result_free(&runs[0]);
	result_free(&runs[1]);
}

/* p = 0.001: 0.004 in its shard, 0.008 over the merged run: still fails. */
Test(readjust, a_failure_of_the_whole_run_stays)
{
	struct run_result runs[2];
	shard(&runs[0], "a", 0.001, 3);
	shard(&runs[1], "b", 0.9, 3);
	struct run_policy pol = policy();
	cr_assert_eq(readjust_timing(runs, 2, &pol, NULL), 0);
	cr_expect_eq(runs[0].series[0].verdict, VERDICT_FAIL);
	cr_expect_null(runs[0].series[0].note);
	result_free(&runs[0]);
	result_free(&runs[1]);
}

/* Two platforms are two runs: each keeps its own family, and the failure
 * of p = 0.01 in a family of 4 stands. */
Test(readjust, platforms_are_families_apart)
{
	struct run_result runs[2];
	shard(&runs[0], "a", 0.01, 3);
	shard(&runs[1], "b", 0.01, 3);
	free(runs[1].ctx.platform_key);
	runs[1].ctx.platform_key = strdup("windows-x86_64-msvcrt");
	struct run_policy pol = policy();
	cr_assert_eq(readjust_timing(runs, 2, &pol, NULL), 0);
	cr_expect_eq(runs[0].series[0].verdict, VERDICT_FAIL);
	cr_expect_eq(runs[1].series[0].verdict, VERDICT_FAIL);
	/* the same two as shards of one platform: 0.01 x 8 = 0.08 for both */
	free(runs[1].ctx.platform_key);
	runs[1].ctx.platform_key = strdup("linux-x86_64-glibc");
	cr_assert_eq(readjust_timing(runs, 2, &pol, NULL), 2);
	cr_expect_eq(runs[0].series[0].verdict, VERDICT_INCONCLUSIVE);
	cr_expect_eq(runs[1].series[0].verdict, VERDICT_INCONCLUSIVE);
	result_free(&runs[0]);
	result_free(&runs[1]);
}

/* Only tested timing series are in the family: a count series with a
 * p-value, a timing series never tested (no test) and one without a raw p
 * add nothing. */
Test(readjust, only_tested_timing_series_count)
{
	struct run_result runs[2];
	shard(&runs[0], "a", 0.001, 3);
	shard(&runs[1], "b", 0.9, 3);
	runs[0].series[0].p_value = 0.006;   /* x 8 = 0.048: fails over 8; x 9 = 0.054 */
	struct series *c = result_add_series(&runs[1], "b", "x", "small", "mallocs", "count",
					     METRIC_EXACT);
	c->p_value = 0.001;
	c->test = "exact: median against baseline median, relative tolerance";
	struct series *u = timed(&runs[1], "b", "untested", 0.001, 0, VERDICT_SKIPPED);
	u->test = NULL;
	struct series *nan = timed(&runs[1], "b", "nan", NAN, 0, VERDICT_INCONCLUSIVE);
	cr_expect_not(readjust_is_tested_timing(c));
	cr_expect_not(readjust_is_tested_timing(u));
	cr_expect_not(readjust_is_tested_timing(nan));
	cr_expect(readjust_is_tested_timing(&runs[0].series[0]));
	struct run_policy pol = policy();
	cr_assert_eq(readjust_timing(runs, 2, &pol, NULL), 0);
	cr_expect_eq(runs[0].series[0].verdict, VERDICT_FAIL);
	timed(&runs[1], "b", "ninth", 0.9, 0, VERDICT_PASS);
	cr_assert_eq(readjust_timing(runs, 2, &pol, NULL), 1);
	cr_expect_eq(runs[0].series[0].verdict, VERDICT_INCONCLUSIVE);
	result_free(&runs[0]);
	result_free(&runs[1]);
}

/* Nothing becomes a failure, nor stops being an improvement: a shard's
 * inconclusive series with a small p stays inconclusive (its confirmation
 * batch is not in the file), an improvement stays one. */
Test(readjust, nothing_else_changes)
{
	struct run_result runs[2];
	shard(&runs[0], "a", 0.0001, 3);
	runs[0].series[0].verdict = VERDICT_INCONCLUSIVE;
	shard(&runs[1], "b", 0.9, 3);
	runs[1].series[0].verdict = VERDICT_IMPROVED;
	runs[1].series[0].change = -0.05;
	struct run_policy pol = policy();
	cr_assert_eq(readjust_timing(runs, 2, &pol, NULL), 0);
	cr_expect_eq(runs[0].series[0].verdict, VERDICT_INCONCLUSIVE);
	cr_expect_eq(runs[1].series[0].verdict, VERDICT_IMPROVED);
	result_free(&runs[0]);
	result_free(&runs[1]);
}

/* Benjamini-Hochberg: 0.01 among four in its shard is 0.04; among eight
 * whose other raw p are 0.9, 0.08. */
Test(readjust, benjamini_hochberg_too)
{
	struct run_result runs[2];
	shard(&runs[0], "a", 0.01, 3);
	shard(&runs[1], "b", 0.9, 3);
	struct run_policy pol = policy();
	pol.fdr = true;
	cr_assert_eq(readjust_timing(runs, 2, &pol, NULL), 1);
	cr_expect(strstr(runs[0].series[0].note, "BH-adjusted 0.04 over its shard's 4 timing "
			 "comparisons, 0.08 over the merged run's 8"), "%s", runs[0].series[0].note);
	result_free(&runs[0]);
	result_free(&runs[1]);
}

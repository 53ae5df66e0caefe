/* test_result_tally.c: gates/core/result_tally.c, the counts of a result
 * the reports say, on hand-built results. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/result.h"
#include "core/result_tally.h"

static struct series *add(struct run_result *r, const char *metric, enum verdict v, bool gated)
{
	struct series *s = result_add_series(r, "k", "v", "p", metric, "ns", METRIC_TIMING);
	cr_assert_not_null(s);
	s->verdict = v;
	s->gated = gated;
	return s;
}

Test(result_tally, verdicts_count_what_gates_and_what_informs)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	add(&r, "wall_ns", VERDICT_FAIL, true);
	add(&r, "task_clock_ns", VERDICT_FAIL, false);   /* information: not a failure */
	add(&r, "cycles", VERDICT_PASS, false);
	add(&r, "instructions", VERDICT_SKIPPED, true);
	result_add_expect(&r)->verdict = VERDICT_PASS;
	struct expect_result *info = result_add_expect(&r);
	info->gated = false;
	cr_assert_eq(result_add_problem(&r, "k", "v", "p", "sample 1", "crashed"), 0);
	cr_assert_eq(result_add_problem(&r, NULL, NULL, NULL, "cycles", "no PMU"), 0);
	size_t series[VERDICT_ERROR + 1], expects[VERDICT_ERROR + 1], information, problems;
	result_tally_verdicts(&r, series, expects, &information, &problems);
	cr_expect_eq(series[VERDICT_FAIL], 1);
	cr_expect_eq(series[VERDICT_PASS], 1);
	cr_expect_eq(series[VERDICT_SKIPPED], 1);
	cr_expect_eq(expects[VERDICT_PASS], 1);
	cr_expect_eq(expects[VERDICT_ERROR], 0, "the expectation not gated is information");
	cr_expect_eq(information, 1);
	cr_expect_eq(problems, 1, "a run-wide problem is no kernel's");
	cr_expect_eq(result_tally_not_gated(&r), 1);
	result_free(&r);
}

Test(result_tally, disturbed_counts_the_wall_time_series_only)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	static bool marks[4] = { true, false, true, false };
	struct series *wall = add(&r, "region.wall_ns", VERDICT_PASS, true);
	struct series *task = add(&r, "task_clock_ns", VERDICT_PASS, true);
	struct series *other = add(&r, "my_wall_ns", VERDICT_PASS, true);
	wall->disturbed = task->disturbed = other->disturbed = marks;
	wall->disturbed_len = task->disturbed_len = other->disturbed_len = 4;
	wall->disturbed_count = task->disturbed_count = other->disturbed_count = 2;
	size_t disturbed, samples;
	result_tally_disturbed(&r, &disturbed, &samples);
	cr_expect_eq(disturbed, 2);
	cr_expect_eq(samples, 4);
	wall->disturbed = task->disturbed = other->disturbed = NULL;   /* not R's to free */
	result_free(&r);
}

Test(result_tally, machine_shift_of_a_baseline_comparison_not_of_gate_ab)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	for (int i = 0; i < RESULT_SHIFT_MIN_SERIES; i++) {
		char metric[32];
		snprintf(metric, sizeof metric, "r%d.wall_ns", i);
		struct series *s = add(&r, metric, VERDICT_PASS, true);
		s->has_baseline = true;
		s->change = 0.10 + 0.01 * i;
	}
	double median;
	cr_expect_eq(result_tally_machine_shift(&r, &median), RESULT_SHIFT_MIN_SERIES);
	cr_expect_float_eq(median, 0.145, 1e-12);
	r.comparison = "B against A";
	cr_expect_eq(result_tally_machine_shift(&r, &median), 0);
	cr_expect(isnan(median), "gate ab's paired ratios are no machine's move");
	r.comparison = NULL;
	result_free(&r);
}

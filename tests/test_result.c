/* test_result.c: gates/core/result.c: names, growing arrays, order, freeing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/result.h"

Test(result, verdict_names)
{
	cr_expect_str_eq(result_verdict_name(VERDICT_PASS), "pass");
	cr_expect_str_eq(result_verdict_name(VERDICT_FAIL), "fail");
	cr_expect_str_eq(result_verdict_name(VERDICT_INCONCLUSIVE), "inconclusive");
	cr_expect_str_eq(result_verdict_name(VERDICT_IMPROVED), "improved");
	cr_expect_str_eq(result_verdict_name(VERDICT_NEW), "new");
	cr_expect_str_eq(result_verdict_name(VERDICT_SKIPPED), "skipped");
	cr_expect_str_eq(result_verdict_name(VERDICT_ERROR), "error");
	cr_expect_str_eq(result_verdict_name((enum verdict)99), "unknown");
}

Test(result, metric_class_names_round_trip)
{
	enum metric_class all[] = { METRIC_EXACT, METRIC_NEAR, METRIC_TIMING };
	const char *names[] = { "exact", "near", "timing" };
	enum metric_class c;
	size_t i;

	for (i = 0; i < 3; i++) {
		cr_expect_str_eq(result_class_name(all[i]), names[i]);
		cr_assert_eq(result_class_parse(names[i], &c), 0);
		cr_expect_eq(c, all[i]);
	}
	cr_expect_eq(result_class_parse("Exact", &c), -1);
	cr_expect_eq(result_class_parse("near-exact", &c), -1);
	cr_expect_eq(result_class_parse("", &c), -1);
	cr_expect_eq(result_class_parse(NULL, &c), -1);
}

Test(result, add_series_copies_strings_and_starts_uncompared)
{
	struct run_result r = { 0 };
	char kernel[] = "resize";
	struct series *s;

	s = result_add_series(&r, kernel, "lossful_grow", "2MB", "wall_ns", "ns", METRIC_TIMING);
	cr_assert_not_null(s);
	kernel[0] = 'X';
	cr_expect_str_eq(s->kernel, "resize");
	cr_expect_eq(s->cls, METRIC_TIMING);
	cr_expect_eq(s->sample_count, 0);
	cr_expect(isnan(s->median) && isnan(s->p_value) && isnan(s->change));
	cr_expect_not(s->has_baseline);
	cr_expect_eq(s->verdict, VERDICT_NEW);
	cr_expect_eq(r.series_count, 1);
	result_free(&r);
}

Test(result, find_series_by_all_four_names)
{
	struct run_result r = { 0 };

	cr_assert_not_null(result_add_series(&r, "k", "a", "p", "wall_ns", "ns", METRIC_TIMING));
	cr_assert_not_null(result_add_series(&r, "k", "a", "p", "page_faults", "count", METRIC_NEAR));
	cr_assert_not_null(result_add_series(&r, "k", "b", "p", "wall_ns", "ns", METRIC_TIMING));
	cr_expect_str_eq(result_find_series(&r, "k", "a", "p", "page_faults")->unit, "count");
	cr_expect_eq(result_find_series(&r, "k", "b", "p", "wall_ns"), &r.series[2]);
	cr_expect_null(result_find_series(&r, "k", "b", "p", "page_faults"));
	cr_expect_null(result_find_series(&r, "k", "a", "q", "wall_ns"));
	result_free(&r);
}

Test(result, arrays_grow_past_their_first_capacity)
{
	struct run_result r = { 0 };
	struct series *s;
	char name[16];
	size_t i;

	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "m%03zu", i);
		cr_assert_not_null(result_add_series(&r, "k", "v", "p", name, "count", METRIC_EXACT));
	}
	s = &r.series[57];
	for (i = 0; i < 1000; i++)
		cr_assert_eq(result_series_append(s, (double)i), 0);
	cr_expect_eq(s->sample_count, 1000);
	for (i = 0; i < 1000; i++)
		cr_assert_eq(s->samples[i], (double)i);
	cr_expect_str_eq(r.series[99].metric, "m099");
	cr_expect_str_eq(r.series[0].metric, "m000");
	result_free(&r);
}

Test(result, sort_orders_by_kernel_variant_params_metric)
{
	static const char *in[][4] = {
		{ "b", "x", "p", "m" }, { "a", "y", "p", "m" }, { "a", "x", "q", "m" },
		{ "a", "x", "p", "n" }, { "a", "x", "p", "m" },
	};
	struct run_result r = { 0 };
	size_t i;

	for (i = 0; i < 5; i++)
		cr_assert_not_null(result_add_series(&r, in[i][0], in[i][1], in[i][2], in[i][3],
						     "u", METRIC_EXACT));
	result_sort(&r);
	for (i = 0; i < 5; i++) {
		const struct series *s = &r.series[i];
		const char **want = in[4 - i];

		cr_expect_str_eq(s->kernel, want[0]);
		cr_expect_str_eq(s->variant, want[1]);
		cr_expect_str_eq(s->params, want[2]);
		cr_expect_str_eq(s->metric, want[3]);
	}
	result_free(&r);
}

Test(result, problems_keep_null_names)
{
	struct run_result r = { 0 };

	cr_assert_eq(result_add_problem(&r, NULL, NULL, NULL, "cycles", "no hardware PMU"), 0);
	cr_assert_eq(result_add_problem(&r, "resize", "grow", "2MB", "sample", "crashed"), 0);
	cr_expect_eq(r.problem_count, 2);
	cr_expect_null(r.problems[0].kernel);
	cr_expect_str_eq(r.problems[0].reason, "no hardware PMU");
	cr_expect_str_eq(r.problems[1].variant, "grow");
	result_free(&r);
}

Test(result, expect_starts_as_error_until_evaluated)
{
	struct run_result r = { 0 };
	struct expect_result *e = result_add_expect(&r);

	cr_assert_not_null(e);
	cr_expect_eq(r.expect_count, 1);
	cr_expect_eq(e->verdict, VERDICT_ERROR);
	cr_expect(isnan(e->estimate));
	e->kernel = strdup("resize");
	e->note = strdup("freed by result_free");
	result_free(&r);
}

Test(result, free_zeroes_everything)
{
	struct run_result r = { 0 };
	struct run_result zero;

	memset(&zero, 0, sizeof(zero));
	cr_assert_not_null(result_add_series(&r, "k", "v", "p", "m", "u", METRIC_EXACT));
	cr_assert_eq(result_series_append(&r.series[0], 1.0), 0);
	r.ctx.os = strdup("linux");
	r.baseline_path = strdup("baselines/x.json");
	result_free(&r);
	cr_expect_eq(memcmp(&r, &zero, sizeof(r)), 0);
	result_free(&r); /* a freed result can be freed again */
}

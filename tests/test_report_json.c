/* test_report_json.c: gates/report/report_json.c: the --json result file, its
 * fields, null for NaN, and that baseline_load reads it back. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <jansson.h>

#include "report/report_json.h"
#include "store/baseline.h"
#include "store/results_load.h"

static char dir[256];
static char path[512];

static void make_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/allocgate-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/result.json", dir);
}

static void remove_dir(void)
{
	unlink(path);
	rmdir(dir);
}

TestSuite(report_json, .init = make_dir, .fini = remove_dir);

static void fill(struct run_result *r)
{
	static const double wall[] = { 1500, 1510.25, NAN, 1490 };
	struct series *s;
	struct expect_result *e;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->ctx.platform_key = strdup("linux-x86_64-glibc");
	r->ctx.cpu_count = 4;
	r->exit_code = 1;
	r->wall_seconds = 12.5;
	r->baseline_path = strdup("baselines/linux-x86_64-glibc.json");
	s = result_add_series(r, "resize", "realloc_grow", "2MB", "wall_ns", "ns", METRIC_TIMING);
	cr_assert_not_null(s);
	for (i = 0; i < 4; i++)
		cr_assert_eq(result_series_append(s, wall[i]), 0);
	s->median = 1500;
	s->has_baseline = true;
	s->baseline_median = 1000;
	s->baseline_count = 9;
	s->change = 0.5;
	s->ci_low = 1.4;
	s->ci_high = 1.6;
	s->p_value = 0.001;
	s->verdict = VERDICT_FAIL;
	s->note = strdup("50% slower");
	s = result_add_series(r, "resize", "realloc_grow", "2MB", "realloc_moved", "count",
			      METRIC_EXACT);
	cr_assert_not_null(s);
	cr_assert_eq(result_series_append(s, 0), 0);
	e = result_add_expect(r);
	cr_assert_not_null(e);
	e->kernel = strdup("resize");
	e->params = strdup("2MB");
	e->file = strdup("kernels/resize.c");
	e->line = 120;
	e->expr = strdup("realloc_shrink.wall_ns < 0.1 * copy_shrink.wall_ns");
	e->rounds = 9;
	e->ratio = true;
	e->estimate = 0.02;
	e->ci_low = 0.01;
	e->ci_high = 0.03;
	e->confidence = 0.961;
	e->verdict = VERDICT_PASS;
	cr_assert_eq(result_add_problem(r, NULL, NULL, NULL, "cycles", "no hardware PMU"), 0);
}

static json_t *load_json(void)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);

	cr_assert_not_null(root, "%s:%d: %s", path, jerr.line, jerr.text);
	return root;
}

Test(report_json, verdict_words_follow_the_exit_code)
{
	cr_expect_str_eq(gate_exit_verdict(0), "pass");
	cr_expect_str_eq(gate_exit_verdict(1), "fail");
	cr_expect_str_eq(gate_exit_verdict(3), "unmeasured");
	cr_expect_str_eq(gate_exit_verdict(4), "error");
	cr_expect_str_eq(gate_exit_verdict(2), "error");
}

Test(report_json, top_level_fields)
{
	struct run_result r;
	char err[256] = "";
	json_t *root;

	fill(&r);
	cr_assert_eq(report_json_write(path, &r, err, sizeof(err)), 0, "%s", err);
	root = load_json();
	cr_expect_eq(json_integer_value(json_object_get(root, "schema")), 1);
	cr_expect_str_eq(json_string_value(json_object_get(root, "platform")), "linux-x86_64-glibc");
	cr_expect_str_eq(json_string_value(json_object_get(root, "verdict")), "fail");
	cr_expect_eq(json_integer_value(json_object_get(root, "exit_code")), 1);
	cr_expect_eq(json_number_value(json_object_get(root, "wall_seconds")), 12.5);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(root, "context"),
							"cpu_count")), 4);
	cr_expect_str_eq(json_string_value(json_object_get(root, "baseline")), r.baseline_path);
	cr_expect(json_is_null(json_object_get(root, "baseline_note")));
	json_decref(root);
	result_free(&r);
}

Test(report_json, series_carry_the_comparison_and_null_for_nan)
{
	struct run_result r;
	char err[256] = "";
	json_t *root, *a, *b;

	fill(&r);
	cr_assert_eq(report_json_write(path, &r, err, sizeof(err)), 0, "%s", err);
	root = load_json();
	a = json_array_get(json_object_get(root, "series"), 0);
	b = json_array_get(json_object_get(root, "series"), 1);
	cr_assert(a && b);
	cr_expect_str_eq(json_string_value(json_object_get(a, "class")), "timing");
	cr_expect_eq(json_integer_value(json_object_get(a, "sample_count")), 4);
	cr_expect_eq(json_number_value(json_object_get(a, "baseline_median")), 1000);
	cr_expect_eq(json_integer_value(json_object_get(a, "baseline_count")), 9);
	cr_expect_eq(json_number_value(json_object_get(a, "p_value")), 0.001);
	cr_expect_str_eq(json_string_value(json_object_get(a, "verdict")), "fail");
	cr_expect_str_eq(json_string_value(json_object_get(a, "note")), "50% slower");
	cr_expect(json_is_null(json_array_get(json_object_get(a, "samples"), 2)));
	/* the second series was never compared: no baseline, NaN statistics */
	cr_expect(json_is_null(json_object_get(b, "baseline_median")));
	cr_expect(json_is_null(json_object_get(b, "p_value")));
	cr_expect(json_is_null(json_object_get(b, "change")));
	cr_expect_str_eq(json_string_value(json_object_get(b, "verdict")), "new");
	json_decref(root);
	result_free(&r);
}

Test(report_json, expectations_and_problems)
{
	struct run_result r;
	char err[256] = "";
	json_t *root, *e, *p;

	fill(&r);
	cr_assert_eq(report_json_write(path, &r, err, sizeof(err)), 0, "%s", err);
	root = load_json();
	e = json_array_get(json_object_get(root, "expectations"), 0);
	p = json_array_get(json_object_get(root, "problems"), 0);
	cr_assert(e && p);
	cr_expect_str_eq(json_string_value(json_object_get(e, "file")), "kernels/resize.c");
	cr_expect_eq(json_integer_value(json_object_get(e, "line")), 120);
	cr_expect(json_is_true(json_object_get(e, "ratio")));
	cr_expect_eq(json_number_value(json_object_get(e, "confidence")), 0.961);
	cr_expect_str_eq(json_string_value(json_object_get(e, "verdict")), "pass");
	cr_expect(json_is_null(json_object_get(e, "note")));
	cr_expect(json_is_null(json_object_get(p, "kernel")));
	cr_expect_str_eq(json_string_value(json_object_get(p, "what")), "cycles");
	cr_expect_str_eq(json_string_value(json_object_get(p, "reason")), "no hardware PMU");
	json_decref(root);
	result_free(&r);
}

Test(report_json, result_file_loads_as_a_baseline)
{
	struct run_result r, back;
	char err[256] = "";
	size_t i, k;

	fill(&r);
	cr_assert_eq(report_json_write(path, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(baseline_load(path, &back, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(back.series_count, r.series_count);
	for (i = 0; i < r.series_count; i++) {
		const struct series *w = &r.series[i];
		const struct series *g = result_find_series(&back, w->kernel, w->variant,
							    w->params, w->metric);

		cr_assert_not_null(g);
		cr_expect_eq(g->cls, w->cls);
		cr_assert_eq(g->sample_count, w->sample_count);
		for (k = 0; k < w->sample_count; k++)
			cr_expect((isnan(w->samples[k]) && isnan(g->samples[k])) ||
				  w->samples[k] == g->samples[k]);
	}
	cr_expect_str_eq(back.ctx.platform_key, "linux-x86_64-glibc");
	result_free(&r);
	result_free(&back);
}

Test(report_json, ab_schedule_round_trips)
{
	struct run_result r, back;
	char err[256] = "";
	json_error_t jerr;

	fill(&r);
	r.comparison = strdup("A/B: B against A");
	r.schedule.mode = AB_MODE_DUET;
	r.schedule.duet_asked = true;
	r.schedule.cpus[0] = 0, r.schedule.cpus[1] = 2, r.schedule.cpus[2] = 1;
	r.schedule.cpu_count = 3;
	r.schedule.pairs = 62, r.schedule.alone = 3, r.schedule.interleaved_groups = 1;
	r.schedule.skew_median_us = 41.5, r.schedule.skew_max_us = 310;
	r.schedule.groups_compared = 10, r.schedule.groups_settled = 4;
	r.schedule.rounds_taken = 400, r.schedule.rounds_budget = 610;
	r.schedule.settle_level = 0.9;
	cr_assert_eq(report_json_write(path, &r, err, sizeof(err)), 0, "%s", err);
	json_t *root = json_load_file(path, 0, &jerr);
	cr_assert_not_null(root, "%s", jerr.text);
	json_t *sc = json_object_get(root, "ab_schedule");
	cr_assert(json_is_object(sc));
	cr_expect_str_eq(json_string_value(json_object_get(sc, "mode")), "duet");
	cr_expect_eq(json_array_size(json_object_get(sc, "cpus")), 3);
	cr_expect_eq(json_integer_value(json_array_get(json_object_get(sc, "cpus"), 1)), 2);
	cr_expect_eq(json_integer_value(json_object_get(sc, "pairs")), 62);
	cr_expect(json_is_null(json_object_get(sc, "why_not_duet")));
	json_decref(root);
	cr_assert_eq(results_load(path, &back, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(back.schedule.mode, AB_MODE_DUET);
	cr_expect_eq(back.schedule.cpu_count, 3);
	cr_expect_eq(back.schedule.cpus[1], 2);
	cr_expect_eq(back.schedule.pairs, 62);
	cr_expect_eq(back.schedule.alone, 3);
	cr_expect_eq(back.schedule.interleaved_groups, 1);
	cr_expect_eq(back.schedule.skew_median_us, 41.5);
	cr_expect_eq(back.schedule.skew_max_us, 310);
	cr_expect_eq(back.schedule.groups_compared, 10);
	cr_expect_eq(back.schedule.groups_settled, 4);
	cr_expect_eq(back.schedule.rounds_taken, 400);
	cr_expect_eq(back.schedule.rounds_budget, 610);
	cr_expect_eq(back.schedule.settle_level, 0.9);
	result_free(&back);
	/* interleaved, with the reason, and no duet figures */
	memset(&r.schedule, 0, sizeof r.schedule);
	r.schedule.mode = AB_MODE_INTERLEAVED;
	r.schedule.duet_asked = true;
	snprintf(r.schedule.why, sizeof r.schedule.why, "duet needs two CPUs: this process "
		 "may run on 1");
	cr_assert_eq(report_json_write(path, &r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(results_load(path, &back, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(back.schedule.mode, AB_MODE_INTERLEAVED);
	cr_expect_str_eq(back.schedule.why, r.schedule.why);
	cr_expect_eq(back.schedule.cpu_count, 0);
	result_free(&back);
	/* not gate ab: no such object */
	memset(&r.schedule, 0, sizeof r.schedule);
	cr_assert_eq(report_json_write(path, &r, err, sizeof(err)), 0, "%s", err);
	root = json_load_file(path, 0, &jerr);
	cr_assert_not_null(root);
	cr_expect_null(json_object_get(root, "ab_schedule"));
	json_decref(root);
	result_free(&r);
}

Test(report_json, non_utf8_text_still_gives_valid_json)
{
	struct run_result r;
	char err[256] = "";
	json_t *root, *p;

	fill(&r);
	cr_assert_eq(result_add_problem(&r, "k", NULL, NULL, "sample",
					"stderr: \xff\xfe garbage \xc3 caf\xc3\xa9"), 0);
	cr_assert_eq(report_json_write(path, &r, err, sizeof(err)), 0, "%s", err);
	root = load_json();
	p = json_array_get(json_object_get(root, "problems"), 1);
	cr_expect_str_eq(json_string_value(json_object_get(p, "reason")), "stderr: \xef\xbf\xbd\xef\xbf\xbd garbage \xef\xbf\xbd caf\xc3\xa9");
	json_decref(root);
	result_free(&r);
}

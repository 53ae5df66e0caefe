/* test_change_scan.c: gates/decide/change_scan.c and result_summary.c:
 * how each series is scanned, the runs of one commit as one point, the
 * platforms apart, the filters; what a result keeps in a history. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/change_scan.h"
#include "decide/changepoint.h"
#include "decide/result_summary.h"

/* The method table of change_scan.h. */
Test(change_scan, method_per_series)
{
	static const struct {
		const char *metric;
		enum metric_class cls;
		int rc;
		enum change_method method;
		double tolerance;
	} cases[] = {
		{ "heap_malloc_calls", METRIC_EXACT, 0, CHANGE_STEP, 0 },
		{ "cost_malloc_calls", METRIC_NEAR, 0, CHANGE_STEP, 0 },
		{ "free.cost_free_calls", METRIC_EXACT, 0, CHANGE_STEP, 0 },
		{ "cost_instructions", METRIC_NEAR, 0, CHANGE_STEP, 0.002 },
		{ "cost_malloc_instructions", METRIC_EXACT, 0, CHANGE_STEP, 0.002 },
		{ "cost_l1_misses", METRIC_NEAR, 0, CHANGE_STEP, 0.10 },
		{ "cost_est_cycles", METRIC_EXACT, 0, CHANGE_STEP, 0.10 },
		{ "page_faults", METRIC_NEAR, 0, CHANGE_EDIVISIVE, 0.03 },
		{ "wall_ns", METRIC_TIMING, 0, CHANGE_EDIVISIVE, 0.03 },
		{ "ctx_switches", METRIC_TIMING, -1, CHANGE_STEP, 0 },
		{ "others_cpu_permille", METRIC_TIMING, -1, CHANGE_STEP, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum change_method m;
		double tol;
		int rc = change_scan_method(cases[i].metric, cases[i].cls, 0.03, &m, &tol);
		cr_expect_eq(rc, cases[i].rc, "%s", cases[i].metric);
		if (rc)
			continue;
		cr_expect_eq(m, cases[i].method, "%s", cases[i].metric);
		cr_expect_float_eq(tol, cases[i].tolerance, 1e-12, "%s", cases[i].metric);
	}
	cr_expect(change_scan_metric_matches("free.wall_ns", "wall_ns"));
	cr_expect(change_scan_metric_matches("wall_ns", NULL));
	cr_expect(!change_scan_metric_matches("wall_ns_x", "wall_ns"));
}

/* A run of COMMIT at TIME on PLATFORM with heap_malloc_calls CALLS and
 * wall_ns NS (and ctx_switches, which is not scanned). */
static void add_run(struct result_history *h, const char *commit, const char *time,
		    const char *platform, double calls, double ns)
{
	struct history_run *r = result_history_add_run(h);
	struct history_value v = { "k", "v", "p", "heap_malloc_calls", "count", METRIC_EXACT,
				   calls, 0, NAN };
	cr_assert(r);
	r->commit = strdup(commit);
	r->time = strdup(time);
	r->run_at = strdup(time);
	r->platform = strdup(platform);
	cr_assert_eq(result_history_add_value(r, &v), 0);
	v.metric = "wall_ns";
	v.unit = "ns";
	v.cls = METRIC_TIMING;
	v.median = ns;
	v.n = 9;
	v.mad = ns / 100;
	cr_assert_eq(result_history_add_value(r, &v), 0);
	v.metric = "ctx_switches";
	v.median = calls * 1000;   /* moves wildly: never scanned */
	cr_assert_eq(result_history_add_value(r, &v), 0);
}

static void scan(struct result_history *h, const char *kernel, const char *metric,
		 struct change_findings *f)
{
	struct change_scan_options o = { .kernel = kernel, .metric = metric };
	changepoint_defaults(&o.settings);
	result_history_sort(h);
	cr_assert_eq(change_scan(h, &o, f), 0);
}

/* Two runs of one commit (by a short and a long id) are one point: the
 * median of their medians; a change of calls at the third commit. */
Test(change_scan, runs_of_one_commit_are_one_point)
{
	struct result_history h = { 0 };
	struct change_findings f;
	add_run(&h, "aaaaaaa1111", "2026-01-01T00:00:00Z", "p", 100, 1000);
	add_run(&h, "aaaaaaa", "2026-01-01T00:00:00Z", "p", 100, 3000);
	add_run(&h, "bbbbbbb", "2026-01-02T00:00:00Z", "p", 100, 1000);
	add_run(&h, "ccccccc", "2026-01-03T00:00:00Z", "p", 101, 1000);
	scan(&h, NULL, NULL, &f);
	cr_assert_eq(f.commit_count, 3);
	cr_expect_eq(f.commits[0].runs, 2);
	cr_expect_str_eq(f.commits[2].short_id, "ccccccc");
	cr_assert_eq(f.track_count, 2, "heap_malloc_calls and wall_ns, not ctx_switches");
	const struct change_track *t = &f.tracks[1];
	cr_expect_str_eq(t->metric, "wall_ns");
	cr_assert_eq(t->count, 3);
	cr_expect_eq(t->value[0], 2000);
	cr_expect_eq(t->spread[0], 20);
	cr_expect_eq(f.change_count, 1);
	cr_assert_eq(f.tracks[0].point_count, 1);
	cr_expect_eq(f.tracks[0].points[0].at, 2);
	cr_expect_eq(change_points_commit(&f, &f.tracks[0], &f.tracks[0].points[0]), &f.commits[2]);
	cr_expect_eq(change_points_previous(&f, &f.tracks[0], &f.tracks[0].points[0]),
		     &f.commits[1]);
	change_points_free(&f);
	result_history_free(&h);
}

/* Another platform's runs are another series, with the commits shared;
 * the filters keep what they name. */
Test(change_scan, platforms_apart_and_filters)
{
	struct result_history h = { 0 };
	struct change_findings f;
	add_run(&h, "aaaaaaa", "2026-01-01T00:00:00Z", "linux", 100, 1000);
	add_run(&h, "aaaaaaa", "2026-01-01T00:00:00Z", "darwin", 200, 1000);
	add_run(&h, "bbbbbbb", "2026-01-02T00:00:00Z", "linux", 100, 1000);
	add_run(&h, "bbbbbbb", "2026-01-02T00:00:00Z", "darwin", 100, 1000);
	scan(&h, NULL, "heap_malloc_calls", &f);
	cr_expect_eq(f.commit_count, 2);
	cr_assert_eq(f.track_count, 2);
	cr_expect_eq(f.platform_count, 2);
	cr_expect_eq(f.change_count, 1, "darwin's 200 -> 100 alone");
	change_points_free(&f);
	scan(&h, "other", NULL, &f);
	cr_expect_eq(f.track_count, 0);
	change_points_free(&f);
	result_history_free(&h);
}

/* The median absolute deviation, by hand: {1, 2, 3, 4, 100} about 3 is
 * the median of {2, 1, 0, 1, 97}, 1; failed samples (NaN) left out. */
Test(change_scan, mad_by_hand)
{
	const double v[] = { 1, 2, NAN, 3, 4, 100 };
	cr_expect_eq(result_summary_mad(v, 6, 3), 1);
	cr_expect(isnan(result_summary_mad(v, 0, 3)));
}

/* A result as a history run: its commit and CPU, a timing series with its
 * samples and spread, no scheduler events; no commit, no run. */
Test(change_scan, result_as_history_run)
{
	struct run_result r;
	struct history_run run;
	const char *missing;
	memset(&r, 0, sizeof r);
	r.ctx.commit = strdup("1a2b3c4");
	r.ctx.started_at = strdup("2026-12-07T01:02:03Z");
	r.ctx.platform_key = strdup("linux-x86_64-glibc");
	r.ctx.cpu_model = strdup("AMD EPYC");
	r.ctx.cpu_count = 2;
	struct series *s = result_add_series(&r, "toy", "single", "small", "wall_ns", "ns",
					     METRIC_TIMING);
	cr_assert(s);
	const double samples[] = { 10, 12, NAN, 11, 30 };
	for (size_t i = 0; i < 5; i++)
		cr_assert_eq(result_series_append(s, samples[i]), 0);
	s->median = 11.5;
	s = result_add_series(&r, "toy", "single", "small", "ctx_switches", "count",
			      METRIC_TIMING);
	s->median = 3;
	cr_assert_eq(result_summary_history(&r, NULL, &run, &missing), 0);
	cr_expect_str_eq(run.time, "2026-12-07T01:02:03Z");
	cr_expect(!run.time_is_commit);
	cr_expect_str_eq(run.cpu.model, "AMD EPYC");
	cr_assert_eq(run.count, 1);
	cr_expect_eq(run.values[0].n, 4);
	cr_expect_eq(run.values[0].mad, 1);   /* {1.5, 0.5, 0.5, 18.5} */
	result_history_run_free(&run);
	cr_assert_eq(result_summary_history(&r, "2026-01-01T00:00:00Z", &run, &missing), 0);
	cr_expect(run.time_is_commit);
	cr_expect_str_eq(run.time, "2026-01-01T00:00:00Z");
	result_history_run_free(&run);
	free(r.ctx.commit);
	r.ctx.commit = NULL;
	cr_expect_eq(result_summary_history(&r, NULL, &run, &missing), -EINVAL);
	cr_expect_str_eq(missing, "context.commit");
	result_free(&r);
}

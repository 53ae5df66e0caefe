/* test_history_report.c: gates/report/history_{text,svg,json}.c on a
 * small history whose names are hostile: one paragraph per commit, series
 * that moved alike on one line, every text escaped under its renderer's
 * rule (report/escape.h). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decide/change_scan.h"
#include "decide/changepoint.h"
#include "report/history_report.h"

static struct result_history hr_history;
static struct change_findings hr_found;

/* Commit I (of 3) with kernel "<k&\x1b[31m>" whose two counts move at
 * commit 2, the second by the same step as the first. */
static void hr_add(size_t i)
{
	static const char *const commits[] = { "1111111aaaa", "2222222bbbb", "3333333cccc" };
	char time[32];
	struct history_run *r = result_history_add_run(&hr_history);
	struct history_value v = { "<k&\x1b[31m>", "v\"", "p", "heap_malloc_calls", "count",
				   METRIC_EXACT, i < 2 ? 1000 : 1007, 0, NAN };
	cr_assert(r);
	snprintf(time, sizeof time, "2026-01-0%zuT00:00:00Z", i + 1);
	r->commit = strdup(commits[i]);
	r->time = strdup(time);
	r->run_at = strdup(time);
	r->platform = strdup("linux");
	cr_assert_eq(result_history_add_value(r, &v), 0);
	v.metric = "proc_malloc_calls";
	cr_assert_eq(result_history_add_value(r, &v), 0);
}

static void hr_setup(void)
{
	struct change_scan_options o = { 0 };
	memset(&hr_history, 0, sizeof hr_history);
	for (size_t i = 0; i < 3; i++)
		hr_add(i);
	changepoint_defaults(&o.settings);
	cr_assert_eq(change_scan(&hr_history, &o, &hr_found), 0);
	hr_found.commits[2].subject = strdup("fix <b>\x1b]0;title\x07");
	hr_found.tracks[0].points[0].between = 3;
	hr_found.tracks[1].points[0].between = 3;
}

static void hr_teardown(void)
{
	change_points_free(&hr_found);
	result_history_free(&hr_history);
}

TestSuite(history_report, .init = hr_setup, .fini = hr_teardown);

/* F's rendering by RENDER into a malloc'd string. */
static char *rendered(void (*render)(FILE *, const struct change_findings *))
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	cr_assert(f);
	render(f, &hr_found);
	fclose(f);
	return text;
}

static void text(FILE *f, const struct change_findings *fx)
{
	history_text_print(f, fx, "hist", 3);
}

static void svg(FILE *f, const struct change_findings *fx)
{
	history_svg_print(f, fx, false);
}

Test(history_report, text_paragraph)
{
	char *t = rendered(text);
	cr_expect(strstr(t, "3333333 (2026-01-03T00:00:00Z) fix <b>\\x1b]0;title\\x07\n"), "%s", t);
	cr_expect(strstr(t, "heap_malloc_calls, proc_malloc_calls: 1000 -> 1007 (+0.7%), exact"),
		  "%s", t);
	cr_expect(strstr(t, "the result before: 2222222; 3 commits between them"), "%s", t);
	cr_expect(strstr(t, "next: gate bisect --good 2222222bbbb --bad 3333333cccc --build CMD"),
		  "%s", t);
	cr_expect(strstr(t, "2 change points in 2 series over 3 commits"), "%s", t);
	cr_expect(!strchr(t, '\x1b'), "an escape reached the terminal: %s", t);
	free(t);
}

Test(history_report, svg_escapes_and_marks)
{
	char *s = rendered(svg);
	cr_expect(strstr(s, "&lt;k&amp;"), "%s", s);
	cr_expect(strstr(s, "v&quot;"), "%s", s);
	cr_expect(!strstr(s, "<k&"), "a raw name: %s", s);
	cr_expect(strstr(s, "class=\"cp\""), "no change point line: %s", s);
	cr_expect(strstr(s, "3333333 +0.7%"), "%s", s);
	free(s);
}

Test(history_report, json_file)
{
	char path[64], err[256];
	json_error_t jerr;
	snprintf(path, sizeof path, "/tmp/allocgate-hr-%d.json", (int)getpid());
	cr_assert_eq(history_json_write(path, &hr_found, "hist", 3, 1, err, sizeof err), 0, "%s",
		     err);
	json_t *root = json_load_file(path, 0, &jerr);
	remove(path);
	cr_assert(root, "%s", jerr.text);
	cr_expect_eq(json_integer_value(json_object_get(root, "schema")), 1);
	cr_expect_eq(json_integer_value(json_object_get(root, "exit_code")), 1);
	json_t *points = json_object_get(root, "change_points");
	cr_assert_eq(json_array_size(points), 2);
	json_t *p = json_array_get(points, 0);
	cr_expect_str_eq(json_string_value(json_object_get(p, "kernel")), "<k&\x1b[31m>");
	cr_expect_str_eq(json_string_value(json_object_get(p, "commit")), "3333333cccc");
	cr_expect_str_eq(json_string_value(json_object_get(p, "previous_commit")), "2222222bbbb");
	cr_expect_eq(json_integer_value(json_object_get(p, "commits_between")), 3);
	cr_expect_eq(json_number_value(json_object_get(p, "after")), 1007);
	cr_expect(json_is_null(json_object_get(p, "p_value")));
	cr_expect_str_eq(json_string_value(json_object_get(p, "method")), "exact");
	json_decref(root);
}

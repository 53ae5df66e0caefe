/* test_report_markdown.c: gates/report/report_markdown.c on a hand-built
 * run_result (golden), and appending to a step summary. */
#include <criterion/criterion.h>

#include "report/report_markdown.h"
#include "report_fixture.h"

static const char golden[] =
	"## allocgate: \xe2\x9d\x8c FAIL\n\n"
	"Platform `linux-x86_64-glibc`, quick tier, commit abc1234, baseline "
	"baselines/linux-x86_64-glibc.json.\n\n"
	"| | total | pass | fail | inconclusive | improved | new | not compared / skipped | error |\n"
	"|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
	"| series | 3 | 1 | 1 | 0 | 0 | 1 | 0 | 0 |\n"
	"| expectations | 2 | 0 | 1 | 1 | 0 | 0 | 0 | 0 |\n\n"
	"1 problems; 1.5 s; exit 1.\n\n"
	"### What broke\n\n"
	"- `tests/kernels/toy.c:78` expectation violated on small: single.wall_ns &lt; 0.75 \\* "
	"twice.wall_ns (estimate 3, interval [2.5, 3.5], 9 rounds)\n"
	"- `tests/kernels/toy.c:64` regression toy/single/small wall_ns: 1 ms -&gt; 3 ms (+200.0%); "
	"p = 0.001, 100% &amp; &lt;confirmed&gt;\n\n"
	"### Inconclusive\n\n"
	"- `tests/kernels/toy.c:79` expectation inconclusive on small: twice.allocs == 2 \\* "
	"single.allocs (estimate 1, interval [0.5, 1.5], 9 rounds); line one line two, 50%\n\n"
	"### Problems\n\n"
	"- toy/twice/small sample: killed by signal 11\n\n"
	"<details><summary>2 compared series</summary>\n\n"
	"| kernel | variant | params | metric | median | baseline | change [95% interval] | "
	"verdict |\n|---|---|---|---|---:|---:|---|---|\n"
	"| toy | single | small | wall_ns | 3 ms | 1 ms | +200.0% [+190.0%, +210.0%] | fail |\n"
	"| toy | single | small | allocs | 100 | 100 | +0.0% | pass |\n\n"
	"</details>\n";

Test(report_markdown, golden)
{
	struct run_result r;
	fixture_build(&r);
	char *md = fixture_render(report_markdown_print, &r, NULL);
	cr_expect_str_eq(md, golden);
	free(md);
	result_free(&r);
}

/* The step summary is shared by the job's steps: appended, never replaced. */
Test(report_markdown, appends_to_step_summary)
{
	char path[] = "/tmp/allocgate-summary-XXXXXX", err[256], head[64];
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert(write(fd, "earlier step\n", 13) == 13);
	close(fd);
	struct run_result r;
	fixture_build(&r);
	cr_expect_eq(report_markdown_append(path, &r, err, sizeof err), 0, "%s", err);
	FILE *f = fopen(path, "r");
	cr_assert(f);
	cr_expect(fgets(head, sizeof head, f));
	cr_expect_str_eq(head, "earlier step\n");
	cr_expect(fgets(head, sizeof head, f));
	cr_expect(strstr(head, "## allocgate"), "%s", head);
	fclose(f);
	remove(path);
	result_free(&r);
}

/* Advisory series (never gated) are listed outside the collapsed table. */
Test(report_markdown, advisory_series_are_listed_outside_the_table)
{
	struct run_result r;
	fixture_build(&r);
	struct series *s = result_add_series(&r, "toy", "twice", "small", "task_clock_ns", "ns",
					     METRIC_TIMING);
	cr_assert_not_null(s);
	result_series_append(s, 2e6);
	s->median = 2e6;
	s->verdict = VERDICT_SKIPPED;
	s->advisory = true;
	s->note = strdup("advisory: the baseline's batches differ by up to 40%");
	char *md = fixture_render(report_markdown_print, &r, NULL);
	const char *list = strstr(md, "### Advisory (not gated)");
	const char *table = strstr(md, "<details>");
	cr_expect(list && table && list < table, "%s", md);
	cr_expect(strstr(md, "not compared toy/twice/small task_clock_ns"), "%s", md);
	free(md);
	result_free(&r);
}

Test(report_markdown, a_machine_that_moved_as_a_whole_is_said)
{
	struct run_result r;
	fixture_build(&r);
	for (int i = 0; i < 12; i++) {
		char params[16];
		snprintf(params, sizeof params, "p%d", i);
		struct series *s = result_add_series(&r, "k", "v", params, "wall_ns", "ns",
						     METRIC_TIMING);
		cr_assert_not_null(s);
		s->has_baseline = true;
		s->change = -0.2;
		s->verdict = VERDICT_IMPROVED;
	}
	char *md = fixture_render(report_markdown_print, &r, NULL);
	cr_expect(strstr(md, "> The 13 compared timing series moved by a median of -20.0% since "
			 "the baseline"), "%s", md);
	free(md);
	result_free(&r);
}

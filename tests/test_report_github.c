/* test_report_github.c: gates/report/report_github.c: the annotation lines of a
 * hand-built run_result (golden), and the escaping GitHub requires. */
#include <criterion/criterion.h>

#include "report/report_github.h"
#include "report_fixture.h"

static void render(FILE *f, const struct run_result *r, const void *arg)
{
	(void)arg;
	report_github_print(f, r);
}

Test(report_github, golden)
{
	static const char golden[] =
		"::error file=tests/kernels/toy.c,line=78,title=allocgate%3A toy/small expectation violated::expectation violated on small: single.wall_ns < 0.75 * twice.wall_ns: 3,000,000 < 750,000 (per-round ratio 3, interval [2.5, 3.5], 9 rounds)\n"
		"::warning file=tests/kernels/toy.c,line=79,title=allocgate%3A toy/small expectation inconclusive::expectation inconclusive on small: twice.allocs == 2 * single.allocs: 14 == 14 (per-round ratio 1, interval [0.5, 1.5], 9 rounds); line one%0Aline two, 50%25\n"
		"::error file=tests/kernels/toy.c,line=64,title=allocgate%3A regression toy/single/small::wall_ns 1 ms -> 3 ms (+200.0%25; p = 0.001, 100%25 & <confirmed>)\n"
		"::error title=allocgate%3A toy could not be checked::toy/twice/small sample: killed by signal 11\n";
	struct run_result r;
	fixture_build(&r);
	char *text = fixture_render(render, &r, NULL);
	cr_expect_str_eq(text, golden);
	free(text);
	result_free(&r);
}

Test(report_github, escaping)
{
	char buf[64];
	report_github_escape("a%b\r\nc:d,e", 0, buf, sizeof buf);
	cr_expect_str_eq(buf, "a%25b%0D%0Ac:d,e");
	report_github_escape("a%b\r\nc:d,e", 1, buf, sizeof buf);
	cr_expect_str_eq(buf, "a%25b%0D%0Ac%3Ad%2Ce");
	report_github_escape("%%%%", 0, buf, 8); /* never cuts an escape in half */
	cr_expect_str_eq(buf, "%25%25");
	/* a kernel's ESC or BEL never reaches the log raw */
	report_github_escape("red\x1b[31m\a", 0, buf, sizeof buf);
	cr_expect_str_eq(buf, "red\\x1b[31m\\x07");
}

Test(report_github, enabled_only_when_true)
{
	setenv("GITHUB_ACTIONS", "false", 1);
	cr_expect(!report_github_enabled());
	setenv("GITHUB_ACTIONS", "true", 1);
	cr_expect(report_github_enabled());
	unsetenv("GITHUB_ACTIONS");
	cr_expect(!report_github_enabled());
}

/* A regressed group whose allocation calls changed at src/lib.c:12: the
 * error stands at that line; where gate ab found src/lib.c the same on both
 * sides (the change that moved its calls is elsewhere), at the group's
 * variant line instead, never at a line the pull request did not touch. */
Test(report_github, a_place_in_a_file_the_change_left_alone_is_annotated_at_the_kernel)
{
	struct run_result r;
	fixture_build(&r);
	struct series *s = result_add_series(&r, "toy", "single", "small", "heap_calls", "count",
					     METRIC_EXACT);
	cr_assert_not_null(s);
	result_series_append(s, 2);
	s->file = strdup("tests/kernels/toy.c");
	s->line = 64;
	s->median = 2;
	s->has_baseline = true;
	s->baseline_median = 1;
	s->change = 1.0;
	s->ci_low = s->ci_high = NAN;
	s->verdict = VERDICT_FAIL;
	s->gated = true;
	r.sites_recorded = true;
	struct site c = { "toy", "single", "small", "src/lib.c", "grow", "malloc", 12,
			  2, 0, false, NULL };
	struct site_change *sc = result_add_site_change(&r, &c);
	cr_assert_not_null(sc);
	sc->before = sc->after = true;
	sc->calls_before = 1;
	sc->calls_after = 2;
	result_sort(&r);
	char *text = fixture_render(render, &r, NULL);
	cr_expect_not_null(strstr(text, "::error file=src/lib.c,line=12,"), "%s", text);
	free(text);
	r.site_changes[0].file_same = true;
	text = fixture_render(render, &r, NULL);
	cr_expect_null(strstr(text, "file=src/lib.c"), "%s", text);
	cr_expect_not_null(strstr(text, "file=tests/kernels/toy.c,line=64,title=allocgate%3A "
				    "regression toy/single/small::"), "%s", text);
	free(text);
	result_free(&r);
}

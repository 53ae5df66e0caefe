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

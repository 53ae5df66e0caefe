/* test_report_term.c: gates/report_term.c, the terminal report rendered
 * from a hand-built result (tests/report_fixture.h): the failing series by
 * file and line, the method legend naming the test, the correction and
 * where the tolerance comes from, and the count of advisory timing series. */
#include "report_fixture.h"
#include "report_term.h"

static struct run_options opts;

static void render(FILE *f, const struct run_result *r, const void *arg)
{
	(void)arg;
	report_term_print(f, r, &opts, NULL);
}

static void setup(void)
{
	options_defaults(&opts);
	setenv("NO_COLOR", "1", 1);
}

TestSuite(report_term, .init = setup);

Test(report_term, names_the_failure_the_method_and_advisory_series)
{
	struct run_result r;
	fixture_build(&r);
	r.series[0].p_value = 0.001;  /* compared by a test: the legend is printed */
	struct series *s = result_add_series(&r, "toy", "twice", "big", "wall_ns", "ns",
					     METRIC_TIMING);
	cr_assert_not_null(s);
	series_append(s, 5e6);
	s->median = 5e6;
	s->verdict = VERDICT_SKIPPED;
	s->advisory = true;
	s->note = strdup("advisory: the baseline's batches and 3 batch medians of its earlier "
			 "recordings differ by up to 40%, so a change under 120% cannot be told "
			 "from this machine's drift");
	char *out = fixture_render(render, &r, NULL);
	cr_expect(strstr(out, "tests/kernels/toy.c:64"), "%s", out);
	cr_expect(strstr(out, "1 timing series advisory: their drift (the baseline's batches "
			  "and earlier recordings) is too large to gate them"), "%s", out);
	cr_expect(strstr(out, "Holm correction over 1 comparisons (alpha 0.05), tolerance "
			  "max(25%, 3 x drift of the baseline's batches and history)"), "%s", out);
	free(out);
	result_free(&r);
}

Test(report_term, no_advisory_line_without_advisory_series)
{
	struct run_result r;
	fixture_build(&r);
	char *out = fixture_render(render, &r, NULL);
	cr_expect_null(strstr(out, "advisory"), "%s", out);
	free(out);
	result_free(&r);
}

/* The column (0-based) where the verdict word of the line containing
 * NEEDLE starts: the last word of that line. */
static long verdict_column(const char *out, const char *needle)
{
	const char *at = strstr(out, needle);
	if (!at)
		return -1;
	const char *start = at, *end = strchr(at, '\n');
	while (start > out && start[-1] != '\n')
		start--;
	end = end ? end : at + strlen(at);
	const char *word = end;
	while (word > start && word[-1] != ' ')
		word--;
	return word - start;
}

Test(report_term, a_long_metric_name_keeps_its_group_in_line)
{
	struct run_result r;
	fixture_build(&r);
	struct series *s = result_add_series(&r, "toy", "single", "small",
					     "alloc.heap_blocks_allocated", "count", METRIC_EXACT);
	cr_assert_not_null(s);
	series_append(s, 100000);
	s->median = 100000;
	s->verdict = VERDICT_NEW;
	s = &r.series[0];  /* a change wider than its column's header */
	s->median = 30e6;
	s->change = 29;
	s->ci_low = 28;
	s->ci_high = 31;
	char *out = fixture_render(render, &r, NULL);
	long header = verdict_column(out, "variant ");
	cr_assert_gt(header, 0, "%s", out);
	cr_expect_eq(verdict_column(out, "alloc.heap_blocks_allocated"), header, "%s", out);
	cr_expect_eq(verdict_column(out, " allocs "), header, "%s", out);
	cr_expect_eq(verdict_column(out, " wall_ns "), header, "%s", out);
	free(out);
	result_free(&r);
}

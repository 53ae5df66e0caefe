/* test_report_term.c: gates/report/report_term.c, the terminal report rendered
 * from a hand-built result (tests/report_fixture.h): the failing series by
 * file and line, the method legend naming the test, the correction and
 * where the tolerance comes from, the count of advisory timing series, and
 * each params block listing its own expectations once. */
#include "report/report_term.h"
#include "decide/confirm.h"
#include "report_fixture.h"

static struct report_term_options opts;

static void render(FILE *f, const struct run_result *r, const void *arg)
{
	(void)arg;
	report_term_print(f, r, &opts, NULL);
}

static void setup(void)
{
	memset(&opts, 0, sizeof opts);
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
	result_series_append(s, 5e6);
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
	opts.details = true;   /* the full table (the compact rows have no columns) */
	fixture_build(&r);
	struct series *s = result_add_series(&r, "toy", "single", "small",
					     "alloc.heap_blocks_allocated", "count", METRIC_EXACT);
	cr_assert_not_null(s);
	result_series_append(s, 100000);
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

/* The compact report (the default): one row per variant with its key
 * figures and worst verdict, the failing series in full under it, the
 * rest folded into one line that counts them and names each reason. */
Test(report_term, the_compact_report_folds_what_passed)
{
	struct run_result r;
	fixture_build(&r);
	struct series *s = result_add_series(&r, "toy", "single", "small", "heap_calls", "count",
					     METRIC_EXACT);
	cr_assert_not_null(s);
	result_series_append(s, 100000);
	s->median = s->baseline_median = 100000;
	s->has_baseline = true;
	s->change = 0;
	s->verdict = VERDICT_PASS;
	s = result_add_series(&r, "toy", "single", "small", "page_faults", "count", METRIC_NEAR);
	cr_assert_not_null(s);
	result_series_append(s, 12);
	s->median = 12;
	s->verdict = VERDICT_SKIPPED;
	s->note = strdup("the parameter set runs a thread per core");
	char *out = fixture_render(render, &r, NULL);
	cr_expect(strstr(out, "allocs 100k"), "the key figure of the row\n%s", out);
	cr_expect(!strstr(out, "heap_calls"), "an unchanged count listed\n%s", out);
	cr_expect(strstr(out, "2 counts unchanged"), "this one and the fixture's\n%s", out);
	cr_expect(strstr(out, "(1: the parameter set runs a thread per core)"), "%s", out);
	cr_expect(strstr(out, "tests/kernels/toy.c:64"), "the failure is still named\n%s", out);
	free(out);
	opts.details = true;
	out = fixture_render(render, &r, NULL);
	cr_expect(strstr(out, "heap_calls"), "--details lists every series\n%s", out);
	free(out);
	result_free(&r);
}

/* A reason that every group gives (another machine's cost key) is said in
 * full once; later groups name it by its head. */
Test(report_term, a_reason_every_group_gives_is_said_in_full_once)
{
	static const char why[] = "cost key changed since the baseline (libc version \"2.36\" -> "
				  "\"2.41\"): cost not compared";
	struct run_result r;
	fixture_build(&r);
	for (int g = 0; g < 3; g++) {
		char params[16];
		snprintf(params, sizeof params, "p%d", g);
		struct series *s = result_add_series(&r, "k", "v", params, "cost_instructions",
						     "count", METRIC_EXACT);
		cr_assert_not_null(s);
		result_series_append(s, 1000);
		s->median = 1000;
		s->verdict = VERDICT_SKIPPED;
		s->note = strdup(why);
	}
	char *out = fixture_render(render, &r, NULL);
	const char *first = strstr(out, why);
	cr_expect(first, "said in full\n%s", out);
	cr_expect(first && !strstr(first + 1, why), "said in full once\n%s", out);
	const char *later = strstr(out, "(1: cost key changed since the baseline (as above))");
	cr_expect(later && first && later > first, "then by its head\n%s", out);
	cr_expect(later && strstr(later + 1, "(1: cost key changed since the baseline (as above))"),
		  "in each later group\n%s", out);
	free(out);
	result_free(&r);
}

/* N timing series of R compared against the baseline, each moved by CHANGE. */
static void add_compared(struct run_result *r, size_t n, double change)
{
	for (size_t i = 0; i < n; i++) {
		char params[16];
		snprintf(params, sizeof params, "p%zu", i);
		struct series *s = result_add_series(r, "k", "v", params, "wall_ns", "ns",
						     METRIC_TIMING);
		cr_assert_not_null(s);
		result_series_append(s, 1e6 * (1 + change));
		s->median = 1e6 * (1 + change);
		s->has_baseline = true;
		s->baseline_median = 1e6;
		s->change = change;
		s->verdict = VERDICT_PASS;
		s->p_value = 0.5;
	}
}

Test(report_term, a_machine_that_moved_as_a_whole_is_named_under_what_broke)
{
	struct run_result r;
	fixture_build(&r);   /* one timing series failed: toy/single/small wall_ns */
	add_compared(&r, 12, 0.28);
	/* scheduler events are not the machine's speed */
	struct series *s = result_add_series(&r, "k", "v", "p0", "ctx_switches", "count",
					     METRIC_TIMING);
	s->has_baseline = true;
	s->change = 5;
	s->verdict = VERDICT_PASS;
	char *out = fixture_render(render, &r, NULL);
	cr_expect(strstr(out, "note: the 13 compared timing series moved by a median of +28.0% "
			  "since the baseline: when every kernel moves at once"), "%s", out);
	cr_expect(strstr(out, "machine: the 13 compared timing series moved by a median of "
			  "+28.0% since the baseline."), "%s", out);
	free(out);
	result_free(&r);
}

Test(report_term, a_steady_machine_gets_its_figure_but_no_warning)
{
	struct run_result r;
	fixture_build(&r);
	add_compared(&r, 12, 0.01);
	char *out = fixture_render(render, &r, NULL);
	cr_expect(strstr(out, "machine: the 13 compared timing series moved by a median of "
			  "+1.0% since the baseline."), "%s", out);
	cr_expect_null(strstr(out, "note: the"), "%s", out);
	free(out);
	result_free(&r);
	/* too few comparisons to say anything of the machine */
	fixture_build(&r);
	add_compared(&r, 5, 0.5);
	out = fixture_render(render, &r, NULL);
	cr_expect_null(strstr(out, "machine: "), "%s", out);
	free(out);
	result_free(&r);
}

Test(report_term, disturbed_samples_are_counted_over_the_wall_time_series)
{
	struct run_result r;
	fixture_build(&r);
	r.series[0].p_value = 0.001;   /* the legend is printed */
	const char *metrics[] = { "wall_ns", "free.wall_ns", "task_clock_ns" };
	for (size_t m = 0; m < 3; m++) {
		struct series *s = result_add_series(&r, "k", "v", "p", metrics[m], "ns",
						     METRIC_TIMING);
		cr_assert_not_null(s);
		s->disturbed = calloc(9, sizeof *s->disturbed);
		s->disturbed_len = 9;
		s->disturbed[2] = s->disturbed[5] = true;
		s->disturbed_count = 2;
	}
	char *out = fixture_render(render, &r, NULL);
	/* wall_ns and free.wall_ns: 4 of 18; task_clock_ns is the same samples */
	cr_expect(strstr(out, "interference: 4 of 18 timing samples disturbed"), "%s", out);
	free(out);
	result_free(&r);
}

/* free_cost's three parameter sets as a default run fills them: series
 * added in run order (n_1k, n_10k, n_100k), expectations appended in
 * declaration order, n_100k's timing regressions settled by a
 * confirmation batch (decide/confirm.c), then sorted for the report, which
 * prints the groups n_100k, n_10k, n_1k. Each params block must list its
 * own expectations (by kernel and params) exactly once, and no other's. */

static const struct {
	const char *params;
	int line;
} block_claims[] = {
	{ "n_1k", 190 }, { "n_1k", 202 }, { "n_10k", 209 }, { "n_1k", 209 },
	{ "n_100k", 203 }, { "n_100k", 209 }, { "n_100k", 210 },
};
#define BLOCK_CLAIMS (sizeof block_claims / sizeof block_claims[0])

static void blocks_build(struct run_result *r)
{
	static const char *const params[] = { "n_1k", "n_10k", "n_100k" };
	memset(r, 0, sizeof *r);
	r->ctx.platform_key = strdup("linux-x86_64-glibc");
	r->baseline_path = strdup("baselines/linux-x86_64-glibc.json");
	policy_defaults(&r->policy);
	for (size_t p = 0; p < 3; p++)
		for (int v = 0; v < 2; v++) {
			struct series *s = result_add_series(r, "free_cost", v ? "random_order"
							     : "alloc_order", params[p],
							     "free.wall_ns", "ns", METRIC_TIMING);
			cr_assert_not_null(s);
			result_series_append(s, 1e6);
			s->median = 1e6;
			s->has_baseline = true;
			s->baseline_median = p == 2 ? 0.5e6 : 1e6;
			s->change = p == 2 ? 1.0 : 0.0;
			s->tolerance = 0.25;
			s->verdict = p == 2 ? VERDICT_FAIL : VERDICT_PASS;
		}
	for (size_t i = 0; i < BLOCK_CLAIMS; i++) {
		struct expect_result *e = result_add_expect(r);
		cr_assert_not_null(e);
		e->kernel = strdup("free_cost");
		e->params = strdup(block_claims[i].params);
		e->file = strdup("kernels/free_cost.c");
		e->line = block_claims[i].line;
		e->expr = strdup("random_order.free.wall_ns < alloc_order.free.wall_ns");
		e->rounds = 15;
		e->ratio = true;
		/* each its own figure, so a line printed in another block shows */
		e->estimate = 0.51 + 0.01 * (double)i;
		e->ci_low = e->estimate - 0.005;
		e->ci_high = e->estimate + 0.005;
		e->verdict = VERDICT_FAIL;
	}
}

/* The text of the block "params NAME" in OUT, up to the next block or
 * the end of the kernel's groups; a new string. */
static char *block_of(const char *out, const char *name)
{
	char head[64];
	snprintf(head, sizeof head, "  params %s\n", name);
	const char *start = strstr(out, head);
	cr_assert_not_null(start, "no block %s in %s", name, out);
	start += strlen(head);
	const char *end = strstr(start, "  params ");
	const char *blank = strstr(start, "\n\n");
	if (!end || (blank && blank < end))
		end = blank ? blank + 1 : start + strlen(start);
	return strndup(start, (size_t)(end - start));
}

static size_t occurrences(const char *text, const char *needle)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void expect_own_blocks(const char *out)
{
	static const char *const params[] = { "n_1k", "n_10k", "n_100k" };
	for (size_t p = 0; p < 3; p++) {
		char *block = block_of(out, params[p]);
		for (size_t i = 0; i < BLOCK_CLAIMS; i++) {
			char where[64], figure[32];
			snprintf(where, sizeof where, "kernels/free_cost.c:%d ", block_claims[i].line);
			snprintf(figure, sizeof figure, "lhs/rhs %.2f", 0.51 + 0.01 * (double)i);
			size_t want = !strcmp(block_claims[i].params, params[p]);
			cr_expect_eq(occurrences(block, figure), want, "block %s, %s%s: %zu times, "
				     "want %zu:\n%s", params[p], where, figure, occurrences(block, figure),
				     want, block);
			if (want)
				cr_expect(strstr(block, where), "block %s lacks %s:\n%s", params[p],
					  where, block);
		}
		free(block);
	}
}

Test(report_term, each_params_block_lists_its_own_expectations_once)
{
	struct run_result r, again;
	blocks_build(&r);
	/* the confirmation batch of n_100k, as run_cmd.c's confirm_group
	 * settles it: the regressions held */
	memset(&again, 0, sizeof again);
	for (int v = 0; v < 2; v++) {
		struct series *s = result_add_series(&again, "free_cost", v ? "random_order"
						     : "alloc_order", "n_100k", "free.wall_ns",
						     "ns", METRIC_TIMING);
		cr_assert_not_null(s);
		s->change = 0.9;
		s->verdict = VERDICT_FAIL;
	}
	confirm_settle(&r, &again, "free_cost", "n_100k");
	result_free(&again);
	result_sort(&r);
	r.exit_code = 1;
	char *out = fixture_render(render, &r, NULL);
	expect_own_blocks(out);
	free(out);
	opts.details = true;
	out = fixture_render(render, &r, NULL);
	expect_own_blocks(out);
	free(out);
	result_free(&r);
}

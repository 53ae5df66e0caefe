/* test_report_markdown.c: gates/report/report_markdown.c on a hand-built
 * run_result (golden), and appending to a step summary. */
#include <criterion/criterion.h>

#include "report/report_markdown.h"
#include "report_fixture.h"

static const char golden[] =
	"## allocgate: ❌ FAIL\n"
	"\n"
	"Platform `linux-x86_64-glibc`, quick tier, commit abc1234, baseline baselines/linux-x86_64-glibc.json; gating counts, cost and timing.\n"
	"3 series: 1 regressed, 0 improved, 0 inconclusive, 1 new, 0 not compared; 2 expectations: 0 pass, 1 fail, 1 inconclusive, 0 skipped, 0 error; 1 problems; 1.5 s; exit 1.\n"
	"\n"
	"### What broke\n"
	"\n"
	"- `tests/kernels/toy.c:78` expectation violated on small: single.wall_ns &lt; 0.75 \\* twice.wall_ns: 3,000,000 &lt; 750,000 (per-round ratio 3, interval [2.5, 3.5], 9 rounds)\n"
	"\n"
	"**toy/single/small** `tests/kernels/toy.c:64`\n"
	"- wall_ns 1 ms → 3 ms (+200.0%; p = 0.001, 100% &amp; &lt;confirmed&gt;)\n"
	"\n"
	"### Inconclusive\n"
	"\n"
	"- `tests/kernels/toy.c:79` expectation inconclusive on small: twice.allocs == 2 \\* single.allocs: 14 == 14 (per-round ratio 1, interval [0.5, 1.5], 9 rounds); line one line two, 50%\n"
	"\n"
	"### Problems\n"
	"\n"
	"- toy/twice/small sample: killed by signal 11\n"
	"\n"
	"<details><summary>1 series that moved</summary>\n"
	"\n"
	"| series | metric | baseline | now | change | verdict |\n"
	"|---|---|---:|---:|---|---|\n"
	"| toy/single/small | wall_ns | 1 ms | 3 ms | +200.0% | fail |\n"
	"\n"
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
/* A run that measured nothing (gate ab, every kernel the same code on
 * both sides): the heading and its reason, nothing else. */
Test(report_markdown, nothing_measured_is_the_heading_and_why)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	r.ctx.platform_key = strdup("linux-x86_64-glibc");
	r.comparison = strdup("A/B: B (kernels build/kernels) against A (kernels /tmp/base/kernels)");
	r.baseline_note = strdup("1 kernel is the same code on both sides, not measured: jw_print");
	r.exit_code = GATE_EXIT_OK;
	char *out = fixture_render(report_markdown_print, &r, NULL);
	cr_expect_str_eq(out, "## allocgate: ✅ PASS: nothing changed\n\n"
			 "> 1 kernel is the same code on both sides, not measured: jw_print\n");
	free(out);
	result_free(&r);
}

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

/* Advisory series (never gated) are named with the information, before
 * the table of what moved. */
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
	const char *list = strstr(md, "Advisory (drift too large to gate):\n");
	const char *table = strstr(md, "series that moved</summary>");
	cr_expect(list && table && list < table, "%s", md);
	cr_expect(strstr(md, "- toy/twice/small: task_clock_ns\n"), "%s", md);
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

/* A machine faster than at the baseline hides slowdowns: said in the
 * summary too, though the reference held. */
Test(report_markdown, a_machine_faster_than_at_the_baseline_is_said)
{
	struct run_result r;
	fixture_build(&r);
	char *md = fixture_render(report_markdown_print, &r, NULL);
	cr_expect_null(strstr(md, "Machine:"), "%s", md);
	free(md);
	const double change[REFERENCE_PARTS] = { -0.05, -0.08, -0.20 };
	for (int p = 0; p < REFERENCE_PARTS; p++) {
		r.reference.part[p].change = change[p];
		r.reference.part[p].ci_low = 1 + change[p] - 0.02;
		r.reference.part[p].ci_high = 1 + change[p] + 0.02;
	}
	r.reference.state = REFERENCE_HOLDS;
	r.reference.faster = true;
	r.reference.faster_part = REFERENCE_FAULTS;
	md = fixture_render(report_markdown_print, &r, NULL);
	cr_expect(strstr(md, "> Machine: the reference workload held since the baseline (cpu "
			 "-5.0%, memory -8.0%, faults -20.0%): a slowdown of the kernels is the "
			 "code's, not the machine's; the machine is faster than when the baseline "
			 "was recorded (every part, its faults part by -20.0%)"), "%s", md);
	free(md);
	result_free(&r);
}

/* A regression of a class the run does not gate: shown collapsed as
 * information, never under "What broke". */
Test(report_markdown, a_series_that_does_not_gate_is_information)
{
	struct run_result r;
	fixture_build(&r);
	for (size_t i = 0; i < r.series_count; i++)
		if (r.series[i].verdict == VERDICT_FAIL)
			r.series[i].gated = false;
	r.policy.gates = POLICY_GATE_DETERMINISTIC;
	char *md = fixture_render(report_markdown_print, &r, NULL);
	const char *info = strstr(md, "### Moved, not gated (this run gates counts, cost; "
				   "information: timing)");
	cr_expect(info, "%s", md);
	cr_expect(strstr(md, "1 moved but not gated"), "%s", md);
	cr_expect(strstr(md, "0 regressed"), "%s", md);
	const char *broke = strstr(md, "### What broke");
	cr_expect(broke && !strstr(broke, "**toy/single/small**") == !info, "%s", md);
	free(md);
	result_free(&r);
}

/* One changed allocation site: what a reviewer reads above the collapsed
 * table fits in 15 lines, with the site's line and its figures. */
Test(report_markdown, one_changed_site_fits_in_fifteen_lines)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	r.ctx.platform_key = strdup("linux-x86_64-glibc");
	r.ctx.tier = strdup("default");
	r.ctx.commit = strdup("abc1234");
	r.baseline_path = strdup("baselines/linux-x86_64-glibc.json");
	policy_defaults(&r.policy);
	r.policy.recorded = true;
	r.policy.gates = POLICY_GATE_DETERMINISTIC;
	r.exit_code = 1;
	static const char *const metrics[] = { "heap_malloc_calls", "heap_calls",
					       "proc_malloc_calls", "cost_malloc_calls",
					       "cost_instructions" };
	for (size_t m = 0; m < 5; m++) {
		struct series *s = result_add_series(&r, "strbuf", "geometric", "1k", metrics[m],
						     "count", METRIC_EXACT);
		cr_assert_not_null(s);
		s->file = strdup("kernels/strbuf.c");
		s->line = 40;
		s->has_baseline = true;
		s->baseline_median = m < 4 ? 10 : 5000;
		s->median = m < 4 ? 1000 : 90000;
		s->change = s->median / s->baseline_median - 1;
		s->verdict = VERDICT_FAIL;
	}
	r.site_changes = calloc(1, sizeof *r.site_changes);
	cr_assert_not_null(r.site_changes);
	r.site_change_count = 1;
	struct site_change *c = &r.site_changes[0];
	c->kernel = strdup("strbuf");
	c->variant = strdup("geometric");
	c->params = strdup("1k");
	c->file = strdup("src/strbuf.c");
	c->function = strdup("strbuf_grow");
	c->kind = strdup("malloc");
	c->line = 88;
	c->before = c->after = true;
	c->calls_before = 10;
	c->calls_after = 1000;
	char *md = fixture_render(report_markdown_print, &r, NULL);
	size_t lines = 0;
	for (const char *p = md; *p && strncmp(p, "<details>", 9); p++)
		if (*p == '\n')
			lines++;
	cr_expect_leq(lines, 15, "%zu lines:\n%s", lines, md);
	cr_expect(strstr(md, "**strbuf/geometric/1k** `kernels/strbuf.c:40`\n"
			 "- `src/strbuf.c:88` strbuf_grow: **malloc 10 → 1,000**\n"
			 "- heap_malloc_calls, heap_calls, proc_malloc_calls, cost_malloc_calls 10 → "
			 "1000 (+9900.0%)"), "%s", md);
	free(md);
	result_free(&r);
}

/* One series of group (K, V, P) moved from WAS to NOW with VERDICT. */
static struct series *pr_series(struct run_result *r, const char *k, const char *v,
				const char *p, const char *metric, const char *unit,
				enum metric_class cls, double was, double now, enum verdict verdict)
{
	struct series *s = result_add_series(r, k, v, p, metric, unit, cls);
	cr_assert_not_null(s);
	result_series_append(s, now);
	s->file = strdup("kernels/json_build.c");
	s->line = 71;
	s->has_baseline = true;
	s->baseline_median = was;
	s->median = now;
	s->change = now / was - 1;
	s->verdict = verdict;
	return s;
}

/* One allocation site change of group (K, V, P): KIND at src/value.c:522. */
static void pr_site(struct run_result *r, size_t at, const char *k, const char *v,
		    const char *p, const char *kind, uint64_t before, uint64_t after)
{
	struct site_change *c = &r->site_changes[at];
	c->kernel = strdup(k);
	c->variant = strdup(v);
	c->params = strdup(p);
	c->file = strdup("src/value.c");
	c->function = strdup("json_array_grow");
	c->kind = strdup(kind);
	c->line = 522;
	c->before = before > 0;
	c->after = after > 0;
	c->calls_before = before;
	c->calls_after = after;
	c->via_before = strdup("src/memory.c:43 jsonp_realloc");
	c->via_after = strdup("src/memory.c:29 jsonp_malloc");
}

/* The pull request of a JSON library whose array growth turned from
 * realloc into malloc + copy + free, as gate ab reports it: 8 groups, each
 * with one fact under four metric names (the cost pass, the wrappers, the
 * blocks, the interposer) for free, malloc and realloc, its cost and its
 * timing, and the scheduler's wait that other tasks disturbed. */
static void build_pull_request(struct run_result *r)
{
	static const char *const names[][4] = {
		{ "cost_free_calls", "heap_free_calls", "heap_blocks_freed", "proc_free_calls" },
		{ "cost_malloc_calls", "heap_malloc_calls", "heap_blocks_allocated",
		  "proc_malloc_calls" },
		{ "cost_realloc_calls", "heap_realloc_calls", "heap_blocks_resized",
		  "proc_realloc_calls" },
	};
	static const char *const variants[] = { "append", "insert", "object", "nested" };
	memset(r, 0, sizeof *r);
	r->ctx.platform_key = strdup("linux-x86_64-glibc");
	r->ctx.tier = strdup("default");
	r->ctx.commit = strdup("5d6e7f8");
	r->comparison = strdup("A/B: B (head 5d6e7f8) against A (base 1a2b3c4), measured in "
			       "the same shuffled rounds");
	policy_defaults(&r->policy);
	r->policy.recorded = true;
	r->exit_code = 1;
	r->site_changes = calloc(24, sizeof *r->site_changes);
	cr_assert_not_null(r->site_changes);
	for (int g = 0; g < 8; g++) {
		const char *k = "json_build", *v = variants[g % 4], *p = g < 4 ? "10k" : "100k";
		double n = g < 4 ? 11 : 110;
		for (int m = 0; m < 4; m++) {
			pr_series(r, k, v, p, names[0][m], "count", METRIC_EXACT, 1, 1 + n,
				  VERDICT_FAIL);
			pr_series(r, k, v, p, names[1][m], "count", METRIC_EXACT, 5, 5 + n,
				  VERDICT_FAIL);
			pr_series(r, k, v, p, names[2][m], "count", METRIC_EXACT, n, 1,
				  VERDICT_IMPROVED);
		}
		pr_series(r, k, v, p, "cost_instructions", "count", METRIC_EXACT, 2430366,
			  2552032 + g, VERDICT_FAIL);
		pr_series(r, k, v, p, "cost_est_cycles", "count", METRIC_EXACT, 3718917,
			  3904195 + g, VERDICT_FAIL);
		pr_series(r, k, v, p, "cost_free_instructions", "count", METRIC_EXACT, 10,
			  1237 + g, VERDICT_FAIL);
		struct series *s = pr_series(r, k, v, p, "wall_ns", "ns", METRIC_TIMING, 1.2e6,
					     1.3e6 + g, VERDICT_FAIL);
		s->note = strdup("signed-rank p = 0.0001, Holm-adjusted 0.002, minimum effect 2%");
		s = pr_series(r, k, v, p, "task_clock_ns", "ns", METRIC_TIMING, 1.1e6, 1.2e6 + g,
			      VERDICT_FAIL);
		s->note = strdup("signed-rank p = 0.0001, Holm-adjusted 0.002, minimum effect 2%");
		pr_series(r, k, v, p, "sched_wait_ns", "ns", METRIC_TIMING, 2e4, 9e4,
			  VERDICT_SKIPPED);
		pr_site(r, r->site_change_count++, k, v, p, "realloc", (uint64_t)n, 0);
		pr_site(r, r->site_change_count++, k, v, p, "malloc", 0, (uint64_t)n);
		pr_site(r, r->site_change_count++, k, v, p, "free", 0, (uint64_t)n);
	}
}

/* Such a pull request's summary: the verdict and one paragraph per
 * regressed group, each fact said once, the table bounded: at most 6 KiB
 * (the 8 groups of a real one, 118 rows of a table, took 14 KB). */
Test(report_markdown, a_pull_request_of_one_change_fits_in_six_kib)
{
	struct run_result r;
	build_pull_request(&r);
	char *md = fixture_render(report_markdown_print, &r, NULL);
	size_t size = strlen(md);
	cr_expect_leq(size, 6144, "%zu bytes:\n%s", size, md);
	static const char *const groups[] = { "append/10k", "insert/10k", "object/10k",
					      "nested/10k", "append/100k", "insert/100k",
					      "object/100k", "nested/100k" };
	for (size_t g = 0; g < 8; g++) {
		char head[100];
		snprintf(head, sizeof head, "\n**json_build/%s** `kernels/json_build.c:71`\n- "
			 "`src/value.c:522` json_array_grow: **realloc ", groups[g]);
		cr_expect(strstr(md, head), "no paragraph of %s:\n%s", groups[g], md);
	}
	/* one fact, one item and one row, naming its four metrics */
	cr_expect(strstr(md, "\n- cost_free_calls, heap_free_calls, heap_blocks_freed, "
			 "proc_free_calls 1 → 111 (+11000.0%); "), "%s", md);
	cr_expect(strstr(md, "\n| json_build/append/100k | cost_free_calls, heap_free_calls, "
			 "heap_blocks_freed, proc_free_calls | 1 | 111 | +11000.0% | fail |\n"),
		  "%s", md);
	cr_expect_null(strstr(md, "| heap_free_calls |"), "%s", md);
	/* the table: the most decisive rows, the rest counted */
	const char *table = strstr(md, "<details><summary>136 series that moved</summary>");
	cr_assert(table, "%s", md);
	size_t rows = 0;
	for (const char *p = strstr(table, "|---"); p && (p = strstr(p + 1, "\n| ")); )
		rows++;
	cr_expect_leq(rows, 15, "%zu rows", rows);
	cr_expect(strstr(table, "\n| json_build/nested/100k | cost_free_instructions | 10 | "
			 "1244 | +12340.0% | fail |\n"), "the largest change first:\n%s", table);
	cr_expect(strstr(table, " more series, less decisive, in the JSON report"), "%s", table);
	cr_expect_null(strstr(md, "&gt;"), "an entity for an arrow:\n%s", md);
	free(md);
	result_free(&r);
}

/* A side's label is the user's text (--a-label): escaped on the
 * comparison line as a kernel's names are, never HTML or a link. */
Test(report_markdown, a_sides_label_is_escaped)
{
	struct run_result r;
	fixture_build(&r);
	free(r.baseline_path);
	r.baseline_path = NULL;
	r.comparison = strdup("A/B: B (<img src=x> [x](http://e) 5d6e7f8) against A (base* "
			      "1a2b3c4)");
	char *md = fixture_render(report_markdown_print, &r, NULL);
	cr_expect(strstr(md, "A/B: B (&lt;img src=x&gt; [x\\](http://e) 5d6e7f8) against A "
			 "(base\\* 1a2b3c4)"), "%s", md);
	cr_expect_null(strstr(md, "<img"), "%s", md);
	free(md);
	result_free(&r);
}

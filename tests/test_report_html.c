/* test_report_html.c: gates/report/report_html.c (and html_*.c) on the
 * hand-built result of report_fixture.h: the verdict first and the changed
 * groups in the markdown summary's words, the policy that forbids every
 * load, the sortable table of every series, the flame graphs (open where
 * the calls changed), a hostile name escaped and never markup, and the
 * page written through report_outputs.h as --html. The page in a browser:
 * tests/test_browser_report.c. */
#include "report_fixture.h"
#include "flame_fixture.h"

#include "report/report_html.h"
#include "report/report_markdown.h"
#include "report/report_outputs.h"

static size_t count(const char *text, const char *what)
{
	size_t n = 0;
	for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* The hostile name of the issue: it ends the page's script and starts one
 * of its own, and holds an ampersand and both quotes. */
static const char hostile[] = "</script><script>alert(1)</script>&\"'";
static const char hostile_escaped[] =
	"&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;";

/* The fixture with the hostile name as a regressed variant (its series, a
 * changed site's function and file, a problem), a note and a baseline note. */
static void hostile_build(struct run_result *r)
{
	fixture_build(r);
	struct series *s = result_add_series(r, "toy", hostile, hostile, "heap_malloc_calls",
					     "count", METRIC_EXACT);
	cr_assert_not_null(s);
	result_series_append(s, 2);
	s->median = 2, s->baseline_median = 1, s->has_baseline = true, s->change = 1;
	s->ci_low = s->ci_high = NAN;
	s->verdict = VERDICT_FAIL;
	s->gated = true;
	s->file = strdup(hostile);
	s->note = strdup(hostile);
	struct site site = { 0 };
	site.kernel = (char *)"toy", site.variant = (char *)hostile, site.params = (char *)hostile;
	site.file = (char *)hostile, site.function = (char *)hostile, site.kind = (char *)"malloc";
	site.line = 3, site.calls = 2, site.bytes = 8;
	struct site_change *c = result_add_site_change(r, &site);
	cr_assert_not_null(c);
	c->after = true, c->calls_after = 2;
	cr_assert_eq(result_add_problem(r, "toy", hostile, "small", "sample", hostile), 0);
	r->baseline_note = strdup(hostile);
}

Test(report_html, a_hostile_name_is_escaped_and_never_markup)
{
	struct run_result r;
	hostile_build(&r);
	char *page = fixture_render(report_html_print, &r, NULL);
	cr_expect_eq(count(page, "<script"), 1, "a <script> of the kernel's reached the page");
	cr_expect_eq(count(page, "</script"), 1);
	cr_expect_null(strstr(page, "alert(1)</"), "the name reached the page raw");
	cr_expect_gt(count(page, hostile_escaped), 3, "the name is not shown escaped: %s", page);
	cr_expect_null(strstr(page, "=\"'"), "a quote of the kernel's ended an attribute");
	free(page);
	result_free(&r);
}

/* The verdict is the page's first text, in the words of the terminal and
 * the markdown; the changed groups follow with the markdown's paragraphs. */
Test(report_html, the_verdict_first_then_the_markdowns_paragraphs)
{
	struct run_result r;
	fixture_build(&r);
	char *page = fixture_render(report_html_print, &r, NULL);
	char *md = fixture_render(report_markdown_print, &r, NULL);
	const char *body = strstr(page, "<body>\n");
	cr_assert_not_null(body);
	cr_expect_eq(strncmp(body, "<body>\n<h1 id=\"verdict\" class=\"fail\">allocgate: FAIL</h1>",
			     56), 0, "%.200s", body);
	cr_expect(strstr(md, "## allocgate: ❌ FAIL\n"), "the markdown's verdict changed: %s", md);
	static const char *const shared[] = {
		"<h2>What broke</h2>",
		"<strong>toy/single/small</strong> <code>tests/kernels/toy.c:64</code>",
		"wall_ns 1 ms → 3 ms (+200.0%; p = 0.001, 100% &amp; &lt;confirmed&gt;)",
		"expectation violated on small: single.wall_ns &lt; 0.75 * twice.wall_ns",
		"<h2>Inconclusive</h2>", "<h2>Problems</h2>",
		"toy/twice/small sample: killed by signal 11",
		"3 series: 1 regressed, 0 improved, 0 inconclusive, 1 new, 0 not compared",
	};
	for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++)
		cr_expect_not_null(strstr(page, shared[i]), "not in the page: %s", shared[i]);
	cr_expect(strstr(md, "- wall_ns 1 ms → 3 ms (+200.0%; p = 0.001, 100% &amp; "
			 "&lt;confirmed&gt;)\n"), "the markdown says it otherwise: %s", md);
	cr_expect_lt(strstr(page, "What broke"), strstr(page, "id=\"series\""));
	free(md);
	free(page);
	result_free(&r);
}

/* Nothing is loaded: the policy forbids it, and the page names no address. */
Test(report_html, the_page_loads_nothing)
{
	struct run_result r;
	fixture_build(&r);
	char *page = fixture_render(report_html_print, &r, NULL);
	cr_expect_not_null(strstr(page, "<meta http-equiv=\"Content-Security-Policy\" content=\""
				  "default-src 'none'; style-src 'unsafe-inline'; script-src "
				  "'unsafe-inline'; img-src data:\">"));
	cr_expect_null(strstr(page, " src="));
	cr_expect_null(strstr(page, "url("));
	cr_expect_null(strstr(page, "@import"));
	cr_expect_null(strstr(page, "href=\"http"));
	cr_expect_null(strstr(page, "<link"));
	free(page);
	result_free(&r);
}

/* Every series is a row of the sortable table, its numbers in data-v (a
 * change from 0 as Infinity, no value where there is none). */
Test(report_html, every_series_is_a_row_with_its_values)
{
	struct run_result r;
	fixture_build(&r);
	r.series[1].baseline_median = 0;   /* allocs from 0 to 100 */
	char *page = fixture_render(report_html_print, &r, NULL);
	const char *table = strstr(page, "<table class=\"series sortable\">");
	cr_assert_not_null(table);
	const char *end = strstr(table, "</table>");
	size_t rows = 0;
	for (const char *p = strstr(table, "<tr><td>"); p && p < end; p = strstr(p + 1, "<tr><td>"))
		rows++;
	cr_expect_eq(rows, r.series_count);
	cr_expect_not_null(strstr(table, "<td data-v=\"3000000\">3 ms<td data-v=\"1000000\">1 ms"
				   "<td data-v=\"2\">+200.0%<td data-v=\"1.9\">[+190.0%, +210.0%]"
				   "<td class=\"fail\" title=\"p = 0.001, 100% &amp; &lt;confirmed&gt;\">"
				   "fail\n"), "%s", table);
	cr_expect_not_null(strstr(table, "<td data-v=\"Infinity\">from 0"), "%s", table);
	cr_expect_not_null(strstr(table, "<td data-v=\"1000000\">1 ms<td>-<td><td><td>new\n"),
			   "%s", table);
	cr_expect_not_null(strstr(page, "<th class=\"n\">change"));
	cr_expect_not_null(strstr(page, "document.body.setAttribute(\"data-ready\""));
	free(page);
	result_free(&r);
}

/* The fixture with flame_fixture.h's stacks of toy/single/small (its calls
 * changed from A) and toy/twice/small's, the same on both sides. */
static void flame_build(struct run_result *r)
{
	static const char *const twice[] = { "twice", "make", NULL };
	fixture_build(r);
	flame_fixture_build(&r->stacks, &r->stacks_before);
	for (int side = 0; side < 2; side++) {
		struct stacks *set = side ? &r->stacks_before : &r->stacks;
		struct stack *s = result_add_stack(set, "toy", "twice", "small", "", "malloc", twice, 2);
		cr_assert_not_null(s);
		s->calls = 7, s->instructions = 700;
	}
	result_stacks_sort(&r->stacks);
	result_stacks_sort(&r->stacks_before);
}

Test(report_html, flame_graphs_open_where_the_calls_changed)
{
	struct run_result r;
	flame_build(&r);
	char *page = fixture_render(report_html_print, &r, NULL);
	cr_expect_not_null(strstr(page, "<a href=\"#flames\">"));
	const char *single = strstr(page, "<details class=\"flame\" open><summary>toy/single/small: "
				    "allocation calls changed</summary>");
	const char *twice = strstr(page, "<details class=\"flame\"><summary>toy/twice/small: "
				   "unchanged</summary>");
	cr_expect_not_null(single, "%s", page);
	cr_expect_not_null(twice, "%s", page);
	cr_expect_eq(count(page, "<details class=\"flame\""), 2);
	cr_expect_null(strstr(page, "<?xml"), "an XML prolog inside the page");
	cr_expect_not_null(strstr(page, "id=\"f0-"), "the first graph's ids are not its own");
	cr_expect_not_null(strstr(page, "id=\"f1-"), "the second graph's ids are not its own");
	if (single && twice)
		cr_expect_gt(count(single, "<rect") - count(twice, "<rect"), 3,
			     "the changed variant's graph has no frames");
	free(page);
	result_free(&r);
}

/* Without the other side's stacks: one graph per variant, not
 * differential, collapsed. */
Test(report_html, flame_graphs_without_the_other_side_are_collapsed)
{
	struct run_result r;
	flame_build(&r);
	result_stacks_free(&r.stacks_before);
	char *page = fixture_render(report_html_print, &r, NULL);
	cr_expect_eq(count(page, "<details class=\"flame\"><summary>"), 2, "%s", page);
	cr_expect_null(strstr(page, "<details class=\"flame\" open>"));
	free(page);
	result_free(&r);
}

Test(report_html, written_as_the_html_output)
{
	char dir[] = "/tmp/allocgate-html-XXXXXX", path[300], err[512] = "", head[32] = "";
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/report.html", dir);
	struct report_paths paths = { .html = path };
	cr_expect_str_eq(report_output_flag(REPORT_OUTPUT_HTML), "--html");
	cr_expect_str_eq(report_output_path(&paths, REPORT_OUTPUT_HTML), path);
	struct run_result r;
	fixture_build(&r);
	cr_expect_eq(report_output_write(&r, REPORT_OUTPUT_HTML, path, err, sizeof err), 0, "%s",
		     err);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	cr_expect_not_null(fgets(head, sizeof head, f));
	fclose(f);
	cr_expect_str_eq(head, "<!DOCTYPE html>\n");
	/* two levels missing (one is made, as for every report) */
	snprintf(path, sizeof path, "%s/missing/too/report.html", dir);
	cr_expect_lt(report_output_write(&r, REPORT_OUTPUT_HTML, path, err, sizeof err), 0);
	cr_expect_not_null(strstr(err, path), "the error does not name the file: %s", err);
	snprintf(path, sizeof path, "%s/report.html", dir);
	remove(path);
	snprintf(path, sizeof path, "%s/missing", dir);
	rmdir(path);
	rmdir(dir);
	result_free(&r);
}

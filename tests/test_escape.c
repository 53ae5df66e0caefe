/* test_escape.c: gates/report/escape.c, each renderer fed the hostile
 * strings (a CR, an ANSI colour, a forged GitHub command, a markdown
 * heading after a newline, HTML, a CDATA end, an image link, backquotes,
 * a byte that is not UTF-8, invalid UTF-8 sequences) through a result, and
 * its output parsed or checked: no terminal line starts with "::", the
 * markdown holds no heading, HTML or link of the kernel's, the HTML page
 * no element or attribute of the kernel's, the JUnit, SVG and JSON parse. */
#include <jansson.h>
#include <stdint.h>

#include "core/utf8.h"
#include "core/matrix.h"
#include "decide/diff.h"
#include "report/matrix_report.h"
#include "report/escape.h"
#include "report/report_github.h"
#include "report/report_html.h"
#include "report/report_json.h"
#include "report/report_junit.h"
#include "report/report_markdown.h"
#include "report/report_svg.h"
#include "report/report_term.h"
#include "report_fixture.h"

static const char *const hostile[] = {
	"cr\rforged",
	"\x1b[31mred\x1b[0m",
	"::error file=x::forged",
	"x\n::error file=x::forged",
	"x\n## PASS",
	"<script>alert(1)</script>",
	"]]>",
	"![x](http://e)",
	"[link](http://e)",
	"a`b``c```",
	"`",
	"\xff",
	"caf\xc3 \xe2\x82 \xed\xa0\x80 \xf4\x90\x80\x80 \xc0\xaf",
	"\xc2\x9b" "31m",
};
#define HOSTILE_COUNT (sizeof hostile / sizeof hostile[0])

/* The fixture with every hostile string in a kernel's places: a series'
 * names, file and note, an expectation's file, expression and note, a
 * problem's reason, a changed site's file and function, the context and
 * the baseline note. */
static void hostile_build(struct run_result *r)
{
	fixture_build(r);
	for (size_t i = 0; i < HOSTILE_COUNT; i++) {
		const char *h = hostile[i];
		char variant[64];
		snprintf(variant, sizeof variant, "v%zu%s", i, h);
		struct series *s = result_add_series(r, "toy", variant, h, "wall_ns", "ns",
						     METRIC_TIMING);
		cr_assert_not_null(s);
		result_series_append(s, 1e6);
		s->median = 2e6;
		s->has_baseline = true;
		s->baseline_median = 1e6;
		s->change = 1;
		s->ci_low = s->ci_high = 2;
		s->verdict = VERDICT_FAIL;
		s->file = strdup(h);
		s->line = 7;
		s->note = strdup(h);
		struct expect_result *e = result_add_expect(r);
		e->kernel = strdup("toy");
		e->params = strdup(h);
		e->file = strdup(h);
		e->line = 9;
		e->expr = strdup(h);
		e->rounds = 3;
		e->ratio = true;
		e->estimate = e->ci_low = e->ci_high = 1;
		e->confidence = 0.9;
		e->verdict = i % 2 ? VERDICT_FAIL : VERDICT_ERROR;
		e->gated = true;
		e->note = strdup(h);
		cr_assert_eq(result_add_problem(r, "toy", h, "small", "sample", h), 0);
		struct site site = { 0 };
		site.kernel = (char *)"toy", site.variant = variant, site.params = (char *)h;
		site.file = (char *)h, site.function = (char *)h, site.kind = (char *)"malloc";
		site.line = 3, site.calls = 1, site.bytes = 8;
		struct site_change *c = result_add_site_change(r, &site);
		cr_assert_not_null(c);
		c->after = true;
	}
	for (size_t i = 0; i < r->expect_count; i++)
		r->expects[i].gated = true;
	r->ctx.cpu_model = strdup(hostile[1]);
	r->ctx.env = strdup(hostile[3]);
	r->baseline_note = strdup("line one\nx\r::error::forged \x1b[2J");
}

/* Whether TEXT is well-formed UTF-8 throughout. */
static int all_utf8(const char *text)
{
	uint32_t cp;
	size_t n;
	for (; *text; text += n)
		if (!(n = utf8_sequence(text, &cp)))
			return 0;
	return 1;
}

static void render_term(FILE *f, const struct run_result *r, const void *arg)
{
	struct report_term_options o;
	(void)arg;
	memset(&o, 0, sizeof o);
	o.details = true;
	report_term_print(f, r, &o, r);
}

Test(escape, the_terminal_shows_control_characters_and_starts_no_line_with_a_command)
{
	struct run_result r;
	setenv("NO_COLOR", "1", 1);
	hostile_build(&r);
	char *out = fixture_render(render_term, &r, NULL);
	cr_expect_null(strchr(out, '\r'), "a CR reached the terminal");
	cr_expect_null(strchr(out, '\x1b'), "an ESC reached the terminal");
	cr_expect(all_utf8(out), "bytes that are not UTF-8 reached the terminal");
	for (const char *line = out; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		cr_expect_neq(strncmp(line, "::", 2), 0, "a line starts with \"::\": %.60s", line);
	cr_expect_not_null(strstr(out, "cr\\rforged"), "the CR is not shown as \\r");
	cr_expect_not_null(strstr(out, "\\x1b[31mred"), "the ESC is not shown as \\x1b");
	cr_expect_not_null(strstr(out, "x\\n::error file=x::forged"));
	cr_expect_not_null(strstr(out, "\\xff"), "the 0xFF byte is not shown as \\xff");
	cr_expect_not_null(strstr(out, "\\u009b31m"), "the C1 CSI is not shown");
	cr_expect_not_null(strstr(out, "line one\nx\\r::error::forged \\x1b[2J"),
			   "the baseline note keeps its line break and escapes the rest");
	free(out);
	result_free(&r);
}

/* Whether the text at P of TEXT lies inside a code span of its line
 * (CommonMark: a run of N backquotes up to the next run of exactly N). */
static int in_code_span(const char *text, const char *p)
{
	const char *line = p;
	while (line > text && line[-1] != '\n')
		line--;
	for (const char *q = line; q < p;) {
		if (*q != '`') {
			q++;
			continue;
		}
		size_t n = strspn(q, "`");
		const char *c = q + n, *close = NULL;
		while (*c && *c != '\n') {
			size_t m = strspn(c, "`");
			if (m == n) {
				close = c;
				break;
			}
			c += m ? m : 1;
		}
		if (!close) {
			q += n;
			continue;
		}
		if (p > q && p < close)
			return 1;
		q = close + n;
	}
	return 0;
}

Test(escape, the_markdown_has_no_heading_html_or_link_of_the_kernels)
{
	struct run_result r;
	hostile_build(&r);
	char *md = fixture_render(report_markdown_print, &r, NULL);
	cr_expect(all_utf8(md), "bytes that are not UTF-8 in the markdown");
	cr_expect_null(strchr(md, '\r'));
	cr_expect_null(strchr(md, '\x1b'));
	for (const char *line = md; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (*line == '#')
			cr_expect(!strncmp(line, "## allocgate: ", 14) || !strncmp(line, "### ", 4),
				  "a heading of the kernel's: %.60s", line);
		cr_expect_neq(strncmp(line, "### PASS", 8), 0);
		cr_expect_neq(strncmp(line, "## PASS", 7), 0);
	}
	for (const char *p = strchr(md, '<'); p; p = strchr(p + 1, '<'))
		cr_expect(in_code_span(md, p) || !strncmp(p, "<details>", 9) || !strncmp(p, "</details>", 10) ||
			  !strncmp(p, "<summary>", 9) || !strncmp(p, "</summary>", 10),
			  "HTML of the kernel's: %.40s", p);
	for (const char *p = strstr(md, "]("); p; p = strstr(p + 1, "]("))
		cr_expect(p[-1] == '\\' || in_code_span(md, p), "a link or image: %.40s", p - 10);
	free(md);
	result_free(&r);
}

/* The text of the code span at the start of OUT (CommonMark 6.1), into
 * BUF; -1 when OUT holds no closed span. */
static int code_span_text(const char *out, char *buf, size_t size)
{
	size_t n = strspn(out, "`");
	const char *c = out + n;
	while (*c) {
		size_t m = strspn(c, "`");
		if (m == n)
			break;
		c += m ? m : 1;
	}
	if (!*c || !n)
		return -1;
	size_t len = (size_t)(c - out - (ptrdiff_t)n);
	const char *t = out + n;
	if (len >= 2 && t[0] == ' ' && t[len - 1] == ' ' && strspn(t, " ") < len)
		t++, len -= 2;
	snprintf(buf, size, "%.*s", (int)len, t);
	return strcmp(c + n, "") ? -1 : 0;
}

Test(escape, a_code_span_holds_any_backquotes)
{
	static const char *const cases[] = { "plain", "a`b", "a`b``c```", "`", "``x``", " lead",
					     "trail ", "` both `", "![x](http://e)", "<b>" };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		FILE *f = tmpfile();
		char out[256] = "", text[256];
		escape_md_code(f, cases[i]);
		rewind(f);
		cr_assert_not_null(fgets(out, sizeof out, f));
		fclose(f);
		cr_expect_eq(code_span_text(out, text, sizeof text), 0, "%s: no span in %s",
			     cases[i], out);
		cr_expect_str_eq(text, cases[i], "%s written as %s", cases[i], out);
	}
}

Test(escape, the_junit_and_svg_parse)
{
	static const char script[] =
		"import sys, xml.etree.ElementTree as ET\n"
		"ET.parse(sys.argv[1])\n";
	struct run_result r;
	hostile_build(&r);
	char *xml = fixture_render(report_junit_print, &r, NULL);
	char *svg = fixture_render(report_svg_print, &r, "toy");
	cr_expect(all_utf8(xml) && all_utf8(svg));
	int st = fixture_python(script, xml);
	if (st == -1)
		cr_skip_test("python3 is not installed: the XML parser check is skipped");
	cr_expect_eq(st, 0, "python3 xml.etree rejected the JUnit file");
	cr_expect_eq(fixture_python(script, svg), 0, "python3 xml.etree rejected the SVG");
	cr_expect_null(strstr(xml, "<script"));
	cr_expect_null(strstr(svg, "<script"));
	free(xml);
	free(svg);
	result_free(&r);
}

/* Every element and attribute of the --html page is the page's own: a
 * parser finds only the page's tags and attributes, one script, no
 * handler. */
Test(escape, the_html_page_has_no_element_or_attribute_of_the_kernels)
{
	/* python3 -c '...': no single quote in it */
	static const char script[] =
		"import html.parser, sys\n"
		"tags = set(\"html head meta title style body h1 h2 p br code nav a div ul li \"\n"
		"           \"strong details summary table thead tbody tr th td figure script \"\n"
		"           \"svg rect line text circle g\".split())\n"
		"attrs = set(\"lang charset http-equiv content name id class href title data-v \"\n"
		"            \"open xmlns width height viewbox font-family font-size font-weight \"\n"
		"            \"x y x1 y1 x2 y2 cx cy r rx fill fill-opacity stroke stroke-width \"\n"
		"            \"text-anchor\".split())\n"
		"bad, scripts = [], 0\n"
		"class P(html.parser.HTMLParser):\n"
		"    def handle_starttag(self, tag, a):\n"
		"        global scripts\n"
		"        scripts += tag == \"script\"\n"
		"        bad.extend([\"<\" + tag] if tag not in tags else [])\n"
		"        bad.extend([k for k, v in a if k not in attrs])\n"
		"P().feed(open(sys.argv[1], encoding=\"utf-8\").read())\n"
		"print(bad, scripts) if bad or scripts != 1 else None\n"
		"sys.exit(1 if bad or scripts != 1 else 0)\n";
	struct run_result r;
	hostile_build(&r);
	char *page = fixture_render(report_html_print, &r, NULL);
	cr_expect(all_utf8(page), "bytes that are not UTF-8 in the page");
	cr_expect_null(strchr(page, '\r'));
	cr_expect_null(strchr(page, '\x1b'));
	cr_expect_not_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	int st = fixture_python(script, page);
	if (st == -1)
		cr_skip_test("python3 is not installed: the HTML parser check is skipped");
	cr_expect_eq(st, 0, "an element or attribute of the kernel's in the page");
	free(page);
	result_free(&r);
}

Test(escape, the_json_is_utf8_and_parses)
{
	struct run_result r;
	char err[256] = "", path[] = "/tmp/allocgate-escape-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	close(fd);
	hostile_build(&r);
	cr_assert_eq(report_json_write(path, &r, err, sizeof err), 0, "%s", err);
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);   /* jansson rejects invalid UTF-8 */
	cr_expect_not_null(root, "%s", jerr.text);
	json_decref(root);
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f);
	char *text = calloc(1 << 20, 1);
	cr_assert_not_null(text);
	cr_assert(fread(text, 1, (1 << 20) - 1, f) > 0);
	fclose(f);
	cr_expect_eq(fixture_python("import sys, json\njson.load(open(sys.argv[1], "
				    "encoding=\"utf-8\", errors=\"strict\"))\n", text), 0);
	free(text);
	remove(path);
	result_free(&r);
}

Test(escape, the_github_annotations_are_one_command_a_line)
{
	struct run_result r;
	hostile_build(&r);
	FILE *f = tmpfile();
	cr_assert(f);
	size_t n = report_github_print(f, &r);
	long size = ftell(f);
	char *out = calloc((size_t)size + 1, 1);
	rewind(f);
	cr_assert_eq(fread(out, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	size_t lines = 0;
	cr_expect_null(strchr(out, '\r'));
	for (const char *line = out; *line; line = strchr(line, '\n') + 1, lines++) {
		cr_assert_not_null(strchr(line, '\n'));
		cr_expect(!strncmp(line, "::error ", 8) || !strncmp(line, "::warning ", 10) ||
			  !strncmp(line, "::notice ", 9), "not a command of the gate's: %.60s", line);
		cr_expect_neq(strncmp(line, "::error file=x::", 16), 0);
	}
	cr_expect_eq(lines, n, "%zu commands on %zu lines", n, lines);
	cr_expect_not_null(strstr(out, "%0A::error file=x::forged"), "LF not escaped");
	cr_expect_not_null(strstr(out, "cr%0Dforged"), "CR not escaped");
	free(out);
	result_free(&r);
}

Test(escape, term_rule_values)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "plain é", "plain é" }, { "a\rb", "a\\rb" }, { "\x1b[0m", "\\x1b[0m" },
		{ "\n", "\\n" }, { "\x7f", "\\x7f" }, { "\xff", "\\xff" },
		{ "\xc3", "\\xc3" }, { "\xc2\x9b", "\\u009b" }, { "\xed\xa0\x80", "\\xed\\xa0\\x80" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = escape_term_dup(cases[i].in);
		cr_assert_not_null(got);
		cr_expect_str_eq(got, cases[i].want);
		free(got);
	}
}

/* The HTML rule: no character that ends a text, an attribute or a script
 * is left raw; a control character is shown; not UTF-8 is U+FFFD. */
Test(escape, html_rule_values)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "plain é", "plain é" },
		{ "</script><script>alert(1)</script>",
		  "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" },
		{ "a & b", "a &amp; b" }, { "\"x\" 'y'", "&quot;x&quot; &#39;y&#39;" },
		{ "a\rb", "a\\rb" }, { "\x1b[0m", "\\x1b[0m" }, { "tab\tline\n", "tab\tline\n" },
		{ "\xff", "\xef\xbf\xbd" }, { "\xc2\x9b", "\\u009b" },
		{ "\xef\xbf\xbe", "\xef\xbf\xbd" },
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char out[256] = "";
		FILE *f = tmpfile();
		cr_assert_not_null(f);
		escape_html(f, cases[i].in);
		rewind(f);
		size_t n = fread(out, 1, sizeof out - 1, f);
		out[n] = '\0';
		fclose(f);
		cr_expect_str_eq(out, cases[i].want, "case %zu", i);
	}
}

static void render_diff_sites(FILE *f, const struct run_result *b, const void *arg)
{
	struct run_result a;
	(void)arg;
	memset(&a, 0, sizeof a);
	a.sites_recorded = true;
	diff_print_sites(f, &a, b);
}

Test(escape, gate_diff_shows_the_sites_escaped)
{
	struct run_result r;
	hostile_build(&r);
	r.sites_recorded = true;
	char *out = fixture_render(render_diff_sites, &r, NULL);
	cr_expect_not_null(strstr(out, "allocation sites: "), "%s", out);
	cr_expect_null(strchr(out, '\r'));
	cr_expect_null(strchr(out, '\x1b'));
	cr_expect(all_utf8(out));
	for (const char *line = out; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		cr_expect_neq(strncmp(line, "::", 2), 0, "%.60s", line);
	free(out);
	result_free(&r);
}

/* R's problems as gate matrix's table: ARG NULL the terminal, else the
 * markdown. */
static void render_matrix(FILE *f, const struct run_result *r, const void *arg)
{
	struct matrix m;
	memset(&m, 0, sizeof m);
	cr_assert_eq(matrix_take_problems(&m, "glibc", r), 0);
	if (arg)
		matrix_markdown_print(f, &m);
	else
		matrix_text_print(f, &m, false, false);
	matrix_free(&m);
}

Test(escape, gate_matrix_shows_a_kernels_problems_escaped)
{
	struct run_result r;
	hostile_build(&r);
	char *out = fixture_render(render_matrix, &r, NULL);
	cr_expect_not_null(strstr(out, "cr\\rforged"), "%s", out);
	cr_expect_null(strchr(out, '\r'));
	cr_expect_null(strchr(out, '\x1b'));
	cr_expect(all_utf8(out));
	for (const char *line = out; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		cr_expect_neq(strncmp(line, "::", 2), 0, "%.60s", line);
	free(out);
	result_free(&r);
}

/* gate matrix's markdown (escape.h's markdown rule): a kernel's problem
 * text makes no link, image, HTML, code span or line break of its own, and
 * its bytes that are not UTF-8 do not reach the page. */
Test(escape, gate_matrix_markdown_has_no_link_or_html_of_the_kernels)
{
	struct run_result r;
	hostile_build(&r);
	char *md = fixture_render(render_matrix, &r, "markdown");
	cr_expect_null(strchr(md, '\r'));
	cr_expect_null(strchr(md, '\x1b'));
	cr_expect(all_utf8(md), "%s", md);
	for (const char *p = strstr(md, "]("); p; p = strstr(p + 1, "]("))
		cr_expect(p[-1] == '\\', "a link or image: %.40s", p - 10);
	for (const char *p = strchr(md, '<'); p; p = strchr(p + 1, '<'))
		cr_expect(0, "HTML of the kernel's: %.40s", p);
	for (const char *line = md; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		cr_expect(*line != '#' || !strncmp(line, "## ", 3) || !strncmp(line, "### ", 4),
			  "%.60s", line);
	free(md);
	result_free(&r);
}

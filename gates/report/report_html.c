/* report_html.c: the --html page (report_html.h): page.h's parts in HTML,
 * then the tables, the charts and the flame graphs (html_parts.h). */
#include <stdio.h>

#include "report/report_html.h"
#include "report/escape.h"
#include "report/html_parts.h"
#include "report/page.h"
#include "report/report_file.h"

/* The gate's arrow (format.h's " -> ") as the page shows it. */
#define HTML_ARROW " \u2192 "

static void html_prose(FILE *f, const char *text)
{
	page_arrows(f, text, escape_html, HTML_ARROW);
}

static void html_code(FILE *f, const char *s)
{
	fputs("<code>", f);
	escape_html(f, s);
	fputs("</code>", f);
}

/* The verdict, the page's one <h1>, its class the run's outcome. */
static void html_verdict(FILE *f, bool ok, const char *words)
{
	fprintf(f, "<h1 id=\"verdict\" class=\"%s\">allocgate: ", ok ? "pass" : "fail");
	escape_html(f, words);
	fputs("</h1>\n", f);
}

static const struct page_dialect html = {
	.open = {
		[PAGE_HEAD] = "<p class=\"head\">", [PAGE_LINE] = "", [PAGE_NOTE] = "<p class=\"note\">",
		[PAGE_HEADING] = "<h2>", [PAGE_PARA] = "<p>", [PAGE_LIST] = "<ul>\n",
		[PAGE_LIST_TIGHT] = "<ul>\n", [PAGE_ITEM] = "<li>", [PAGE_STRONG] = "<strong>",
		[PAGE_DETAILS] = "<details>", [PAGE_SUMMARY] = "<summary>",
	},
	.close = {
		[PAGE_HEAD] = "</p>\n", [PAGE_LINE] = "<br>\n", [PAGE_NOTE] = "</p>\n",
		[PAGE_HEADING] = "</h2>\n", [PAGE_PARA] = "</p>\n", [PAGE_LIST] = "</ul>\n",
		[PAGE_LIST_TIGHT] = "</ul>\n", [PAGE_ITEM] = "</li>\n", [PAGE_STRONG] = "</strong>",
		[PAGE_DETAILS] = "</details>\n", [PAGE_SUMMARY] = "</summary>\n",
	},
	.text = escape_html,
	.prose = html_prose,
	.words = escape_html,
	.code = html_code,
	.verdict = html_verdict,
};

void report_html_print(FILE *f, const struct run_result *r, const void *arg)
{
	struct page p = { f, &html };
	(void)arg;
	html_open(f, r);
	page_print_head(&p, r);
	html_contents(f, r);
	fputs("<div id=\"changes\">\n", f);
	page_print_changes(&p, r);
	fputs("</div>\n", f);
	/* where the allocations of a changed group come from, before the tables */
	html_flames(f, r);
	html_series_table(f, r);
	html_expect_table(f, r);
	html_plots(f, r);
	html_close(f);
}

int report_html_write(const char *path, const struct run_result *r, char *err, size_t err_size)
{
	return report_file_write(path, report_html_print, r, NULL, err, err_size);
}

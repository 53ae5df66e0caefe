/* report_markdown.c: the markdown summary (report_markdown.h): the page of
 * page.h in markdown, and the table of the series that moved. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_markdown.h"
#include "report/escape.h"
#include "report/format.h"
#include "report/page.h"
#include "report/report_file.h"
#include "report/series_rows.h"

/* Text under the markdown rule (escape.h). */
#define md escape_md_text

/* The rows of the table of series that moved (one per fact, the most
 * decisive first); the rest are a line pointing to the JSON. */
#define MARKDOWN_ROWS 15

/* The gate's arrow in its own texts (format.h's " -> "), as a reader of
 * the raw file and of the page reads it: a plain arrow, not the entity
 * the markdown rule makes of ">". */
#define MARKDOWN_ARROW " \u2192 "

/* TEXT (a text the gate formatted, holding untrusted names) under the
 * markdown rule, its arrows " -> " written as MARKDOWN_ARROW. */
static void md_arrows(FILE *f, const char *text)
{
	page_arrows(f, text, escape_md_text, MARKDOWN_ARROW);
}

static void md_words(FILE *f, const char *s)
{
	fputs(s, f);
}

/* The page's title: its mark and the verdict, a level-2 heading. */
static void md_verdict(FILE *f, bool ok, const char *words)
{
	fprintf(f, "## allocgate: %s %s\n", ok ? "✅" : "❌", words);
}

/* The markdown of page.h's parts: a blank line before each block but a
 * list right under its paragraph. */
static const struct page_dialect markdown = {
	.open = {
		[PAGE_HEAD] = "\n", [PAGE_LINE] = "", [PAGE_NOTE] = "\n> ",
		[PAGE_HEADING] = "\n### ", [PAGE_PARA] = "\n", [PAGE_LIST] = "\n",
		[PAGE_LIST_TIGHT] = "", [PAGE_ITEM] = "- ", [PAGE_STRONG] = "**",
		[PAGE_DETAILS] = "\n<details>", [PAGE_SUMMARY] = "<summary>",
	},
	.close = {
		[PAGE_HEAD] = "", [PAGE_LINE] = "\n", [PAGE_NOTE] = "\n", [PAGE_HEADING] = "\n",
		[PAGE_PARA] = "\n", [PAGE_LIST] = "", [PAGE_LIST_TIGHT] = "", [PAGE_ITEM] = "\n",
		[PAGE_STRONG] = "**", [PAGE_DETAILS] = "\n</details>\n",
		[PAGE_SUMMARY] = "</summary>\n",
	},
	.text = escape_md_text,
	.prose = md_arrows,
	.words = md_words,
	.code = escape_md_code,
	.verdict = md_verdict,
};

static bool is_moved(const struct series *s, const void *arg)
{
	(void)arg;
	return s->verdict == VERDICT_FAIL || s->verdict == VERDICT_IMPROVED;
}

/* One row of the table of series that moved: the group, its metrics that
 * moved alike (row I of R), both medians, the change and the verdict.
 * Returns how many series the row stands for. */
static size_t print_series_row(FILE *f, const struct run_result *r, size_t i)
{
	const struct series *s = &r->series[i];
	char metrics[1024], now[32], was[32], change[32];
	size_t n = series_rows_metrics(r, i, is_moved, NULL, metrics, sizeof metrics);
	format_value(s->median, s->unit, now, sizeof now);
	format_value(s->has_baseline ? s->baseline_median : (double)NAN, s->unit, was,
		     sizeof was);
	format_change_word(s, change, sizeof change);
	fputs("| ", f);
	md(f, s->kernel), fputc('/', f), md(f, s->variant), fputc('/', f), md(f, s->params);
	fputs(" | ", f);
	md(f, metrics);
	fprintf(f, " | %s | %s | %s | %s |\n", was, now, change,
		result_series_verdict_name(s->verdict));
	return n;
}

/* Every series that moved (regressed, improved, or moved but not gated),
 * collapsed, one row per fact, the most decisive first: at most
 * MARKDOWN_ROWS rows, the rest counted. The JSON has every series. */
static void print_table(FILE *f, const struct run_result *r)
{
	size_t n = 0, *rows, count = series_rows_ordered(r, is_moved, NULL, &rows);
	for (size_t i = 0; i < r->series_count; i++)
		n += is_moved(&r->series[i], NULL);
	if (!n || count == (size_t)-1)   /* none, or no memory for the order */
		return;
	fprintf(f, "\n<details><summary>%zu series that moved</summary>\n\n"
		   "| series | metric | %s | %s | change | verdict |\n|---|---|---:|---:|---|---|\n",
		n, r->comparison ? "A" : "baseline", r->comparison ? "B" : "now");
	size_t shown = 0;
	for (size_t k = 0; k < count && k < MARKDOWN_ROWS; k++)
		shown += print_series_row(f, r, rows[k]);
	if (shown < n)
		fprintf(f, "\n%zu more series, less decisive, in the JSON report (result.json "
			"of the uploaded reports).\n", n - shown);
	fputs("\n</details>\n", f);
	free(rows);
}

void report_markdown_print(FILE *f, const struct run_result *r, const void *arg)
{
	struct page p = { f, &markdown };
	(void)arg;
	page_print_head(&p, r);
	page_print_changes(&p, r);
	print_table(f, r);
}

int report_markdown_write(const char *path, const struct run_result *r, char *err,
			  size_t err_size)
{
	return report_file_write(path, report_markdown_print, r, NULL, err, err_size);
}

int report_markdown_append(const char *path, const struct run_result *r, char *err,
			   size_t err_size)
{
	FILE *f = fopen(path, "a");
	if (!f) {
		int e = errno;
		snprintf(err, err_size, "%s: %s", path, strerror(e));
		return -e;
	}
	report_markdown_print(f, r, NULL);
	fputc('\n', f);
	if (ferror(f) | fclose(f)) {
		snprintf(err, err_size, "%s: write error", path);
		return -EIO;
	}
	return 0;
}

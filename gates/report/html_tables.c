/* html_tables.c: the --html page's tables of every series and every
 * expectation (html_parts.h), formatted from the result as the terminal
 * formats them (format.h); the page's script sorts them. */
#include <math.h>
#include <stdio.h>

#include "report/html_parts.h"
#include "report/escape.h"
#include "report/format.h"

/* The class of a verdict's cell, coloured as the terminal colours it; NULL
 * for the verdicts that say nothing moved. */
static const char *verdict_class(enum verdict v, bool gated)
{
	switch (v) {
	case VERDICT_FAIL:
		return gated ? "fail" : "moved";
	case VERDICT_ERROR:
		return "error";
	case VERDICT_IMPROVED:
		return "improved";
	case VERDICT_INCONCLUSIVE:
	case VERDICT_FAIL_BOTH:
		return "inconclusive";
	default:
		return NULL;
	}
}

static void cell(FILE *f, const char *text)
{
	fputs("<td>", f);
	escape_html(f, text);
}

/* A number's cell: TEXT shown, VALUE (when it is one) what the script
 * sorts by ("Infinity" as JavaScript's parseFloat reads it). */
static void cell_number(FILE *f, double value, const char *text)
{
	if (isnan(value))
		fputs("<td>", f);
	else if (isinf(value))
		fprintf(f, "<td data-v=\"%sInfinity\">", value < 0 ? "-" : "");
	else
		fprintf(f, "<td data-v=\"%.9g\">", value);
	escape_html(f, text);
}

/* The verdict's cell: its WORD, then SUFFIX, its class that of V with
 * GATED, NOTE (the reason) its tooltip where the verdict says something. */
static void cell_verdict(FILE *f, const char *word, const char *suffix, enum verdict v,
			 bool gated, const char *note)
{
	const char *cls = verdict_class(v, gated);
	fputs("<td", f);
	if (cls)
		fprintf(f, " class=\"%s\"", cls);
	if (note && cls) {
		fputs(" title=\"", f);
		escape_html(f, note);
		fputc('"', f);
	}
	fputc('>', f);
	escape_html(f, word);
	fputs(suffix, f);
}

/* What the change column sorts by: the change, +Infinity from 0. */
static double change_value(const struct series *s)
{
	if (!s->has_baseline || isnan(s->baseline_median))
		return NAN;
	if (s->baseline_median == 0)
		return s->median == 0 ? 0 : INFINITY;
	return s->change;
}

static void series_row(FILE *f, const struct series *s)
{
	char now[32], was[32], change[32], interval[64];
	format_value(s->median, s->unit, now, sizeof now);
	format_value(s->has_baseline ? s->baseline_median : (double)NAN, s->unit, was, sizeof was);
	format_change_word(s, change, sizeof change);
	format_interval(s, interval, sizeof interval);
	fputs("<tr>", f);
	cell(f, s->kernel);
	cell(f, s->variant);
	cell(f, s->params);
	cell(f, s->metric);
	cell_number(f, s->median, now);
	cell_number(f, s->has_baseline ? s->baseline_median : (double)NAN, was);
	cell_number(f, *change ? change_value(s) : (double)NAN, change);
	cell_number(f, *interval ? s->ci_low - 1 : (double)NAN, interval);
	cell_verdict(f, result_series_verdict_name(s->verdict),
		     s->verdict == VERDICT_FAIL && !s->gated ? " (not gated)" : "", s->verdict,
		     s->gated, s->note);
	fputc('\n', f);
}

void html_series_table(FILE *f, const struct run_result *r)
{
	if (!r->series_count)
		return;
	fprintf(f, "<h2 id=\"series\">Every series (%zu)</h2>\n"
		"<p class=\"hint\">A click on a column's title sorts by it, a second reverses.</p>\n"
		"<div class=\"scroll\"><table class=\"series sortable\">\n<thead><tr><th>kernel"
		"<th>variant<th>params<th>metric<th class=\"n\">%s<th class=\"n\">%s"
		"<th class=\"n\">change<th class=\"n\">interval<th>verdict</tr></thead>\n<tbody>\n",
		r->series_count, r->comparison ? "B median" : "median",
		r->comparison ? "A median" : "baseline");
	for (size_t i = 0; i < r->series_count; i++)
		series_row(f, &r->series[i]);
	fputs("</tbody></table></div>\n", f);
}

static void expect_row(FILE *f, const struct expect_result *e)
{
	char place[4200], estimate[32], interval[80], rounds[32];
	snprintf(place, sizeof place, "%s:%d", e->file ? e->file : "?", e->line);
	snprintf(estimate, sizeof estimate, "%.4g", e->estimate);
	snprintf(interval, sizeof interval, "[%.4g, %.4g]", e->ci_low, e->ci_high);
	snprintf(rounds, sizeof rounds, "%zu", e->rounds);
	bool measured = e->rounds > 0 && isfinite(e->estimate);
	fputs("<tr>", f);
	cell(f, e->kernel);
	cell(f, e->params);
	fputs("<td><code>", f);
	escape_html(f, e->expr);
	fputs("</code>", f);
	cell(f, place);
	cell_number(f, measured ? e->estimate : (double)NAN, measured ? estimate : "");
	cell_number(f, measured && isfinite(e->ci_low) ? e->ci_low : (double)NAN,
		    measured && isfinite(e->ci_low) ? interval : "");
	cell_number(f, (double)e->rounds, rounds);
	/* not gated: declared for another allocator, measured as information */
	cell_verdict(f, result_verdict_name(e->verdict), e->gated ? "" : " (not gated)",
		     e->verdict, e->gated, e->note);
	fputc('\n', f);
}

void html_expect_table(FILE *f, const struct run_result *r)
{
	if (!r->expect_count)
		return;
	fprintf(f, "<h2 id=\"expectations\">Every expectation (%zu)</h2>\n"
		"<div class=\"scroll\"><table class=\"claims sortable\">\n<thead><tr><th>kernel"
		"<th>params<th>expectation<th>declared at<th class=\"n\">estimate"
		"<th class=\"n\">interval<th class=\"n\">rounds<th>verdict</tr></thead>\n<tbody>\n",
		r->expect_count);
	for (size_t i = 0; i < r->expect_count; i++)
		expect_row(f, &r->expects[i]);
	fputs("</tbody></table></div>\n", f);
}

/* report_svg.c: per-kernel SVG charts of the wall-time samples (report_svg.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/report_svg.h"
#include "report/format.h"
#include "report/report_file.h"
#include "core/group_key.h"

#define SVG_WIDTH 960
#define SVG_LABEL 330   /* left column: params, variant, metric */
#define SVG_PLOT 460    /* plot width */
#define SVG_ROW 24
#define SVG_TOP 58

/* Whether S is drawn: a wall-time metric of this kernel with samples. */
static int drawn(const struct series *s, const char *kernel)
{
	const char *dot = strrchr(s->metric, '.');
	return group_key_in(GROUP_KEY(s), GROUP_KEY_OF(kernel, NULL, NULL)) &&
	       !strcmp(dot ? dot + 1 : s->metric, "wall_ns") &&
	       s->sample_count > 0 && isfinite(s->median) && s->median > 0;
}

/* What a sample is divided by: the baseline median, else the run's own. */
static double reference(const struct series *s)
{
	return s->has_baseline && isfinite(s->baseline_median) && s->baseline_median > 0
		       ? s->baseline_median : s->median;
}

static const char *color(enum verdict v)
{
	switch (v) {
	case VERDICT_FAIL: case VERDICT_ERROR: return "#c62828";
	case VERDICT_INCONCLUSIVE: return "#b26a00";
	case VERDICT_IMPROVED: return "#2e7d32";
	case VERDICT_PASS: return "#1565c0";
	default: return "#616161";
	}
}

struct axis {
	double lo, hi; /* log ratio range */
};

static double xpos(const struct axis *a, double ratio)
{
	double l = log(ratio);
	if (l < a->lo)
		l = a->lo;
	if (l > a->hi)
		l = a->hi;
	return SVG_LABEL + SVG_PLOT * (l - a->lo) / (a->hi - a->lo);
}

/* The range of every drawn ratio, widened to include 0.8..1.25. */
static struct axis make_axis(const struct run_result *r, const char *kernel, size_t *rows)
{
	struct axis a = { log(0.8), log(1.25) };
	*rows = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!drawn(s, kernel))
			continue;
		++*rows;
		for (size_t k = 0; k < s->sample_count; k++) {
			double x = s->samples[k] / reference(s);
			if (isfinite(x) && x > 0) {
				a.lo = fmin(a.lo, log(x));
				a.hi = fmax(a.hi, log(x));
			}
		}
	}
	a.lo = fmax(a.lo, log(1.0 / 64));
	a.hi = fmin(a.hi, log(64.0));
	double pad = (a.hi - a.lo) * 0.04;
	a.lo -= pad;
	a.hi += pad;
	return a;
}

static void print_axis(FILE *f, const struct axis *a, double bottom)
{
	static const double ticks[] = { 1.0 / 32, 1.0 / 16, 1.0 / 8, 0.25, 0.5, 0.8, 1, 1.25, 2,
					4, 8, 16, 32, 64 };
	for (size_t i = 0; i < sizeof ticks / sizeof ticks[0]; i++) {
		double l = log(ticks[i]);
		if (l < a->lo || l > a->hi)
			continue;
		double x = xpos(a, ticks[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"%s\"/>\n", x, SVG_TOP - 6, x, bottom,
			ticks[i] == 1 ? "#000" : "#ddd", ticks[i] == 1 ? "1.5" : "1");
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"t\">%s%g</text>\n",
			x, SVG_TOP - 10, ticks[i] < 0.5 ? "1/" : "x", ticks[i] < 0.5 ? 1 / ticks[i]
										    : ticks[i]);
	}
}

static void print_row(FILE *f, const struct axis *a, const struct series *s, double y)
{
	double ref = reference(s);
	const char *c = color(s->verdict);
	fprintf(f, "<text x=\"8\" y=\"%.1f\" class=\"l\">", y + 4);
	format_xml_text(f, s->params);
	fputs("  ", f);
	format_xml_text(f, s->variant);
	fputs("  ", f);
	format_xml_text(f, s->metric);
	fputs("</text>\n", f);
	for (size_t k = 0; k < s->sample_count; k++) {
		double x = s->samples[k] / ref;
		if (isfinite(x) && x > 0)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" "
				"fill-opacity=\"0.55\"/>\n", xpos(a, x), y, c);
	}
	double m = xpos(a, s->median / ref);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"3\"/>\n", m, y - 8, m, y + 8, c);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"l\" fill=\"%s\">%s", SVG_LABEL + SVG_PLOT + 12,
		y + 4, c, result_verdict_name(s->verdict));
	if (s->has_baseline && isfinite(s->change))
		fprintf(f, " %+.1f%%", 100 * s->change);
	else
		fputs(" (no baseline)", f);
	fputs("</text>\n", f);
}

/* The chart's text styles, each rule under SCOPE ("" in a file of its
 * own; in a page, the chart's class, so that they style nothing else). */
static void print_style(FILE *f, const char *scope)
{
	fprintf(f, "<style>%s.l{font-size:12px}%s.t{font-size:11px;fill:#555}%s.h{font-size:15px;"
		"font-weight:bold}</style>\n", scope, scope, scope);
}

/* The chart of KERNEL: a file of its own (with its XML prolog), or INLINE
 * in an HTML page (svg.plot, its styles scoped to it). */
static void print_chart(FILE *f, const struct run_result *r, const char *kernel, bool inline_svg)
{
	size_t rows, row = 0;
	struct axis a = make_axis(r, kernel, &rows);
	double bottom = SVG_TOP + (double)rows * SVG_ROW;
	if (!inline_svg)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\"%s width=\"%d\" height=\"%.0f\" "
		   "viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\">\n",
		inline_svg ? " class=\"plot\"" : "", SVG_WIDTH, bottom + 30, SVG_WIDTH, bottom + 30);
	print_style(f, inline_svg ? "svg.plot " : "");
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n", f);
	fputs("<text x=\"8\" y=\"20\" class=\"h\">", f);
	format_xml_text(f, kernel);
	fputs(": wall-time samples / baseline median (log scale; bar = run median)</text>\n", f);
	print_axis(f, &a, bottom);
	for (size_t i = 0; i < r->series_count; i++) {
		if (!drawn(&r->series[i], kernel))
			continue;
		double y = SVG_TOP + SVG_ROW * (row++ + 0.5);
		if (row % 2 == 0)
			fprintf(f, "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f5f5f5\" "
				"fill-opacity=\"0.6\"/>\n", y - SVG_ROW / 2.0, SVG_WIDTH, SVG_ROW);
		print_row(f, &a, &r->series[i], y);
	}
	if (!rows)
		fprintf(f, "<text x=\"8\" y=\"%d\" class=\"l\">no wall-time samples</text>\n", SVG_TOP);
	fputs("</svg>\n", f);
}

void report_svg_print(FILE *f, const struct run_result *r, const void *kernel)
{
	print_chart(f, r, kernel, false);
}

void report_svg_print_inline(FILE *f, const struct run_result *r, const char *kernel)
{
	print_chart(f, r, kernel, true);
}

bool report_svg_draws(const struct run_result *r, const char *kernel)
{
	for (size_t i = 0; i < r->series_count; i++)
		if (drawn(&r->series[i], kernel))
			return true;
	return false;
}

/* DIR/<kernel>.svg, with bytes outside [A-Za-z0-9._-] of the name as '_'. */
static void chart_path(const char *dir, const char *kernel, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%s/", dir);
	for (const char *k = kernel; *k && n + 5 < size; k++)
		buf[n++] = (strchr("._-", *k) || (*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
			    (*k >= '0' && *k <= '9')) ? *k : '_';
	snprintf(buf + n, size - n, ".svg");
}

int report_svg_write_dir(const char *dir, const struct run_result *r, char *err,
			 size_t err_size)
{
	char path[4096];
	int count = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const char *kernel = r->series[i].kernel;
		if (!group_key_first_series(r, i, GROUP_SCOPE_KERNEL, NULL, NULL))
			continue;
		chart_path(dir, kernel, path, sizeof path);
		int rc = report_file_write(path, report_svg_print, r, kernel, err, err_size);
		if (rc < 0)
			return rc;
		count++;
	}
	return count;
}

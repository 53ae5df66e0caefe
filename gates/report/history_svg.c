/* history_svg.c: `gate history --svg FILE`: series over the commits, their
 * change points marked (history_report.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/history_report.h"
#include "store/atomic_file.h"

#define SVG_WIDTH 960
#define SVG_LEFT 90     /* the values' labels */
#define SVG_RIGHT 30
#define SVG_PANEL 190   /* one series: title, plot, the commits' labels */
#define SVG_PLOT 130
#define SVG_TOP 40

/* Whether track T is drawn. */
static bool drawn(const struct change_track *t, bool chosen)
{
	return t->count > 0 && (chosen || t->point_count > 0);
}

/* The x of commit index C of COMMITS. */
static double xpos(size_t c, size_t commits)
{
	double w = SVG_WIDTH - SVG_LEFT - SVG_RIGHT;
	return SVG_LEFT + (commits > 1 ? w * (double)c / (double)(commits - 1) : w / 2);
}

/* The range of T's values and spreads, widened when flat. */
static void value_range(const struct change_track *t, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < t->count; i++) {
		double s = isfinite(t->spread[i]) ? t->spread[i] : 0;
		*lo = fmin(*lo, t->value[i] - s);
		*hi = fmax(*hi, t->value[i] + s);
	}
	double pad = (*hi - *lo) * 0.08;
	if (!(pad > 0))
		pad = fabs(*hi) > 0 ? fabs(*hi) * 0.01 : 1;
	*lo -= pad;
	*hi += pad;
}

/* The y of V in a panel whose plot starts at TOP. */
static double ypos(double v, double lo, double hi, double top)
{
	return top + SVG_PLOT * (1 - (v - lo) / (hi - lo));
}

static void title(FILE *f, const struct change_track *t, double top)
{
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"t\">", SVG_LEFT, top - 12);
	format_xml_text(f, t->platform);
	fputs(": ", f);
	format_xml_text(f, t->kernel);
	fputc('/', f);
	format_xml_text(f, t->variant);
	fputc('/', f);
	format_xml_text(f, t->params);
	fputc(' ', f);
	format_xml_text(f, t->metric);
	fprintf(f, " (%s, %zu change point%s)</text>\n", change_points_method_name(t->method),
		t->point_count, t->point_count == 1 ? "" : "s");
}

/* The frame of a panel: its box, the values at its top and bottom, the
 * first and last commit below. */
static void frame(FILE *f, const struct change_findings *fx, const struct change_track *t,
		  double lo, double hi, double top)
{
	char a[32], b[32];
	format_value(hi, t->unit, a, sizeof a);
	format_value(lo, t->unit, b, sizeof b);
	fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" class=\"box\"/>\n",
		SVG_LEFT, top, SVG_WIDTH - SVG_LEFT - SVG_RIGHT, SVG_PLOT);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"v\">%s</text>\n", SVG_LEFT - 6, top + 10, a);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"v\">%s</text>\n", SVG_LEFT - 6,
		top + SVG_PLOT, b);
	for (size_t k = 0; k < 2 && fx->commit_count; k++) {
		size_t c = k ? fx->commit_count - 1 : 0;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"c%s\">", xpos(c, fx->commit_count),
			top + SVG_PLOT + 14, k ? " end" : "");
		format_xml_text(f, fx->commits[c].short_id);
		fputs("</text>\n", f);
	}
}

/* T's points: spread bars, the line, the dots (with the commit as title). */
static void points(FILE *f, const struct change_findings *fx, const struct change_track *t,
		   double lo, double hi, double top)
{
	char v[32];
	for (size_t i = 0; i < t->count; i++)
		if (isfinite(t->spread[i]) && t->spread[i] > 0)
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				"class=\"s\"/>\n", xpos(t->commit[i], fx->commit_count),
				xpos(t->commit[i], fx->commit_count),
				ypos(t->value[i] - t->spread[i], lo, hi, top),
				ypos(t->value[i] + t->spread[i], lo, hi, top));
	fputs("<polyline class=\"l\" points=\"", f);
	for (size_t i = 0; i < t->count; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", xpos(t->commit[i], fx->commit_count),
			ypos(t->value[i], lo, hi, top));
	fputs("\"/>\n", f);
	for (size_t i = 0; i < t->count; i++) {
		format_value(t->value[i], t->unit, v, sizeof v);
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"><title>",
			xpos(t->commit[i], fx->commit_count), ypos(t->value[i], lo, hi, top));
		format_xml_text(f, fx->commits[t->commit[i]].short_id);
		fprintf(f, ": %s</title></circle>\n", v);
	}
}

/* A vertical line at each change point of T, labelled with its commit. */
static void marks(FILE *f, const struct change_findings *fx, const struct change_track *t,
		  double top)
{
	for (size_t j = 0; j < t->point_count; j++) {
		const struct change_point *p = &t->points[j];
		double x = (xpos(t->commit[p->at - 1], fx->commit_count) +
			    xpos(t->commit[p->at], fx->commit_count)) / 2;
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"cp\"/>\n",
			x, x, top, top + SVG_PLOT);
		/* right of its line in the plot's left half, left of it in the
		 * right half (the label stays inside the plot); each lower than
		 * the one before, so that two close change points do not overlap */
		double mid = (xpos(0, fx->commit_count) +
			      xpos(fx->commit_count ? fx->commit_count - 1 : 0, fx->commit_count)) / 2;
		bool left = x > mid;
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"cpl\"%s>", left ? x - 3 : x + 3,
			top + 11 + 12 * (double)(j % 8), left ? " text-anchor=\"end\"" : "");
		format_xml_text(f, change_points_commit(fx, t, p)->short_id);
		if (isinf(p->change))
			fputs(" from 0</text>\n", f);
		else
			fprintf(f, " %+.1f%%</text>\n", 100 * p->change);
	}
}

static void panel(FILE *f, const struct change_findings *fx, const struct change_track *t,
		  double top)
{
	double lo, hi;
	value_range(t, &lo, &hi);
	title(f, t, top);
	frame(f, fx, t, lo, hi, top);
	points(f, fx, t, lo, hi, top);
	marks(f, fx, t, top);
}

void history_svg_print(FILE *f, const struct change_findings *fx, bool chosen)
{
	size_t shown = 0, left = 0;
	for (size_t i = 0; i < fx->track_count; i++)
		if (drawn(&fx->tracks[i], chosen))
			shown < HISTORY_SVG_MAX ? shown++ : left++;
	double height = SVG_TOP + (double)(shown ? shown : 1) * SVG_PANEL + 10;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n", SVG_WIDTH, height);
	fputs("<style>.t{font-weight:bold}.box{fill:none;stroke:#bdbdbd}.v{text-anchor:end}"
	      ".c{fill:#616161}.end{text-anchor:end}.l{fill:none;stroke:#1565c0}"
	      "circle{fill:#1565c0}.s{stroke:#90caf9;stroke-width:3}"
	      ".cp{stroke:#c62828;stroke-dasharray:4 3}.cpl{fill:#c62828}</style>\n", f);
	fprintf(f, "<text x=\"%d\" y=\"20\" class=\"t\">gate history: %zu commits, %zu change "
		"point%s", SVG_LEFT, fx->commit_count, fx->change_count,
		fx->change_count == 1 ? "" : "s");
	if (left)
		fprintf(f, " (%zu more series not drawn)", left);
	fputs("</text>\n", f);
	if (!shown)
		fprintf(f, "<text x=\"%d\" y=\"%d\">no %s</text>\n", SVG_LEFT, SVG_TOP + 20,
			chosen ? "series" : "change point");
	for (size_t i = 0, k = 0; i < fx->track_count && k < shown; i++)
		if (drawn(&fx->tracks[i], chosen))
			panel(f, fx, &fx->tracks[i], SVG_TOP + 24 + (double)k++ * SVG_PANEL);
	fputs("</svg>\n", f);
}

int history_svg_write(const char *path, const struct change_findings *fx, bool chosen,
		      char *err, size_t err_size)
{
	struct atomic_file af;
	int rc = atomic_file_open(&af, path, err, err_size);
	if (rc)
		return rc;
	history_svg_print(af.fp, fx, chosen);
	if (ferror(af.fp)) {
		atomic_file_abort(&af);
		snprintf(err, err_size, "%s: write error", path);
		return -EIO;
	}
	return atomic_file_commit(&af, err, err_size);
}

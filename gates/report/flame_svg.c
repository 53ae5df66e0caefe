/* flame_svg.c: one flame graph of a variant's allocation call stacks as
 * plain SVG (flame_svg.h), drawn from its layout (flame_layout.h).
 *
 * The conventions are Brendan Gregg's flame graphs
 * (http://www.brendangregg.com/flamegraphs.html; "The Flame Graph", ACM
 * Queue 14(2), 2016, https://queue.acm.org/detail.cfm?id=2927301): the
 * root at the bottom and each frame's callees above it, a frame's width
 * proportional to its value, siblings in alphabetical order (the x axis is
 * not time), labels cut to fit. Allocation graphs take the green of his
 * memory flame graphs ("Memory Leak (and Growth) Flame Graphs",
 * http://www.brendangregg.com/FlameGraphs/memoryflamegraphs.html). The
 * differential graph is his red/blue one ("Differential Flame Graphs",
 * his blog, 2014; docs/sites.md links it): the widths are the second profile's (B), red where a frame
 * grew from the first (A), blue where it shrank, deeper the larger the
 * change; here an unchanged frame is grey, so that only the paths that
 * changed are coloured. A path that only A has has no width in B: it is
 * named in lines under the graph instead (his graphs leave it out).
 *
 * No script: the tooltips are <title> elements, which browsers show on
 * hover without one. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame_svg.h"
#include "core/group_key.h"
#include "core/policy.h"
#include "core/utf8.h"
#include "report/escape.h"
#include "report/flame_layout.h"
#include "report/format.h"

#define FLAME_WIDTH 1200       /* px, the image */
#define FLAME_MARGIN 10        /* px left and right of the frames */
#define FLAME_FRAME_H 16       /* px per level of the stacks */
#define FLAME_TOP 52           /* px above the highest level: title and subtitle */
#define FLAME_FONT 12          /* px, the frames' labels, monospace */
#define FLAME_CHAR_W 7.3       /* px per character of FLAME_FONT: monospace fonts
				* (DejaVu Sans Mono, Liberation Mono, Consolas) are
				* 0.60 em wide, and a little more is kept */
#define FLAME_MIN_PX 0.5       /* frames narrower than this are not drawn */
#define FLAME_LINE 16          /* px per line under the graph */
#define FLAME_GONE_LINES 12    /* lines of A-only paths at most, then a count */
#define FLAME_TIP_KINDS 4      /* entry points a caller's tooltip names at most */

struct flame_draw {
	FILE *f;
	const struct flame_tree *t;
	const struct flame_ask *ask;
	bool diff;                /* colours by the change against A */
	bool before_missing;      /* differential asked, but A has no stacks recorded */
	double px;                /* px per unit of the measure */
	uint64_t max_delta;       /* the largest change of a drawn frame */
	bool *drawn;              /* per frame: wide enough, and its parent drawn */
	size_t levels;            /* levels drawn: the deepest drawn frame's depth + 1 */
	size_t hidden;            /* frames with a value that are not drawn */
	size_t gone;              /* A-only frames whose parent B has (listed) */
};

static const char *unit_word(enum flame_measure m)
{
	return m == FLAME_INSTRUCTIONS ? "instructions" : "calls";
}

static const char *measure_title(enum flame_measure m)
{
	return m == FLAME_INSTRUCTIONS ? "instructions inside the allocator" : "allocator calls";
}

/* "1,234 calls" into F. */
static void print_amount(FILE *f, uint64_t v, enum flame_measure m)
{
	char buf[32];
	format_count(v, buf, sizeof buf);
	fprintf(f, "%s %s", buf, unit_word(m));
}

/* V's share of TOTAL, "45.6%" ("<0.1%" for a sliver), into F. */
static void print_share(FILE *f, uint64_t v, uint64_t total)
{
	double pct = total ? 100.0 * (double)v / (double)total : 0;
	if (v && pct < 0.05)
		fputs("<0.1%", f);
	else
		fprintf(f, "%.1f%%", pct);
}

/* FNV-1a of S: the same function always gets the same shade. */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The green palette: functions light, entry points darker, the root and
 * the labels of left-out and deeper stacks grey. */
static void fill_plain(const struct flame_frame *fr, char *buf, size_t size)
{
	uint32_t h = name_hash(fr->name);
	if (fr->role == FLAME_ROLE_FUNCTION)
		snprintf(buf, size, "rgb(%u,%u,%u)", 90 + h % 50, 190 + (h >> 8) % 50,
			 80 + (h >> 16) % 40);
	else if (fr->role == FLAME_ROLE_ALLOCATOR)
		snprintf(buf, size, "rgb(%u,%u,%u)", 40 + h % 30, 150 + (h >> 8) % 25,
			 70 + (h >> 16) % 30);
	else
		snprintf(buf, size, "rgb(200,200,200)");
}

/* Red for more in B, blue for less, deeper the larger the change against
 * the largest (never paler than a third, so that a small change is not
 * taken for none); grey when unchanged (flame_frame_change). */
static void fill_diff(const struct flame_draw *d, const struct flame_frame *fr, char *buf,
		      size_t size)
{
	int change = flame_frame_change(fr, d->ask->measure);
	if (!change) {
		snprintf(buf, size, "rgb(224,224,224)");
		return;
	}
	uint64_t delta = fr->value > fr->before ? fr->value - fr->before : fr->before - fr->value;
	double s = d->max_delta ? (double)delta / (double)d->max_delta : 1;
	unsigned level = (unsigned)(215 - 135 * (1.0 / 3 + 2.0 / 3 * s));
	if (change > 0)
		snprintf(buf, size, "rgb(255,%u,%u)", level, level);
	else
		snprintf(buf, size, "rgb(%u,%u,255)", level, level + 20);
}

/* NAME cut to fit WIDTH px: whole, or its first characters and "..", or
 * nothing below 3 characters; escaped into F. */
static void print_label(FILE *f, const char *name, double width)
{
	double room = (width - 6) / FLAME_CHAR_W;
	size_t fit = room > 0 ? (size_t)room : 0, chars = 0, cut = 0;
	uint32_t cp;
	if (fit < 3)
		return;
	for (const char *p = name; *p; chars++) {
		size_t n = utf8_sequence(p, &cp);
		p += n ? n : 1;
		if (chars + 1 == fit - 2)
			cut = (size_t)(p - name);
	}
	if (chars <= fit) {
		escape_xml(f, name);
		return;
	}
	char buf[1024];
	if (cut >= sizeof buf)
		cut = 0;
	memcpy(buf, name, cut);
	buf[cut] = '\0';
	escape_xml(f, buf);
	fputs("..", f);
}

/* "at FILE:LINE" of an allocator frame into F ("at an unknown line"). */
static void print_place(FILE *f, const struct flame_frame *fr)
{
	char place[1024];
	if (!fr->file) {
		fputs("at an unknown line", f);
		return;
	}
	format_site_place(fr->file, fr->line, place, sizeof place);
	fputs("at ", f);
	escape_xml(f, place);
}

/* The entry points frame I calls and where, for its tooltip. */
static void print_calls(const struct flame_draw *d, size_t i)
{
	const struct flame_frame *fr = d->t->frames;
	size_t named = 0, more = 0;
	for (size_t j = i + 1; j < d->t->count && fr[j].depth > fr[i].depth; j++) {
		if (fr[j].parent != i || fr[j].role != FLAME_ROLE_ALLOCATOR)
			continue;
		if (named == FLAME_TIP_KINDS) {
			more++;
			continue;
		}
		fputs(named++ ? "; " : "&#10;calls ", d->f);
		escape_xml(d->f, fr[j].kind);
		fputc(' ', d->f);
		print_place(d->f, &fr[j]);
	}
	if (more)
		fprintf(d->f, "; %zu more", more);
}

/* A's and B's values of FR and the change, for a differential tooltip. */
static void print_change(const struct flame_draw *d, const struct flame_frame *fr)
{
	enum flame_measure m = d->ask->measure;
	fputs("&#10;A ", d->f);
	print_amount(d->f, fr->before, m);
	fputs(", B ", d->f);
	print_amount(d->f, fr->value, m);
	if (!fr->before) {   /* not in A, or none there: no ratio */
		fputs(": new in B", d->f);
		return;
	}
	if (!flame_frame_change(fr, m)) {
		if (fr->value == fr->before)
			fputs(": unchanged", d->f);
		else
			fprintf(d->f, ": unchanged (within %.1f%%)", 100 * POLICY_COST_TOLERANCE);
		return;
	}
	char buf[32];
	uint64_t delta = fr->value > fr->before ? fr->value - fr->before : fr->before - fr->value;
	format_count(delta, buf, sizeof buf);
	fprintf(d->f, ": %c%s (%+.1f%%)", fr->value > fr->before ? '+' : '-', buf,
		100.0 * ((double)fr->value - (double)fr->before) / (double)fr->before);
}

/* The words frame FR is shown by: its name, "region NAME" for a region
 * frame (so that a region is not taken for a function of its name). */
static const char *frame_text(const struct flame_frame *fr, char *buf, size_t size)
{
	if (fr->role != FLAME_ROLE_REGION)
		return fr->name;
	snprintf(buf, size, "region %s", fr->name);
	return buf;
}

/* The tooltip of frame I: what it is, its value and share, where an entry
 * point was called, and in a differential graph both sides' values. */
static void print_tip(const struct flame_draw *d, size_t i)
{
	const struct flame_frame *fr = &d->t->frames[i];
	const struct flame_frame *parent = &d->t->frames[fr->parent];
	char text[600];
	escape_xml(d->f, frame_text(fr, text, sizeof text));
	fputs("&#10;", d->f);
	if (fr->role == FLAME_ROLE_REST) {
		fputs("the stacks of ", d->f);
		escape_xml(d->f, fr->kind);
		fputs(" left out by the bound, summed&#10;", d->f);
	} else if (fr->role == FLAME_ROLE_REGION) {
		fputs("the calls made while the measured regions named were open&#10;", d->f);
	} else if (fr->role == FLAME_ROLE_DEEPER) {
		fputs("stacks deeper than the frames followed: the frame above is not the "
		      "variant's function&#10;", d->f);
	}
	print_amount(d->f, fr->value, d->ask->measure);
	fputs(" (", d->f);
	print_share(d->f, fr->value, d->t->frames[0].value);
	fputs(d->diff ? " of B)" : ")", d->f);
	if (fr->role == FLAME_ROLE_ALLOCATOR) {
		fputs("&#10;called by ", d->f);
		escape_xml(d->f, parent->name);
		fputc(' ', d->f);
		print_place(d->f, fr);
		if (fr->bytes_known) {
			char bytes[32];
			format_value((double)fr->bytes, "bytes", bytes, sizeof bytes);
			fprintf(d->f, "&#10;%s requested", bytes);
		}
	} else if (fr->role == FLAME_ROLE_FUNCTION) {
		print_calls(d, i);
	}
	if (d->diff)
		print_change(d, fr);
}

static double frame_y(const struct flame_draw *d, size_t depth)
{
	return FLAME_TOP + (double)(d->levels - 1 - depth) * FLAME_FRAME_H;
}

static void print_frame(const struct flame_draw *d, size_t i)
{
	const struct flame_frame *fr = &d->t->frames[i];
	double x = FLAME_MARGIN + (double)fr->x * d->px, w = (double)fr->value * d->px;
	double y = frame_y(d, fr->depth);
	char fill[32], text[600];
	if (d->diff)
		fill_diff(d, fr, fill, sizeof fill);
	else
		fill_plain(fr, fill, sizeof fill);
	fputs("<g><title>", d->f);
	print_tip(d, i);
	fprintf(d->f, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
		"rx=\"2\" fill=\"%s\"/>", x, y, w > 1.5 ? w - 0.5 : w, FLAME_FRAME_H - 1, fill);
	fprintf(d->f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FLAME_FRAME_H - 4.5);
	print_label(d->f, frame_text(fr, text, sizeof text), w);
	fputs("</text></g>\n", d->f);
}

/* Which frames are drawn (wide enough, their parent drawn), how many with
 * a value are not, how many A-only paths are listed, the largest change. */
static int plan(struct flame_draw *d)
{
	const struct flame_frame *fr = d->t->frames;
	d->drawn = calloc(d->t->count, sizeof *d->drawn);
	if (!d->drawn)
		return -ENOMEM;
	d->px = fr[0].value ? (FLAME_WIDTH - 2.0 * FLAME_MARGIN) / (double)fr[0].value : 0;
	for (size_t i = 0; i < d->t->count; i++) {
		bool parent = i == 0 || d->drawn[fr[i].parent];
		d->drawn[i] = parent && fr[i].value > 0 &&
			      (double)fr[i].value * d->px >= FLAME_MIN_PX;
		d->hidden += fr[i].value > 0 && !d->drawn[i];
		if (d->drawn[i] && fr[i].depth + 1 > d->levels)
			d->levels = fr[i].depth + 1;
		d->gone += d->diff && i > 0 && !fr[i].value && fr[i].before &&
			   (fr[i].parent == 0 || fr[fr[i].parent].value);
		if (d->diff && d->drawn[i] && flame_frame_change(&fr[i], d->ask->measure)) {
			uint64_t delta = fr[i].value > fr[i].before ? fr[i].value - fr[i].before
								    : fr[i].before - fr[i].value;
			if (delta > d->max_delta)
				d->max_delta = delta;
		}
	}
	return 0;
}

static size_t footer_lines(const struct flame_draw *d)
{
	size_t gone = d->gone > FLAME_GONE_LINES ? FLAME_GONE_LINES + 1 : d->gone;
	return 1 + (d->diff || d->before_missing) + (d->hidden > 0) + (gone ? 1 + gone : 0);
}

static void print_head(const struct flame_draw *d, double height)
{
	const struct flame_ask *a = d->ask;
	const char *id = a->id_prefix ? a->id_prefix : "";
	if (!a->inline_svg)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", d->f);
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"", d->f);
	escape_xml(d->f, id);
	fprintf(d->f, "flame\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
		"<text x=\"%d\" y=\"20\" font-size=\"15\" font-weight=\"bold\">", FLAME_WIDTH,
		height, FLAME_WIDTH, height, FLAME_MARGIN);
	escape_xml(d->f, a->kernel);
	fputs(" / ", d->f);
	escape_xml(d->f, a->variant);
	fputs(" / ", d->f);
	escape_xml(d->f, a->params);
	fprintf(d->f, ": %s by call stack%s</text>\n", measure_title(a->measure),
		!d->diff ? "" : a->changed_only ? ", the stacks that changed alone, B against A"
		: ", B against A");
	fprintf(d->f, "<text x=\"%d\" y=\"38\" fill=\"#555\">width: %s share of ", FLAME_MARGIN,
		d->diff ? "B's" : "the");
	print_amount(d->f, d->t->frames[0].value, a->measure);
	fputs("; the code that opened the region at the bottom, callees above, the allocator "
	      "entry point on top; siblings in alphabetical order (x is not time); hover a frame "
	      "for its values</text>\n", d->f);
}

/* The path of frame I from the root's child, "main > parse > malloc", into F. */
static void print_path(FILE *f, const struct flame_tree *t, size_t i)
{
	char text[600];
	if (t->frames[i].parent != 0) {
		print_path(f, t, t->frames[i].parent);
		fputs(" &gt; ", f);
	}
	escape_xml(f, frame_text(&t->frames[i], text, sizeof text));
}

/* The A-only paths, one a line from Y: those whose parent B has. */
static void print_gone(const struct flame_draw *d, double y)
{
	const struct flame_frame *fr = d->t->frames;
	size_t listed = 0;
	fprintf(d->f, "<text x=\"%d\" y=\"%.0f\">only in A, no width in B:</text>\n", FLAME_MARGIN,
		y);
	for (size_t i = 1; i < d->t->count && listed < FLAME_GONE_LINES; i++) {
		if (fr[i].value || !fr[i].before || (fr[i].parent != 0 && !fr[fr[i].parent].value))
			continue;
		y += FLAME_LINE;
		fprintf(d->f, "<text x=\"%d\" y=\"%.0f\" fill=\"#1a3a9a\">", FLAME_MARGIN + 12, y);
		print_path(d->f, d->t, i);
		if (fr[i].role == FLAME_ROLE_ALLOCATOR || fr[i].role == FLAME_ROLE_REST) {
			fputc(' ', d->f);
			if (fr[i].role == FLAME_ROLE_REST)
				escape_xml(d->f, fr[i].kind);
			else
				print_place(d->f, &fr[i]);
		}
		fputs(": ", d->f);
		print_amount(d->f, fr[i].before, d->ask->measure);
		fputs(" in A</text>\n", d->f);
		listed++;
	}
	if (d->gone > listed)
		fprintf(d->f, "<text x=\"%d\" y=\"%.0f\">and %zu more</text>\n", FLAME_MARGIN + 12,
			y + FLAME_LINE, d->gone - listed);
}

/* Swatch and word of the differential legend at X, Y. */
static void print_key(FILE *f, double x, double y, const char *fill, const char *word)
{
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"11\" rx=\"2\" fill=\"%s\"/>"
		"<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", x, y - 9, fill, x + 18, y, word);
}

static void print_foot(const struct flame_draw *d, double y)
{
	if (!d->t->frames[0].value)
		fprintf(d->f, "<text x=\"%d\" y=\"%.0f\" font-size=\"13\">B has no stacks of this "
			"variant</text>\n", FLAME_MARGIN, y - 4);
	y += FLAME_LINE;
	if (d->diff) {
		print_key(d->f, FLAME_MARGIN, y, "rgb(255,110,110)", "more than in A");
		print_key(d->f, FLAME_MARGIN + 130, y, "rgb(110,130,255)", "less than in A");
		print_key(d->f, FLAME_MARGIN + 255, y, "rgb(224,224,224)", "unchanged");
		fprintf(d->f, "<text x=\"%d\" y=\"%.0f\" fill=\"#555\">deeper colour: larger change "
			"(the largest: the deepest)", FLAME_MARGIN + 355, y);
		if (d->ask->measure == FLAME_INSTRUCTIONS)
			fprintf(d->f, "; within %.1f%% of A's: unchanged", 100 * POLICY_COST_TOLERANCE);
		fputs("</text>\n", d->f);
		y += FLAME_LINE;
	} else if (d->before_missing) {
		fprintf(d->f, "<text x=\"%d\" y=\"%.0f\">A has no call stacks recorded: no colours "
			"of change</text>\n", FLAME_MARGIN, y);
		y += FLAME_LINE;
	}
	if (d->hidden) {
		fprintf(d->f, "<text x=\"%d\" y=\"%.0f\" fill=\"#555\">%zu frames narrower than "
			"%.1f px not drawn (their values are in the frames below them)</text>\n",
			FLAME_MARGIN, y, d->hidden, FLAME_MIN_PX);
		y += FLAME_LINE;
	}
	if (d->gone)
		print_gone(d, y);
}

static int draw(FILE *f, const struct flame_tree *t, const struct flame_ask *ask, bool diff,
		bool before_missing)
{
	struct flame_draw d = { .f = f, .t = t, .ask = ask, .diff = diff,
				.before_missing = before_missing };
	if (plan(&d))
		return -ENOMEM;
	if (!d.levels)   /* B has none: one empty level */
		d.levels = 1;
	double bottom = FLAME_TOP + (double)d.levels * FLAME_FRAME_H;
	print_head(&d, bottom + (double)footer_lines(&d) * FLAME_LINE + 8);
	fprintf(f, "<g font-family=\"monospace\" font-size=\"%d\">\n", FLAME_FONT);
	for (size_t i = 0; i < t->count; i++)
		if (d.drawn[i])
			print_frame(&d, i);
	fputs("</g>\n", f);
	print_foot(&d, bottom + 4);
	fputs("</svg>\n", f);
	free(d.drawn);
	return 0;
}

/* Whether X and Y are one path: region, entry point, frames, file and
 * line. */
static bool same_path(const struct stack *x, const struct stack *y)
{
	if (strcmp(x->region, y->region) || strcmp(x->kind, y->kind) || x->rest != y->rest || x->line != y->line ||
	    x->frame_count != y->frame_count || (!x->file) != (!y->file) ||
	    (x->file && strcmp(x->file, y->file)))
		return false;
	for (size_t i = 0; i < x->frame_count; i++)
		if (strcmp(x->frames[i], y->frames[i]))
			return false;
	return true;
}

/* Whether stack S of one side changed against the stacks OTHER (N) of the
 * other side under M: none of them is its path, or that one's value
 * differs by the rule of the graph's colours (flame_frame_change). */
static bool stack_changed(const struct stack *s, const struct stack *const *other, size_t n,
			  enum flame_measure m)
{
	for (size_t i = 0; i < n; i++) {
		if (!same_path(s, other[i]))
			continue;
		struct flame_frame fr = { 0 };
		fr.value = m == FLAME_CALLS ? s->calls : s->instructions;
		fr.before = m == FLAME_CALLS ? other[i]->calls : other[i]->instructions;
		return flame_frame_change(&fr, m) != 0;
	}
	return true;
}

/* The stacks of SET (N) that changed against OTHER (M), into a malloc'd
 * array of *KEPT; NULL on no memory. */
static const struct stack **changed_stacks(const struct stack *const *set, size_t n,
					   const struct stack *const *other, size_t m,
					   enum flame_measure measure, size_t *kept)
{
	const struct stack **out = malloc((n ? n : 1) * sizeof *out);
	*kept = 0;
	for (size_t i = 0; out && i < n; i++)
		if (stack_changed(set[i], other, m, measure))
			out[(*kept)++] = set[i];
	return out;
}

/* The graph of the stacks that changed (flame_ask's changed_only). */
static int print_changed(FILE *f, const struct stack *const *after, size_t after_count,
			 const struct stack *const *before, size_t before_count,
			 const struct flame_ask *ask)
{
	size_t a_n, b_n;
	const struct stack **a = changed_stacks(after, after_count, before, before_count,
						ask->measure, &a_n);
	const struct stack **b = changed_stacks(before, before_count, after, after_count,
						ask->measure, &b_n);
	struct flame_tree t;
	int rc = !a || !b ? -ENOMEM : !a_n && !b_n ? -ENOENT : 0;
	if (!rc)
		rc = flame_layout(&t, a, a_n, b, b_n, ask->measure);
	if (!rc) {
		rc = draw(f, &t, ask, true, false);
		flame_tree_free(&t);
	}
	free(a);
	free(b);
	return rc;
}

int flame_svg_print_stacks(FILE *f, const struct stack *const *after, size_t after_count,
			   const struct stack *const *before, size_t before_count,
			   bool before_recorded, const struct flame_ask *ask)
{
	bool diff = ask->differential && before_recorded;
	struct flame_tree t;
	if (!after_count && !(diff && before_count))
		return -ENOENT;
	if (diff && ask->changed_only)
		return print_changed(f, after, after_count, before, before_count, ask);
	int rc = flame_layout(&t, after, after_count, before, diff ? before_count : 0,
			      ask->measure);
	if (rc)
		return rc;
	rc = draw(f, &t, ask, diff, ask->differential && !before_recorded);
	flame_tree_free(&t);
	return rc;
}

/* The stacks of ASK's variant in SET (NULL: none), in a malloc'd array of
 * *COUNT; 0 or -ENOMEM. */
static int select_variant(const struct stacks *set, const struct flame_ask *ask,
			  const struct stack ***out, size_t *count)
{
	*out = NULL;
	*count = 0;
	if (!set || !set->count)
		return 0;
	*out = malloc(set->count * sizeof **out);
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < set->count; i++) {
		const struct stack *s = &set->items[i];
		if (group_key_same(GROUP_KEY(s), GROUP_KEY(ask), GROUP_SCOPE_VARIANT))
			(*out)[(*count)++] = s;
	}
	return 0;
}

int flame_svg_print(FILE *f, const struct stacks *after, const struct stacks *before,
		    const struct flame_ask *ask)
{
	const struct stack **a = NULL, **b = NULL;
	size_t a_count, b_count;
	int rc = select_variant(after, ask, &a, &a_count);
	if (!rc)
		rc = select_variant(before, ask, &b, &b_count);
	if (!rc)
		rc = flame_svg_print_stacks(f, a, a_count, b, b_count,
					    before && before->recorded, ask);
	free(a);
	free(b);
	return rc;
}

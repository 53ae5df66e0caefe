/* history_text.c: `gate history`'s change points as text (history_report.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "report/format.h"
#include "report/history_report.h"
#include "core/group_key.h"

static int item_order(const void *pa, const void *pb)
{
	const struct history_item *a = pa, *b = pb;
	if (a->commit != b->commit)
		return a->commit < b->commit ? -1 : 1;
	if (a->previous != b->previous)
		return a->previous < b->previous ? -1 : 1;
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	return a->point < b->point ? -1 : a->point > b->point;
}

int history_items(const struct change_findings *f, struct history_item **out, size_t *n)
{
	size_t k = 0;
	*out = NULL;
	*n = 0;
	if (!f->change_count)
		return 0;
	*out = malloc(f->change_count * sizeof **out);
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < f->track_count; i++)
		for (size_t j = 0; j < f->tracks[i].point_count && k < f->change_count; j++) {
			const struct change_track *t = &f->tracks[i];
			const struct change_point *p = &t->points[j];
			(*out)[k++] = (struct history_item){ t, p, t->commit[p->at],
							     t->commit[p->at - 1] };
		}
	qsort(*out, k, sizeof **out, item_order);
	*n = k;
	return 0;
}

/* S under the terminal's rule into F ("?" when there is no memory). */
static void put(FILE *f, const char *s)
{
	char *e = escape_term_dup(s ? s : "");
	fputs(e ? e : "?", f);
	free(e);
}

/* "+8.0%", "-0.7%", "from 0". */
static void change_word(double change, char *buf, size_t size)
{
	if (isinf(change))
		snprintf(buf, size, "from 0");
	else
		snprintf(buf, size, "%+.1f%%", 100 * change);
}

/* Whether items A and B moved alike: the same (platform, kernel, variant,
 * params), the step rule with the same tolerance, the same levels. */
static bool alike(const struct history_item *a, const struct history_item *b)
{
	const struct change_track *s = a->track, *t = b->track;
	return s->method == CHANGE_STEP && t->method == CHANGE_STEP &&
	       s->tolerance == t->tolerance && !strcmp(s->platform, t->platform) &&
	       group_key_same(GROUP_KEY(s), GROUP_KEY(t), GROUP_SCOPE_VARIANT) &&
	       !strcmp(s->unit, t->unit) &&
	       a->point->before == b->point->before && a->point->after == b->point->after;
}

/* The line of ITEMS[0] and of the later ones of ITEMS[0..N) that moved
 * alike (DONE marks them said): "toy/single/small allocs,
 * heap_malloc_calls: 1000 -> 1007 (+0.7%), exact". */
static void series_line(FILE *f, const struct change_findings *fx,
			const struct history_item *items, size_t n, bool *done)
{
	const struct change_track *t = items[0].track;
	const struct change_point *p = items[0].point;
	char before[32], after[32], change[32];
	format_value(p->before, t->unit, before, sizeof before);
	format_value(p->after, t->unit, after, sizeof after);
	change_word(p->change, change, sizeof change);
	fputs("  ", f);
	if (fx->platform_count > 1) {
		put(f, t->platform);
		fputs(": ", f);
	}
	put(f, t->kernel);
	fputc('/', f);
	put(f, t->variant);
	fputc('/', f);
	put(f, t->params);
	fputc(' ', f);
	put(f, t->metric);
	for (size_t k = 1; k < n; k++)
		if (!done[k] && alike(&items[0], &items[k])) {
			done[k] = true;
			fputs(", ", f);
			put(f, items[k].track->metric);
		}
	fprintf(f, ": %s -> %s (%s), ", before, after, change);
	if (t->method == CHANGE_STEP && t->tolerance > 0)
		fprintf(f, "exact within %g%%\n", 100 * t->tolerance);
	else if (t->method == CHANGE_STEP)
		fprintf(f, "exact\n");
	else
		fprintf(f, "p = %.3g (e-divisive, %zu and %zu commits)\n", p->p_value,
			p->at - (size_t)(p > t->points ? p[-1].at : 0),
			(p + 1 < t->points + t->point_count ? p[1].at : t->count) - p->at);
}

/* The paragraph's heading: the commit, its time and its subject. */
static void heading(FILE *f, const struct change_commit *c)
{
	put(f, c->short_id);
	fprintf(f, " (");
	put(f, c->time);
	fputc(')', f);
	if (c->subject) {
		fputc(' ', f);
		put(f, c->subject);
	}
	fputc('\n', f);
}

/* What lies between the result before (PREV) and this one (CUR), said
 * once per pair: a CPU that differs, the commits the history lacks and
 * the bisect that finds the one. */
static void between(FILE *f, const struct change_findings *fx, const struct history_item *it)
{
	const struct change_commit *prev = &fx->commits[it->previous];
	const struct change_commit *cur = &fx->commits[it->commit];
	const struct history_cpu *a = it->track->cpu[it->point->at - 1];
	const struct history_cpu *b = it->track->cpu[it->point->at];
	char was[256], now[256];
	if (!result_history_cpu_same(a, b)) {
		result_history_cpu_describe(a, was, sizeof was);
		result_history_cpu_describe(b, now, sizeof now);
		fputs("  the CPU differs from the result before's: ", f);
		put(f, was);
		fputs(" -> ", f);
		put(f, now);
		fputs(" (the machine may have moved it)\n", f);
	}
	if (it->point->between < 0) {
		fputs("  the result before: ", f);
		put(f, prev->short_id);
		fputs(" (not in this git checkout: commits between unknown)\n", f);
		return;
	}
	fputs("  the result before: ", f);
	put(f, prev->short_id);
	fprintf(f, "; %ld commit%s between them not in the history\n", it->point->between,
		it->point->between == 1 ? "" : "s");
	if (it->point->between > 0) {
		fputs("  next: gate bisect --good ", f);
		put(f, prev->rev);
		fputs(" --bad ", f);
		put(f, cur->rev);
		fputs(" --build CMD\n", f);
	}
}

void history_text_print(FILE *f, const struct change_findings *fx, const char *dir,
			size_t runs)
{
	struct history_item *items;
	size_t n;
	fprintf(f, "gate history: %zu result%s of %zu commit%s in ", runs, runs == 1 ? "" : "s",
		fx->commit_count, fx->commit_count == 1 ? "" : "s");
	put(f, dir);
	fprintf(f, ", %zu series\n", fx->track_count);
	if (history_items(fx, &items, &n)) {
		fputs("out of memory\n", f);
		return;
	}
	bool *done = calloc(n ? n : 1, sizeof *done);
	for (size_t i = 0, pair = 0; done && i < n; i++) {
		if (!i || items[i].commit != items[i - 1].commit) {
			fputc('\n', f);
			heading(f, &fx->commits[items[i].commit]);
		}
		if (i && (items[i].commit != items[i - 1].commit ||
			  items[i].previous != items[i - 1].previous))
			pair = i;   /* the first item of this pair of results */
		size_t end = i;
		while (end < n && items[end].commit == items[i].commit &&
		       items[end].previous == items[i].previous)
			end++;
		if (!done[i])
			series_line(f, fx, items + i, end - i, done + i);
		/* the last item of its pair: what lies between the two results */
		if (end == i + 1)
			between(f, fx, &items[pair]);
	}
	free(done);
	free(items);
	if (n)
		fputc('\n', f);
	fprintf(f, "%zu change point%s in %zu series over %zu commits\n", n, n == 1 ? "" : "s",
		fx->track_count, fx->commit_count);
}

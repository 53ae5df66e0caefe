/* diff_text.c: `gate diff` as text, from the records of diff.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/diff.h"
#include "report/escape.h"
#include "report/format.h"
#include "core/group_key.h"

static const char *diff_or(const char *s)
{
	return s && *s ? s : "-";
}

/* The names and the context come from the files, checked by the loader
 * (store/baseline.c refuses control characters in them); the labels
 * (paths) and the sites under the terminal's rule (escape.h). */
static void diff_side(FILE *f, const char *tag, const char *raw_label, const struct context *c)
{
	char *label = escape_term_dup(raw_label);
	if (!label)
		return;
	fprintf(f, "%s %s: %s, allocator %s, %s, env [%s], commit %s, %s\n", tag, label,
		diff_or(c->platform_key), c->allocator ? c->allocator : "glibc",
		diff_or(c->cpu_model), c->env ? c->env : "", diff_or(c->commit),
		diff_or(c->started_at));
	free(label);
}

static void diff_change_text(const struct diff_row *row, char *buf, size_t size)
{
	if (!row->in_a)
		snprintf(buf, size, "only in B");
	else if (!row->in_b)
		snprintf(buf, size, "only in A");
	else if (isnan(row->change))
		snprintf(buf, size, "n/a");
	else if (isinf(row->change))
		snprintf(buf, size, "from 0");
	else
		snprintf(buf, size, "%+.1f%%", 100 * row->change);
}

static void diff_print_row(FILE *f, const struct diff_row *row)
{
	char a[32] = "-", b[32] = "-", change[32];
	if (row->in_a)
		format_value(row->a, row->unit, a, sizeof a);
	if (row->in_b)
		format_value(row->b, row->unit, b, sizeof b);
	diff_change_text(row, change, sizeof change);
	fprintf(f, "    %-28s %-7s %12s %12s  %s\n", row->metric, result_class_name(row->cls),
		a, b, change);
}

void diff_print_text(FILE *f, const struct diff *d, const char *label_a,
		     const struct context *ctx_a, const char *label_b,
		     const struct context *ctx_b)
{
	const struct diff_row *group = NULL;
	size_t groups = 0, one_sided = 0;
	diff_side(f, "A", label_a, ctx_a);
	diff_side(f, "B", label_b, ctx_b);
	for (size_t i = 0; i < d->count; i++) {
		const struct diff_row *row = &d->rows[i];
		if (!group ||
		    !group_key_same(GROUP_KEY(group), GROUP_KEY(row), GROUP_SCOPE_VARIANT)) {
			group = row;
			groups++;
			fprintf(f, "\n%s / %s / %s\n    %-28s %-7s %12s %12s  %s\n", row->kernel,
				row->variant, row->params, "metric", "class", "A", "B", "change");
		}
		one_sided += !(row->in_a && row->in_b);
		diff_print_row(f, row);
	}
	fprintf(f, "\n%zu series in %zu groups; %zu on one side only\n", d->count, groups,
		one_sided);
}

static void print_sites(FILE *f, const struct run_result *a, const struct run_result *b)
{
	char text[1200];
	if (!a->sites_recorded && !b->sites_recorded)
		return;
	if (!a->sites_recorded || !b->sites_recorded) {
		fprintf(f, "\nallocation sites: not compared (%s records none: written by an older "
			"version)\n", a->sites_recorded ? "B" : "A");
		return;
	}
	fprintf(f, "\nallocation sites: %zu changed\n", b->site_change_count);
	for (size_t i = 0; i < b->site_change_count; i++) {
		const struct site_change *c = &b->site_changes[i];
		format_site_change(c, false, text, sizeof text);
		char place[600];
		format_site_place(c->file, c->line, place, sizeof place);
		fprintf(f, "  %s: %s (%s/%s/%s)\n", place, text, c->kernel, c->variant, c->params);
	}
}

void diff_print_sites(FILE *f, const struct run_result *a, const struct run_result *b)
{
	struct run_result eb;

	if (escape_result(b, escape_term_dup, &eb) < 0)
		return;
	print_sites(f, a, &eb);
	escape_result_free(&eb);
}

/* matrix_text.c: `gate matrix`'s table for the terminal (matrix_report.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "report/format.h"
#include "report/matrix_report.h"
#include "core/group_key.h"

static void cell_short(const struct matrix_cell *c, char *buf, size_t size)
{
	if (!c->measured)
		snprintf(buf, size, "-");
	else if (isfinite(c->estimate))
		snprintf(buf, size, "%s%s %.3g", c->declared ? "*" : "", matrix_cell_word(c),
			 c->estimate);
	else
		snprintf(buf, size, "%s%s", c->declared ? "*" : "", matrix_cell_word(c));
}

static const char *cell_color(const struct matrix_cell *c, bool color)
{
	if (!color || !c->measured)
		return "";
	if (c->verdict == VERDICT_PASS)
		return "\033[32m";
	if (c->verdict == VERDICT_FAIL)
		return c->declared ? "\033[31m" : "\033[35m";
	return c->verdict == VERDICT_INCONCLUSIVE ? "\033[33m" : "";
}

#define LABEL_WIDTH 66
#define CELL_WIDTH 19

static void header_row(FILE *f, const struct matrix *m, const char *label)
{
	fprintf(f, "  %-*s", LABEL_WIDTH, label);
	for (size_t a = 0; a < m->allocator_count; a++)
		fprintf(f, " %-*s", CELL_WIDTH, m->allocators[a].name);
	fputc('\n', f);
}

static void print_claim(FILE *f, const struct matrix *m, const struct matrix_claim *c,
			bool color)
{
	char label[512], cell[64];
	snprintf(label, sizeof label, ":%d %s", c->line, c->expr);
	if ((int)strlen(label) > LABEL_WIDTH) {
		fprintf(f, "  %s\n", label);
		label[0] = '\0';
	}
	fprintf(f, "  %-*s", LABEL_WIDTH, label);
	for (size_t a = 0; a < m->allocator_count; a++) {
		cell_short(&c->cells[a], cell, sizeof cell);
		fprintf(f, " %s%-*s%s", cell_color(&c->cells[a], color), CELL_WIDTH, cell,
			color && c->cells[a].measured ? "\033[0m" : "");
	}
	fputc('\n', f);
}

/* The counts that explain the claims of the group from FIRST to END
 * (exclusive), each once. */
static void print_group_counts(FILE *f, const struct matrix *m, size_t first, size_t end)
{
	char name[300], cell[64];
	int any = 0;
	for (size_t i = first; i < end; i++)
		for (size_t k = 0; k < m->claims[i].count_count; k++) {
			const struct matrix_count *n = &m->claims[i].counts[k];
			if (!matrix_count_first(m, i, k))
				continue;
			if (!any++)
				fprintf(f, "  counts that differ (medians)\n");
			snprintf(name, sizeof name, "    %s.%s", n->variant, n->metric);
			fprintf(f, "  %-*s", LABEL_WIDTH, name);
			for (size_t a = 0; a < m->allocator_count; a++) {
				format_value(n->medians[a], "count", cell, sizeof cell);
				fprintf(f, " %-*s", CELL_WIDTH, cell);
			}
			fputc('\n', f);
		}
}

/* Whether variant V of KERNEL/PARAMS is referred to by a claim of M. */
static int in_a_claim(const struct matrix *m, const struct matrix_speed *s)
{
	/* "random_order.free": the claim says random_order.free.wall_ns */
	char ref[300];
	snprintf(ref, sizeof ref, "%s.", s->variant);
	for (size_t i = 0; i < m->claim_count; i++)
		if (group_key_in(GROUP_KEY(s), GROUP_KEY_OF(m->claims[i].kernel, NULL,
							       m->claims[i].params)) &&
		    strstr(m->claims[i].expr, ref))
			return 1;
	return 0;
}

static void print_speeds(FILE *f, const struct matrix *m, bool details)
{
	char label[400], cell[64], now[32];
	fprintf(f, "\nwall time against %s (median ratio of the paired rounds; median time)%s\n",
		m->allocator_count ? m->allocators[0].name : "?",
		details ? "" : ", the claims' variants (--details: every variant)");
	header_row(f, m, "kernel params variant");
	for (size_t i = 0; i < m->speed_count; i++) {
		const struct matrix_speed *s = &m->speeds[i];
		if (!details && !in_a_claim(m, s))
			continue;
		snprintf(label, sizeof label, "%s %s %s", s->kernel, s->params, s->variant);
		fprintf(f, "  %-*s", LABEL_WIDTH, label);
		for (size_t a = 0; a < m->allocator_count; a++) {
			format_value(s->median_ns[a], "ns", now, sizeof now);
			if (isfinite(s->ratio[a]))
				snprintf(cell, sizeof cell, "%.3gx %s", s->ratio[a], now);
			else
				snprintf(cell, sizeof cell, "-");
			fprintf(f, " %-*s", CELL_WIDTH, cell);
		}
		fputc('\n', f);
	}
}

static void allocator_list(FILE *f, const struct matrix *m)
{
	for (size_t a = 0; a < m->allocator_count; a++) {
		const struct matrix_allocator *al = &m->allocators[a];
		fprintf(f, "%s%s", a ? ", " : "", al->name);
		if (al->missing)
			fprintf(f, " (not measured: %s)", al->missing);
		else if (al->library)
			fprintf(f, " (%s)", al->library);
	}
}

/* The claims group by group (kernel, parameter set), each group's counts
 * below it. */
static void print_claims(FILE *f, const struct matrix *m, bool color)
{
	size_t group = 0;
	for (size_t i = 0; i < m->claim_count; i++) {
		const struct matrix_claim *c = &m->claims[i], *g = &m->claims[group];
		if (!i || !group_key_same(GROUP_KEY_OF(g->kernel, NULL, g->params),
					  GROUP_KEY_OF(c->kernel, NULL, c->params),
					  GROUP_SCOPE_GROUP)) {
			print_group_counts(f, m, group, i);
			group = i;
			char title[400];
			char *file = escape_term_dup(c->file ? c->file : "?");
			snprintf(title, sizeof title, "%s %s (%s)", c->kernel, c->params,
				 file ? file : "?");
			free(file);
			fputc('\n', f);
			header_row(f, m, title);
		}
		print_claim(f, m, c, color);
	}
	print_group_counts(f, m, group, m->claim_count);
}

/* The problems, then the summary line: the cells that hold, declared and
 * information. */
static void print_summary(FILE *f, const struct matrix *m)
{
	if (m->problem_count)
		fprintf(f, "\nproblems\n");
	for (size_t i = 0; i < m->problem_count; i++) {
		/* a kernel's stderr: under the terminal's rule (escape.h) */
		char *problem = escape_term_dup(m->problems[i]);
		fprintf(f, "  %s\n", problem ? problem : "(out of memory)");
		free(problem);
	}
	size_t declared = 0, held = 0, info = 0, info_held = 0;
	for (size_t i = 0; i < m->claim_count; i++)
		for (size_t a = 0; a < m->allocator_count; a++) {
			const struct matrix_cell *c = &m->claims[i].cells[a];
			if (!c->measured)
				continue;
			if (c->declared) {
				declared++;
				held += c->verdict == VERDICT_PASS;
			} else {
				info++;
				info_held += c->verdict == VERDICT_PASS;
			}
		}
	fprintf(f, "\n%s: %zu claims x %zu allocators; declared: %zu cells, %zu hold; "
		"information: %zu cells, %zu hold; %zu samples failed; %.1f s; exit %d\n",
		m->exit_code ? "INCOMPLETE" : "MATRIX", m->claim_count, m->allocator_count,
		declared, held, info, info_held, m->sample_failures, m->wall_seconds, m->exit_code);
}

void matrix_text_print(FILE *f, const struct matrix *m, bool color, bool details)
{
	fprintf(f, "\nallocgate matrix: %s, %s tier, %zu rounds per group, commit %s\nallocators: ",
		m->ctx.platform_key ? m->ctx.platform_key : "?", m->ctx.tier ? m->ctx.tier : "?",
		m->rounds, m->ctx.commit ? m->ctx.commit : "?");
	allocator_list(f, m);
	fprintf(f, "\n\nclaims x allocators: holds, fails or inconclusive with the estimate (lhs/rhs or "
		"lhs-rhs; --markdown and --json give the 95%% intervals);\n* = declared for that "
		"allocator (gate run gates it), the others are information; below each group the "
		"counts of the claims' variants that differ between the allocators\n");
	print_claims(f, m, color);
	print_speeds(f, m, details);
	print_summary(f, m);
}

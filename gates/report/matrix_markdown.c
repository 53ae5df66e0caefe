/* matrix_markdown.c: `gate matrix`'s table as markdown (matrix_report.h).
 * Every text of a kernel's (its expressions, variant and metric names,
 * its stderr in the problems) and of the environment (the commit, an
 * allocator's reason) passes escape.h's markdown rule. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/escape.h"
#include "report/format.h"
#include "report/matrix_report.h"

/* A table's header: the leading columns (LEADING, "| claim | params |"),
 * one per allocator, and the separator row (ALIGN: "---" or "---:" for
 * the allocators' columns). */
static void md_header(FILE *f, const struct matrix *m, const char *leading, const char *align)
{
	fputs(leading, f);
	for (size_t a = 0; a < m->allocator_count; a++)
		fprintf(f, " %s |", m->allocators[a].name);
	fputs("\n|", f);
	for (const char *p = leading + 1; (p = strchr(p, '|')); p++)
		fputs("---|", f);
	for (size_t a = 0; a < m->allocator_count; a++)
		fprintf(f, "%s|", align);
	fputc('\n', f);
}

/* The title, the platform, tier, rounds, commit and allocators. */
static void md_intro(FILE *f, const struct matrix *m)
{
	/* inside a code span nothing is escaped (a key has no backquote) */
	fprintf(f, "## allocgate matrix: claims x allocators\n\nPlatform `%s",
		m->ctx.platform_key ? m->ctx.platform_key : "?");
	fprintf(f, "`, %s tier, %zu rounds per group, commit ", m->ctx.tier ? m->ctx.tier : "?",
		m->rounds);
	escape_md_text(f, m->ctx.commit ? m->ctx.commit : "?");
	fputs(". Allocators: ", f);
	for (size_t a = 0; a < m->allocator_count; a++) {
		const struct matrix_allocator *al = &m->allocators[a];
		fprintf(f, "%s%s", a ? ", " : "", al->name);
		if (al->missing) {
			fputs(" (not measured: ", f);
			escape_md_text(f, al->missing);
			fputc(')', f);
		}
	}
	fputs(".\n\nEach cell: holds, fails or inconclusive, the estimate (lhs/rhs, or lhs-rhs) "
	      "and its 95% interval. **Bold**: declared for that allocator (`gate run` gates "
	      "it); the others are information.\n\n", f);
}

/* One row per claim: its place and expression, a cell per allocator. */
static void md_claims(FILE *f, const struct matrix *m)
{
	char est[128];
	md_header(f, m, "| claim | params |", "---");
	for (size_t i = 0; i < m->claim_count; i++) {
		const struct matrix_claim *c = &m->claims[i];
		fputs("| ", f), escape_md_place(f, c->file, c->line), fputc(' ', f);
		escape_md_text(f, c->expr);
		fprintf(f, " | %s |", c->params);
		for (size_t a = 0; a < m->allocator_count; a++) {
			const struct matrix_cell *cell = &c->cells[a];
			matrix_cell_estimate(cell, est, sizeof est);
			if (!cell->measured)
				fputs(" - |", f);
			else
				fprintf(f, " %s%s%s %s |", cell->declared ? "**" : "",
					matrix_cell_word(cell), cell->declared ? "**" : "", est);
		}
		fputc('\n', f);
	}
}

/* The counts that explain the claims, each once per group. */
static void md_counts(FILE *f, const struct matrix *m)
{
	char v[32];
	fputs("\n### Counts that differ between the allocators\n\nMedians of the counts of the "
	      "variants the claims refer to (realloc moves, system calls, page faults).\n\n", f);
	md_header(f, m, "| kernel | params | count |", "---:");
	for (size_t i = 0; i < m->claim_count; i++)
		for (size_t k = 0; k < m->claims[i].count_count; k++) {
			const struct matrix_count *n = &m->claims[i].counts[k];
			if (!matrix_count_first(m, i, k))
				continue;
			fprintf(f, "| %s | %s | ", m->claims[i].kernel, m->claims[i].params);
			escape_md_text(f, n->variant);
			fputc('.', f);
			escape_md_text(f, n->metric);
			fputs(" |", f);
			for (size_t a = 0; a < m->allocator_count; a++) {
				format_value(n->medians[a], "count", v, sizeof v);
				fprintf(f, " %s |", v);
			}
			fputc('\n', f);
		}
}

/* Every variant's wall time against the first allocator. */
static void md_speeds(FILE *f, const struct matrix *m)
{
	char v[32];
	fprintf(f, "\n### Wall time against %s\n\nMedian ratio of the paired rounds with its 95%% "
		"interval, and the median time.\n\n",
		m->allocator_count ? m->allocators[0].name : "?");
	md_header(f, m, "| kernel | params | variant |", "---:");
	for (size_t i = 0; i < m->speed_count; i++) {
		const struct matrix_speed *s = &m->speeds[i];
		fprintf(f, "| %s | %s | ", s->kernel, s->params);
		escape_md_text(f, s->variant);
		fputs(" |", f);
		for (size_t a = 0; a < m->allocator_count; a++) {
			format_value(s->median_ns[a], "ns", v, sizeof v);
			if (isfinite(s->ratio[a]))
				fprintf(f, " %.3gx [%.3g, %.3g] %s |", s->ratio[a], s->ci_low[a],
					s->ci_high[a], v);
			else
				fputs(" - |", f);
		}
		fputc('\n', f);
	}
}

void matrix_markdown_print(FILE *f, const struct matrix *m)
{
	md_intro(f, m);
	md_claims(f, m);
	md_counts(f, m);
	md_speeds(f, m);
	if (m->problem_count)
		fputs("\n### Problems\n\n", f);
	for (size_t i = 0; i < m->problem_count; i++) {
		fputs("- ", f);
		escape_md_text(f, m->problems[i]);
		fputc('\n', f);
	}
	fprintf(f, "\n%zu samples failed; %.1f s; exit %d.\n", m->sample_failures, m->wall_seconds,
		m->exit_code);
}

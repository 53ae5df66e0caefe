/* report_markdown.c: the markdown summary (report_markdown.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_markdown.h"
#include "decide/sites.h"
#include "report/escape.h"
#include "report/format.h"
#include "report/report_file.h"

/* Text under the markdown rule (escape.h). */
#define md escape_md_text

/* The head: the verdict, what was compared and what gates, the counts in
 * one line, and the notes a reader needs before the list (the machine
 * moved, samples disturbed, the software changed). */
static void print_summary(FILE *f, const struct run_result *r)
{
	size_t sv[VERDICT_ERROR + 1], ev[VERDICT_ERROR + 1], information, problems;
	format_counts(r, sv, ev, &information, &problems);
	fprintf(f, "## allocgate: %s %s\n\n", r->exit_code == GATE_EXIT_OK ? "✅" : "❌",
		gate_exit_word(r->exit_code));
	fputs("Platform ", f);
	escape_md_code(f, r->ctx.platform_key ? r->ctx.platform_key : "?");
	fputs(", ", f);
	md(f, r->ctx.tier ? r->ctx.tier : "?");
	fputs(" tier, commit ", f);
	md(f, r->ctx.commit ? r->ctx.commit : "?");
	fputs(r->comparison ? ", " : ", baseline ", f);
	md(f, r->comparison ? r->comparison : r->baseline_path ? r->baseline_path : "none");
	if (r->policy.recorded) {
		char gates[120];
		format_gates(&r->policy, gates, sizeof gates);
		fprintf(f, "; gating %s", gates);
	}
	fputs(".\n", f);
	if (r->schedule.mode == AB_MODE_DUET) {   /* the figures; interleaved says it above */
		char how[600];
		format_ab_schedule(&r->schedule, how, sizeof how);
		fputs("Sampling: ", f);
		md(f, how);
		fputs(".\n", f);
	}
	size_t moved = format_series_information(r);
	fprintf(f, "%zu series: %zu regressed, %zu improved, %zu inconclusive, %zu new, %zu not "
		"compared", r->series_count, sv[VERDICT_FAIL], sv[VERDICT_IMPROVED],
		sv[VERDICT_INCONCLUSIVE], sv[VERDICT_NEW], sv[VERDICT_SKIPPED]);
	if (moved)
		fprintf(f, ", %zu moved but not gated", moved);
	if (sv[VERDICT_ERROR])
		fprintf(f, ", %zu error", sv[VERDICT_ERROR]);
	fprintf(f, "; %zu expectations: %zu pass, %zu fail, %zu inconclusive, %zu skipped, %zu "
		"error", r->expect_count - information, ev[VERDICT_PASS], ev[VERDICT_FAIL],
		ev[VERDICT_INCONCLUSIVE], ev[VERDICT_SKIPPED], ev[VERDICT_ERROR]);
	if (ev[VERDICT_IMPROVED])
		fprintf(f, ", %zu hold now (failed on A)", ev[VERDICT_IMPROVED]);
	if (ev[VERDICT_FAIL_BOTH])
		fprintf(f, ", %zu fail before and after (not failures of this change)",
			ev[VERDICT_FAIL_BOTH]);
	if (information)
		fprintf(f, ", %zu declared for other allocators (information)", information);
	fprintf(f, "; %zu problems; %.1f s; exit %d.\n", problems, r->wall_seconds, r->exit_code);
	double shift;
	size_t shifted = format_timing_shift(r, &shift);
	if (shifted && fabs(shift) >= FORMAT_SHIFT_NOTABLE)
		fprintf(f, "\n> The %zu compared timing series moved by a median of %+.1f%% since "
			"the baseline: when every kernel moves at once, the machine's state is the "
			"likelier cause.\n", shifted, 100 * shift);
	size_t disturbed, samples;
	format_interference(r, &disturbed, &samples);
	if (disturbed)
		fprintf(f, "\n> %zu of %zu timing samples were disturbed (other tasks held their "
			"CPU or the machine) and left out of timing verdicts.\n", disturbed,
			samples);
	if (r->baseline_note) {
		fputs("\n> ", f);
		md(f, r->baseline_note);
		fputc('\n', f);
	}
}

/* The site changes of (KERNEL, VARIANT, PARAMS) as sub-items. */
static void print_group_sites(FILE *f, const struct run_result *r, const char *kernel,
			      const char *variant, const char *params)
{
	char text[1200], place[600];
	for (size_t i = 0; i < r->site_change_count; i++) {
		const struct site_change *c = &r->site_changes[i];
		if (strcmp(c->kernel, kernel) || strcmp(c->variant, variant) ||
		    strcmp(c->params, params))
			continue;
		format_site_change(c, r->comparison != NULL, text, sizeof text);
		format_site_place(c->file, c->line, place, sizeof place);
		fputs("  - ", f);
		escape_md_code(f, place);
		fputc(' ', f);
		md(f, text);
		fputc('\n', f);
	}
}

/* One item per (kernel, variant, params) that moved with GATED as its
 * series' gated: its place, the metrics (format_moved), and under a gated
 * one the allocation sites that changed. Returns how many. */
static size_t print_moved(FILE *f, const struct run_result *r, bool gated, const char *title)
{
	char text[4000];
	size_t n = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!format_group_first(r, i, gated))
			continue;
		if (!n++ && title)
			fprintf(f, "\n### %s\n\n", title);
		format_moved(r, i, gated, text, sizeof text);
		fputs("- ", f);
		escape_md_place(f, s->file, s->line);
		fputs(" **", f);
		md(f, s->kernel);
		fputc('/', f);
		md(f, s->variant);
		fputc('/', f);
		md(f, s->params);
		fputs("**: ", f);
		md(f, text);
		fputc('\n', f);
		if (gated && sites_explain_failure(r, s->kernel, s->variant, s->params))
			print_group_sites(f, r, s->kernel, s->variant, s->params);
	}
	return n;
}

/* A list under TITLE of the expectations whose verdict is V (SERIES 0),
 * of them and the series (1), or of the series only (2). */
static void print_list(FILE *f, const struct run_result *r, enum verdict v, const char *title,
		       int series)
{
	char text[2048];
	int any = 0;
	for (size_t i = 0; series < 2 && i < r->expect_count; i++) {
		const struct expect_result *e = &r->expects[i];
		if (e->verdict != v || !e->gated)
			continue;
		if (!any++)
			fprintf(f, "\n### %s\n\n", title);
		format_expect(e, r->ctx.allocator, text, sizeof text);
		fputs("- ", f);
		escape_md_place(f, e->file, e->line);
		fputc(' ', f);
		md(f, text);
		fputc('\n', f);
	}
	for (size_t i = 0; series && v != VERDICT_ERROR && i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (s->verdict != v)
			continue;
		if (!any++)
			fprintf(f, "\n### %s\n\n", title);
		format_series(s, text, sizeof text);
		fputs("- ", f), escape_md_place(f, s->file, s->line), fputc(' ', f);
		md(f, text);
		fputc('\n', f);
	}
}

/* The advisory series (drift too large to gate: shown, never failing),
 * outside the collapsed table. */
static void print_advisory(FILE *f, const struct run_result *r)
{
	char text[2048];
	int any = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!s->advisory)
			continue;
		if (!any++)
			fputs("\n### Advisory (not gated)\n\n", f);
		format_series(s, text, sizeof text);
		fputs("- ", f), escape_md_place(f, s->file, s->line), fputc(' ', f);
		md(f, text);
		fputc('\n', f);
	}
}

/* The problems that concern a kernel (KERNELS), else those of the run
 * (counters this machine refused: collapsed, they are the same every run). */
static void print_problems(FILE *f, const struct run_result *r, int kernels)
{
	size_t any = 0, n = 0;
	for (size_t i = 0; i < r->problem_count; i++)
		n += !r->problems[i].kernel == !kernels;
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		if (!p->kernel != !kernels)
			continue;
		if (!any++)
			fprintf(f, kernels ? "\n### Problems\n\n"
				: "\n<details><summary>%zu unavailable on this machine</summary>\n\n",
				n);
		fputs("- ", f);
		md(f, p->kernel ? p->kernel : "unavailable:");
		if (p->variant)
			fputc('/', f), md(f, p->variant);
		if (p->params)
			fputc('/', f), md(f, p->params);
		fputc(' ', f);
		md(f, p->what);
		fputs(": ", f);
		md(f, p->reason);
		fputc('\n', f);
	}
	if (any && !kernels)
		fputs("\n</details>\n", f);
}

static void print_series_row(FILE *f, const struct series *s)
{
	char now[32], was[32];
	format_value(s->median, s->unit, now, sizeof now);
	format_value(s->has_baseline ? s->baseline_median : (double)NAN, s->unit, was,
			  sizeof was);
	fputs("| ", f);
	md(f, s->kernel);
	fputs(" | ", f);
	md(f, s->variant);
	fputs(" | ", f);
	md(f, s->params);
	fputs(" | ", f);
	md(f, s->metric);
	fprintf(f, " | %s | %s | ", now, was);
	if (s->has_baseline && s->change == s->change)
		fprintf(f, "%+.1f%%", 100 * s->change);
	if (s->ci_low == s->ci_low && s->ci_high == s->ci_high)
		fprintf(f, " [%+.1f%%, %+.1f%%]", 100 * (s->ci_low - 1), 100 * (s->ci_high - 1));
	fprintf(f, " | %s |\n", result_series_verdict_name(s->verdict));
}

static void print_table(FILE *f, const struct run_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->series_count; i++)
		n += r->series[i].verdict != VERDICT_NEW && r->series[i].verdict != VERDICT_SKIPPED;
	if (!n)
		return;
	fprintf(f, "\n<details><summary>%zu compared series</summary>\n\n"
		   "| kernel | variant | params | metric | median | baseline | change [95%% interval] "
		   "| verdict |\n|---|---|---|---|---:|---:|---|---|\n", n);
	for (size_t i = 0; i < r->series_count; i++)
		if (r->series[i].verdict != VERDICT_NEW && r->series[i].verdict != VERDICT_SKIPPED)
			print_series_row(f, &r->series[i]);
	fputs("\n</details>\n", f);
}

/* Changed allocation sites at their own lines: under "What broke" those
 * that explain a heap_* regression of their variant (EXPLAINING), else
 * in their own list. */
static void print_site_changes(FILE *f, const struct run_result *r, int explaining,
			       const char *title)
{
	char text[1200];
	int any = 0;
	for (size_t i = 0; i < r->site_change_count; i++) {
		const struct site_change *c = &r->site_changes[i];
		if (sites_explain_failure(r, c->kernel, c->variant, c->params) != explaining)
			continue;
		if (!any++ && title)
			fprintf(f, "\n### %s\n\n", title);
		format_site_change(c, r->comparison != NULL, text, sizeof text);
		char place[600];
		format_site_place(c->file, c->line, place, sizeof place);
		fputs("- ", f), escape_md_code(f, place), fputc(' ', f);
		md(f, c->kernel), fputc('/', f), md(f, c->variant), fputc('/', f);
		md(f, c->params), fputs(": ", f);
		md(f, text);
		fputc('\n', f);
	}
}

/* The expectations declared for other allocators, measured as information. */
static void print_information(FILE *f, const struct run_result *r)
{
	char text[2048];
	int any = 0;
	for (size_t i = 0; i < r->expect_count; i++) {
		const struct expect_result *e = &r->expects[i];
		if (e->gated)
			continue;
		if (!any++)
			fputs("\n### Information (declared for other allocators, not gated)\n\n", f);
		format_expect(e, r->ctx.allocator, text, sizeof text);
		fputs("- ", f), escape_md_place(f, e->file, e->line), fputc(' ', f);
		md(f, text);
		fputc('\n', f);
	}
}

/* What does not gate, collapsed: series that moved but whose class the
 * run does not gate (--gate), inconclusive and advisory series. */
static void print_collapsed_information(FILE *f, const struct run_result *r)
{
	size_t moved = format_series_information(r), inconclusive = 0, advisory = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		inconclusive += r->series[i].verdict == VERDICT_INCONCLUSIVE;
		advisory += r->series[i].advisory;
	}
	if (!moved && !inconclusive && !advisory)
		return;
	fprintf(f, "\n<details><summary>Not gated: %zu moved (not gated), %zu inconclusive, "
		"%zu advisory</summary>\n", moved, inconclusive, advisory);
	char gates[120];
	format_gates(&r->policy, gates, sizeof gates);
	char title[200];
	snprintf(title, sizeof title, "Moved, not gated (this run gates %s)", gates);
	print_moved(f, r, false, title);
	print_list(f, r, VERDICT_INCONCLUSIVE, "Inconclusive", 2);
	print_advisory(f, r);
	fputs("\n</details>\n", f);
}

void report_markdown_print(FILE *f, const struct run_result *r, const void *arg)
{
	(void)arg;
	print_summary(f, r);
	print_list(f, r, VERDICT_FAIL, "What broke", 0);
	int claims_failed = 0;
	for (size_t i = 0; i < r->expect_count; i++)
		claims_failed |= r->expects[i].gated && r->expects[i].verdict == VERDICT_FAIL;
	print_moved(f, r, true, claims_failed ? NULL : "What broke");
	print_list(f, r, VERDICT_FAIL_BOTH, "Fails before and after (on A and on B: not a failure "
		   "of the change)", 0);
	print_list(f, r, VERDICT_IMPROVED, "Claims that hold now (failed on A)", 0);
	print_list(f, r, VERDICT_INCONCLUSIVE, "Inconclusive", 0);
	print_list(f, r, VERDICT_ERROR, "Expectations that could not be checked", 1);
	print_problems(f, r, 1);
	print_site_changes(f, r, 0, "Allocation sites that changed (no count regressed)");
	print_information(f, r);
	print_collapsed_information(f, r);
	print_problems(f, r, 0);
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

/* report_markdown.c: the markdown summary (report_markdown.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_markdown.h"
#include "decide/sites.h"
#include "report/escape.h"
#include "report/format.h"
#include "report/report_file.h"
#include "report/series_rows.h"

/* Text under the markdown rule (escape.h). */
#define md escape_md_text

/* The figures on a change's line (the rest in the table below it and the
 * JSON), the places told per change, and the groups listed under a
 * collapsed heading: a page a reviewer reads in half a minute. */
#define MARKDOWN_FIGURES 4
#define MARKDOWN_SHIFTS 8
#define MARKDOWN_GROUPS 6
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
	const char *at;
	while ((at = strstr(text, " -> "))) {
		char *piece = malloc((size_t)(at - text) + 1);   /* no strndup in msvcrt */
		if (!piece)   /* no memory: the rule alone, nothing raw */
			break;
		memcpy(piece, text, (size_t)(at - text));
		piece[at - text] = '\0';
		md(f, piece);
		free(piece);
		fputs(MARKDOWN_ARROW, f);
		text = at + 4;
	}
	md(f, text);
}

/* Whether a passing run found nothing that moved: no series regressed or
 * improved (gated or not), no allocation site changed, no claim holds now
 * that failed on A, every kernel checked. */
static bool nothing_moved(const struct run_result *r)
{
	if (r->exit_code != GATE_EXIT_OK || r->site_change_count)
		return false;
	for (size_t i = 0; i < r->problem_count; i++)
		if (r->problems[i].kernel)   /* a kernel that could not be checked */
			return false;
	for (size_t i = 0; i < r->series_count; i++)
		if (r->series[i].verdict == VERDICT_FAIL || r->series[i].verdict == VERDICT_IMPROVED)
			return false;
	for (size_t i = 0; i < r->expect_count; i++)
		if (r->expects[i].verdict == VERDICT_IMPROVED)
			return false;
	return true;
}

/* The notes a reader needs before the list: the machine moved, samples
 * were disturbed, the software changed (the baseline's note). */
static void print_notes(FILE *f, const struct run_result *r)
{
	double shift;
	size_t shifted = format_timing_shift(r, &shift);
	char held[200];
	const char *cause = format_code_cause(r, held, sizeof held) ? held : NULL;
	if (shifted && fabs(shift) >= FORMAT_SHIFT_NOTABLE)
		fprintf(f, "\n> The %zu compared timing series moved by a median of %+.1f%% since "
			"the baseline: %s.\n", shifted, 100 * shift, cause ? cause
			: "when every kernel moves at once, the machine's state is the likelier "
			  "cause");
	char reference[400];
	if (r->reference.state == REFERENCE_MOVED || r->reference.state == REFERENCE_NO_BASELINE ||
	    r->reference.state == REFERENCE_UNSURE || r->reference.faster)
		if (format_reference(r, reference, sizeof reference))
			fprintf(f, "\n> Machine: %s.\n", reference);
	size_t disturbed, samples;
	format_interference(r, &disturbed, &samples);
	if (disturbed)
		fprintf(f, "\n> %zu of %zu timing samples were disturbed (other tasks held their "
			"CPU or the machine) and left out of timing verdicts.\n", disturbed,
			samples);
	if (r->baseline_note) {
		fputs("\n> ", f);
		md_arrows(f, r->baseline_note);
		fputc('\n', f);
	}
}

/* The head: the verdict, what was compared and what gates, the counts in
 * one line, and the notes a reader needs before the list (the machine
 * moved, samples disturbed, the software changed). */
static void print_summary(FILE *f, const struct run_result *r)
{
	size_t sv[VERDICT_ERROR + 1], ev[VERDICT_ERROR + 1], information, problems;
	format_counts(r, sv, ev, &information, &problems);
	fprintf(f, "## allocgate: %s %s%s\n\n", r->exit_code == GATE_EXIT_OK ? "✅" : "❌",
		gate_exit_word(r->exit_code), nothing_moved(r) ? ": nothing changed" : "");
	/* nothing measured (gate ab: every kernel the same code on both
	 * sides): the heading and why, not a platform line and a line of
	 * zeros that a reviewer would have to read to learn nothing */
	if (nothing_moved(r) && !r->series_count && !r->expect_count && !r->problem_count) {
		if (r->baseline_note) {
			fputs("> ", f);
			md_arrows(f, r->baseline_note);
			fputc('\n', f);
		}
		return;
	}
	fputs("Platform ", f);
	escape_md_code(f, r->ctx.platform_key ? r->ctx.platform_key : "?");
	fputs(", ", f);
	md(f, r->ctx.tier ? r->ctx.tier : "?");
	fputs(" tier, commit ", f);
	md(f, r->ctx.commit ? r->ctx.commit : "?");
	fputs(r->comparison ? ", " : r->baseline_written ? ", baseline written: " : ", baseline ", f);
	md(f, r->comparison ? r->comparison
	      : r->baseline_written ? r->baseline_written
	      : r->baseline_path ? r->baseline_path : "none");
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
	char rounds[300];
	format_ab_rounds(&r->schedule, r->policy.min_effect, rounds, sizeof rounds);
	if (*rounds) {
		md(f, rounds);
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
	print_notes(f, r);
}

/* The places of (KERNEL, VARIANT, PARAMS) whose allocation calls changed,
 * one item each ("- `src/value.c:522` json_array_grow: realloc 11 -> malloc
 * 11 + free 11 (via ...)"), LABELLED with the group's name. Returns how
 * many. */
/* The wrappers told last, at which place: a paragraph that follows with the
 * same ones says "(via the same)" instead of naming them again. */
struct md_said {
	const char *file, *via_before, *via_after;
	int line;
};

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static size_t print_group_shifts(FILE *f, const struct run_result *r, const char *kernel,
				 const char *variant, const char *params, bool labelled,
				 struct md_said *said)
{
	struct site_shift sh[MARKDOWN_SHIFTS];
	size_t n = sites_shifts(r, kernel, variant, params, sh, MARKDOWN_SHIFTS);
	for (size_t k = 0; k < n; k++) {
		char calls[700], place[600];
		format_site_place(sh[k].file, sh[k].line, place, sizeof place);
		format_site_shift_calls(&sh[k], calls, sizeof calls);
		fputs("- ", f);
		if (labelled) {
			md(f, kernel), fputc('/', f), md(f, variant), fputc('/', f);
			md(f, params), fputs(": ", f);
		}
		escape_md_code(f, place);
		if (sh[k].line > 0)
			fputc(' ', f), md(f, sh[k].function);
		fputs(": **", f);
		md_arrows(f, calls);
		fputs("**", f);
		const char *vb = sh[k].via_before, *va = sh[k].via_after;
		if ((vb || va) && said->line == sh[k].line && same_text(said->file, sh[k].file) &&
		    same_text(said->via_before, vb) && same_text(said->via_after, va)) {
			fputs(" (via the same)", f);
		} else if (vb || va) {
			*said = (struct md_said){ sh[k].file, vb, va, sh[k].line };
			fputs(" (via ", f);
			escape_md_code(f, vb ? vb : va);
			if (vb && va && strcmp(vb, va))
				fputs(MARKDOWN_ARROW, f), escape_md_code(f, va);
			fputc(')', f);
		}
		fputc('\n', f);
	}
	return n;
}

/* One paragraph per (kernel, variant, params) that moved with GATED as its
 * series' gated: its name and line, then (gated) the places whose
 * allocation calls changed, said once, then its decisive figures, the rest
 * in the table below. Returns how many. */
static size_t print_moved(FILE *f, const struct run_result *r, bool gated, const char *title)
{
	char text[4000];
	size_t n = 0;
	struct md_said said = { 0 };
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!format_group_first(r, i, gated))
			continue;
		if (!n++ && title)
			fprintf(f, "\n### %s\n", title);
		size_t left = format_moved_brief(r, i, gated, MARKDOWN_FIGURES, text, sizeof text);
		fputs("\n**", f);
		md(f, s->kernel);
		fputc('/', f);
		md(f, s->variant);
		fputc('/', f);
		md(f, s->params);
		fputs("** ", f);
		escape_md_place(f, s->file, s->line);
		fputs("\n", f);
		if (gated && sites_explain_failure(r, s->kernel, s->variant, s->params))
			print_group_shifts(f, r, s->kernel, s->variant, s->params, false, &said);
		fputs("- ", f);
		md_arrows(f, text);
		if (left)
			fprintf(f, "; %zu more below", left);
		fputc('\n', f);
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
		md_arrows(f, text);
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
		md_arrows(f, text);
		fputc('\n', f);
	}
}

/* Whether series I is the first of its (kernel, variant, params) that IS. */
static bool first_of_group(const struct run_result *r, size_t i,
			   bool (*is)(const struct series *))
{
	const struct series *s = &r->series[i];
	if (!is(s))
		return false;
	for (size_t j = 0; j < i; j++) {
		const struct series *o = &r->series[j];
		if (is(o) && !strcmp(o->kernel, s->kernel) && !strcmp(o->variant, s->variant) &&
		    !strcmp(o->params, s->params))
			return false;
	}
	return true;
}

/* One item per (kernel, variant, params) with series that IS, naming
 * them ("json_build/append/10k: task_clock_ns, wall_ns"), at most
 * MARKDOWN_GROUPS, under TITLE; their figures and notes are the terminal
 * report's and the JSON's. */
static void print_groups(FILE *f, const struct run_result *r, bool (*is)(const struct series *),
			 const char *title)
{
	size_t n = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!first_of_group(r, i, is))
			continue;
		if (!n++)
			fprintf(f, "\n%s:\n", title);
		if (n > MARKDOWN_GROUPS)
			continue;
		fputs("- ", f);
		md(f, s->kernel), fputc('/', f), md(f, s->variant), fputc('/', f), md(f, s->params);
		const char *sep = ": ";
		for (size_t j = i; j < r->series_count; j++) {
			const struct series *o = &r->series[j];
			if (is(o) && !strcmp(o->kernel, s->kernel) && !strcmp(o->variant, s->variant) &&
			    !strcmp(o->params, s->params)) {
				fputs(sep, f);
				md(f, o->metric);
				sep = ", ";
			}
		}
		fputc('\n', f);
	}
	if (n > MARKDOWN_GROUPS)
		fprintf(f, "- and %zu more (the JSON report lists them)\n", n - MARKDOWN_GROUPS);
}

static bool is_inconclusive(const struct series *s)
{
	return s->verdict == VERDICT_INCONCLUSIVE;
}

static bool is_advisory(const struct series *s)
{
	return s->advisory;
}

/* The problems that concern a kernel, one item each. */
static void print_problems(FILE *f, const struct run_result *r)
{
	size_t any = 0;
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		if (!p->kernel)
			continue;
		if (!any++)
			fputs("\n### Problems\n\n", f);
		fputs("- ", f);
		md(f, p->kernel);
		if (p->variant)
			fputc('/', f), md(f, p->variant);
		if (p->params)
			fputc('/', f), md(f, p->params);
		fputc(' ', f);
		md(f, p->what);
		fputs(": ", f);
		md_arrows(f, p->reason);
		fputc('\n', f);
	}
}

/* The counters this machine refused (problems of the run), one line per
 * reason: the same every run, so said briefly. */
static void print_unavailable(FILE *f, const struct run_result *r)
{
	size_t any = 0;
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		int first = !p->kernel;   /* the first of its reason */
		for (size_t j = 0; j < i && first; j++)
			first = r->problems[j].kernel || strcmp(r->problems[j].reason, p->reason);
		if (!first)
			continue;
		fputs(any++ ? "; " : "\nNot measured on this machine: ", f);
		const char *sep = "";
		for (size_t j = i; j < r->problem_count; j++)
			if (!r->problems[j].kernel && !strcmp(r->problems[j].reason, p->reason)) {
				fputs(sep, f);
				md(f, r->problems[j].what);
				sep = ", ";
			}
		fputs(" (", f);
		md_arrows(f, p->reason);
		fputc(')', f);
	}
	if (any)
		fputs(".\n", f);
}

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

/* The places whose allocation calls changed in groups where no count
 * regressed (a call moved into a library, a count that the run does not
 * gate), per group, under TITLE. */
static void print_site_changes(FILE *f, const struct run_result *r, const char *title)
{
	int any = 0;
	struct md_said said = { 0 };
	for (size_t i = 0; i < r->site_change_count; i++) {
		const struct site_change *c = &r->site_changes[i];
		if (!sites_first_of_group(r, i) ||
		    sites_explain_failure(r, c->kernel, c->variant, c->params))
			continue;
		if (!any++)
			fprintf(f, "\n### %s\n\n", title);
		print_group_shifts(f, r, c->kernel, c->variant, c->params, true, &said);
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
	if (r->exit_code == GATE_EXIT_OK && !moved) {
		/* a passing run: what timing left undecided is a count; its series
		 * are in the JSON and the terminal report */
		fprintf(f, "\nNot gated: %zu inconclusive, %zu advisory (the JSON report lists "
			"them).\n", inconclusive, advisory);
		return;
	}
	fprintf(f, "\n<details><summary>Not gated: %zu moved (not gated), %zu inconclusive, "
		"%zu advisory</summary>\n", moved, inconclusive, advisory);
	char gates[120];
	format_gates(&r->policy, gates, sizeof gates);
	char title[200];
	snprintf(title, sizeof title, "Moved, not gated (this run gates %s)", gates);
	print_moved(f, r, false, title);
	print_groups(f, r, is_inconclusive, "Inconclusive (figures and reasons in the terminal "
		     "report and the JSON)");
	print_groups(f, r, is_advisory, "Advisory (drift too large to gate)");
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
	print_problems(f, r);
	print_site_changes(f, r, "Allocation calls that moved (no count regressed)");
	print_information(f, r);
	print_collapsed_information(f, r);
	print_unavailable(f, r);
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

/* page_changes.c: what changed, as the pages a person reads say it
 * (page.h): the groups, claims, places and problems, most decisive first. */
#include <stdio.h>
#include <string.h>

#include "report/page.h"
#include "decide/sites.h"
#include "report/format.h"
#include "report/page_parts.h"
#include "core/group_key.h"
#include "core/result_tally.h"

/* The figures on a change's line (the rest in the tables and the JSON),
 * the places told per change, and the groups listed under a collapsed
 * heading: a page a reviewer reads in half a minute. */
#define PAGE_FIGURES 4
#define PAGE_SHIFTS 8
#define PAGE_GROUPS 6

/* The wrappers told last, at which place: an item that follows with the
 * same ones says "(via the same)" instead of naming them again. */
struct said {
	const char *file, *via_before, *via_after;
	int line;
};

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void heading(const struct page *p, const char *title)
{
	page_open(p, PAGE_HEADING);
	p->d->words(p->f, title);
	page_close(p, PAGE_HEADING);
}

/* The wrappers SH's calls went through: " (via A -> B)", or " (via the
 * same)" when the item before named them at the same place. */
static void print_via(const struct page *p, const struct site_shift *sh, struct said *said)
{
	const char *vb = sh->via_before, *va = sh->via_after;
	if (!vb && !va)
		return;
	if (said->line == sh->line && same_text(said->file, sh->file) &&
	    same_text(said->via_before, vb) && same_text(said->via_after, va)) {
		p->d->words(p->f, " (via the same)");
		return;
	}
	*said = (struct said){ sh->file, vb, va, sh->line };
	p->d->words(p->f, " (via ");
	p->d->code(p->f, vb ? vb : va);
	if (vb && va && strcmp(vb, va))
		p->d->prose(p->f, " -> "), p->d->code(p->f, va);
	p->d->words(p->f, ")");
}

/* The places of (KERNEL, VARIANT, PARAMS) whose allocation calls changed,
 * one item each ("- `src/value.c:522` json_array_grow: realloc 11 -> malloc
 * 11 + free 11 (via ...)"), LABELLED with the group's name. Returns how
 * many. */
static size_t print_group_shifts(const struct page *p, const struct run_result *r,
				 const char *kernel, const char *variant, const char *params,
				 bool labelled, struct said *said)
{
	struct site_shift sh[PAGE_SHIFTS];
	size_t n = sites_shifts(r, kernel, variant, params, sh, PAGE_SHIFTS);
	for (size_t k = 0; k < n; k++) {
		char calls[700], place[600];
		format_site_place(sh[k].file, sh[k].line, place, sizeof place);
		format_site_shift_calls(&sh[k], calls, sizeof calls);
		page_open(p, PAGE_ITEM);
		if (labelled) {
			page_group(p, kernel, variant, params);
			p->d->words(p->f, ": ");
		}
		p->d->code(p->f, place);
		if (sh[k].line > 0)
			p->d->words(p->f, " "), p->d->text(p->f, sh[k].function);
		p->d->words(p->f, ": ");
		page_open(p, PAGE_STRONG);
		p->d->prose(p->f, calls);
		page_close(p, PAGE_STRONG);
		print_via(p, &sh[k], said);
		page_close(p, PAGE_ITEM);
	}
	return n;
}

/* One paragraph per (kernel, variant, params) that moved with GATED as its
 * series' gated: its name and line, then (gated) the places whose
 * allocation calls changed, said once, then its decisive figures, the rest
 * in the tables. Returns how many. */
static size_t print_moved(const struct page *p, const struct run_result *r, bool gated,
			  const char *title)
{
	char text[4000];
	size_t n = 0;
	struct said said = { 0 };
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!format_group_first(r, i, gated))
			continue;
		if (!n++ && title)
			heading(p, title);
		size_t left = format_moved_brief(r, i, gated, PAGE_FIGURES, text, sizeof text);
		page_open(p, PAGE_PARA);
		page_open(p, PAGE_STRONG);
		page_group(p, s->kernel, s->variant, s->params);
		page_close(p, PAGE_STRONG);
		p->d->words(p->f, " ");
		page_place(p, s->file, s->line);
		page_close(p, PAGE_PARA);
		page_open(p, PAGE_LIST_TIGHT);
		if (gated && sites_explain_failure(r, s->kernel, s->variant, s->params))
			print_group_shifts(p, r, s->kernel, s->variant, s->params, false, &said);
		page_open(p, PAGE_ITEM);
		p->d->prose(p->f, text);
		if (left)
			page_words(p, "; %zu more below", left);
		page_close(p, PAGE_ITEM);
		page_close(p, PAGE_LIST_TIGHT);
	}
	return n;
}

/* One item: "- `FILE:LINE` TEXT". */
static void print_placed(const struct page *p, const char *file, int line, const char *text,
			 void (*rule)(FILE *f, const char *s))
{
	page_open(p, PAGE_ITEM);
	page_place(p, file, line);
	p->d->words(p->f, " ");
	rule(p->f, text);
	page_close(p, PAGE_ITEM);
}

/* Opens the list under TITLE before its first item (*ANY counts them). */
static void list_item(const struct page *p, int *any, const char *title)
{
	if (!(*any)++) {
		heading(p, title);
		page_open(p, PAGE_LIST);
	}
}

/* A list under TITLE of the expectations whose verdict is V (SERIES 0),
 * of them and the series (1), or of the series only (2). */
static void print_list(const struct page *p, const struct run_result *r, enum verdict v,
		       const char *title, int series)
{
	char text[2048];
	int any = 0;
	for (size_t i = 0; series < 2 && i < r->expect_count; i++) {
		const struct expect_result *e = &r->expects[i];
		if (e->verdict != v || !e->gated)
			continue;
		list_item(p, &any, title);
		format_expect(e, r->ctx.allocator, text, sizeof text);
		print_placed(p, e->file, e->line, text, p->d->prose);
	}
	for (size_t i = 0; series && v != VERDICT_ERROR && i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (s->verdict != v)
			continue;
		list_item(p, &any, title);
		format_series(s, text, sizeof text);
		print_placed(p, s->file, s->line, text, p->d->prose);
	}
	if (any)
		page_close(p, PAGE_LIST);
}

/* One item per (kernel, variant, params) with series that IS, naming
 * them ("json_build/append/10k: task_clock_ns, wall_ns"), at most
 * PAGE_GROUPS, under TITLE; their figures and notes are the tables' and
 * the JSON's. */
static void print_groups(const struct page *p, const struct run_result *r, group_key_pick is,
			 const char *title)
{
	size_t n = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (!group_key_first_series(r, i, GROUP_SCOPE_VARIANT, is, NULL))
			continue;
		if (!n++) {
			page_open(p, PAGE_PARA);
			page_words(p, "%s:", title);
			page_close(p, PAGE_PARA);
			page_open(p, PAGE_LIST_TIGHT);
		}
		if (n > PAGE_GROUPS)
			continue;
		page_open(p, PAGE_ITEM);
		page_group(p, s->kernel, s->variant, s->params);
		const char *sep = ": ";
		for (size_t j = i; j < r->series_count; j++) {
			if (is(&r->series[j], NULL) &&
			    group_key_same(GROUP_KEY(&r->series[j]), GROUP_KEY(s),
					   GROUP_SCOPE_VARIANT)) {
				p->d->words(p->f, sep);
				p->d->text(p->f, r->series[j].metric);
				sep = ", ";
			}
		}
		page_close(p, PAGE_ITEM);
	}
	if (n > PAGE_GROUPS) {
		page_open(p, PAGE_ITEM);
		page_words(p, "and %zu more (the JSON report lists them)", n - PAGE_GROUPS);
		page_close(p, PAGE_ITEM);
	}
	if (n)
		page_close(p, PAGE_LIST_TIGHT);
}

static bool is_inconclusive(const struct series *s, const void *arg)
{
	(void)arg;
	return s->verdict == VERDICT_INCONCLUSIVE;
}

static bool is_advisory(const struct series *s, const void *arg)
{
	(void)arg;
	return s->advisory;
}

/* The problems that concern a kernel, one item each. */
static void print_problems(const struct page *p, const struct run_result *r)
{
	int any = 0;
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *pr = &r->problems[i];
		if (!pr->kernel)
			continue;
		list_item(p, &any, "Problems");
		page_open(p, PAGE_ITEM);
		p->d->text(p->f, pr->kernel);
		if (pr->variant)
			p->d->words(p->f, "/"), p->d->text(p->f, pr->variant);
		if (pr->params)
			p->d->words(p->f, "/"), p->d->text(p->f, pr->params);
		p->d->words(p->f, " ");
		p->d->text(p->f, pr->what);
		p->d->words(p->f, ": ");
		p->d->prose(p->f, pr->reason);
		page_close(p, PAGE_ITEM);
	}
	if (any)
		page_close(p, PAGE_LIST);
}

/* The counters this machine refused (problems of the run), one clause per
 * reason: the same every run, so said briefly. */
static void print_unavailable(const struct page *p, const struct run_result *r)
{
	size_t any = 0;
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *pr = &r->problems[i];
		int first = !pr->kernel;   /* the first of its reason */
		for (size_t j = 0; j < i && first; j++)
			first = r->problems[j].kernel || strcmp(r->problems[j].reason, pr->reason);
		if (!first)
			continue;
		if (!any++)
			page_open(p, PAGE_PARA);
		p->d->words(p->f, any > 1 ? "; " : "Not measured on this machine: ");
		const char *sep = "";
		for (size_t j = i; j < r->problem_count; j++)
			if (!r->problems[j].kernel && !strcmp(r->problems[j].reason, pr->reason)) {
				p->d->words(p->f, sep);
				p->d->text(p->f, r->problems[j].what);
				sep = ", ";
			}
		p->d->words(p->f, " (");
		p->d->prose(p->f, pr->reason);
		p->d->words(p->f, ")");
	}
	if (any) {
		p->d->words(p->f, ".");
		page_close(p, PAGE_PARA);
	}
}

/* The places whose allocation calls changed in groups where no count
 * regressed (a call moved into a library, a count that the run does not
 * gate), per group, under TITLE. */
static void print_site_changes(const struct page *p, const struct run_result *r,
			       const char *title)
{
	int any = 0;
	struct said said = { 0 };
	for (size_t i = 0; i < r->site_change_count; i++) {
		const struct site_change *c = &r->site_changes[i];
		if (!sites_first_of_group(r, i) ||
		    sites_explain_failure(r, c->kernel, c->variant, c->params))
			continue;
		list_item(p, &any, title);
		print_group_shifts(p, r, c->kernel, c->variant, c->params, true, &said);
	}
	if (any)
		page_close(p, PAGE_LIST);
}

/* The expectations declared for other allocators, measured as information. */
static void print_information(const struct page *p, const struct run_result *r)
{
	char text[2048];
	int any = 0;
	for (size_t i = 0; i < r->expect_count; i++) {
		const struct expect_result *e = &r->expects[i];
		if (e->gated)
			continue;
		list_item(p, &any, "Information (declared for other allocators, not gated)");
		format_expect(e, r->ctx.allocator, text, sizeof text);
		print_placed(p, e->file, e->line, text, p->d->text);
	}
	if (any)
		page_close(p, PAGE_LIST);
}

/* What does not gate, collapsed: series that moved but whose class the
 * run does not gate (--gate), inconclusive and advisory series. */
static void print_collapsed_information(const struct page *p, const struct run_result *r)
{
	size_t moved = result_tally_not_gated(r), inconclusive = 0, advisory = 0;
	for (size_t i = 0; i < r->series_count; i++) {
		inconclusive += r->series[i].verdict == VERDICT_INCONCLUSIVE;
		advisory += r->series[i].advisory;
	}
	if (!moved && !inconclusive && !advisory)
		return;
	if (r->exit_code == GATE_EXIT_OK && !moved) {
		/* a passing run: what timing left undecided is a count; its series
		 * are in the tables and the JSON */
		page_open(p, PAGE_PARA);
		page_words(p, "Not gated: %zu inconclusive, %zu advisory (the JSON report lists "
			   "them).", inconclusive, advisory);
		page_close(p, PAGE_PARA);
		return;
	}
	page_open(p, PAGE_DETAILS);
	page_open(p, PAGE_SUMMARY);
	page_words(p, "Not gated: %zu moved (not gated), %zu inconclusive, %zu advisory", moved,
		   inconclusive, advisory);
	page_close(p, PAGE_SUMMARY);
	char gates[120], title[200];
	format_gates(&r->policy, gates, sizeof gates);
	snprintf(title, sizeof title, "Moved, not gated (this run gates %s)", gates);
	print_moved(p, r, false, title);
	print_groups(p, r, is_inconclusive, "Inconclusive (figures and reasons in the terminal "
		     "report and the JSON)");
	print_groups(p, r, is_advisory, "Advisory (drift too large to gate)");
	page_close(p, PAGE_DETAILS);
}

void page_print_changes(const struct page *p, const struct run_result *r)
{
	print_list(p, r, VERDICT_FAIL, "What broke", 0);
	int claims_failed = 0;
	for (size_t i = 0; i < r->expect_count; i++)
		claims_failed |= r->expects[i].gated && r->expects[i].verdict == VERDICT_FAIL;
	print_moved(p, r, true, claims_failed ? NULL : "What broke");
	print_list(p, r, VERDICT_FAIL_BOTH, "Fails before and after (on A and on B: not a failure "
		   "of the change)", 0);
	print_list(p, r, VERDICT_IMPROVED, "Claims that hold now (failed on A)", 0);
	print_list(p, r, VERDICT_INCONCLUSIVE, "Inconclusive", 0);
	print_list(p, r, VERDICT_ERROR, "Expectations that could not be checked", 1);
	print_problems(p, r);
	print_site_changes(p, r, "Allocation calls that moved (no count regressed)");
	print_information(p, r);
	print_collapsed_information(p, r);
	print_unavailable(p, r);
}

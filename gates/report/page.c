/* page.c: the head of a page a person reads, the verdict first (page.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"
#include "report/format.h"
#include "report/page_parts.h"
#include "core/result_tally.h"

bool page_nothing_moved(const struct run_result *r)
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

void page_arrows(FILE *f, const char *text, void (*rule)(FILE *f, const char *s),
		 const char *arrow)
{
	const char *at;
	while ((at = strstr(text, " -> "))) {
		char *piece = malloc((size_t)(at - text) + 1);   /* no strndup in msvcrt */
		if (!piece)   /* no memory: the rule alone, nothing raw */
			break;
		memcpy(piece, text, (size_t)(at - text));
		piece[at - text] = '\0';
		rule(f, piece);
		free(piece);
		fputs(arrow, f);
		text = at + 4;
	}
	rule(f, text);
}

void page_open(const struct page *p, enum page_part k)
{
	fputs(p->d->open[k], p->f);
}

void page_close(const struct page *p, enum page_part k)
{
	fputs(p->d->close[k], p->f);
}

void page_words(const struct page *p, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	p->d->words(p->f, buf);
}

void page_group(const struct page *p, const char *kernel, const char *variant,
		const char *params)
{
	p->d->text(p->f, kernel);
	p->d->words(p->f, "/");
	p->d->text(p->f, variant);
	p->d->words(p->f, "/");
	p->d->text(p->f, params);
}

void page_place(const struct page *p, const char *file, int line)
{
	size_t size = (file ? strlen(file) : 1) + 16;
	char *place = malloc(size);
	if (!place) {
		p->d->code(p->f, "?");
		return;
	}
	snprintf(place, size, "%s:%d", file ? file : "?", line);
	p->d->code(p->f, place);
	free(place);
}

/* A note a reader needs before the list, in the gate's words. */
static void print_note(const struct page *p, const char *fmt, ...)
{
	char buf[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	page_open(p, PAGE_NOTE);
	p->d->words(p->f, buf);
	page_close(p, PAGE_NOTE);
}

/* The baseline's note (its names the gate did not write). */
static void print_baseline_note(const struct page *p, const struct run_result *r)
{
	page_open(p, PAGE_NOTE);
	p->d->prose(p->f, r->baseline_note);
	page_close(p, PAGE_NOTE);
}

/* The notes: the machine moved, samples were disturbed, the software
 * changed (the baseline's note). */
static void print_notes(const struct page *p, const struct run_result *r)
{
	double shift;
	size_t shifted = result_tally_machine_shift(r, &shift);
	char held[200];
	const char *cause = format_code_cause(r, held, sizeof held) ? held : NULL;
	if (shifted && fabs(shift) >= RESULT_SHIFT_NOTABLE)
		print_note(p, "The %zu compared timing series moved by a median of %+.1f%% since "
			   "the baseline: %s.", shifted, 100 * shift, cause ? cause
			   : "when every kernel moves at once, the machine's state is the likelier "
			     "cause");
	char reference[400];
	if (r->reference.state == REFERENCE_MOVED || r->reference.state == REFERENCE_NO_BASELINE ||
	    r->reference.state == REFERENCE_UNSURE || r->reference.faster)
		if (format_reference(r, reference, sizeof reference))
			print_note(p, "Machine: %s.", reference);
	size_t disturbed, samples;
	result_tally_disturbed(r, &disturbed, &samples);
	if (disturbed)
		print_note(p, "%zu of %zu timing samples were disturbed (other tasks held their "
			   "CPU or the machine) and left out of timing verdicts.", disturbed, samples);
	if (r->baseline_note)
		print_baseline_note(p, r);
}

/* The plan: platform, tier, commit, baseline (or gate ab's sides), gates. */
static void print_plan(const struct page *p, const struct run_result *r)
{
	FILE *f = p->f;
	page_open(p, PAGE_LINE);
	p->d->words(f, "Platform ");
	p->d->code(f, r->ctx.platform_key ? r->ctx.platform_key : "?");
	p->d->words(f, ", ");
	p->d->text(f, r->ctx.tier ? r->ctx.tier : "?");
	p->d->words(f, " tier, commit ");
	p->d->text(f, r->ctx.commit ? r->ctx.commit : "?");
	p->d->words(f, r->comparison ? ", " : r->baseline_written ? ", baseline written: "
		    : ", baseline ");
	p->d->text(f, r->comparison ? r->comparison
		   : r->baseline_written ? r->baseline_written
		   : r->baseline_path ? r->baseline_path : "none");
	if (r->policy.recorded) {
		char gates[120];
		format_gates(&r->policy, gates, sizeof gates);
		page_words(p, "; gating %s", gates);
	}
	p->d->words(f, ".");
	page_close(p, PAGE_LINE);
}

/* gate ab: how its samples were taken (duet; interleaved says it in the
 * plan) and how many rounds it took. */
static void print_schedule(const struct page *p, const struct run_result *r)
{
	if (r->schedule.mode == AB_MODE_DUET) {
		char how[600];
		format_ab_schedule(&r->schedule, how, sizeof how);
		page_open(p, PAGE_LINE);
		p->d->words(p->f, "Sampling: ");
		p->d->text(p->f, how);
		p->d->words(p->f, ".");
		page_close(p, PAGE_LINE);
	}
	char rounds[300];
	format_ab_rounds(&r->schedule, r->policy.min_effect, rounds, sizeof rounds);
	if (*rounds) {
		page_open(p, PAGE_LINE);
		p->d->text(p->f, rounds);
		p->d->words(p->f, ".");
		page_close(p, PAGE_LINE);
	}
}

/* The counts by verdict in one line. */
static void print_counts(const struct page *p, const struct run_result *r)
{
	size_t sv[VERDICT_ERROR + 1], ev[VERDICT_ERROR + 1], information, problems;
	char line[1024];
	size_t n = 0, moved = result_tally_not_gated(r);
	result_tally_verdicts(r, sv, ev, &information, &problems);
#define ADD(...) (n += (size_t)snprintf(line + n, n < sizeof line ? sizeof line - n : 0, \
					__VA_ARGS__))
	ADD("%zu series: %zu regressed, %zu improved, %zu inconclusive, %zu new, %zu not compared",
	    r->series_count, sv[VERDICT_FAIL], sv[VERDICT_IMPROVED], sv[VERDICT_INCONCLUSIVE],
	    sv[VERDICT_NEW], sv[VERDICT_SKIPPED]);
	if (moved)
		ADD(", %zu moved but not gated", moved);
	if (sv[VERDICT_ERROR])
		ADD(", %zu error", sv[VERDICT_ERROR]);
	ADD("; %zu expectations: %zu pass, %zu fail, %zu inconclusive, %zu skipped, %zu error",
	    r->expect_count - information, ev[VERDICT_PASS], ev[VERDICT_FAIL],
	    ev[VERDICT_INCONCLUSIVE], ev[VERDICT_SKIPPED], ev[VERDICT_ERROR]);
	if (ev[VERDICT_IMPROVED])
		ADD(", %zu hold now (failed on A)", ev[VERDICT_IMPROVED]);
	if (ev[VERDICT_FAIL_BOTH])
		ADD(", %zu fail before and after (not failures of this change)",
		    ev[VERDICT_FAIL_BOTH]);
	if (information)
		ADD(", %zu declared for other allocators (information)", information);
	ADD("; %zu problems; %.1f s; exit %d.", problems, r->wall_seconds, r->exit_code);
#undef ADD
	page_open(p, PAGE_LINE);
	p->d->words(p->f, line);
	page_close(p, PAGE_LINE);
}

void page_print_head(const struct page *p, const struct run_result *r)
{
	char words[64];
	bool nothing = page_nothing_moved(r);
	snprintf(words, sizeof words, "%s%s", gate_exit_word(r->exit_code),
		 nothing ? ": nothing changed" : "");
	p->d->verdict(p->f, r->exit_code == GATE_EXIT_OK, words);
	/* nothing measured (gate ab: every kernel the same code on both
	 * sides): the heading and why, not a platform line and a line of
	 * zeros that a reviewer would have to read to learn nothing */
	if (nothing && !r->series_count && !r->expect_count && !r->problem_count) {
		if (r->baseline_note)
			print_baseline_note(p, r);
		return;
	}
	page_open(p, PAGE_HEAD);
	print_plan(p, r);
	print_schedule(p, r);
	print_counts(p, r);
	page_close(p, PAGE_HEAD);
	print_notes(p, r);
}

/* page.h: what the pages a person reads say, the markdown summary
 * (report_markdown.h) and the HTML report (report_html.h): the verdict,
 * the plan and the counts, the notes a reader needs first, and the changed
 * groups (what broke with the places whose allocation calls changed, the
 * claims, the inconclusive ones, the problems, the information), written
 * once here through a dialect that says only how each part looks. So the
 * two pages cannot word a decision differently: the words are here and in
 * format.h, the markup in the dialect.
 *
 * A dialect's text rule receives every text the gate did not write
 * (escape.h); its words rule the gate's own (a number, a title). */
#ifndef GATE_PAGE_H
#define GATE_PAGE_H

#include <stdio.h>

#include "core/result.h"

/* The parts of a page, each opened and closed by the dialect's markup. */
enum page_part {
	PAGE_HEAD,        /* the lines under the verdict: the plan, the counts */
	PAGE_LINE,        /* one of them */
	PAGE_NOTE,        /* a note a reader needs before the lists */
	PAGE_HEADING,     /* a section's title */
	PAGE_PARA,        /* a paragraph: a group's name and place, a title with ':' */
	PAGE_LIST,        /* a list after a heading */
	PAGE_LIST_TIGHT,  /* a list right under a paragraph */
	PAGE_ITEM,
	PAGE_STRONG,
	PAGE_DETAILS,     /* a collapsed part */
	PAGE_SUMMARY,     /* its title, shown collapsed */
	PAGE_PARTS
};

struct page_dialect {
	const char *open[PAGE_PARTS], *close[PAGE_PARTS];
	/* text under the page's rule: a name, a note, a text the gate
	 * formatted around names */
	void (*text)(FILE *f, const char *s);
	/* the same, the gate's arrows (" -> ") drawn as the page draws them */
	void (*prose)(FILE *f, const char *s);
	/* the gate's own words (a title, a count): the markdown writes them
	 * as they are, its markup in them meant; HTML escapes them */
	void (*words)(FILE *f, const char *s);
	/* S as code (a place, a platform key) */
	void (*code)(FILE *f, const char *s);
	/* the page's title: "allocgate: " and WORDS ("FAIL", "PASS: nothing
	 * changed"), OK when the run passed */
	void (*verdict)(FILE *f, bool ok, const char *words);
};

struct page {
	FILE *f;
	const struct page_dialect *d;
};

/* The verdict, the plan of R (platform, tier, commit, baseline, gates),
 * gate ab's sampling and rounds, the counts by verdict, and the notes (the
 * machine moved, samples disturbed, the baseline's note). */
void page_print_head(const struct page *p, const struct run_result *r);

/* What changed, most decisive first: what broke (claims violated, then one
 * paragraph per group that regressed, with the places whose allocation
 * calls changed), gate ab's claims that fail before and after and those
 * that hold now, the inconclusive claims, those that could not be
 * checked, the problems, the allocation calls that moved where no count
 * regressed, the claims declared for other allocators, what moved but
 * does not gate (collapsed), and the counters the machine refused. */
void page_print_changes(const struct page *p, const struct run_result *r);

/* TEXT under RULE (a dialect's text rule), its arrows " -> " written as
 * ARROW: a dialect's prose. */
void page_arrows(FILE *f, const char *text, void (*rule)(FILE *f, const char *s),
		 const char *arrow);

/* Whether a passing run found nothing that moved: no series regressed or
 * improved (gated or not), no allocation site changed, no claim holds now
 * that failed on A, every kernel checked. */
bool page_nothing_moved(const struct run_result *r);

#endif

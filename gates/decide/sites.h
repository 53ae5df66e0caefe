/* sites.h: allocation site verdicts: which call sites of a variant
 * appeared, disappeared or changed their calls or bytes between a baseline
 * (or gate ab's side A) and this run. A changed site explains the exact
 * heap_* regression of its variant; the reporters put it at the site's own
 * file and line (docs/sites.md, "Allocation sites"). */
#ifndef GATE_SITES_H
#define GATE_SITES_H

#include "core/result.h"

/* Fills R->site_changes from R's sites against BEFORE's, for every
 * (kernel, variant, params) whose counted pass ran in both (a heap_calls
 * series on each side). A site is matched by file, line, kind and
 * function; a site of the cost pass only where both sides' cost passes
 * named sites for its variant; one left unmatched on both sides with the same file,
 * function, kind, calls and bytes at another line has moved (lines added
 * above it) and is no change. Nothing when either side recorded no sites.
 * Returns 0 or -ENOMEM. */
int sites_compare(struct run_result *r, const struct run_result *before);

/* The kinds of allocation call a site can be (core/result.h's
 * result_site_kind_known), in a fixed order. */
#define SITES_KINDS 8

/* What one place of the project's code changed in its allocation calls, for
 * one (kernel, variant, params): the changed sites of one file that lie
 * together (one function, or lines at most SITES_SHIFT_SPAN apart), their
 * calls summed by kind on each side. A realloc turned into malloc + copy +
 * free reads "realloc 14 -> malloc 14 + free 14" at its first line. */
struct site_shift {
	const char *file, *function;  /* borrowed from R's site changes (B's, else A's) */
	int line;                     /* the first changed line of B (else of A) */
	uint64_t before[SITES_KINDS], after[SITES_KINDS];  /* calls by kind */
	const char *via_before, *via_after;  /* a wrapper of each side, or NULL */
	bool named_by_b;              /* LINE and FUNCTION are B's */
	bool file_same;               /* FILE reads the same on both sides (gate ab) */
};

/* Lines further apart than this in one file, in two functions, are two
 * places (a function's length, about). */
#define SITES_SHIFT_SPAN 40

/* Whether site change I of R is the first of its (kernel, variant, params). */
bool sites_first_of_group(const struct run_result *r, size_t i);

/* The name of kind K (0 <= K < SITES_KINDS): "malloc", "calloc", ... */
const char *sites_kind_name(int k);

/* Fills OUT (room for MAX) with the places of (KERNEL, VARIANT, PARAMS) of R
 * whose allocation calls changed, in file and line order. A library's
 * changes without a line (line 0: its object, from the interposer) are
 * left out where a change of the same group has a line: the cost pass
 * named the place. Returns how many (at most MAX). */
size_t sites_shifts(const struct run_result *r, const char *kernel, const char *variant,
		    const char *params, struct site_shift *out, size_t max);

/* Whether (KERNEL, VARIANT, PARAMS) of R has a failing heap_*, proc_* or
 * cost_*_calls series: the regression its site changes explain. */
int sites_explain_failure(const struct run_result *r, const char *kernel, const char *variant,
			  const char *params);

#endif

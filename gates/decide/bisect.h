/* bisect.h: which commit changed an exact series (`gate bisect`).
 *
 * Counts and the cost pass's calls are exact: one measurement of a
 * revision says whether a series differs from the good revision's, so a
 * binary search over the commits between good and bad cannot be misled by
 * noise and needs ceil(log2(N)) probes for N commits. A revision that does
 * not build, or whose kernel is missing, is skipped as `git bisect skip`
 * skips it: the search probes a neighbour, and where only skipped commits
 * separate the last good from the first bad one it names that range
 * instead of a culprit. These functions decide; run/run_bisect.c builds,
 * measures and reports.
 */
#ifndef GATE_BISECT_H
#define GATE_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"

/* What a probed commit turned out to be. */
enum bisect_mark { BISECT_UNKNOWN, BISECT_GOOD, BISECT_BAD, BISECT_SKIP };

/* The commits after the good revision, oldest first; the last is the bad
 * revision (marked BISECT_BAD). */
struct bisect {
	enum bisect_mark *marks;
	size_t count;
};

/* The index of the commit to probe next: the unknown commit nearest the
 * middle of the commits between the last good one (or the good revision)
 * and the first bad one after it; -1 when none is left to probe (the
 * search is over: bisect_culprit). */
long bisect_next(const struct bisect *b);

/* After the search: the first bad commit, *FIRST = *LAST = its index, and
 * true; or, where skipped commits lie between the last good and the first
 * bad, the range of candidates *FIRST..*LAST (skipped ones and the bad
 * one) and false. */
bool bisect_culprit(const struct bisect *b, size_t *first, size_t *last);

/* Whether series S differs from series O (the same key) as an exact
 * measurement: allocation counts and bytes (heap_*, proc_*), system calls
 * (sys_*) and the cost pass's calls by any difference, the cost pass's
 * instructions by more than the relative TOLERANCE (those of threaded
 * kernels vary by a few parts per million); timing, page faults and
 * simulated cache misses never (they are not exact). */
bool bisect_series_moved(const struct series *s, const struct series *o, double tolerance);

/* How many series of B moved against A (bisect_series_moved), counting
 * a series on one side only as moved; the keys of those are "the
 * series that changed". When KEEP is not NULL, KEEP[i] is set for each
 * moved series i of B. */
size_t bisect_moved_count(const struct run_result *a, const struct run_result *b,
			  double tolerance, bool *keep);

/* One revision the search measured, in the order it was measured (the
 * good and the bad revision first). */
struct bisect_probe {
	char commit[41];
	char *subject;              /* its first line, may be NULL */
	enum bisect_mark mark;      /* GOOD, BAD or SKIP */
	char *why;                  /* SKIP: why (the build failed, no kernel ...) */
	bool cached;                /* measured by an earlier search (the cache) */
};

/* A search's outcome, rendered by report/report_bisect.c. */
struct bisect_outcome {
	char good[41], bad[41];
	size_t commits;             /* after good up to bad, first parents */
	size_t moved;               /* exact series that differ between good and bad; with
				     * TIMING, timing series of bad that gate ab found slower */
	bool timing;                /* --timing: gate ab's timing verdicts decided; AFTER is
				     * gate ab's result of good against the first bad commit */
	struct bisect_probe *probes;
	size_t probe_count;
	bool found;                 /* FIRST is the first bad commit */
	char first[41], last[41];   /* the first bad commit, or the range of candidates */
	char *first_subject;
	struct run_result before;   /* the last good revision's result */
	struct run_result after;    /* the first bad one's (site_changes against before) */
};

/* Frees what O owns. */
void bisect_outcome_free(struct bisect_outcome *o);

#endif

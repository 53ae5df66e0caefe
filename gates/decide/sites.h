/* sites.h: allocation site verdicts: which call sites of a variant
 * appeared, disappeared or changed their calls or bytes between a baseline
 * (or gate ab's side A) and this run. A changed site explains the exact
 * heap_* regression of its variant; the reporters put it at the site's own
 * file and line (docs/counters.md, "Allocation sites"). */
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

/* Whether (KERNEL, VARIANT, PARAMS) of R has a failing heap_*, proc_* or
 * cost_*_calls series: the regression its site changes explain. */
int sites_explain_failure(const struct run_result *r, const char *kernel, const char *variant,
			  const char *params);

#endif

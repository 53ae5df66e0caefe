/* stacks.h: what a run keeps of the allocation call stacks its cost pass
 * found (sample/cost_stacks.h; docs/cost.md, "Allocation call stacks"):
 * the bytes known of each, the stacks that explain a variant's calls, and
 * the other side's for the differential flame graphs. */
#ifndef GATE_STACKS_H
#define GATE_STACKS_H

#include "core/result.h"

/* The share of a region's allocator calls (of one variant) its kept stacks
 * explain, in percent: the rest is summed into one stack per entry point. A frame
 * narrower than 1% of a flame graph is a sliver no one reads, while the
 * tail below it (thread start and exit, a library's one-time setup: many
 * stacks of a few calls each) would fill the baseline file; the rest
 * stack still says how many calls were left out. */
#define STACKS_EXPLAINED_PERCENT 99

/* The stacks of a region kept whatever their share: a region of a few
 * stacks is kept whole, so that a change in a rare path (11 reallocs of
 * an array's growth beside 10,000 mallocs of its elements) is a stack of
 * its own on both sides, which the differential flame graph colours; the
 * bound cuts long tails only. */
#define STACKS_KEPT_MIN 32

/* Bytes where known: callgrind does not see a call's arguments, but the
 * counted build's site of the same (kernel, variant, params) at the same
 * file and line, of the same entry point (aligned_alloc and posix_memalign
 * for "aligned"), knows its bytes. Where exactly one stack reaches such a
 * site, that stack gets the site's bytes and bytes_known; a site two
 * stacks reach (a helper called from two callers, or one path in two
 * regions: the sites are per variant) leaves both unknown, since its bytes
 * cannot be shared out. Sites of the cost pass (no bytes)
 * are not used. */
void stacks_bytes(struct stacks *set, const struct run_result *r);

/* The bound: per (kernel, variant, params) and region, the stacks by
 * calls, largest first (ties in result_stack_order), at least
 * STACKS_KEPT_MIN of them and then until they explain at least
 * STACKS_EXPLAINED_PERCENT of the region's calls of every entry point
 * together; the others summed into one rest stack per entry point (calls
 * and instructions; no frames, no file, bytes unknown). A region that
 * already has a rest (a loaded file's) is left as it is. SET ends sorted
 * in result_stack_order. Returns 0 or -ENOMEM (SET unchanged). */
int stacks_bound(struct stacks *set);

/* What a run does with the stacks its cost pass filed into SET (R's
 * stacks or gate ab's side A's): stacks_bytes from R's counted sites, then
 * stacks_bound. 0 or -ENOMEM. */
int stacks_settle(struct stacks *set, const struct run_result *r);

/* R's stacks_before: copies of OTHER's stacks (the baseline's, or gate
 * ab's side A's) of every (kernel, variant, params) R has a series of;
 * recorded as OTHER was. Returns 0 or -ENOMEM. */
int stacks_take_before(struct run_result *r, const struct stacks *other);

#endif

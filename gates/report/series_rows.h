/* series_rows.h: the series that moved, as a person reads them. One fact
 * is often counted under several names: a free more per call is
 * cost_free_calls (the cost pass), heap_free_calls (the wrappers),
 * heap_blocks_freed (the blocks) and proc_free_calls (the interposer), all
 * 1 -> 2. Series of one (kernel, variant, params) that moved from the same
 * value to the same value are one row naming all their metrics
 * ("cost_free_calls, heap_free_calls, heap_blocks_freed, proc_free_calls
 * 1 -> 2"), in every renderer that lists moved series (the markdown's
 * paragraphs and table, the terminal's lines, the annotations): formatted
 * from the result only, nothing recomputed. */
#ifndef GATE_SERIES_ROWS_H
#define GATE_SERIES_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/group_key.h"
#include "core/result.h"

/* Which series of a run a renderer lists (group_key.h's pick): true for S
 * (ARG: the renderer's own, e.g. the group the row belongs to). */

/* Whether A and B are one fact under two names: the same (kernel,
 * variant, params), unit, verdict and gating, neither timing (a time
 * never equals another by more than chance), and the same values before
 * and after. */
bool series_rows_alike(const struct series *a, const struct series *b);

/* Whether series I of R is the first of its row among the series PICK
 * takes: no earlier one alike. */
bool series_rows_first(const struct run_result *r, size_t i, group_key_pick pick,
		       const void *arg);

/* The metrics of series I's row among those PICK takes (I's and every
 * other alike), in R's order, ", " between, into BUF of SIZE (a name that
 * does not fit is left out whole). Returns how many series the row has. */
size_t series_rows_metrics(const struct run_result *r, size_t i, group_key_pick pick,
			   const void *arg, char *buf, size_t size);

/* The rows of R's series that PICK takes (the first series of each, as an
 * index into R), the most decisive first: failing and gated, then failing
 * and not gated, then the rest; within each, the larger change (a move
 * from 0 the largest) first, then R's order. Into a malloc'd *ROWS (NULL
 * when none). Returns how many rows, or (size_t)-1 on no memory. */
size_t series_rows_ordered(const struct run_result *r, group_key_pick pick, const void *arg,
			   size_t **rows);

#endif

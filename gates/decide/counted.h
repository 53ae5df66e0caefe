/* counted.h: whether the counted build saw a group's allocations.
 *
 * The heap_* counts come from the counted build's wrappers, which see only
 * the calls of sources compiled with the counting include. When every
 * variant of a (kernel, params) group counts 0 heap_calls while another
 * counter of the same run saw allocation calls (the interposer's proc_*,
 * or the cost pass's cost_*_calls, which see every call of the process),
 * the allocation path is in code the counted build did not compile (a
 * prebuilt library, a source built without the Cflags): its heap_* zeros
 * are not measurements. A claim on them is an error, never a pass
 * (expect_eval.c), and the series are not compared; when no counter that
 * is compared saw the calls either (no interposer: only the cost pass did,
 * or the run has no cost pass and no interposer), the run fails with the
 * reason (counted_mark). */
#ifndef GATE_COUNTED_H
#define GATE_COUNTED_H

#include <stddef.h>

#include "core/result.h"

enum counted_sight {
	COUNTED_SEEN,        /* heap_* saw calls, or nothing says calls were made */
	COUNTED_BLIND_PROC,  /* heap_calls 0, the interposer's proc_*_calls > 0 */
	COUNTED_BLIND_COST,  /* heap_calls 0, no proc_*, the cost pass's calls > 0 */
};

/* How the counted build saw (KERNEL, PARAMS)'s allocations in R; when
 * blind, WHY (of SIZE) says so with the figures. */
enum counted_sight counted_sight(const struct run_result *r, const char *kernel,
				 const char *params, char *why, size_t size);

/* Every group of R the counted build was blind to: its heap_* series not
 * compared (the note says why), and where no compared counter saw the
 * calls (COUNTED_BLIND_COST) its heap_calls series an error and a problem
 * added: the run fails (exit 4) with the reason. */
void counted_mark(struct run_result *r);

#endif

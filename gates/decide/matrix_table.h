/* matrix_table.h: the claims x allocators table of `gate matrix`
 * (core/matrix.h) from one run result per allocator, all taken in the
 * same shuffled rounds. Nothing here measures; it reads the runs. */
#ifndef GATE_MATRIX_TABLE_H
#define GATE_MATRIX_TABLE_H

#include "core/matrix.h"
#include "core/result.h"

/* The counts that may explain a claim, looked up for every variant (and
 * region) its expression refers to; kept where the allocators' medians
 * differ. */
extern const char *const matrix_explaining_metrics[];

/* Fills M's claims, counts and speeds from RUNS[i], the run of
 * M->allocators[i] (whose expectations are evaluated: expect_check_kernels;
 * a missing allocator's run is empty). Claims are sorted by kernel,
 * parameter set (natural order) and line. Returns 0 or -ENOMEM. */
int matrix_table_build(struct matrix *m, const struct run_result *runs);

#endif

/* matrix.h: the result of `gate matrix`: every declared claim of the
 * kernels measured under every installed allocator in the same shuffled
 * rounds, as one table (claims x allocators), with the exact counts that
 * explain each claim and each variant's wall time against the first
 * allocator's. Built by decide/matrix_table.c from one run_result per
 * allocator; rendered by report/matrix_text.c (terminal),
 * report/matrix_markdown.c, report/matrix_json.c and report/matrix_svg.c. */
#ifndef GATE_MATRIX_H
#define GATE_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"

struct matrix_allocator {
	char *name;            /* the allocator's key name: "glibc", "jemalloc", "libfoo" */
	char *library;         /* the preloaded library; NULL for the C library's own */
	char *missing;         /* why it was not measured (not installed: which package);
				* NULL when measured */
};

/* One claim under one allocator. */
struct matrix_cell {
	bool measured;         /* false: the allocator is missing, or the claim was not
				* evaluated there */
	bool declared;         /* declared for this allocator: `gate run` gates it */
	enum verdict verdict;  /* pass (holds), fail, inconclusive, skipped, error */
	bool ratio;            /* estimate is lhs / rhs, else lhs - rhs */
	double estimate, ci_low, ci_high;
	size_t rounds;
};

/* A count that explains a claim: one metric of a variant it refers to,
 * its median under each allocator (NaN where not measured). */
struct matrix_count {
	char *variant, *metric;   /* "realloc_grow", "sys_mremap" or "free.page_faults" */
	double *medians;          /* allocator_count values */
};

struct matrix_claim {
	char *kernel, *params, *file, *expr;
	char *conditions;         /* as declared; NULL: everywhere */
	int line;
	struct matrix_cell *cells;   /* allocator_count cells */
	struct matrix_count *counts;
	size_t count_count;
};

/* One variant's wall time under each allocator against the first's, per
 * round (the rounds are shared, so the ratio is paired): median ratio and
 * its distribution-free interval; NaN where not measured. */
struct matrix_speed {
	char *kernel, *variant, *params;
	double *median_ns;           /* allocator_count values */
	double *ratio, *ci_low, *ci_high;
};

struct matrix {
	struct context ctx;          /* the machine (the first allocator's run) */
	struct matrix_allocator *allocators;
	size_t allocator_count;
	struct matrix_claim *claims;
	size_t claim_count;
	struct matrix_speed *speeds;
	size_t speed_count;
	char **problems;             /* "jemalloc: resize/realloc_grow/2MB_1KB sample: why" */
	size_t problem_count;
	size_t rounds;               /* measured rounds per group */
	size_t sample_failures;
	double wall_seconds;
	int exit_code;               /* 0, or 4 when samples failed, 3 nothing measured */
};

/* The index of allocator NAME in M, or -1. */
int matrix_allocator_index(const struct matrix *m, const char *name);

/* Adds R's problems to M, each once: a kernel's as "ALLOCATOR: kernel/
 * variant/params what: reason", a run-wide one (a refused counter) as
 * "what: reason". Returns 0 or -ENOMEM. */
int matrix_take_problems(struct matrix *m, const char *allocator, const struct run_result *r);

/* Frees everything M owns and zeroes it. */
void matrix_free(struct matrix *m);

#endif

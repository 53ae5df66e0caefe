/* diff.h: the difference of two result sets (`gate diff A.json B.json`).
 *
 * Pure records first, rendered second (diff_text.c): one row per
 * (kernel, variant, params, metric) present on either side, with the
 * median of each side and the change. A series present on one side only
 * is a row too, never dropped. Rows are grouped per (kernel, variant,
 * params); groups come in the order of their largest effect, and inside a
 * group the metrics that moved most come first, so a time regression is
 * shown next to the counts that explain it.
 */
#ifndef GATE_DIFF_H
#define GATE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/* One compared series; strings point into the two results. */
struct diff_row {
	const char *kernel, *variant, *params, *metric, *unit;
	enum metric_class cls;
	bool in_a, in_b;      /* which side has the series */
	double a, b;          /* medians (NaN on the side that lacks it) */
	double change;        /* b / a - 1; NaN when a side lacks it; +inf from 0 */
	double effect;        /* what rows are sorted by: |change|, one-sided rows first */
	double group_effect;  /* largest effect of its (kernel, variant, params) */
};

struct diff {
	struct diff_row *rows;
	size_t count;
};

/* Compares A (old) with B (new) into OUT. Returns 0 or -ENOMEM. */
int diff_compute(const struct run_result *a, const struct run_result *b, struct diff *out);

/* Removes the rows present on both sides with the same median. */
void diff_drop_unchanged(struct diff *d);

/* Frees the rows of D. */
void diff_free(struct diff *d);

/* Writes D as text to F: a header naming both sides (LABEL_A, LABEL_B and
 * their contexts), then one table per (kernel, variant, params). */
void diff_print_text(FILE *f, const struct diff *d, const char *label_a,
		     const struct context *ctx_a, const char *label_b,
		     const struct context *ctx_b);

/* Writes the allocation site changes of B against A (B->site_changes,
 * from decide/sites.h's sites_compare) to F: one line per changed site at
 * its file and line, or why there are none to compare. */
void diff_print_sites(FILE *f, const struct run_result *a, const struct run_result *b);

#endif

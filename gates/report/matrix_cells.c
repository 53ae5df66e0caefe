/* matrix_cells.c: what the matrix's renderers share (matrix_report.h): a
 * cell's words and estimate, and which counts a group shows once. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/matrix_report.h"
#include "core/group_key.h"

const char *matrix_cell_word(const struct matrix_cell *c)
{
	if (!c->measured)
		return "-";
	switch (c->verdict) {
	case VERDICT_PASS: return "holds";
	case VERDICT_FAIL: return "fails";
	case VERDICT_INCONCLUSIVE: return "inconclusive";
	case VERDICT_SKIPPED: return "skipped";
	default: return "error";
	}
}

void matrix_cell_estimate(const struct matrix_cell *c, char *buf, size_t size)
{
	if (!c->measured || !isfinite(c->estimate))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.3g [%.3g, %.3g]", c->estimate, c->ci_low, c->ci_high);
}

bool matrix_count_first(const struct matrix *m, size_t i, size_t k)
{
	const struct matrix_claim *c = &m->claims[i];
	const struct matrix_count *n = &c->counts[k];
	for (size_t j = 0; j <= i; j++) {
		const struct matrix_claim *d = &m->claims[j];
		if (!group_key_same(GROUP_KEY_OF(d->kernel, NULL, d->params),
				    GROUP_KEY_OF(c->kernel, NULL, c->params), GROUP_SCOPE_GROUP))
			continue;
		for (size_t l = 0; l < (j == i ? k : d->count_count); l++)
			if (!strcmp(d->counts[l].variant, n->variant) &&
			    !strcmp(d->counts[l].metric, n->metric))
				return false;
	}
	return true;
}

/* compare_baseline.c: a run against its baseline, its comparability
 * decided once (compare.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decide/comparable.h"
#include "decide/compare.h"
#include "decide/sites.h"

int compare_baseline(struct run_result *cur, const struct run_result *base,
		     struct comparability *c)
{
	memset(c, 0, sizeof *c);
	c->same_hardware = true;
	if (base) {
		comparable_decide(&base->ctx, &cur->ctx, c);
		free(cur->baseline_note);
		cur->baseline_note = comparable_note(c, cur->sites_recorded &&
							 !base->sites_recorded);
	}
	compare_run_with(cur, base, &cur->policy, c);
	return base && sites_compare(cur, base) ? -ENOMEM : 0;
}

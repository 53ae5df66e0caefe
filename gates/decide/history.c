/* history.c: the drift history of a baseline series (see history.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decide/history.h"
#include "core/digest.h"
#include "decide/stats.h"

const char *history_refusal(const struct series *now, const struct series *old,
			    const struct comparability *c)
{
	if (now->cls != METRIC_TIMING || old->cls != METRIC_TIMING)
		return "not a timing metric";
	if (!now->kernel_digest || !old->kernel_digest)
		return "kernel executable unknown";
	if (!digest_same_method(now->kernel_digest, old->kernel_digest))
		return "kernel digest of an older allocgate";
	if (strcmp(now->kernel_digest, old->kernel_digest))
		return "kernel executable changed";
	if (!c->same_hardware)
		return "hardware changed";
	if (c->software_changed)
		return "software changed";
	return NULL;
}

int history_carry(const struct series *old, double **out, size_t *n)
{
	size_t batches = old->batches, chunk = batches ? old->sample_count / batches : 0;
	size_t total = old->history_count + (chunk ? batches : 0), k = 0;
	double *all = calloc(total + 1, sizeof *all);

	*out = NULL;
	*n = 0;
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < old->history_count; i++)
		all[k++] = old->history[i];
	for (size_t b = 0; chunk && b < batches; b++) {
		double m = stats_median(old->samples + b * chunk, chunk);
		if (isfinite(m) && m > 0)
			all[k++] = m;
	}
	size_t skip = k > HISTORY_MAX ? k - HISTORY_MAX : 0;
	if (k - skip == 0) {
		free(all);
		return 0;
	}
	memmove(all, all + skip, (k - skip) * sizeof *all);
	*out = all;
	*n = k - skip;
	return 0;
}

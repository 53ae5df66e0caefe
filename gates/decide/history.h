/* history.h: what a baseline remembers of its earlier recordings.
 *
 * A timing metric's level moves with the machine's state over hours
 * (docs/noise.md, "Drift history"; measured:
 * docs/measurements.md#gate-run-against-the-committed-baseline-60-unchanged-runs),
 * which batches taken a minute apart by one `--update-baseline` never see. So each update
 * keeps, per timing series, the batch medians of the recordings before it
 * (the "history"), and the drift that sets the series' tolerance is taken
 * over the new batches and that history (compare_batch_drift). History is
 * only evidence of drift when nothing but time changed: it is carried only
 * from a recording of the same kernel executable (digest.h), on the same
 * hardware, with the same software context (libc, kernel, THP, ASLR,
 * tunables, environment, pinning, compiler, seed, best of; see
 * platform_software_diff). Anything else starts it afresh, so accepting an
 * intended change (a changed kernel executable) never widens a tolerance.
 */
#ifndef GATE_HISTORY_H
#define GATE_HISTORY_H

#include <stddef.h>

#include "core/result.h"
#include "decide/comparable.h"

/* Batch medians kept per series, the most recent ones: ten recordings of
 * three batches. */
#define HISTORY_MAX 30

/* Why NOW may not carry the history of OLD, whose recording's context
 * compared with NOW's as C says (comparable_decide, once per baseline), in
 * a few words ("kernel executable changed", ...: one of HISTORY_REASONS
 * static texts for two timing series); NULL when it may: both timing
 * series with the same kernel digest, the same hardware and no software
 * difference. */
#define HISTORY_REASONS 5
const char *history_refusal(const struct series *now, const struct series *old,
			    const struct comparability *c);

/* The history a new recording after OLD stores: OLD's history followed by
 * the medians of OLD's batches, at most HISTORY_MAX of the most recent.
 * Returns 0 with a malloc'd array in *OUT (NULL when *N is 0), or -ENOMEM. */
int history_carry(const struct series *old, double **out, size_t *n);

#endif

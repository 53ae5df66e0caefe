/* update.h: `--update-baseline`, and the context's counter summary. */
#ifndef GATE_UPDATE_H
#define GATE_UPDATE_H

#include "result.h"

/* Stores R as the baseline at PATH, keeping the series of OLD (may be
 * NULL) that R did not measure (another tier or kernel). Refuses when
 * SAMPLE_FAILURES > 0. Prints what changed. Returns 0, 4 when refused,
 * 2 when the file could not be written (the old one is left whole). */
int update_baseline(const struct run_result *r, const struct run_result *old,
		    const char *path, int sample_failures);

/* Sets r->ctx.counters to "available: ...; unavailable: ..." from the
 * counters the run saw. */
void update_counters_note(struct run_result *r);

#endif

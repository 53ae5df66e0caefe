/* unavailable.h: the `unavailable:` lines of the terminal report, one per
 * cause (perf_event_paranoid, no PMU, tracefs not mounted, ...) rather
 * than one per counter, and what the run measures instead. */
#ifndef GATE_UNAVAILABLE_H
#define GATE_UNAVAILABLE_H

#include <stdio.h>

#include "core/result.h"

/* Prints to F one "unavailable: NAMES: REASON" line per cause among R's
 * run-wide problems (kernel == NULL), counters with the same cause on one
 * line, then, when any was printed, one "measured instead:" line from
 * r->ctx.counters. Prints nothing when every counter was available. */
void unavailable_print(FILE *f, const struct run_result *r);

#endif

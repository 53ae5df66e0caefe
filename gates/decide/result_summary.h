/* result_summary.h: what a history keeps of a result
 * (core/result_history.h): per series its median, and for timing the
 * measured samples and their spread, which the change points of `gate
 * history` are found from (decide/change_scan.h). */
#ifndef GATE_RESULT_SUMMARY_H
#define GATE_RESULT_SUMMARY_H

#include "core/result.h"
#include "core/result_history.h"

/* The median absolute deviation of the finite values of V[0..N) from
 * MEDIAN (unscaled: multiply by 1.4826 for a normal's standard deviation);
 * NaN when none is finite. */
double result_summary_mad(const double *v, size_t n, double median);

/* R as a history run into OUT (zeroed first): its context's commit,
 * start, platform key and CPU, and every series with a finite median but
 * the scheduler's events and the machine's load, which follow the host
 * (change_scan.h). TIME (the commit's time, NULL: unknown) is the run's
 * time when given, else its start. Returns 0; -EINVAL when R records no
 * commit or start ("context.commit", "context.started_at" into *MISSING);
 * -ENOMEM. */
int result_summary_history(const struct run_result *r, const char *time,
			   struct history_run *out, const char **missing);

#endif

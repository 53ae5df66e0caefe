/* change_scan.h: the change points of a history of results
 * (core/result_history.h), series by series (core/change_points.h).
 *
 * The runs of one commit are one point: the median of their medians.
 * Commits come in the history's order (result_history_sort: commit time).
 * A series is one (platform, kernel, variant, params, metric): another
 * platform's runs are another series. How each is scanned (changepoint.h):
 *
 *   cost *_calls                       step rule, exact (tolerance 0)
 *   other cost instructions            step rule, POLICY_COST_TOLERANCE (0.2%):
 *                                      threaded regions' counts differ by a
 *                                      few parts per million between runs
 *   cost *_misses, cost_est_cycles     step rule, POLICY_COST_MISS_TOLERANCE
 *                                      (10%): simulated misses of threaded
 *                                      regions follow the interleaving
 *   class exact (counts)               step rule, exact (tolerance 0)
 *   class near, timing                 E-divisive means, the minimum effect
 *   scheduler events, machine load     not scanned: they follow the host's
 *                                      load, not the code (core/result.h)
 */
#ifndef GATE_CHANGE_SCAN_H
#define GATE_CHANGE_SCAN_H

#include <stdbool.h>

#include "core/change_points.h"
#include "core/result_history.h"

struct change_scan_options {
	const char *kernel;   /* only this kernel's series; NULL: all */
	const char *metric;   /* only this metric ("wall_ns" is also "free.wall_ns"); NULL: all */
	struct change_settings settings;
};

/* Whether METRIC ([REGION.]NAME) is METRIC_ASKED (NULL: any): the same
 * name, or the same after its region. */
bool change_scan_metric_matches(const char *metric, const char *metric_asked);

/* How series METRIC of class CLS is scanned (above): its method into
 * *METHOD and its tolerance into *TOLERANCE (the step rule's; E-divisive's
 * is MIN_EFFECT). Returns 0, or -1 for a series that is not scanned. */
int change_scan_method(const char *metric, enum metric_class cls, double min_effect,
		       enum change_method *method, double *tolerance);

/* The commits of H (sorted) and the change points of every series O asks
 * for into OUT (change_points_free). Returns 0 or -ENOMEM. */
int change_scan(const struct result_history *h, const struct change_scan_options *o,
		struct change_findings *out);

#endif

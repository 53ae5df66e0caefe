/* compare_counts.c: exact, near-exact and cost series against the other
 * side's, the same against a baseline and in gate ab (compare_common.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/compare_common.h"
#include "decide/stats.h"
#include "core/metric_name.h"

/* The range of B's finite samples; 0 when it has none. */
static double spread(const struct series *b)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < b->sample_count; i++) {
		if (isfinite(b->samples[i])) {
			lo = fmin(lo, b->samples[i]);
			hi = fmax(hi, b->samples[i]);
		}
	}
	return hi >= lo ? hi - lo : 0;
}

static void compare_exact(struct series *s, const struct run_policy *pol)
{
	s->test = "exact: median against baseline median, relative tolerance";
	double allowed = pol->exact_tolerance * s->baseline_median;
	double diff = s->median - s->baseline_median;
	s->verdict = diff > allowed ? VERDICT_FAIL : -diff > allowed ? VERDICT_IMPROVED : VERDICT_PASS;
	if (s->verdict != VERDICT_PASS)
		compare_note(s, "exact count changed: %.0f -> %.0f", s->baseline_median,
			     s->median);
}

static void compare_near(struct series *s, const struct series *b, const struct run_policy *pol)
{
	s->test = "near-exact: median against baseline median + spread + tolerance";
	double floor_ = strcmp(s->unit, "bytes") ? pol->near_floor : pol->near_floor_bytes;
	double allowed = pol->near_tolerance * s->baseline_median + spread(b) + floor_;
	double diff = s->median - s->baseline_median;
	s->verdict = diff > allowed ? VERDICT_FAIL : -diff > allowed ? VERDICT_IMPROVED : VERDICT_PASS;
	if (s->verdict != VERDICT_PASS)
		compare_note(s, "changed by %.0f, more than the allowed %.0f (tolerance + "
			     "baseline spread)", fabs(diff), allowed);
}

/* The change of simulated misses that the miss tolerance allows against
 * the other side's series B, on a region that ran THREADS threads. */
static double miss_allowance(const struct series *b, const struct run_policy *pol, double threads)
{
	double base = stats_median(b->samples, b->sample_count);
	return fmax(pol->cost_miss_tolerance * base, pol->drift_factor * spread(b)) +
	       pol->cost_miss_floor * threads;
}

/* cost_est_cycles is accesses + 4 x L1 misses + 30 x LL misses
 * (cost_estimated_cycles: L1 hits + 5 x LL hits + 35 x RAM accesses), so
 * the misses that their own tolerance allows move it by up to 4 and 30
 * cycles each: the cycles it may move by for them, from the other side's
 * misses of the same region in BASE (0 when BASE holds none). A layout
 * that touches three more cache lines (50 -> 53 misses, passed) must not
 * fail the estimate alone (+0.3%). */
static double est_cycles_miss_slack(const struct run_result *base, const struct series *s,
				    const struct run_policy *pol, double threads)
{
	static const char est[] = "cost_est_cycles";
	size_t len = strlen(s->metric), n = sizeof est - 1;
	if (!base || len < n || strcmp(s->metric + len - n, est))
		return 0;
	char name[256];
	snprintf(name, sizeof name, "%.*scost_l1_misses", (int)(len - n), s->metric);
	const struct series *l1 = result_find_series(base, s->kernel, s->variant, s->params, name);
	snprintf(name, sizeof name, "%.*scost_ll_misses", (int)(len - n), s->metric);
	const struct series *ll = result_find_series(base, s->kernel, s->variant, s->params, name);
	return (l1 ? 4 * miss_allowance(l1, pol, threads) : 0) +
	       (ll ? 30 * miss_allowance(ll, pol, threads) : 0);
}

/* Cost pass series (cost_dump.h): the tolerance comes from how much the other
 * side's cost samples differed (a baseline records at least three): the
 * measured determinism, never an assumed one. */
static void compare_cost(struct series *s, const struct series *b, const struct run_policy *pol,
			 double threads, const struct run_result *other)
{
	int misses = strstr(s->metric, "_misses") != NULL;
	int calls = strstr(s->metric, "_calls") != NULL;
	double base = s->baseline_median, d = spread(b);
	/* a threaded region: each thread's start, first allocation (arena,
	 * tcache) and exit take paths that follow the interleaving */
	double slack = calls || threads <= 1 ? 0 : pol->cost_thread_slack * threads;
	double allowed = misses ? miss_allowance(b, pol, threads)
			 : fmax(pol->cost_tolerance * base, pol->drift_factor * d) + slack +
				   est_cycles_miss_slack(other, s, pol, threads);
	double diff = s->median - base;
	s->test = "cost: median against the baseline's, tolerance max(floor, 3 x the spread "
		  "of its cost samples)";
	s->tolerance = base > 0 ? allowed / base : NAN;
	if (base > 0 && pol->drift_factor * d / base > pol->cost_advisory) {
		s->advisory = true;
		s->verdict = VERDICT_SKIPPED;
		compare_note(s, "advisory: the baseline's cost samples differ by up to %.1f%% "
			     "(threads scheduled differently under valgrind): shown, not gated",
			     100 * d / base);
		return;
	}
	s->verdict = diff > allowed ? VERDICT_FAIL : -diff > allowed ? VERDICT_IMPROVED : VERDICT_PASS;
	if (s->verdict != VERDICT_PASS)
		compare_note(s, "cost changed: %.0f -> %.0f", base, s->median);
}

/* Whether metric NAME is the interposer's proc_live_bytes or
 * proc_live_blocks: a region that starts threads also leaves the C
 * runtime's block of each thread stack it keeps for reuse, as many as
 * `ulimit -s` lets its stack cache hold (docs/counters.md), a setting of
 * the host, not of the code. */
static int is_proc_live(const char *metric)
{
	const char *base = strrchr(metric, '.');
	base = base ? base + 1 : metric;
	return !strcmp(base, "proc_live_bytes") || !strcmp(base, "proc_live_blocks");
}

void compare_counts(struct series *s, const struct series *b, const struct run_result *other,
		    const struct run_policy *pol, double threads)
{
	if (is_proc_live(s->metric) && threads > 1) {
		s->verdict = VERDICT_SKIPPED;
		compare_note(s, "%.0f threads: it also counts the C runtime's cached thread "
			     "stacks, which follow the host's ulimit -s: shown, not tested (%.0f)",
			     threads, s->median);
	} else if (metric_is_cost(s->metric))
		compare_cost(s, b, pol, threads, other);
	else if (s->cls == METRIC_EXACT)
		compare_exact(s, pol);
	else
		compare_near(s, b, pol);
}

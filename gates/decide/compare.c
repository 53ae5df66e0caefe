/* compare.c: baseline comparison by metric class (see compare.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/comparable.h"
#include "decide/compare.h"
#include "decide/compare_common.h"
#include "decide/counted.h"
#include "decide/interference.h"
#include "decide/reference.h"
#include "decide/stats.h"
#include "core/metric_name.h"

/* The finite samples of S that no other task disturbed, into OUT. */
static size_t finite_values(const struct series *s, double *out)
{
	size_t n = 0;
	for (size_t i = 0; i < s->sample_count; i++)
		if (isfinite(s->samples[i]) && !interference_sample_disturbed(s, i))
			out[n++] = s->samples[i];
	return n;
}

double compare_batch_drift(const struct series *s)
{
	size_t batches = s->batches && s->sample_count % s->batches == 0 ? s->batches : 0;
	if (batches < 2 && !s->history_count)
		return NAN;
	double overall = stats_median(s->samples, s->sample_count), drift = 0;
	if (!(overall > 0))
		return NAN;
	size_t chunk = batches >= 2 ? s->sample_count / batches : 0;
	for (size_t b = 0; chunk && b < batches; b++) {
		double m = stats_median(s->samples + b * chunk, chunk);
		if (isfinite(m))
			drift = fmax(drift, fabs(m / overall - 1));
	}
	/* Earlier recordings of the same executable on the same machine
	 * (history.h): the drift of hours that one recording's batches miss. */
	for (size_t i = 0; i < s->history_count; i++)
		if (isfinite(s->history[i]))
			drift = fmax(drift, fabs(s->history[i] / overall - 1));
	return drift;
}

static int has_nonpositive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return 1;
	return 0;
}

/* Whether samples X[0..NX) and Y[0..NY) are too few, or not all positive,
 * for a ratio and its interval: then why, into WHY. */
static bool samples_unfit(const double *x, size_t nx, const double *y, size_t ny, char *why,
			  size_t size)
{
	if (nx < 3 || ny < 3 || nx + ny < 8)
		snprintf(why, size, "too few samples to compare (%zu now, %zu in the baseline)", nx,
			 ny);
	else if (has_nonpositive(x, nx) || has_nonpositive(y, ny))
		snprintf(why, size, "values include zero; not compared as a ratio");
	else
		return false;
	return true;
}

/* Why timing series S cannot be compared with the baseline's B as a
 * ratio of samples X and Y; NULL when it can. Marks S advisory when that
 * is the reason. */
static const char *why_no_ratio(struct series *s, const struct series *b,
				const struct run_policy *pol, const double *x, size_t nx,
				const double *y, size_t ny)
{
	static char why[200];
	const char *never = compare_untested(s, false);
	if (never)
		snprintf(why, sizeof why, "%s", never);
	else if (compare_too_few_events(s, s->baseline_median, pol))
		snprintf(why, sizeof why, "too few events to compare as a ratio (baseline median "
			 "%.0f < %.0f)", s->baseline_median, pol->min_events);
	else if (s->tolerance > pol->advisory_tolerance) {
		char history[80] = "";
		if (b->history_count)
			snprintf(history, sizeof history, " and %zu batch medians of its earlier "
				 "recordings", b->history_count);
		s->advisory = true;
		snprintf(why, sizeof why, "advisory: the baseline's batches%s differ by up to "
			 "%.0f%%, so a change under %.0f%% cannot be told from this machine's drift",
			 history, 100 * s->drift, 100 * s->tolerance);
	} else if (!samples_unfit(x, nx, y, ny, why, sizeof why))
		return NULL;
	return why;
}

/* An advisory series' ratio and 95% interval, as a compared series has
 * them (left NaN where the samples give none): never its own verdict, but
 * evidence for the code slowing as a whole (decide/reference.h). */
static void advisory_interval(struct series *s, const double *x, size_t nx, const double *y,
			      size_t ny)
{
	double ratio, low, high;
	char why[100];
	if (samples_unfit(x, nx, y, ny, why, sizeof why) ||
	    stats_ratio_ci(x, nx, y, ny, 0.95, &ratio, &low, &high))
		return;
	s->change = ratio - 1;
	s->ci_low = low;
	s->ci_high = high;
}

/* Timing against the baseline's B, unpaired: sets the ratio, its interval
 * and the raw p; the verdict waits for the correction over the run
 * (compare_decide_timing). Returns whether S is one of those. */
static int timing_unpaired(struct series *s, const struct series *b,
			   const struct run_policy *pol)
{
	double *x = calloc(s->sample_count + 1, sizeof *x);
	double *y = calloc(b->sample_count + 1, sizeof *y);
	int ok = 0;
	if (!x || !y)
		goto out;
	size_t nx = finite_values(s, x), ny = finite_values(b, y);
	s->drift = compare_batch_drift(b);
	s->tolerance = isfinite(s->drift) ? fmax(pol->min_effect, pol->drift_factor * s->drift)
					  : pol->min_effect;
	/* a series never tested (scheduler events, the machine's load) says
	 * what the machine did, so its own disturbance is no verdict either */
	if (interference_too_few(nx, s->disturbed_count) && !compare_untested(s, false)) {
		s->verdict = VERDICT_INCONCLUSIVE;
		compare_note(s, "disturbed: %zu of %zu samples lost a median %.0f%% of the "
			     "region to waiting or to other processes (docs/counters.md, "
			     "\"Interference\"): timing not decided", s->disturbed_count,
			     s->sample_count, 100 * s->disturbed_share);
		goto out;
	}
	const char *why = why_no_ratio(s, b, pol, x, nx, y, ny);
	if (!why && stats_ratio_ci(x, nx, y, ny, 0.95, &s->change, &s->ci_low, &s->ci_high))
		why = "no 95% interval for these samples";
	if (why) {
		s->verdict = VERDICT_SKIPPED;
		compare_note(s, "%s", why);
		if (s->advisory)
			advisory_interval(s, x, nx, y, ny);
	} else {
		s->test = pol->fdr ? "timing: Hodges-Lehmann ratio, Moses 95% interval, Mann-Whitney "
				     "one-sided, Benjamini-Hochberg over the run, tolerance "
				     "max(minimum effect, 3 x drift)"
				   : "timing: Hodges-Lehmann ratio, Moses 95% interval, Mann-Whitney "
				     "one-sided, Holm over the run, tolerance max(minimum effect, 3 x drift)";
		s->change -= 1;
		s->p_value = stats_mann_whitney_p_greater(x, nx, y, ny);
		ok = 1;
	}
out:
	free(x);
	free(y);
	return ok;
}

/* The note of timing series S whose failure the machine's move explains:
 * REF's part that moved, or else the median SHIFT of N compared series. */
static void note_machine_move(struct series *s, const struct reference *ref, double shift,
			      size_t n)
{
	if (ref->state == REFERENCE_MOVED) {
		const struct reference_part *p = &ref->part[ref->shift_part];
		compare_note(s, "the machine moved: the reference workload's %s part slowed "
			     "by %+.1f%% [%+.1f%%, %+.1f%%] since the baseline, and this one's "
			     "%+.1f%% is within its %.0f%% tolerance of that (cost and counts "
			     "decide; `gate ab` measures both builds in the same rounds)",
			     result_reference_part_name(ref->shift_part), 100 * p->change,
			     100 * (p->ci_low - 1), 100 * (p->ci_high - 1), 100 * s->change,
			     100 * s->tolerance);
		return;
	}
	compare_note(s, "the machine moved: the %zu compared timing series slowed by a median "
		     "of %+.1f%% since the baseline (%s), and this one's %+.1f%% is within its "
		     "%.0f%% tolerance of that (cost and counts decide; `gate ab` measures both "
		     "builds in the same rounds)", n, 100 * shift,
		     ref->state == REFERENCE_UNSURE
		     ? "the reference workload neither held nor moved beyond doubt"
		     : "which has no reference workload of this version",
		     100 * s->change, 100 * s->tolerance);
}

/* A timing failure of CUR that the machine's own move explains. The move
 * is the reference workload's (decide/reference.h) where the baseline has
 * one: when it held, nothing is put down to the machine. Without one, the
 * run's compared timing series' median SHIFT stands for it. When the
 * machine slowed, a series fails only if it slowed past its tolerance
 * beyond that; the others are inconclusive, with the figures. Never turns
 * anything into a failure. */
static void discount_machine_shift(struct run_result *cur)
{
	const struct reference *ref = &cur->reference;
	size_t n = 0;
	double shift;
	if (ref->state == REFERENCE_HOLDS)
		return;
	if (ref->state == REFERENCE_MOVED)
		shift = ref->shift;
	else if (!(shift = result_timing_shift(cur, &n), n) || !(shift >= RESULT_SHIFT_NOTABLE))
		return;
	for (size_t i = 0; i < cur->series_count; i++) {
		struct series *s = &cur->series[i];
		if (s->cls != METRIC_TIMING || s->verdict != VERDICT_FAIL ||
		    (1 + s->change) / (1 + shift) >= 1 + s->tolerance)
			continue;
		s->verdict = VERDICT_INCONCLUSIVE;
		note_machine_move(s, ref, shift, n);
	}
}

/* Whether S's sample asked for the machine's core count (the probe's
 * cpu_count metric: thread_cache's "cores" sets run one thread per core)
 * on a machine with other cores than BASE's: its counts follow the cores. */
static bool follows_changed_cores(const struct run_result *cur, const struct run_result *base,
				  const struct series *s)
{
	return base->ctx.cpu_count != cur->ctx.cpu_count &&
	       result_find_series(cur, s->kernel, s->variant, s->params, "cpu_count");
}

/* Series S of this run against the baseline's B (of BASE): its figures,
 * then by class what may be compared (COST_KEY_CHANGED: why the cost pass
 * may not be, NULL when it may; CORES_CHANGED: its counts follow the
 * cores, which changed; THREADS: its sample's, on CORES). Sets *TIMED for
 * a timing series whose verdict waits for the correction over the run. */
static void against_baseline(struct series *s, const struct series *b,
			     const struct run_result *base, const struct run_policy *pol,
			     bool same_hardware, const char *cost_key_changed, bool cores_changed,
			     double threads, int cores, int *timed)
{
	compare_against(s, b);
	if (isnan(s->median)) {
		s->verdict = VERDICT_ERROR;
		compare_note(s, "no sample of this run succeeded");
	} else if (cost_key_changed && metric_is_cost(s->metric)) {
		s->verdict = VERDICT_SKIPPED;
		compare_note(s, "%s", cost_key_changed);
	} else if (s->cls != METRIC_TIMING && cores_changed) {
		s->verdict = VERDICT_SKIPPED;
		compare_note(s, "the parameter set runs a thread per core and the cores changed "
			     "since the baseline: counts not compared");
	} else if (s->cls != METRIC_TIMING) {
		compare_counts(s, b, base, pol, threads);
	} else if (!same_hardware) {
		s->verdict = VERDICT_SKIPPED;
		compare_note(s, "hardware changed since the baseline: timing not compared");
	} else if (cores > 0 && threads > cores && !result_metric_is_scheduling(s->metric)) {
		/* where the scheduler places more threads than cores decides the
		 * region's time (measured:
		 * docs/measurements.md#the-interference-figures); a claim compares
		 * it within a run, gate ab in the same rounds, and the cost pass
		 * counts its work */
		s->verdict = VERDICT_SKIPPED;
		compare_note(s, "%.0f threads on %d cores: where the scheduler puts them decides "
			     "the timing, so shown, not tested against the baseline", threads,
			     cores);
	} else {
		*timed = timing_unpaired(s, b, pol);
	}
}

/* How the timing series against a baseline are decided together: the
 * interval must lie above 1 as well as the adjusted p below alpha. */
static const struct compare_timing_rule baseline_rule = {
	.interval_too = true, .p_less = NULL, .test = "Mann-Whitney", .effect = "tolerance",
};

void compare_run(struct run_result *cur, const struct run_result *base,
		 const struct run_policy *pol, bool same_hardware)
{
	struct comparability c;
	memset(&c, 0, sizeof c);
	if (base)
		comparable_decide(&base->ctx, &cur->ctx, &c);
	c.same_hardware = same_hardware;
	compare_run_with(cur, base, pol, &c);
}

void compare_run_with(struct run_result *cur, const struct run_result *base,
		      const struct run_policy *pol, const struct comparability *c)
{
	int *timed = calloc(cur->series_count + 1, sizeof *timed);
	char cost_note[1200];
	const char *cost_changed = NULL;
	bool same_hardware = c->same_hardware;
	if (!timed)
		return;
	interference_mark(cur);
	reference_compare(&cur->reference, base ? &base->reference : NULL, same_hardware);
	if (base && *c->cost_why) {
		snprintf(cost_note, sizeof cost_note, "cost key changed since the baseline (%s): "
			 "cost not compared", c->cost_why);
		cost_changed = cost_note;
	}
	size_t near = 0;
	for (size_t i = 0; i < cur->series_count; i++) {
		struct series *s = &cur->series[i];
		const struct series *b = compare_match(s, base, &near);
		if (b)
			against_baseline(s, b, base, pol, same_hardware, cost_changed,
					 follows_changed_cores(cur, base, s),
					 compare_threads(cur, s), cur->ctx.cpu_count, &timed[i]);
	}
	compare_decide_timing(cur, pol, timed, &baseline_rule);
	discount_machine_shift(cur);
	counted_mark(cur);
	compare_apply_gates(cur, pol);
	/* a run without the cost pass (--no-cost, no valgrind) measures none */
	if (base)
		compare_report_missing(cur, base, !(cur->ctx.cost_tool && *cur->ctx.cost_tool),
				       "in the baseline but not measured by this run");
	free(timed);
}

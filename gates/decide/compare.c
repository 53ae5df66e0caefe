/* compare.c: baseline comparison by metric class (see compare.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/comparable.h"
#include "decide/compare.h"
#include "decide/counted.h"
#include "decide/interference.h"
#include "decide/reference.h"
#include "decide/stats.h"
#include "core/metric_name.h"

static void set_note(struct series *s, const char *fmt, double a, double b)
{
	char buf[200];
	snprintf(buf, sizeof buf, fmt, a, b);
	free(s->note);
	s->note = strdup(buf);
}

static void set_note3(struct series *s, const char *fmt, double a, double b, double c)
{
	char buf[200];
	snprintf(buf, sizeof buf, fmt, a, b, c);
	free(s->note);
	s->note = strdup(buf);
}

/* The finite samples of S that no other task disturbed, into OUT. */
static size_t finite_values(const struct series *s, double *out)
{
	size_t n = 0;
	for (size_t i = 0; i < s->sample_count; i++)
		if (isfinite(s->samples[i]) && !interference_sample_disturbed(s, i))
			out[n++] = s->samples[i];
	return n;
}

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
		set_note(s, "exact count changed: %.0f -> %.0f", s->baseline_median, s->median);
}

static void compare_near(struct series *s, const struct series *b, const struct run_policy *pol)
{
	s->test = "near-exact: median against baseline median + spread + tolerance";
	double floor_ = strcmp(s->unit, "bytes") ? pol->near_floor : pol->near_floor_bytes;
	double allowed = pol->near_tolerance * s->baseline_median + spread(b) + floor_;
	double diff = s->median - s->baseline_median;
	s->verdict = diff > allowed ? VERDICT_FAIL : -diff > allowed ? VERDICT_IMPROVED : VERDICT_PASS;
	if (s->verdict != VERDICT_PASS)
		set_note(s, "changed by %.0f, more than the allowed %.0f (tolerance + baseline spread)",
			 fabs(diff), allowed);
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
		char why[200];
		s->advisory = true;
		s->verdict = VERDICT_SKIPPED;
		snprintf(why, sizeof why, "advisory: the baseline's cost samples differ by up to "
			 "%.1f%% (threads scheduled differently under valgrind): shown, not gated",
			 100 * d / base);
		free(s->note);
		s->note = strdup(why);
		return;
	}
	s->verdict = diff > allowed ? VERDICT_FAIL : -diff > allowed ? VERDICT_IMPROVED : VERDICT_PASS;
	if (s->verdict != VERDICT_PASS)
		set_note(s, "cost changed: %.0f -> %.0f", base, s->median);
}

double compare_threads(const struct run_result *r, const struct series *s)
{
	const struct series *t = result_find_series(r, s->kernel, s->variant, s->params,
						    "threads");
	double n = t ? stats_median(t->samples, t->sample_count) : NAN;
	return n > 1 ? n : 1;
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
		set_note(s, "%.0f threads: it also counts the C runtime's cached thread stacks, "
			 "which follow the host's ulimit -s: shown, not tested (%.0f)", threads,
			 s->median);
	} else if (metric_is_cost(s->metric))
		compare_cost(s, b, pol, threads, other);
	else if (s->cls == METRIC_EXACT)
		compare_exact(s, pol);
	else
		compare_near(s, b, pol);
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

/* Why timing series S is never tested against the baseline, whatever its
 * samples; NULL when it may be. */
static const char *never_tested(const struct series *s)
{
	if (result_metric_is_counted(s->metric))
		return "one sample per batch (the counted pass) that varies between runs: shown, "
		       "not tested";
	if (result_metric_is_scheduling(s->metric))
		return "scheduler events: they follow the host's load and the threads' overlap, so "
		       "shown, not tested against the baseline";
	return NULL;
}

/* Why a timing series cannot be compared as a ratio; NULL when it can.
 * Marks S advisory when that is the reason. */
static const char *not_comparable(struct series *s, const struct series *b,
				  const struct run_policy *pol, const double *x, size_t nx,
				  const double *y, size_t ny)
{
	static char why[200];
	const char *never = never_tested(s);
	if (never)
		snprintf(why, sizeof why, "%s", never);
	else if (!strcmp(s->unit, "count") && s->baseline_median < pol->min_events)
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

/* Timing: sets ratio interval and raw p; the verdict waits for the correction. */
static int compare_timing(struct series *s, const struct series *b, const struct run_policy *pol)
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
	if (interference_too_few(nx, s->disturbed_count) && !never_tested(s)) {
		char note[300];
		snprintf(note, sizeof note, "disturbed: %zu of %zu samples lost a median %.0f%% of the "
			 "region to waiting or to other processes (docs/counters.md, "
			 "\"Interference\"): timing not decided",
			 s->disturbed_count, s->sample_count, 100 * s->disturbed_share);
		s->verdict = VERDICT_INCONCLUSIVE;
		free(s->note);
		s->note = strdup(note);
		goto out;
	}
	const char *why = not_comparable(s, b, pol, x, nx, y, ny);
	if (!why && stats_ratio_ci(x, nx, y, ny, 0.95, &s->change, &s->ci_low, &s->ci_high))
		why = "no 95% interval for these samples";
	if (why) {
		s->verdict = VERDICT_SKIPPED;
		free(s->note);
		s->note = strdup(why);
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

double *compare_adjusted(const struct run_result *r, const int *timed, const double *given,
			 void (*adjust)(const double *p, size_t n, double *adjusted))
{
	size_t n = 0;
	for (size_t i = 0; i < r->series_count; i++)
		n += !!timed[i];
	double *p = calloc(n + 1, sizeof *p), *adj = calloc(n + 1, sizeof *adj);
	double *out = calloc(r->series_count + 1, sizeof *out);
	if (!p || !adj || !out) {
		free(out);
		out = NULL;
		goto done;
	}
	for (size_t i = 0, j = 0; i < r->series_count; i++)
		if (timed[i])
			p[j++] = given ? given[i] : r->series[i].p_value;
	adjust(p, n, adj);
	for (size_t i = 0, j = 0; i < r->series_count; i++)
		out[i] = timed[i] ? adj[j++] : NAN;
done:
	free(p);
	free(adj);
	return out;
}

enum verdict compare_timing_verdict(double ratio, double tolerance, int significant,
				    double ci_high)
{
	if (ratio >= 1 + tolerance && significant)
		return VERDICT_FAIL;
	if (ratio <= 1 / (1 + tolerance) && ci_high < 1)
		return VERDICT_IMPROVED;
	return ratio >= 1 + tolerance ? VERDICT_INCONCLUSIVE : VERDICT_PASS;
}

/* Holm (or Benjamini-Hochberg) over every timing comparison, then the verdicts. */
static void decide_timing(struct run_result *cur, const struct run_policy *pol, int *timed)
{
	double *adj = compare_adjusted(cur, timed, NULL, pol->fdr ? stats_bh : stats_holm);
	for (size_t i = 0; adj && i < cur->series_count; i++) {
		if (!timed[i])
			continue;
		struct series *s = &cur->series[i];
		double ratio = s->change + 1, padj = adj[i], tol = s->tolerance;
		s->verdict = compare_timing_verdict(ratio, tol, s->ci_low > 1 && padj < pol->alpha,
						    s->ci_high);
		if (s->verdict == VERDICT_FAIL || s->verdict == VERDICT_INCONCLUSIVE)
			set_note3(s, pol->fdr ? "Mann-Whitney p = %.2g, BH-adjusted %.2g, tolerance %.0f%%"
					      : "Mann-Whitney p = %.2g, Holm-adjusted %.2g, tolerance "
						"%.0f%%", s->p_value, padj, 100 * tol);
	}
	free(adj);
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
	else if (!(shift = result_timing_shift(cur, &n), n) || !(shift >= COMPARE_SHIFT_NOTABLE))
		return;
	for (size_t i = 0; i < cur->series_count; i++) {
		struct series *s = &cur->series[i];
		if (s->cls != METRIC_TIMING || s->verdict != VERDICT_FAIL ||
		    (1 + s->change) / (1 + shift) >= 1 + s->tolerance)
			continue;
		char note[400];
		if (ref->state == REFERENCE_MOVED) {
			const struct reference_part *p = &ref->part[ref->shift_part];
			snprintf(note, sizeof note, "the machine moved: the reference workload's %s "
				 "part slowed by %+.1f%% [%+.1f%%, %+.1f%%] since the baseline, and this "
				 "one's %+.1f%% is within its %.0f%% tolerance of that (cost and counts "
				 "decide; `gate ab` measures both builds in the same rounds)",
				 result_reference_part_name(ref->shift_part), 100 * p->change,
				 100 * (p->ci_low - 1), 100 * (p->ci_high - 1), 100 * s->change,
				 100 * s->tolerance);
		} else {
			snprintf(note, sizeof note, "the machine moved: the %zu compared timing series "
				 "slowed by a median of %+.1f%% since the baseline (%s), and this "
				 "one's %+.1f%% is within its %.0f%% tolerance of that (cost and counts "
				 "decide; `gate ab` measures both builds in the same rounds)", n,
				 100 * shift, ref->state == REFERENCE_UNSURE
				 ? "the reference workload neither held nor moved beyond doubt"
				 : "which has no reference workload of this version", 100 * s->change,
				 100 * s->tolerance);
		}
		s->verdict = VERDICT_INCONCLUSIVE;
		free(s->note);
		s->note = strdup(note);
	}
}

static int group_ran(const struct run_result *cur, const struct series *b)
{
	for (size_t i = 0; i < cur->series_count; i++)
		if (!strcmp(cur->series[i].kernel, b->kernel) &&
		    !strcmp(cur->series[i].params, b->params))
			return 1;
	return 0;
}

static void report_missing(struct run_result *cur, const struct run_result *base)
{
	/* a run without the cost pass (--no-cost, no valgrind) measures none */
	bool cost_ran = cur->ctx.cost_tool && *cur->ctx.cost_tool;
	for (size_t i = 0; i < base->series_count; i++) {
		const struct series *b = &base->series[i];
		if (!cost_ran && metric_is_cost(b->metric))
			continue;
		if (group_ran(cur, b) &&
		    !result_find_series(cur, b->kernel, b->variant, b->params, b->metric))
			result_add_problem(cur, b->kernel, b->variant, b->params, b->metric,
					   "in the baseline but not measured by this run");
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

static void compare_one(struct series *s, const struct series *b, const struct run_result *base,
			const struct run_policy *pol, bool same_hardware, const char *cost_key_changed, bool cores_changed,
			double threads, int cores, int *timed)
{
	s->has_baseline = true;
	s->baseline_median = stats_median(b->samples, b->sample_count);
	s->baseline_count = b->sample_count;
	s->change = s->baseline_median != 0 ? s->median / s->baseline_median - 1
					    : (s->median != 0 ? INFINITY : 0);
	if (isnan(s->median)) {
		s->verdict = VERDICT_ERROR;
		set_note(s, "no sample of this run succeeded", 0, 0);
	} else if (cost_key_changed && metric_is_cost(s->metric)) {
		s->verdict = VERDICT_SKIPPED;
		free(s->note);
		s->note = strdup(cost_key_changed);
	} else if (s->cls != METRIC_TIMING && cores_changed) {
		s->verdict = VERDICT_SKIPPED;
		set_note(s, "the parameter set runs a thread per core and the cores changed since "
			 "the baseline: counts not compared", 0, 0);
	} else if (s->cls != METRIC_TIMING) {
		compare_counts(s, b, base, pol, threads);
	} else if (!same_hardware) {
		s->verdict = VERDICT_SKIPPED;
		set_note(s, "hardware changed since the baseline: timing not compared", 0, 0);
	} else if (cores > 0 && threads > cores && !result_metric_is_scheduling(s->metric)) {
		/* where the scheduler places more threads than cores decides the
		 * region's time (measured:
		 * docs/measurements.md#the-interference-figures); a claim compares
		 * it within a run, gate ab in the same rounds, and the cost pass
		 * counts its work */
		char note[200];
		snprintf(note, sizeof note, "%.0f threads on %d cores: where the scheduler puts "
			 "them decides the timing, so shown, not tested against the baseline",
			 threads, cores);
		s->verdict = VERDICT_SKIPPED;
		set_note(s, note, 0, 0);
	} else {
		*timed = compare_timing(s, b, pol);
	}
}

unsigned compare_gate_class(const struct series *s)
{
	return metric_is_cost(s->metric) ? POLICY_GATE_COST
	       : s->cls == METRIC_TIMING ? POLICY_GATE_TIMING : POLICY_GATE_COUNTS;
}

void compare_apply_gates(struct run_result *r, const struct run_policy *pol)
{
	for (size_t i = 0; i < r->series_count; i++)
		r->series[i].gated = (pol->gates & compare_gate_class(&r->series[i])) != 0;
}

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
	for (size_t i = 0; i < cur->series_count; i++) {
		struct series *s = &cur->series[i];
		s->median = stats_median(s->samples, s->sample_count);
		s->p_value = s->ci_low = s->ci_high = NAN;
		const struct series *b = base ? result_find_series(base, s->kernel, s->variant,
								  s->params, s->metric) : NULL;
		if (!b) {
			s->verdict = isnan(s->median) ? VERDICT_ERROR : VERDICT_NEW;
			s->baseline_median = s->change = NAN;
			continue;
		}
		compare_one(s, b, base, pol, same_hardware, cost_changed,
			    follows_changed_cores(cur, base, s), compare_threads(cur, s),
			    cur->ctx.cpu_count, &timed[i]);
	}
	decide_timing(cur, pol, timed);
	discount_machine_shift(cur);
	counted_mark(cur);
	compare_apply_gates(cur, pol);
	if (base)
		report_missing(cur, base);
	free(timed);
}

/* compare_common.h: what a run against its baseline (compare.h) and gate
 * ab's side B against side A (compare_ab.h) do alike. Both match each
 * series with the other side's, take its figures, compare counts by the
 * same rules (compare_counts.c), leave the same timing series untested,
 * decide their timing verdicts together over the run, gate by the same
 * classes and report what the other side measured and this one did not.
 * Each keeps only what is its own: how timing is estimated (unpaired
 * against a baseline, paired round by round in gate ab) and its words.
 * Every threshold comes from the run policy passed in (core/policy.h). */
#ifndef GATE_COMPARE_COMMON_H
#define GATE_COMPARE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/policy.h"
#include "core/result.h"

/* Replaces S's note with FMT's text (printf). */
void compare_note(struct series *s, const char *fmt, ...)
#if defined(__MINGW_PRINTF_FORMAT)
	/* mingw-w64: printf checks msvcrt's formats, which lack %zu */
	__attribute__((format(__MINGW_PRINTF_FORMAT, 2, 3)))
#elif defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Starts the comparison of S: its median from its samples, its p and
 * interval NaN, and its match in OTHER (the same kernel, variant, params
 * and metric; NEAR: result_find_series_near's hint). Without one (or
 * without OTHER) S is new, or an error when no sample of it succeeded,
 * and its baseline median and change NaN. Returns the match or NULL. */
const struct series *compare_match(struct series *s, const struct run_result *other,
				   size_t *near);

/* Sets S's figures of the other side's series X: has_baseline,
 * baseline_median (X's median), baseline_count and change. */
void compare_against(struct series *s, const struct series *x);

/* Why timing series S is never tested, whatever its samples, as its note
 * says it in the words of the baseline comparison or, with AB, of gate
 * ab's: the counted pass's (one sample per batch, copied into its rounds),
 * the machine's load (the same for every sample of a round) or the
 * scheduler's events (they follow the host's load and the threads'
 * overlap). Such a series is shown, and its own disturbance is no verdict
 * either. NULL when S is tested. */
const char *compare_untested(const struct series *s, bool ab);

/* Whether count series S (unit "count") has too few events to compare as
 * a ratio: the other side's median OTHER_MEDIAN below POL's min_events. */
bool compare_too_few_events(const struct series *s, double other_median,
			    const struct run_policy *pol);

/* The p-values of the series of R whose TIMED entry is set (their p_value
 * fields, or P's entries when P is given, indexed like R's series)
 * adjusted together by ADJUST (stats_holm, stats_bh), as an array indexed
 * like R's series (NaN where not timed); NULL on no memory. Free it. */
double *compare_adjusted(const struct run_result *r, const int *timed, const double *p,
			 void (*adjust)(const double *p, size_t n, double *adjusted));

/* A timing verdict: fail when RATIO (now / before) reaches 1 + TOLERANCE
 * and the test said SIGNIFICANT; improved when it is at most
 * 1 / (1 + TOLERANCE) and the interval's upper bound CI_HIGH is below 1;
 * inconclusive when it reaches the tolerance without significance. */
enum verdict compare_timing_verdict(double ratio, double tolerance, int significant,
				    double ci_high);

/* How one comparison decides its timing series together. */
struct compare_timing_rule {
	bool interval_too;       /* a regression's interval must lie above 1 as well
				  * as its adjusted p below alpha (against a baseline) */
	const double *p_less;    /* gate ab: each series' one-sided p that it got faster,
				  * indexed like R's series: an improvement must be
				  * significant after the adjustment too; NULL: the
				  * interval decides an improvement */
	const char *test;        /* the test in the note: "Mann-Whitney", "signed-rank" */
	const char *effect;      /* the tolerance in the note: "tolerance", "minimum effect" */
};

/* Decides every series of R whose TIMED entry is set (its change, interval
 * and raw p_value measured) by compare_timing_verdict under RULE, its p
 * adjusted over all of them (Holm, or Benjamini-Hochberg with POL's fdr);
 * a failure or inconclusive one says its figures in its note ("TEST p =
 * 0.001, Holm-adjusted 0.02, EFFECT 5%"). */
void compare_decide_timing(struct run_result *r, const struct run_policy *pol, const int *timed,
			   const struct compare_timing_rule *rule);

/* Adds to R a problem (REASON) for every series of OTHER that R lacks, in
 * a group (kernel, params) R ran, of a variant it asked for (--variant);
 * with SKIP_COST, not for the cost pass's
 * series (R ran none). */
void compare_report_missing(struct run_result *r, const struct run_result *other, bool skip_cost,
			    const char *reason);

/* Threads the sample of S ran on (the probe's "threads" metric of the
 * same kernel, variant and params in R); 1 when it reported none. */
double compare_threads(const struct run_result *r, const struct series *s);

/* The POLICY_GATE_* class of S: cost for the cost pass's counts, timing
 * for timing series, counts for the other counts. */
unsigned compare_gate_class(const struct series *s);

/* Sets every series' GATED from POL's gates: a class left out is still
 * compared, and reported as information (never failing the run). */
void compare_apply_gates(struct run_result *r, const struct run_policy *pol);

/* compare_counts.c: exact and near-exact series S (median set) against B,
 * whose median is in S->baseline_median, S's sample having run THREADS
 * threads: sets S's test, verdict and note. OTHER is the result B belongs
 * to (the baseline, or gate ab's side A): a cost estimate is allowed what
 * its region's misses there are allowed. proc_live_bytes and
 * proc_live_blocks of a region of more than one thread are not compared
 * (VERDICT_SKIPPED, the note says why): they follow the host's stack
 * limit. */
void compare_counts(struct series *s, const struct series *b, const struct run_result *other,
		    const struct run_policy *pol, double threads);

#endif

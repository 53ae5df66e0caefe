/* compare.h: every series of a run against the stored baseline.
 *
 * exact:  median against baseline median, relative tolerance (default 1%).
 * cost:   the cost pass's counts (cost_*): against the baseline's median,
 *         tolerance from the spread of its cost samples (COMPARE_COST_*),
 *         compared whenever the cost key matches (platform_same_cost_key),
 *         whatever the hardware.
 * near:   median against the baseline's median plus its own spread plus a
 *         relative tolerance (default 10%) and an absolute floor.
 * timing: only when the hardware matches; Hodges-Lehmann ratio and Moses
 *         interval, one-sided Mann-Whitney p adjusted by Holm over every
 *         timing comparison of the run, and a tolerance: a regression is a
 *         ratio >= 1 + tolerance that is also significant, where tolerance is
 *         the minimum effect or three times the drift between the baseline's own
 *         batches (--runs), whichever is larger.
 */
#ifndef GATE_COMPARE_H
#define GATE_COMPARE_H

#include <stdbool.h>
#include "cli/run_options.h"
#include "core/result.h"

/* Absolute slack for near-exact counters (page faults): a kernel's fault
 * count moves by a few pages with ASLR and heap layout. */
#define COMPARE_NEAR_FLOOR 16.0

/* The same slack for near-exact byte counts (peak live bytes): which
 * thread's block is live at the peak depends on the interleaving, so the
 * peak moves by a few blocks per thread between runs; one page. */
#define COMPARE_NEAR_FLOOR_BYTES 4096.0

/* Timing counters in "count" units (context switches, migrations) below
 * this median are too few events to compare as a ratio. */
#define COMPARE_MIN_EVENTS 100.0

/* Timing tolerance is at least this many times the drift between the
 * baseline's batches: batches taken within a minute see less of the
 * machine's drift than a run taken hours later does. */
#define COMPARE_DRIFT_FACTOR 3.0

/* A timing metric whose tolerance (the minimum effect, or twice the drift
 * between the baseline's batches when that is larger) exceeds this is only
 * advisory: reported, never failing, since a change that size cannot be
 * told from the machine's own drift. */
#define COMPARE_ADVISORY_TOLERANCE 0.5

/* Cost pass series (cost_*) may change by this fraction of the
 * baseline's median (or by 3 x the spread of its cost samples, when
 * larger) before they fail: callgrind's counts of a single-threaded region
 * repeat exactly, a threaded one's within a few parts per million
 * (docs/counters.md); 0.2% still catches +1% of work. */
#define COMPARE_COST_TOLERANCE 0.002

/* Simulated cache misses (cost_l1_misses, cost_ll_misses) of a threaded
 * region move by a few percent with the threads' interleaving: 10% and 64
 * events per thread of slack; their weight in cost_est_cycles is gated at
 * the tolerance above. */
#define COMPARE_COST_MISS_TOLERANCE 0.10
#define COMPARE_COST_MISS_FLOOR 64.0

/* ... and a threaded region's instruction and cycle counts this many per
 * thread: thread start, first allocation (arena, tcache) and exit take
 * paths that follow the interleaving (measured: up to ~1,000 instructions
 * of malloc per thread, docs/counters.md). */
#define COMPARE_COST_THREAD_SLACK 4096.0

/* A cost series whose baseline samples differ by more than this fraction
 * (times the drift factor) is advisory: shown, never failing. */
#define COMPARE_COST_ADVISORY 0.10

/* The p-values of the series of R whose TIMED entry is set (their p_value
 * fields) adjusted together by ADJUST (stats_holm, stats_bh), as an array
 * indexed like R's series (NaN where not timed); NULL on no memory. Free it. */
double *compare_adjusted(const struct run_result *r, const int *timed,
			 void (*adjust)(const double *p, size_t n, double *adjusted));

/* A timing verdict: fail when RATIO (now / before) reaches 1 + TOLERANCE
 * and the test said SIGNIFICANT; improved when it is at most
 * 1 / (1 + TOLERANCE) and the interval's upper bound CI_HIGH is below 1;
 * inconclusive when it reaches the tolerance without significance. */
enum verdict compare_timing_verdict(double ratio, double tolerance, int significant,
				    double ci_high);

/* Exact or near-exact series S (median set) against B, whose median is in
 * S->baseline_median, S's sample having run THREADS threads: sets S's
 * test, verdict and note. */
void compare_counts(struct series *s, const struct series *b, const struct run_options *o,
		    double threads);

/* Threads the sample of S ran on (the probe's "threads" metric of the
 * same kernel, variant and params in R); 1 when it reported none. */
double compare_threads(const struct run_result *r, const struct series *s);

/* Largest |batch median / overall median - 1| over the batches of S
 * (consecutive equal chunks of its samples) and the batch medians of its
 * history (earlier recordings, history.h); NaN when S has one batch and no
 * history. */
double compare_batch_drift(const struct series *s);

/* Compares CUR's series with BASE's (matched by kernel, variant, params,
 * metric) and sets their baseline fields and verdicts. SAME_HARDWARE false
 * skips timing series with a note. Series of BASE missing from CUR, for a
 * (kernel, params) that CUR ran, are added to CUR's problems. */
void compare_run(struct run_result *cur, const struct run_result *base,
		 const struct run_options *o, bool same_hardware);

#endif

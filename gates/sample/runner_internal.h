/* runner_internal.h: what the files of the runner share (runner.c, the
 * rounds; runner_sample.c, one sample; runner_counted.c and runner_cost.c,
 * a group's counted and cost passes). Not for use outside sample/runner*. */
#ifndef GATE_RUNNER_INTERNAL_H
#define GATE_RUNNER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "sample/kernel_info.h"
#include "sample/machine_load.h"
#include "sample/record.h"
#include "sample/runner.h"
#include "sample/spawn.h"

/* A variant that failed once (timed out, crashed, printed garbage) is not
 * sampled again in the run: a hanging allocator must not cost a timeout per
 * round (docs/robustness.md, "Time budget"). */
#define RUNNER_MAX_FAILURES 1

/* The items of a group's rounds (runner.c): item I is variant
 * ITEM_VARIANT[I] of side ITEM_SIDE[I]. */
struct runner_items {
	const struct runner_side *sides;
	size_t n;
	size_t *item_side, *item_variant;
	int *failures;             /* failed samples of each item */
	double *wall;              /* each item's wall time this round, NaN: none */
	size_t *series_hint;       /* where each item's first metric was filed: the
				    * next sample's lookups start there */
	size_t *load_hint;         /* where each item's others_cpu_permille is */
	bool *stopped;             /* items settled at a look: no more samples */
	size_t first_round;
	int failed;                /* samples that failed, deadline once */
	int late;                  /* the deadline passed (counted once) */
};

/* Whether item IT is sampled this round: not once its variant settled at a
 * look, nor after it failed or after the deadline (each counted as samples
 * not taken). */
int runner_item_may_run(struct runner_items *g, size_t it);

/* Takes item IT's sample of ROUND (< 0: warm-up) alone and files it. */
void runner_item_run(struct runner_items *g, size_t it, long round);

/* Files item IT's sample of ROUND: REC when TAKEN is 0 (freed here), else
 * the failure WHY. */
void runner_item_file(struct runner_items *g, size_t it, long round, int taken,
		      struct record *rec, const char *why);

/* Files the share of the machine's CPU time other processes took since
 * BEFORE as round ROUND's others_cpu_permille of each item of G whose wall
 * time this round is finite (runner_load.c). */
void runner_put_round_load(struct runner_items *g, const struct machine_load *before,
			   size_t round);

/* Raises each item's others_cpu_permille of rounds FIRST_ROUND to
 * FIRST_ROUND + ROUNDS to the share over all of them since BEFORE. */
void runner_put_group_load(const struct runner_side *sides, const size_t *item_side,
			   const size_t *item_variant, size_t n, const struct machine_load *before,
			   size_t first_round, size_t rounds);

/* One round of a duet group (runner_duet.c): the items in shuffled order,
 * the variants both sides have as simultaneous pairs on D's CPUs (swapped
 * in odd rounds), the rest alone. */
/* The CPUs a side of the duet group SIDES (A, B) needs: the larger of the
 * two parameter sets' `threads` (1 without), 0 when either asks for every
 * CPU (threads=0). */
long runner_duet_threads(const struct runner_side *sides);

void runner_duet_round(struct runner_items *g, long round, struct rng *rng,
		       struct runner_duet *d);

/* Last line of a child's stderr, for the report, into BUF. */
void runner_stderr_tail(const struct spawn_output *out, char *buf, size_t size);

/* Records run-wide problem WHAT (a refused counter) once per run. */
void runner_note_once(struct run_result *r, const char *what, const char *reason);

/* Records a refused counter once per run. */
void runner_note_unavailable(struct run_result *r, const struct record_unavailable *u);

/* Appends metric M of variant V of K on PARAMS as sample ROUND of its
 * series, padding skipped rounds with NaN; 0 or -1 on no memory. HINT
 * (result_find_series_near) is the caller's: where the series last filed
 * through it was, 0 before the first. */
int runner_put_sample(struct run_result *r, size_t *hint, const struct kernel_info *k, size_t v,
		      const char *params, const struct record_metric *m, size_t round);


/* Seconds a sample may take: TIMEOUT, or what is left of the deadline. */
double runner_sample_timeout(const struct runner_plan *o, double timeout);

/* Whether the run's --deadline has passed. */
int runner_deadline_passed(const struct runner_plan *o);

/* Runs one sample of VARIANT of K on P under O into REC; 0, or a negative
 * errno with WHY. */
int runner_sample_once(const struct kernel_info *k, const char *variant,
		       const struct kernel_paramset *p, const struct runner_plan *o,
		       struct record *rec, char *why, size_t why_size);

/* The sample's wall time (the first wall_ns metric, any region); NaN if none. */
double runner_record_wall_ns(const struct record *rec);

/* The counted pass of a group: a counted sample of each of the N items
 * (item I: variant ITEM_VARIANT[I] of side ITEM_SIDE[I]) that has failed
 * fewer than RUNNER_MAX_FAILURES times, copied into rounds FIRST_ROUND on. */
void runner_counted_pass(const struct runner_side *sides, size_t side_count,
			 const size_t *item_side, const size_t *item_variant, const int *failures,
			 size_t n, size_t first_round);

/* The cost pass of a group over the same items (cost_pass.h). */
void runner_cost_pass(const struct runner_side *sides, const size_t *item_side,
		      const size_t *item_variant, const int *failures, size_t n,
		      size_t first_round);

#endif

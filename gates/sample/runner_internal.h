/* runner_internal.h: what the files of the runner share (runner.c, the
 * rounds; runner_sample.c, one sample; runner_counted.c and runner_cost.c,
 * a group's counted and cost passes). Not for use outside sample/runner*. */
#ifndef GATE_RUNNER_INTERNAL_H
#define GATE_RUNNER_INTERNAL_H

#include <stddef.h>

#include "core/result.h"
#include "sample/kernel_info.h"
#include "sample/record.h"
#include "sample/runner.h"
#include "sample/spawn.h"

/* A variant that failed once (timed out, crashed, printed garbage) is not
 * sampled again in the run: a hanging allocator must not cost a timeout per
 * round (docs/robustness.md, "Time budget"). */
#define RUNNER_MAX_FAILURES 1

/* Last line of a child's stderr, for the report, into BUF. */
void runner_stderr_tail(const struct spawn_output *out, char *buf, size_t size);

/* Records run-wide problem WHAT (a refused counter) once per run. */
void runner_note_once(struct run_result *r, const char *what, const char *reason);

/* Records a refused counter once per run. */
void runner_note_unavailable(struct run_result *r, const struct record_unavailable *u);

/* Appends metric M of variant V of K on PARAMS as sample ROUND of its
 * series, padding skipped rounds with NaN; 0 or -1 on no memory. */
int runner_put_sample(struct run_result *r, const struct kernel_info *k, size_t v,
		      const char *params, const struct record_metric *m, size_t round);

/* FILE relative to the current directory CWD (the project the gate runs
 * in) when it lies below it, as the reporters name files; else as it is. */
const char *runner_relative_file(const char *file, const char *cwd);

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

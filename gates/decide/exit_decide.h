/* exit_decide.h: which exit status (core/exit_status.h) a command ends
 * with. The status is final before any report that prints it is
 * rendered, so that the summary line, the JSON's exit_code and the
 * markdown say what the process returns. */
#ifndef GATE_EXIT_DECIDE_H
#define GATE_EXIT_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"

/* A decided run R (`gate run`, `gate ab`) whose sampling lost
 * SAMPLE_FAILURES samples: USAGE when a gated expectation names a metric
 * nothing measures; else REGRESSION when a gated series or expectation
 * failed (the --gate policy says which series gate); else NOTHING_MEASURED
 * when no sample is finite (UNCHECKED when samples failed), unless no series
 * was taken because every kernel was A's code (gate ab); else UNCHECKED
 * when a gated series or expectation could not be checked or a sample
 * failed; else OK. */
enum gate_exit exit_decide_run(const struct run_result *r, int sample_failures);

/* `gate merge`: the N inputs' statuses STATUSES, leaving out those whose
 * EMPTY entry is set (a shard with nothing in it): REGRESSION when one
 * failed, UNCHECKED when one ended in another error, NOTHING_MEASURED when
 * one measured nothing, else OK. */
enum gate_exit exit_decide_merge(const int *statuses, const int *empty, size_t n);

/* `gate matrix` with SPEEDS speed cells and SAMPLE_FAILURES failed samples:
 * NOTHING_MEASURED without a speed, UNCHECKED when samples failed, else OK. */
enum gate_exit exit_decide_matrix(size_t speeds, size_t sample_failures);

/* Whether a run may be stored as the baseline (--update-baseline): only
 * when none of its SAMPLE_FAILURES happened; a baseline missing what a
 * failed sample would have measured would pass the next run unchecked. */
bool exit_decide_may_update(int sample_failures);

/* STATUS after --update-baseline answered UPDATE (OK: written): a refusal
 * (UNCHECKED) or a write that failed (USAGE) is the status, since the
 * baseline asked for was not stored. */
enum gate_exit exit_decide_after_update(enum gate_exit status, enum gate_exit update);

/* STATUS after a report file asked for (--json, --junit, --markdown,
 * --svg, the step summary) could not be written: USAGE unless STATUS
 * already says something is wrong. */
enum gate_exit exit_decide_after_write_failure(enum gate_exit status);

#endif

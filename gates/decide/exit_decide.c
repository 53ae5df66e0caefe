/* exit_decide.c: the exit status of a command (exit_decide.h). */
#include <math.h>

#include "decide/exit_decide.h"

static int has_finite_sample(const struct run_result *r)
{
	for (size_t i = 0; i < r->series_count; i++)
		for (size_t j = 0; j < r->series[i].sample_count; j++)
			if (isfinite(r->series[i].samples[j]))
				return 1;
	return 0;
}

/* Whether a gated expectation of R has VERDICT. */
static int gated_expect_is(const struct run_result *r, enum verdict verdict)
{
	for (size_t i = 0; i < r->expect_count; i++)
		if (r->expects[i].gated && r->expects[i].verdict == verdict)
			return 1;
	return 0;
}

/* Whether a gated series of R has VERDICT (a series the run's --gate
 * policy leaves out is measured and reported, never deciding). */
static int gated_series_is(const struct run_result *r, enum verdict verdict)
{
	for (size_t i = 0; i < r->series_count; i++)
		if (r->series[i].gated && r->series[i].verdict == verdict)
			return 1;
	return 0;
}

enum gate_exit exit_decide_run(const struct run_result *r, int sample_failures)
{
	/* a claim naming a metric nothing measures: the declaration is wrong
	 * (its file:line and the nearest name are in the report) */
	for (size_t i = 0; i < r->expect_count; i++)
		if (r->expects[i].gated && r->expects[i].unknown_metric)
			return GATE_EXIT_USAGE;
	if (gated_series_is(r, VERDICT_FAIL) || gated_expect_is(r, VERDICT_FAIL))
		return GATE_EXIT_REGRESSION;
	/* nothing measured because every kernel was A's code (gate ab): nothing
	 * can have changed, which is a pass, not a machine that measures nothing */
	if (!has_finite_sample(r) && !(r->same_code_kernels && !r->series_count))
		return sample_failures ? GATE_EXIT_UNCHECKED : GATE_EXIT_NOTHING_MEASURED;
	/* a series or claim that could not be checked: no sample, or a count
	 * nothing measured (decide/counted.h) */
	if (gated_series_is(r, VERDICT_ERROR) || gated_expect_is(r, VERDICT_ERROR) ||
	    sample_failures)
		return GATE_EXIT_UNCHECKED;
	return GATE_EXIT_OK;
}

enum gate_exit exit_decide_merge(const int *statuses, const int *empty, size_t n)
{
	int fail = 0, error = 0, unmeasured = 0;
	for (size_t i = 0; i < n; i++) {
		if (empty[i])
			continue;
		fail |= statuses[i] == GATE_EXIT_REGRESSION;
		unmeasured |= statuses[i] == GATE_EXIT_NOTHING_MEASURED;
		error |= statuses[i] != GATE_EXIT_OK && statuses[i] != GATE_EXIT_REGRESSION &&
			 statuses[i] != GATE_EXIT_NOTHING_MEASURED;
	}
	return fail ? GATE_EXIT_REGRESSION : error ? GATE_EXIT_UNCHECKED
		: unmeasured ? GATE_EXIT_NOTHING_MEASURED : GATE_EXIT_OK;
}

enum gate_exit exit_decide_matrix(size_t speeds, size_t sample_failures)
{
	return !speeds ? GATE_EXIT_NOTHING_MEASURED
	       : sample_failures ? GATE_EXIT_UNCHECKED : GATE_EXIT_OK;
}

enum gate_exit exit_decide_after_update(enum gate_exit status, enum gate_exit update)
{
	return update != GATE_EXIT_OK ? update : status;
}

enum gate_exit exit_decide_after_write_failure(enum gate_exit status)
{
	return status != GATE_EXIT_OK ? status : GATE_EXIT_USAGE;
}

bool exit_decide_may_update(int sample_failures)
{
	return sample_failures == 0;
}

/* test_expect_eval.c: gates/decide/expect_eval.c, declared expectations decided
 * on paired per-round values by the distribution-free interval of their
 * median. Every estimate and bound below is worked out by hand from the
 * rounds; nothing is measured.
 *
 * For n = 9 rounds at level 0.95 the interval is [x_(2), x_(8)] with
 * coverage 1 - 2 (1 + 9) / 2^9 = 1 - 20/512 = 0.9609375; for n = 7 it is
 * [x_(1), x_(7)] with 1 - 2/2^7 = 0.984375 (rank 2 would give
 * 1 - 16/128 = 0.875 < 0.95). See stats.h and Conover 3.2. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "decide/expect_eval.h"

#define ROUNDS 9
#define LEVEL 0.95
#define COVERAGE_9 (1.0 - 20.0 / 512.0)
#define COVERAGE_7 (1.0 - 2.0 / 128.0)

/* Rhs values of variant b: not constant, so that only pairing each round
 * gives the ratios below (the ratio of the pooled medians would not). */
static const double b_values[ROUNDS] = { 100, 200, 400, 100, 200, 400, 100, 200, 400 };

/* Per-round ratios a / b of each data set. */
static const double below[ROUNDS] = { 0.50, 0.52, 0.48, 0.51, 0.49, 0.53, 0.47, 0.50, 0.55 };
/* sorted: 0.47 0.48 0.49 0.50 0.50 0.51 0.52 0.53 0.55 -> median 0.50, [0.48, 0.53] */
static const double above[ROUNDS] = { 2.0, 2.5, 1.5, 3.0, 2.25, 1.75, 2.0, 4.0, 1.25 };
/* sorted: 1.25 1.5 1.75 2.0 2.0 2.25 2.5 3.0 4.0 -> median 2.0, [1.5, 3.0] */
static const double straddle[ROUNDS] = { 0.9, 1.1, 0.95, 1.05, 1.0, 0.8, 1.2, 0.85, 1.15 };
/* sorted: 0.8 0.85 0.9 0.95 1.0 1.05 1.1 1.15 1.2 -> median 1.0, [0.85, 1.15] */
static const double equal[ROUNDS] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };

static struct run_result r;
static struct kernel_info k;
static struct kernel_expect e;

static void setup(void)
{
	memset(&r, 0, sizeof r);
	memset(&k, 0, sizeof k);
	memset(&e, 0, sizeof e);
	k.name = "k";
	e.file = "kernels/k.c";
	e.line = 42;
}

static void teardown(void)
{
	result_free(&r);
}

static struct series *add(const char *kernel, const char *variant, const char *params,
			  const char *metric, const double *values, size_t n)
{
	struct series *s = result_add_series(&r, kernel, variant, params, metric, "ns",
					     METRIC_TIMING);
	cr_assert_not_null(s);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(result_series_append(s, values[i]), 0);
	return s;
}

/* Variant a of kernel k at params p has a_i = ratio_i * b_i; decoys of
 * another kernel and parameter set, which must never be read. */
static void add_pair(const double *ratios)
{
	double a[ROUNDS], decoy[12];
	for (size_t i = 0; i < ROUNDS; i++)
		a[i] = ratios[i] * b_values[i];
	for (size_t i = 0; i < 12; i++)
		decoy[i] = 1e9;
	add("k", "a", "p", "wall_ns", a, ROUNDS);
	add("k", "b", "p", "wall_ns", b_values, ROUNDS);
	add("k", "a", "q", "wall_ns", decoy, ROUNDS);
	add("other", "a", "p", "wall_ns", decoy, ROUNDS);
	add("other", "b", "p", "wall_ns", decoy, 12);
}

static const struct expect_result *evaluate(const char *expr)
{
	e.expr = (char *)expr;
	cr_assert_eq(expect_evaluate(&k, &e, "p", LEVEL, &r), 0);
	cr_assert_eq(r.expect_count, 1);
	return &r.expects[0];
}

static void expect_close(double got, double want)
{
	cr_expect(fabs(got - want) <= 1e-12 * fabs(want) + 1e-15, "got %.17g, want %.17g", got,
		  want);
}

TestSuite(expect_eval, .init = setup, .fini = teardown);

Test(expect_eval, ratio_estimate_interval_and_names)
{
	add_pair(below);
	const struct expect_result *x = evaluate("a.wall_ns < b.wall_ns");

	cr_expect_str_eq(x->kernel, "k");
	cr_expect_str_eq(x->params, "p");
	cr_expect_str_eq(x->file, "kernels/k.c");
	cr_expect_eq(x->line, 42);
	cr_expect_str_eq(x->expr, "a.wall_ns < b.wall_ns");
	cr_expect_eq(x->rounds, 9);
	cr_expect(x->ratio);
	cr_expect_eq(x->estimate, 0.50);
	cr_expect_eq(x->ci_low, 0.48, "x_(2) of the sorted ratios");
	cr_expect_eq(x->ci_high, 0.53, "x_(8) of the sorted ratios");
	expect_close(x->confidence, COVERAGE_9);
	cr_expect_eq(x->verdict, VERDICT_PASS);
	cr_expect_null(x->note);
}

Test(expect_eval, constant_factor_on_the_rhs)
{
	add_pair(below);
	/* a / (0.1 b) = 10 ratio: 5.0 median, [4.8, 5.3] */
	const struct expect_result *x = evaluate("a.wall_ns < 0.1 * b.wall_ns");

	cr_expect(x->ratio);
	expect_close(x->estimate, 5.0);
	expect_close(x->ci_low, 4.8);
	expect_close(x->ci_high, 5.3);
	cr_expect_eq(x->verdict, VERDICT_FAIL);
}

/* ---- every operator on passing, failing and straddling data ---- */

enum data_set { BELOW, ABOVE, STRADDLE, EQUAL };

struct verdict_case {
	char expr[32];
	enum data_set data;
	enum verdict want;
};

static struct verdict_case verdict_cases[] = {
	{ "a.wall_ns < b.wall_ns", BELOW, VERDICT_PASS },
	{ "a.wall_ns < b.wall_ns", ABOVE, VERDICT_FAIL },
	{ "a.wall_ns < b.wall_ns", STRADDLE, VERDICT_INCONCLUSIVE },
	{ "a.wall_ns < b.wall_ns", EQUAL, VERDICT_FAIL },
	{ "a.wall_ns <= b.wall_ns", BELOW, VERDICT_PASS },
	{ "a.wall_ns <= b.wall_ns", ABOVE, VERDICT_FAIL },
	{ "a.wall_ns <= b.wall_ns", STRADDLE, VERDICT_INCONCLUSIVE },
	{ "a.wall_ns <= b.wall_ns", EQUAL, VERDICT_PASS },
	{ "a.wall_ns > b.wall_ns", BELOW, VERDICT_FAIL },
	{ "a.wall_ns > b.wall_ns", ABOVE, VERDICT_PASS },
	{ "a.wall_ns > b.wall_ns", STRADDLE, VERDICT_INCONCLUSIVE },
	{ "a.wall_ns > b.wall_ns", EQUAL, VERDICT_FAIL },
	{ "a.wall_ns >= b.wall_ns", BELOW, VERDICT_FAIL },
	{ "a.wall_ns >= b.wall_ns", ABOVE, VERDICT_PASS },
	{ "a.wall_ns >= b.wall_ns", STRADDLE, VERDICT_INCONCLUSIVE },
	{ "a.wall_ns >= b.wall_ns", EQUAL, VERDICT_PASS },
	{ "a.wall_ns == b.wall_ns", BELOW, VERDICT_FAIL },
	{ "a.wall_ns == b.wall_ns", ABOVE, VERDICT_FAIL },
	{ "a.wall_ns == b.wall_ns", STRADDLE, VERDICT_INCONCLUSIVE },
	{ "a.wall_ns == b.wall_ns", EQUAL, VERDICT_PASS },
};

ParameterizedTestParameters(expect_eval, verdict_of_each_operator)
{
	return cr_make_param_array(struct verdict_case, verdict_cases,
				   sizeof verdict_cases / sizeof *verdict_cases);
}

ParameterizedTest(struct verdict_case *c, expect_eval, verdict_of_each_operator,
		  .init = setup, .fini = teardown)
{
	static const double *const sets[] = { below, above, straddle, equal };
	static const double medians[] = { 0.50, 2.0, 1.0, 1.0 };
	static const double lows[] = { 0.48, 1.5, 0.85, 1.0 };
	static const double highs[] = { 0.53, 3.0, 1.15, 1.0 };

	add_pair(sets[c->data]);
	const struct expect_result *x = evaluate(c->expr);

	cr_expect(x->ratio);
	cr_expect_eq(x->rounds, 9);
	expect_close(x->estimate, medians[c->data]);
	expect_close(x->ci_low, lows[c->data]);
	expect_close(x->ci_high, highs[c->data]);
	cr_expect_eq(x->verdict, c->want, "%s on data set %d: verdict %s, want %s", c->expr,
		     (int)c->data, result_verdict_name(x->verdict), result_verdict_name(c->want));
}

/* ---- difference mode: the rhs is not positive in every round ---- */

Test(expect_eval, difference_mode_zero_equals_zero_passes)
{
	const double zeros[ROUNDS] = { 0 };
	add("k", "a", "p", "moved", zeros, ROUNDS);
	const struct expect_result *x = evaluate("a.moved == 0");

	cr_expect_not(x->ratio, "a zero rhs forces lhs - rhs");
	cr_expect_eq(x->rounds, 9);
	cr_expect_eq(x->estimate, 0.0);
	cr_expect_eq(x->ci_low, 0.0);
	cr_expect_eq(x->ci_high, 0.0);
	expect_close(x->confidence, COVERAGE_9);
	cr_expect_eq(x->verdict, VERDICT_PASS);
}

Test(expect_eval, difference_mode_one_equals_zero_fails)
{
	const double ones[ROUNDS] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	add("k", "a", "p", "moved", ones, ROUNDS);
	const struct expect_result *x = evaluate("a.moved == 0");

	cr_expect_not(x->ratio);
	cr_expect_eq(x->estimate, 1.0);
	cr_expect_eq(x->ci_low, 1.0);
	cr_expect_eq(x->ci_high, 1.0);
	cr_expect_eq(x->verdict, VERDICT_FAIL);
}

Test(expect_eval, difference_mode_when_one_rhs_round_is_zero)
{
	/* b is 0 in round 4, so every round is lhs - rhs:
	 * a - b = 2 1 3 2 5 2 4 1 3 -> sorted 1 1 2 2 2 3 3 4 5, median 2, [1, 4] */
	const double a[ROUNDS] = { 12, 11, 13, 12, 5, 12, 14, 11, 13 };
	const double b[ROUNDS] = { 10, 10, 10, 10, 0, 10, 10, 10, 10 };
	add("k", "a", "p", "moved", a, ROUNDS);
	add("k", "b", "p", "moved", b, ROUNDS);
	const struct expect_result *x = evaluate("a.moved > b.moved");

	cr_expect_not(x->ratio);
	cr_expect_eq(x->estimate, 2.0);
	cr_expect_eq(x->ci_low, 1.0);
	cr_expect_eq(x->ci_high, 4.0);
	cr_expect_eq(x->verdict, VERDICT_PASS);
}

/* ---- failed rounds ---- */

Test(expect_eval, nan_rounds_are_skipped_and_not_counted)
{
	add_pair(below);
	/* Round 6 of a (ratio 0.47) and round 8 of b (ratio 0.55) failed:
	 * 0.48 0.49 0.50 0.50 0.51 0.52 0.53 are left, median 0.50 and, with
	 * n = 7, the interval [x_(1), x_(7)] = [0.48, 0.53]. */
	result_find_series(&r, "k", "a", "p", "wall_ns")->samples[6] = NAN;
	result_find_series(&r, "k", "b", "p", "wall_ns")->samples[8] = NAN;
	const struct expect_result *x = evaluate("a.wall_ns < b.wall_ns");

	cr_expect_eq(x->rounds, 7);
	cr_expect_eq(x->estimate, 0.50);
	cr_expect_eq(x->ci_low, 0.48);
	cr_expect_eq(x->ci_high, 0.53);
	expect_close(x->confidence, COVERAGE_7);
	cr_expect_eq(x->verdict, VERDICT_PASS);
}

Test(expect_eval, fewer_than_two_usable_rounds_is_an_error)
{
	const double a[ROUNDS] = { 1, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	const double b[ROUNDS] = { 2, 2, 2, 2, 2, 2, 2, 2, 2 };
	add("k", "a", "p", "wall_ns", a, ROUNDS);
	add("k", "b", "p", "wall_ns", b, ROUNDS);
	const struct expect_result *x = evaluate("a.wall_ns < b.wall_ns");

	cr_expect_eq(x->rounds, 1);
	cr_expect_eq(x->verdict, VERDICT_ERROR);
	cr_expect_str_eq(x->note, "fewer than 2 rounds with every referenced value (samples failed)");
	cr_expect(isnan(x->estimate));
}

/* ---- references without a series ---- */

Test(expect_eval, unavailable_counter_is_skipped_with_the_reason)
{
	add_pair(below);
	cr_assert_eq(result_add_problem(&r, NULL, NULL, NULL, "cycles",
					"no hardware PMU (perf_event_open: ENOENT)"), 0);
	const struct expect_result *x = evaluate("a.wall_ns < b.cycles");

	cr_expect_eq(x->verdict, VERDICT_SKIPPED);
	cr_expect_str_eq(x->note,
			 "b.cycles unavailable on this machine: no hardware PMU (perf_event_open: ENOENT)");
	cr_expect_eq(x->rounds, 0);
	cr_expect(isnan(x->estimate));
	cr_expect(isnan(x->ci_low));
	cr_expect(isnan(x->ci_high));
}

Test(expect_eval, unavailable_counter_of_a_region)
{
	add_pair(below);
	/* The runner records a refused counter once, without its region. */
	cr_assert_eq(result_add_problem(&r, NULL, NULL, NULL, "cycles", "no PMU"), 0);
	const struct expect_result *x = evaluate("a.free.cycles < b.free.cycles");

	cr_expect_eq(x->verdict, VERDICT_SKIPPED);
	cr_expect_str_eq(x->note, "a.free.cycles unavailable on this machine: no PMU");
}

Test(expect_eval, failed_sample_problem_does_not_explain_a_missing_counter)
{
	add_pair(below);
	/* A problem of a kernel (a failed sample) is not a refused counter. */
	cr_assert_eq(result_add_problem(&r, "k", "a", "p", "cycles", "crashed"), 0);
	const struct expect_result *x = evaluate("a.cycles < b.wall_ns");

	cr_expect_eq(x->verdict, VERDICT_ERROR);
	cr_expect(x->unknown_metric);
	cr_expect_str_eq(x->note,
			 "unknown metric a.cycles: no measurement of k/p has that name (misspelt, or "
			 "every sample of it failed; `gate list` names them)");
}

Test(expect_eval, misspelt_metric_is_an_error_naming_it)
{
	add_pair(below);
	const struct expect_result *x = evaluate("a.wall_ns < b.wall_sn");

	cr_expect_eq(x->verdict, VERDICT_ERROR);
	cr_expect(x->unknown_metric, "the run exits 2");
	cr_expect_str_eq(x->note, "unknown metric b.wall_sn: did you mean b.wall_ns?");
}

Test(expect_eval, misspelt_variant_is_an_error_naming_it)
{
	add_pair(below);
	const struct expect_result *x = evaluate("c.wall_ns < b.wall_ns");

	cr_expect_eq(x->verdict, VERDICT_ERROR);
	cr_expect_str_eq(x->note, "unknown metric c.wall_ns: did you mean b.wall_ns?");
}

Test(expect_eval, other_params_do_not_count_as_the_series)
{
	/* a exists only at params q: at p it is missing. */
	double v[ROUNDS] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	add("k", "a", "q", "wall_ns", v, ROUNDS);
	add("k", "b", "p", "wall_ns", v, ROUNDS);
	const struct expect_result *x = evaluate("a.wall_ns < b.wall_ns");

	cr_expect_eq(x->verdict, VERDICT_ERROR);
	cr_expect_str_eq(x->note, "unknown metric a.wall_ns: did you mean b.wall_ns?");
}

Test(expect_eval, parse_error_names_the_column)
{
	add_pair(below);
	const struct expect_result *x = evaluate("a.wall_ns <");

	cr_expect_eq(x->verdict, VERDICT_ERROR);
	cr_assert_not_null(x->note);
	cr_expect_eq(strncmp(x->note, "column 12: ", 11), 0, "note: %s", x->note);
	cr_expect_not_null(strstr(x->note, "end of input"), "note: %s", x->note);
	cr_expect_str_eq(x->expr, "a.wall_ns <", "the text is kept for the report");
}

Test(expect_eval, parse_error_in_the_middle_names_its_column)
{
	add_pair(below);
	const struct expect_result *x = evaluate("a.wall_ns < * b.wall_ns");

	cr_expect_eq(x->verdict, VERDICT_ERROR);
	cr_assert_not_null(x->note);
	cr_expect_eq(strncmp(x->note, "column 13: ", 11), 0, "note: %s", x->note);
}

/* ---- nothing measured is never a pass (decide/counted.h) ---- */

static const double zeros[ROUNDS] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
static const double calls[ROUNDS] = { 1998, 1998, 1998, 1998, 1998, 1998, 1998, 1998, 1998 };

Test(expect_eval, a_heap_count_the_counted_build_never_saw_is_an_error)
{
	/* the allocations happen in code the counted build did not compile:
	 * heap_* are 0, the interposer counted 1,998 reallocs */
	add("k", "a", "p", "heap_calls", zeros, ROUNDS);
	add("k", "a", "p", "heap_realloc_calls", zeros, ROUNDS);
	add("k", "a", "p", "proc_realloc_calls", calls, ROUNDS);
	const struct expect_result *x = evaluate("a.heap_realloc_calls < 32");

	cr_expect_eq(x->verdict, VERDICT_ERROR, "0 < 32 holds on nothing measured");
	cr_expect_not(x->unknown_metric);
	cr_assert_not_null(x->note);
	cr_expect(strstr(x->note, "a.heap_realloc_calls not measured: the counted build saw no "
			 "allocation call of k/p (heap_calls 0) while the interposer counted 1998"),
		  "%s", x->note);
	cr_expect(strstr(x->note, "through function pointers or hooks"), "%s", x->note);
	cr_expect(strstr(x->note, "proc_* and cost_*_calls count them"), "%s", x->note);
}

Test(expect_eval, the_interposer_count_of_the_same_group_is_measured)
{
	add("k", "a", "p", "heap_calls", zeros, ROUNDS);
	add("k", "a", "p", "proc_realloc_calls", calls, ROUNDS);
	const struct expect_result *x = evaluate("a.proc_realloc_calls < 2000");

	cr_expect_eq(x->verdict, VERDICT_PASS);
	cr_expect_str_eq(x->expr, "a.proc_realloc_calls < 2000");
	cr_expect_eq(x->lhs_median, 1998);
	cr_expect_eq(x->rhs_median, 2000);
}

Test(expect_eval, a_heap_count_of_zero_where_nothing_allocated_is_measured)
{
	/* no counter saw a call: 0 is the measurement */
	add("k", "a", "p", "heap_calls", zeros, ROUNDS);
	add("k", "a", "p", "proc_realloc_calls", zeros, ROUNDS);
	const struct expect_result *x = evaluate("a.heap_calls == 0");

	cr_expect_eq(x->verdict, VERDICT_PASS);
}

/* A declared variant whose every sample failed has no series: an error
 * (the failed samples exit 4), not a misspelling (exit 2). */
Test(expect_eval, a_variant_whose_samples_failed_is_no_misspelling)
{
	static char *variants[] = { "a", "b" };
	k.variants = variants;
	k.variant_count = 2;
	add("k", "b", "p", "wall_ns", b_values, ROUNDS);
	const struct expect_result *x = evaluate("a.wall_ns < b.wall_ns");
	cr_expect_eq(x->verdict, VERDICT_ERROR);
	cr_expect_not(x->unknown_metric);
	e.expr = "b.wall_sn < 1";
	cr_assert_eq(expect_evaluate(&k, &e, "p", LEVEL, &r), 0);
	cr_expect(r.expects[1].unknown_metric, "b was measured: its metric is misspelt");
}

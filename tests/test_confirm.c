/* test_confirm.c: gates/decide/confirm.c, when a second batch confirms a timing
 * regression (confirm_consistent); hand-computed cases. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decide/confirm.h"

Test(confirm, agreeing_batches_confirm)
{
	/* 2.00 and 1.90: 1.90 / (2.00 / 1.90) = 1.805 >= 1.10 */
	cr_expect(confirm_consistent(1.00, 0.90, 0.10));
	/* 1.18 and 1.16: 1.16 / 1.0172 = 1.140 >= 1.10 */
	cr_expect(confirm_consistent(0.18, 0.16, 0.10));
	/* 2.34 and 4.05 disagree, but 2.34 / 1.731 = 1.352 >= 1.25 */
	cr_expect(confirm_consistent(1.34, 3.05, 0.25));
}

Test(confirm, disagreeing_batches_are_drift)
{
	/* +61% then +20%: 1.20 / (1.61 / 1.20) = 0.894 < 1.10 */
	cr_expect_not(confirm_consistent(0.61, 0.20, 0.10));
	/* 1.52 and 1.41: 1.41 / 1.078 = 1.308 >= 1.25 */
	cr_expect(confirm_consistent(0.52, 0.41, 0.25));
	/* 1.18 and 1.13 at 10%: 1.13 / 1.044 = 1.082 < 1.10 */
	cr_expect_not(confirm_consistent(0.18, 0.13, 0.10));
}

Test(confirm, below_tolerance_is_not_confirmed)
{
	cr_expect_not(confirm_consistent(0.12, 0.09, 0.10), "9% < 10%");
	cr_expect_not(confirm_consistent(0.30, 0.30, 0.40), "30% < 40%");
}

Test(confirm, missing_or_absurd_values_are_not_confirmed)
{
	cr_expect_not(confirm_consistent(NAN, 0.5, 0.1));
	cr_expect_not(confirm_consistent(0.5, NAN, 0.1));
	cr_expect_not(confirm_consistent(-1.5, 0.5, 0.1));
}

/* A confirmation batch whose samples the machine disturbed decides
 * nothing, and the note says why (not a bare "not confirmed"). */
Test(confirm, a_disturbed_confirmation_batch_says_so)
{
	struct run_result r, again;
	memset(&r, 0, sizeof r);
	memset(&again, 0, sizeof again);
	struct series *s = result_add_series(&r, "toy", "single", "small", "wall_ns", "ns",
					     METRIC_TIMING);
	cr_assert_not_null(s);
	s->verdict = VERDICT_FAIL;
	s->change = 10.0;
	s->tolerance = 0.25;
	struct series *a = result_add_series(&again, "toy", "single", "small", "wall_ns", "ns",
					     METRIC_TIMING);
	cr_assert_not_null(a);
	a->verdict = VERDICT_INCONCLUSIVE;
	a->change = 11.0;
	a->note = strdup("disturbed: 9 of 9 samples lost a median 40% of the region");
	confirm_settle(&r, &again, "toy", "small");
	cr_expect_eq(r.series[0].verdict, VERDICT_INCONCLUSIVE);
	cr_expect(!r.series[0].confirmed);
	cr_expect(strstr(r.series[0].note, "confirmation batch +1100.0%: disturbed: 9 of 9"),
		  "%s", r.series[0].note);
	cr_expect(strstr(r.series[0].note, "not confirmed"), "%s", r.series[0].note);
	result_free(&r);
	result_free(&again);
}

/* What is confirmed: a run's suspects against a baseline of the same
 * hardware only, and a confirmation batch is timing alone. */
Test(confirm, only_against_a_baseline_of_the_same_hardware)
{
	struct comparability c;
	memset(&c, 0, sizeof c);
	c.same_hardware = true;
	cr_expect(confirm_against_baseline(true, &c));
	cr_expect_not(confirm_against_baseline(false, &c), "no baseline");
	c.same_hardware = false;
	cr_expect_not(confirm_against_baseline(true, &c), "another machine's numbers");
	cr_expect_not(confirm_against_baseline(true, NULL));
}

Test(confirm, a_batch_takes_the_timed_rounds_alone)
{
	cr_expect_not(confirm_takes_cost_pass(), "the cost pass's counts repeat exactly");
	cr_expect_not(confirm_takes_counted_pass(), "the counted pass's counts were decided by "
		      "the first batch");
}

/* test_confirm.c: gates/confirm.c, when a second batch confirms a timing
 * regression (confirm_consistent); hand-computed cases. */
#include <criterion/criterion.h>
#include <math.h>

#include "confirm.h"

Test(confirm, agreeing_batches_confirm)
{
	/* 2.00 and 1.90: discrepancy 5.3%, smaller change 90% >= max(10%, 10.5%) */
	cr_expect(confirm_consistent(1.00, 0.90, 0.10));
	/* 1.18 and 1.13: discrepancy 4.4%, 13% >= max(10%, 8.8%) */
	cr_expect(confirm_consistent(0.18, 0.13, 0.10));
}

Test(confirm, disagreeing_batches_are_drift)
{
	/* +61% then +20%: the ratios 1.61 / 1.20 differ by 34%, so 20% < 68% */
	cr_expect_not(confirm_consistent(0.61, 0.20, 0.10));
	/* 1.52 and 1.41 differ by 7.8%: 41% >= 15.6% holds */
	cr_expect(confirm_consistent(0.52, 0.41, 0.10));
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

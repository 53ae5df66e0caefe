/* test_runner.c: the pure decision of gates/sample/runner.c: when --warmup auto
 * stops warming up (two consecutive rounds agree within 10%). The rounds
 * themselves are covered end to end (tests/test_e2e*.c). */
#include <criterion/criterion.h>
#include <math.h>

#include "sample/runner.h"

Test(runner, warmup_rounds_agree_within_ten_percent)
{
	double prev[] = { 1000, 2000, 5e6 };
	double near[] = { 1099, 1801, 4.6e6 };   /* +9.9%, -9.95%, -8% */
	double far[] = { 1000, 2000, 5.6e6 };    /* the last one +12% */
	cr_expect(runner_warmup_stable(prev, near, 3));
	cr_expect_not(runner_warmup_stable(prev, far, 3));
	cr_expect(runner_warmup_stable(prev, prev, 3));
}

Test(runner, warmup_failed_or_missing_samples_never_agree)
{
	double prev[] = { 1000, 2000 }, nan[] = { 1000, NAN }, zero[] = { 0, 2000 };
	cr_expect_not(runner_warmup_stable(prev, nan, 2));
	cr_expect_not(runner_warmup_stable(nan, prev, 2));
	cr_expect_not(runner_warmup_stable(zero, zero, 2));
	cr_expect(runner_warmup_stable(prev, prev, 0), "no item: nothing to wait for");
}

/* test_policy.c: gates/core/policy.c, the rules a run is decided by that
 * are no threshold: the batches and cost samples of --update-baseline and
 * the policies results may be merged under; hand-computed cases. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/policy.h"

Test(policy, update_baseline_takes_three_batches_unless_told)
{
	cr_expect_eq(policy_runs(0, false), 1, "a run: one batch");
	cr_expect_eq(policy_runs(0, true), POLICY_BASELINE_RUNS);
	cr_expect_eq(POLICY_BASELINE_RUNS, 3);
	cr_expect_eq(policy_runs(5, true), 5, "--runs wins");
	cr_expect_eq(policy_runs(2, false), 2);
}

Test(policy, update_baseline_takes_three_cost_samples_in_all)
{
	/* ceil(3 / runs) per batch: 3 batches x 1, 2 x 2, 1 x 3 */
	cr_expect_eq(policy_cost_runs(0, 3, true), 1);
	cr_expect_eq(policy_cost_runs(0, 2, true), 2);
	cr_expect_eq(policy_cost_runs(0, 1, true), 3);
	cr_expect_eq(policy_cost_runs(0, 10, true), 1);
	cr_expect_eq(policy_cost_runs(4, 1, true), 4, "--cost-runs given wins");
	cr_expect_eq(policy_cost_runs(0, 1, false), 0, "a run: the sampler's one");
}

Test(policy, merge_keeps_one_policy_and_refuses_two)
{
	struct run_policy first, next, merged;
	char what[160] = "";
	policy_defaults(&first);
	first.recorded = true;
	next = first;
	next.rounds = 31;   /* a sampling count: shards may differ in it */
	merged = first;
	cr_expect(policy_merge_next(&merged, &first, &next, what, sizeof what));
	cr_expect(merged.recorded);
	next.alpha = 0.01;
	cr_expect_not(policy_merge_next(&merged, &first, &next, what, sizeof what));
	cr_expect_str_eq(what, "alpha 0.05 vs 0.01");
	/* a result that recorded none: merged, the merge's policy not recorded */
	next.recorded = false;
	cr_expect(policy_merge_next(&merged, &first, &next, what, sizeof what));
	cr_expect_not(merged.recorded);
	/* and nothing after it is refused: there is no one policy to keep */
	next.recorded = true;
	cr_expect(policy_merge_next(&merged, &first, &next, what, sizeof what));
}

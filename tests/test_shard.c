/* test_shard.c: gates/sample/shard.c: group g goes to shard (g mod N) + 1; the
 * shards are disjoint and cover every group of the tier once. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "allocgate/probe.h"
#include "sample/shard.h"

Test(shard, modulo_assignment)
{
	cr_expect(shard_has(0, 1, 2));
	cr_expect(!shard_has(0, 2, 2));
	cr_expect(shard_has(1, 2, 2));
	cr_expect(shard_has(5, 3, 3));
	cr_expect(shard_has(7, 1, 0));
	cr_expect(shard_has(7, 1, 1));
}

/* Two kernels of 3 and 2 parameter sets, one set outside the tier. */
static void make(struct kernel_info *k, struct kernel_paramset *ps)
{
	for (int i = 0; i < 5; i++)
		ps[i].tiers = GATE_TIER_QUICK | GATE_TIER_DEFAULT;
	ps[1].tiers = GATE_TIER_FULL;
	k[0].paramsets = ps;
	k[0].paramset_count = 3;
	k[1].paramsets = ps + 3;
	k[1].paramset_count = 2;
}

Test(shard, disjoint_and_covering)
{
	int runs[5] = { 0 };
	for (int i = 1; i <= 3; i++) {
		struct kernel_info k[2] = { { 0 } };
		struct kernel_paramset ps[5] = { { 0 } };
		make(k, ps);
		size_t kept = shard_apply(k, 2, GATE_TIER_DEFAULT, i, 3);
		size_t n = 0;
		for (int p = 0; p < 5; p++)
			if (ps[p].tiers & GATE_TIER_DEFAULT)
				runs[p]++, n++;
		cr_expect_eq(kept, n);
		cr_expect(ps[1].tiers == GATE_TIER_FULL, "other tiers untouched");
	}
	cr_expect_eq(runs[0], 1);
	cr_expect_eq(runs[1], 0);
	cr_expect_eq(runs[2], 1);
	cr_expect_eq(runs[3], 1);
	cr_expect_eq(runs[4], 1);
}

/* In-tier groups 0,1,2,3 are ps[0], ps[2], ps[3], ps[4]: shard 1 of 2 has 0 and 2. */
Test(shard, which_groups)
{
	struct kernel_info k[2] = { { 0 } };
	struct kernel_paramset ps[5] = { { 0 } };
	make(k, ps);
	cr_expect_eq(shard_apply(k, 2, GATE_TIER_DEFAULT, 1, 2), 2);
	cr_expect(ps[0].tiers & GATE_TIER_DEFAULT);
	cr_expect(!(ps[2].tiers & GATE_TIER_DEFAULT));
	cr_expect(ps[2].tiers & GATE_TIER_QUICK, "only the run's tier is removed");
	cr_expect(ps[3].tiers & GATE_TIER_DEFAULT);
	cr_expect(!(ps[4].tiers & GATE_TIER_DEFAULT));
}

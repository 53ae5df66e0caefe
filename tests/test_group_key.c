/* test_group_key.c: gates/core/group_key.c, the order and sameness of
 * (kernel, variant, params) that the decisions and every renderer share. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/group_key.h"
#include "core/result.h"

Test(group_key, orders_by_kernel_then_variant_then_params)
{
	struct group_key a = GROUP_KEY_OF("json", "append", "10k");
	cr_expect_eq(group_key_cmp(a, a), 0);
	cr_expect_lt(group_key_cmp(a, GROUP_KEY_OF("refcount", "append", "10k")), 0);
	/* the variant before the params: result_sort's series order */
	cr_expect_lt(group_key_cmp(GROUP_KEY_OF("json", "append", "9k"),
				   GROUP_KEY_OF("json", "build", "10k")), 0);
	cr_expect_gt(group_key_cmp(GROUP_KEY_OF("json", "append", "9k"), a), 0);
	cr_expect_lt(group_key_cmp(GROUP_KEY_OF("json", NULL, "10k"), a), 0,
		     "no name before any name");
	cr_expect_gt(group_key_cmp(a, GROUP_KEY_OF("json", NULL, "10k")), 0);
}

Test(group_key, same_within_a_scope)
{
	struct group_key a = GROUP_KEY_OF("json", "append", "10k");
	struct group_key other_variant = GROUP_KEY_OF("json", "build", "10k");
	struct group_key other_params = GROUP_KEY_OF("json", "append", "1k");
	cr_expect(group_key_same(a, other_variant, GROUP_SCOPE_GROUP));
	cr_expect(!group_key_same(a, other_variant, GROUP_SCOPE_VARIANT));
	cr_expect(!group_key_same(a, other_params, GROUP_SCOPE_GROUP));
	cr_expect(group_key_same(a, other_params, GROUP_SCOPE_KERNEL));
	cr_expect(!group_key_same(a, GROUP_KEY_OF("jsonx", "append", "10k"), GROUP_SCOPE_KERNEL));
	/* a problem without a variant (the group's) is another variant's */
	cr_expect(!group_key_same(GROUP_KEY_OF("json", NULL, "10k"), a, GROUP_SCOPE_VARIANT));
	cr_expect(group_key_same(GROUP_KEY_OF("json", NULL, "10k"),
				 GROUP_KEY_OF("json", NULL, "10k"), GROUP_SCOPE_VARIANT));
	cr_expect(group_key_same(GROUP_KEY_OF(NULL, NULL, NULL), GROUP_KEY_OF(NULL, NULL, NULL),
				 GROUP_SCOPE_VARIANT), "two run-wide keys");
}

Test(group_key, in_matches_what_the_wanted_key_names)
{
	struct group_key a = GROUP_KEY_OF("json", "append", "10k");
	cr_expect(group_key_in(a, GROUP_KEY_OF("json", NULL, NULL)), "every key of the kernel");
	cr_expect(group_key_in(a, GROUP_KEY_OF("json", NULL, "10k")), "any variant of the group");
	cr_expect(group_key_in(a, a));
	cr_expect(group_key_in(a, GROUP_KEY_OF(NULL, NULL, NULL)));
	cr_expect(!group_key_in(a, GROUP_KEY_OF("json", "build", NULL)));
	cr_expect(!group_key_in(a, GROUP_KEY_OF("json", NULL, "1k")));
	cr_expect(!group_key_in(GROUP_KEY_OF(NULL, NULL, NULL), GROUP_KEY_OF("json", NULL, NULL)),
		  "a run-wide problem is no kernel's");
	cr_expect(!group_key_in(GROUP_KEY_OF("json", NULL, "10k"), a),
		  "a key without a variant is not in one variant");
}

static bool is_failed(const struct series *s, const void *arg)
{
	(void)arg;
	return s->verdict == VERDICT_FAIL;
}

Test(group_key, first_series_of_a_kernel_group_or_variant)
{
	struct run_result r;
	memset(&r, 0, sizeof r);
	/* in result_sort's order: a group's variants are not next to each other */
	static const char *const names[][4] = {
		{ "json", "append", "10k", "wall_ns" }, { "json", "append", "10k", "heap_calls" },
		{ "json", "append", "1k", "wall_ns" },  { "json", "build", "10k", "wall_ns" },
		{ "toy", "single", "small", "wall_ns" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		cr_assert_not_null(result_add_series(&r, names[i][0], names[i][1], names[i][2],
						     names[i][3], "ns", METRIC_TIMING));
	bool variant[] = { true, false, true, true, true };
	bool group[] = { true, false, true, false, true };
	bool kernel[] = { true, false, false, false, true };
	for (size_t i = 0; i < r.series_count; i++) {
		cr_expect_eq(group_key_first_series(&r, i, GROUP_SCOPE_VARIANT, NULL, NULL),
			     variant[i], "series %zu", i);
		cr_expect_eq(group_key_first_series(&r, i, GROUP_SCOPE_GROUP, NULL, NULL),
			     group[i], "series %zu", i);
		cr_expect_eq(group_key_first_series(&r, i, GROUP_SCOPE_KERNEL, NULL, NULL),
			     kernel[i], "series %zu", i);
	}
	/* among the series a renderer picks: the failed ones */
	r.series[1].verdict = VERDICT_FAIL;
	r.series[3].verdict = VERDICT_FAIL;
	cr_expect(!group_key_first_series(&r, 0, GROUP_SCOPE_VARIANT, is_failed, NULL),
		  "not picked");
	cr_expect(group_key_first_series(&r, 1, GROUP_SCOPE_VARIANT, is_failed, NULL),
		  "the first picked of its variant");
	cr_expect(!group_key_first_series(&r, 3, GROUP_SCOPE_KERNEL, is_failed, NULL));
	result_free(&r);
}

/* test_variant_filter.c: gates/run/variant_filter.c, a kernel's variants
 * narrowed by --variant, and which expectations it leaves out. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <string.h>

#include "run/variant_filter.h"
#include "sample/kernel_info.h"

/* Three variants; claims on two, on one, on all three, on one misspelt,
 * and one that does not parse. */
static const char listing[] =
	"allocgate-list 1\n"
	"kernel resize Seed 000: resizing a block in small steps\n"
	"variant copy_grow malloc, copy and free of the larger size\n"
	"variant-source copy_grow kernels/resize.c 11\n"
	"variant realloc_grow realloc() to the larger size\n"
	"variant lossful_grow free() then malloc() of the larger size\n"
	"variant-source lossful_grow kernels/resize.c 33\n"
	"params 2MB quick,default start=2097152\n"
	"expect kernels/resize.c 120 * * realloc_grow.wall_ns < 0.5 * copy_grow.wall_ns\n"
	"expect kernels/resize.c 121 * * copy_grow.allocs == 2 * copy_grow.frees\n"
	"expect kernels/resize.c 122 * * lossful_grow.wall_ns < realloc_grow.wall_ns + "
	"copy_grow.wall_ns\n"
	"expect kernels/resize.c 123 * * copy_grwo.wall_ns > 0\n"
	"expect kernels/resize.c 124 * * copy_grow.wall_ns <\n"
	"end\n";

static struct kernel_info k;

static void setup(void)
{
	char err[256] = "";
	cr_assert_eq(kernel_info_parse("build/kernels/resize", listing, &k, err, sizeof err), 0,
		     "%s", err);
	cr_assert_eq(k.variant_count, 3);
}

static void teardown(void)
{
	kernel_info_free(&k);
}

TestSuite(variant_filter, .init = setup, .fini = teardown);

Test(variant_filter, no_names_keep_every_variant_and_claim)
{
	cr_expect_eq(variant_filter_apply(&k, NULL, 0, NULL), 3);
	cr_expect_eq(k.variant_count, 3);
	for (size_t e = 0; e < k.expect_count; e++)
		cr_expect_null(k.expects[e].left_out, "claim %zu", e);
}

Test(variant_filter, one_name_keeps_that_variant_and_leaves_out_the_claims_on_others)
{
	const char *names[] = { "copy_grow" };
	bool seen[1] = { false };
	cr_assert_eq(variant_filter_apply(&k, names, 1, seen), 1);
	cr_expect(seen[0]);
	cr_assert_eq(k.variant_count, 1);
	cr_expect_str_eq(k.variants[0], "copy_grow");
	cr_expect_str_eq(k.expects[0].left_out, "realloc_grow");
	cr_expect_null(k.expects[1].left_out, "a claim on copy_grow alone is checked");
	cr_expect_str_eq(k.expects[2].left_out, "lossful_grow", "the first variant it names");
	cr_expect_null(k.expects[3].left_out, "a misspelt variant stays an error where checked");
	cr_expect_null(k.expects[4].left_out, "one that does not parse stays an error");
}

Test(variant_filter, kept_variants_keep_their_order_and_source_lines)
{
	const char *names[] = { "lossful_grow", "copy_grow" };
	bool seen[2] = { false, false };
	cr_assert_eq(variant_filter_apply(&k, names, 2, seen), 2);
	cr_expect(seen[0] && seen[1]);
	cr_expect_str_eq(k.variants[0], "copy_grow");
	cr_expect_str_eq(k.variants[1], "lossful_grow");
	cr_expect_eq(k.variant_lines[0], 11);
	cr_expect_eq(k.variant_lines[1], 33);
	cr_expect_str_eq(k.variant_files[1], "kernels/resize.c");
	cr_expect_str_eq(k.expects[0].left_out, "realloc_grow");
	cr_expect_str_eq(k.expects[2].left_out, "realloc_grow");
}

Test(variant_filter, a_name_the_kernel_lacks_keeps_nothing_and_is_not_seen)
{
	const char *names[] = { "single", "copy_grow" };
	bool seen[2] = { false, false };
	cr_expect_eq(variant_filter_apply(&k, names, 1, seen), 0);
	cr_expect_eq(k.variant_count, 0);
	cr_expect_not(seen[0]);
	cr_expect_not(seen[1], "only the first name was given");
}

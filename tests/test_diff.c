/* test_diff.c: gates/decide/diff.c and diff_text.c on golden inputs (tests/data/diff). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/diff.h"
#include "store/baseline.h"

static struct run_result diff_a, diff_b;
static struct diff diff_d;

static void diff_setup(void)
{
	char err[512];
	cr_assert_eq(baseline_load("tests/data/diff/a.json", &diff_a, err, sizeof err), 0, "%s", err);
	cr_assert_eq(baseline_load("tests/data/diff/b.json", &diff_b, err, sizeof err), 0, "%s", err);
	cr_assert_eq(diff_compute(&diff_a, &diff_b, &diff_d), 0);
}

static void diff_teardown(void)
{
	diff_free(&diff_d);
	result_free(&diff_a);
	result_free(&diff_b);
}

/* Every series of either side is a row: 5 in A, 4 in B, 4 shared -> 6. */
Test(diff, keeps_one_sided_rows, .init = diff_setup, .fini = diff_teardown)
{
	int only_a = 0, only_b = 0;
	cr_assert_eq(diff_d.count, 6);
	for (size_t i = 0; i < diff_d.count; i++) {
		only_a += diff_d.rows[i].in_a && !diff_d.rows[i].in_b;
		only_b += !diff_d.rows[i].in_a && diff_d.rows[i].in_b;
	}
	cr_expect_eq(only_a, 1);
	cr_expect_eq(only_b, 1);
}

/* One-sided rows and changes from 0 rank as infinite: the three groups tie
 * and come by name; inside k/v/p the rows run from the largest change:
 * page_faults 0 -> 4 (from 0), heap_blocks_allocated +200%, wall_ns +50%. */
Test(diff, sorted_by_effect, .init = diff_setup, .fini = diff_teardown)
{
	static const char *const want[][2] = {
		{ "v", "page_faults" }, { "v", "heap_blocks_allocated" }, { "v", "wall_ns" },
		{ "w", "only_in_a" }, { "w", "wall_ns" }, { "x", "only_in_b" },
	};
	for (size_t i = 0; i < 6; i++) {
		cr_expect_str_eq(diff_d.rows[i].variant, want[i][0], "row %zu", i);
		cr_expect_str_eq(diff_d.rows[i].metric, want[i][1], "row %zu", i);
	}
	cr_expect(isinf(diff_d.rows[0].change));
	cr_expect_float_eq(diff_d.rows[1].change, 2.0, 1e-12);
	cr_expect_float_eq(diff_d.rows[2].change, 0.5, 1e-12);
	cr_expect_float_eq(diff_d.rows[4].change, -0.05, 1e-12);
}

/* --changed keeps one-sided rows and drops none of these (all moved). */
Test(diff, drop_unchanged, .init = diff_setup, .fini = diff_teardown)
{
	diff_drop_unchanged(&diff_d);
	cr_expect_eq(diff_d.count, 6);
	diff_d.rows[2].change = 0;
	diff_drop_unchanged(&diff_d);
	cr_expect_eq(diff_d.count, 5);
}

/* The text names both sides and says which rows are one-sided. */
Test(diff, text_rendering, .init = diff_setup, .fini = diff_teardown)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	cr_assert_not_null(f);
	diff_print_text(f, &diff_d, "A", &diff_a.ctx, "B", &diff_b.ctx);
	fclose(f);
	cr_expect(strstr(text, "linux-x86_64-glibc-jemalloc") != NULL, "%s", text);
	cr_expect(strstr(text, "only in A") != NULL, "%s", text);
	cr_expect(strstr(text, "only in B") != NULL, "%s", text);
	cr_expect(strstr(text, "+200.0%") != NULL, "%s", text);
	cr_expect(strstr(text, "6 series in 3 groups; 2 on one side only") != NULL, "%s", text);
	free(text);
}

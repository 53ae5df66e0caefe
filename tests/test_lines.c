/* test_lines.c: gates/core/lines.c, the helpers of the strict line formats of
 * docs/protocol.md: splitting lines and fields in place, identifiers and
 * unsigned integers. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/lines.h"

/* ---- lines_next ---- */

Test(lines, next_splits_lines_in_place)
{
	char text[] = "first\nsecond\nthird\n";
	char *cursor = text;

	cr_expect_str_eq(lines_next(&cursor), "first");
	cr_expect_str_eq(lines_next(&cursor), "second");
	cr_expect_str_eq(lines_next(&cursor), "third");
	cr_expect_null(lines_next(&cursor));
	cr_expect_null(lines_next(&cursor), "the end stays the end");
	cr_expect_eq(text[5], '\0', "the '\\n' is replaced in place");
}

Test(lines, next_returns_the_last_line_without_newline)
{
	char text[] = "one\ntwo";
	char *cursor = text;

	cr_expect_str_eq(lines_next(&cursor), "one");
	cr_expect_str_eq(lines_next(&cursor), "two");
	cr_expect_eq(*cursor, '\0', "the cursor rests on the terminator");
	cr_expect_null(lines_next(&cursor));
}

Test(lines, next_returns_empty_lines_inside_the_text)
{
	char text[] = "a\n\nb\n";
	char *cursor = text;

	cr_expect_str_eq(lines_next(&cursor), "a");
	cr_expect_str_eq(lines_next(&cursor), "");
	cr_expect_str_eq(lines_next(&cursor), "b");
	cr_expect_null(lines_next(&cursor));
}

Test(lines, next_on_empty_or_null_text)
{
	char empty[] = "";
	char *cursor = empty;
	char *none = NULL;

	cr_expect_null(lines_next(&cursor));
	cr_expect_null(lines_next(&none));
}

/* ---- lines_field ---- */

Test(lines, field_splits_on_single_spaces)
{
	char line[] = "metric wall_ns timing ns 1234";
	char *rest = line;

	cr_expect_str_eq(lines_field(&rest), "metric");
	cr_expect_str_eq(lines_field(&rest), "wall_ns");
	cr_expect_str_eq(lines_field(&rest), "timing");
	cr_expect_str_eq(lines_field(&rest), "ns");
	cr_expect_str_eq(lines_field(&rest), "1234");
	cr_expect_str_eq(rest, "");
	cr_expect_null(lines_field(&rest));
}

Test(lines, field_gives_empty_fields_for_double_spaces)
{
	char line[] = "a  b";
	char *rest = line;

	cr_expect_str_eq(lines_field(&rest), "a");
	cr_expect_str_eq(lines_field(&rest), "");
	cr_expect_str_eq(lines_field(&rest), "b");
	cr_expect_null(lines_field(&rest));
}

Test(lines, field_leaves_the_rest_of_the_line_whole)
{
	char line[] = "unavailable cycles no hardware PMU (perf_event_open: ENOENT)";
	char *rest = line;

	cr_expect_str_eq(lines_field(&rest), "unavailable");
	cr_expect_str_eq(lines_field(&rest), "cycles");
	cr_expect_str_eq(rest, "no hardware PMU (perf_event_open: ENOENT)");
}

Test(lines, field_on_empty_or_null_rest)
{
	char empty[] = "";
	char *rest = empty;
	char *none = NULL;

	cr_expect_null(lines_field(&rest));
	cr_expect_null(lines_field(&none));
}

/* ---- lines_is_ident ---- */

Test(lines, is_ident_without_dots)
{
	cr_expect(lines_is_ident("wall_ns", 0));
	cr_expect(lines_is_ident("a", 0));
	cr_expect(lines_is_ident("2mb_x9", 0));
	cr_expect_not(lines_is_ident("free.wall_ns", 0), "no dots unless asked");
	cr_expect_not(lines_is_ident("Wall_ns", 0), "no uppercase");
	cr_expect_not(lines_is_ident("wall-ns", 0));
	cr_expect_not(lines_is_ident("a/b", 0));
	cr_expect_not(lines_is_ident("a b", 0));
	cr_expect_not(lines_is_ident("", 0));
	cr_expect_not(lines_is_ident(NULL, 0));
}

Test(lines, is_ident_with_dots)
{
	cr_expect(lines_is_ident("free.wall_ns", 1));
	cr_expect(lines_is_ident("wall_ns", 1));
	cr_expect(lines_is_ident("a.b.c", 1));
	cr_expect_not(lines_is_ident("free.Wall_ns", 1));
	cr_expect_not(lines_is_ident("free/wall_ns", 1));
	cr_expect_not(lines_is_ident(".wall_ns", 1), "no empty region");
	cr_expect_not(lines_is_ident("a..b", 1), "no empty region");
	cr_expect_not(lines_is_ident("free.", 1), "no empty counter");
	cr_expect_not(lines_is_ident("", 1));
	cr_expect_not(lines_is_ident(NULL, 1));
}

/* ---- lines_parse_u64 ---- */

Test(lines, parse_u64_known_values)
{
	unsigned long long v = 7;

	cr_expect_eq(lines_parse_u64("0", &v), 0);
	cr_expect_eq(v, 0ULL);
	cr_expect_eq(lines_parse_u64("1234567", &v), 0);
	cr_expect_eq(v, 1234567ULL);
	cr_expect_eq(lines_parse_u64("007", &v), 0);
	cr_expect_eq(v, 7ULL);
	cr_expect_eq(lines_parse_u64("18446744073709551615", &v), 0, "2^64 - 1 fits");
	cr_expect_eq(v, 18446744073709551615ULL);
}

Test(lines, parse_u64_rejects_what_does_not_fill_the_field)
{
	const char *bad[] = { "", "-1", "+1", "1x", " 1", "1 ", "0x10", "1.5",
			      "99999999999999999999", "18446744073709551616" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		unsigned long long v = 42;
		cr_expect_eq(lines_parse_u64(bad[i], &v), -1, "'%s' must be rejected", bad[i]);
		cr_expect_eq(v, 42ULL, "'%s' must leave the output alone", bad[i]);
	}
	unsigned long long v = 42;
	cr_expect_eq(lines_parse_u64(NULL, &v), -1);
}

/* ---- lines_dup ---- */

Test(lines, dup_copies_and_keeps_null)
{
	char *d = lines_dup("abc");

	cr_assert_not_null(d);
	cr_expect_str_eq(d, "abc");
	free(d);
	cr_expect_null(lines_dup(NULL));
}

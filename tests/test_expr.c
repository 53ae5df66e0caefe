/* test_expr.c: gates/decide/expr.c, the expectation grammar of expr.h: parsing,
 * references, evaluation, and the messages for malformed input. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/expr.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Metric values for the lookups below; anything else has no value. */
static const struct {
	const char *variant, *metric;
	double value;
} table[] = {
	{ "realloc_shrink", "wall_ns", 5.0 },
	{ "copy_shrink", "wall_ns", 100.0 },
	{ "realloc_shrink", "realloc_moved", 0.0 },
	{ "random", "free.wall_ns", 85.0 },
	{ "random", "alloc.wall_ns", 100.0 },
	{ "a", "zero", 0.0 },
};

static int lookup(const struct expr_ref *ref, void *arg, double *value)
{
	size_t i;

	(void)arg;
	for (i = 0; i < ARRAY_SIZE(table); i++)
		if (!strcmp(ref->variant, table[i].variant) && !strcmp(ref->metric, table[i].metric)) {
			*value = table[i].value;
			return 0;
		}
	return -1;
}

/* Parses TEXT (which must be valid) and says whether it holds. */
static int holds(const char *text)
{
	struct expr e;
	char err[200];
	int ok;

	cr_assert_eq(expr_parse(text, &e, err, sizeof err), 0, "%s: %s", text, err);
	cr_assert_str_empty(err);
	ok = expr_compare_holds(e.op, expr_eval_side(e.lhs, lookup, NULL),
				expr_eval_side(e.rhs, lookup, NULL));
	expr_free(&e);
	return ok;
}

/* Criterion runs each test in a fresh process image, so parameters carry
 * their text inline rather than pointers into this one. */
struct valid_case {
	char text[64];
	int holds;
};

ParameterizedTestParameters(expr, valid)
{
	static struct valid_case cases[] = {
		/* the design's examples, with the values of TABLE */
		{ "realloc_shrink.wall_ns < 0.1 * copy_shrink.wall_ns", 1 },
		{ "realloc_shrink.realloc_moved == 0", 1 },
		{ "random.free.wall_ns > 0.9 * random.alloc.wall_ns", 0 },
		{ "random.free.wall_ns >= 0.85 * random.alloc.wall_ns", 1 },
		/* precedence and associativity */
		{ "1 + 2 * 3 == 7", 1 },
		{ "(1 + 2) * 3 == 9", 1 },
		{ "2 * 3 - 4 / 2 == 4", 1 },
		{ "1 - 2 - 3 == -4", 1 },
		{ "8 / 4 / 2 == 1", 1 },
		{ "-2 * -3 == 6", 1 },
		{ "- (1 - 4) == 3", 1 },
		{ "--1 == 1", 1 },
		{ "((((2)))) <= 2", 1 },
		/* numbers */
		{ "1e6 == 1000000", 1 },
		{ "2.5e-1 == 0.25", 1 },
		{ "1E+3 == 1000", 1 },
		{ "0.1 < 0.2", 1 },
		{ "007 == 7", 1 },
		/* whitespace is free, including none */
		{ "copy_shrink.wall_ns>realloc_shrink.wall_ns*19", 1 },
		{ "\t1\n<\r2 ", 1 },
	};
	return cr_make_param_array(struct valid_case, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct valid_case *c, expr, valid)
{
	cr_expect_eq(holds(c->text), c->holds, "%s", c->text);
}

Test(expr, operators_and_their_names)
{
	static const char *names[] = { "<", "<=", ">", ">=", "==" };
	static const enum expr_compare ops[] = { EXPR_LT, EXPR_LE, EXPR_GT, EXPR_GE, EXPR_EQ };
	char text[32];
	struct expr e;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		snprintf(text, sizeof text, "1 %s 2", names[i]);
		cr_assert_eq(expr_parse(text, &e, NULL, 0), 0);
		cr_expect_eq(e.op, ops[i]);
		cr_expect_str_eq(expr_compare_name(e.op), names[i]);
		expr_free(&e);
	}
	cr_expect(expr_compare_holds(EXPR_LE, 2, 2) && !expr_compare_holds(EXPR_LT, 2, 2));
	cr_expect(expr_compare_holds(EXPR_GE, 2, 2) && !expr_compare_holds(EXPR_GT, 2, 2));
}

/* References seen by expr_each_ref, joined as "variant/metric;". */
struct seen {
	char text[256];
	int calls, stop_at;
};

static int collect(const struct expr_ref *ref, void *arg)
{
	struct seen *s = arg;
	size_t used = strlen(s->text);

	snprintf(s->text + used, sizeof s->text - used, "%s/%s;", ref->variant, ref->metric);
	return ++s->calls == s->stop_at ? 42 : 0;
}

Test(expr, each_ref_in_order_of_the_text)
{
	struct expr e;
	struct seen s = { "", 0, 0 };

	cr_assert_eq(expr_parse("random.free.wall_ns * (b2.x_y - c.d) > 0.9 * random.alloc.wall_ns"
				" + -e_1.region.sub.count", &e, NULL, 0), 0);
	cr_expect_eq(expr_each_ref(&e, collect, &s), 0);
	cr_expect_str_eq(s.text, "random/free.wall_ns;b2/x_y;c/d;random/alloc.wall_ns;"
			 "e_1/region.sub.count;");
	memset(&s, 0, sizeof s);
	s.stop_at = 2;
	cr_expect_eq(expr_each_ref(&e, collect, &s), 42, "stops with the callback's value");
	cr_expect_str_eq(s.text, "random/free.wall_ns;b2/x_y;");
	expr_free(&e);
}

Test(expr, nan_when_a_value_is_missing_or_division_by_zero)
{
	struct expr e;

	cr_assert_eq(expr_parse("unknown.wall_ns + 1 < copy_shrink.wall_ns / a.zero", &e, NULL, 0), 0);
	cr_expect(isnan(expr_eval_side(e.lhs, lookup, NULL)));
	cr_expect(isnan(expr_eval_side(e.rhs, lookup, NULL)));
	cr_expect(!expr_compare_holds(e.op, NAN, 1.0), "NaN never passes");
	cr_expect(!expr_compare_holds(EXPR_EQ, NAN, NAN));
	cr_expect(isnan(expr_eval_side(e.lhs, NULL, NULL)), "no lookup at all");
	expr_free(&e);
	cr_assert_eq(expr_parse("1 / 0 == 0 / 1", &e, NULL, 0), 0);
	cr_expect(isnan(expr_eval_side(e.lhs, lookup, NULL)));
	cr_expect_eq(expr_eval_side(e.rhs, lookup, NULL), 0.0);
	expr_free(&e);
}

/* ---- malformed input ---- */

struct bad_case {
	char text[24];
	int column;
	char says[80]; /* a part of the message after "column N: " */
};

ParameterizedTestParameters(expr, malformed)
{
	static struct bad_case cases[] = {
		{ "", 1, "expected a number, a reference or '(', found end of input" },
		{ "   ", 4, "expected a number, a reference or '('" },
		{ "< 1", 1, "expected a number, a reference or '(', found '<'" },
		{ "a.wall_ns", 10, "expected a comparison (<, <=, >, >=, ==) after 'a.wall_ns'" },
		{ "x.y * a.wall_ns 2", 17,
		  "expected a comparison (<, <=, >, >=, ==) after 'a.wall_ns', found '2'" },
		{ "a.b <", 6, "expected a number, a reference or '(' after '<', found end of input" },
		{ "a.b < 1 2", 9, "expected an operator (+, -, *, /) or the end after '1'" },
		{ "a.b < 1 < 2", 9, "an expectation has one comparison" },
		{ "a.b < 1 +", 10, "expected a number, a reference or '(' after '+'" },
		{ "a.b < * 1", 7, "expected a number, a reference or '('" },
		{ "a.b < ()", 8, "expected a number, a reference or '(' after '('" },
		{ "(a.b < 1", 6, "expected ')' after 'a.b', found '<' (to close the '(' at column 1)" },
		{ "a.b < (1 + (2)", 15, "expected ')' after ')', found end of input" },
		{ "a.b) < 1", 4, "this ')' has no matching '('" },
		{ "a.b < 1)", 8, "this ')' has no matching '('" },
		{ "wall < 1", 5, "expected '.' and a metric name after 'wall'" },
		{ "a. < 1", 3, "expected a metric name after 'a.'" },
		{ "a.b. < 1", 5, "expected a metric name after 'a.b.'" },
		{ "1e < a.b", 3, "expected a digit in the exponent of '1e'" },
		{ "a.b > 2e+", 10, "expected a digit in the exponent of '2e+'" },
		{ ". < a.b", 1, "expected a digit before '.'" },
		{ "a.b < .5", 7, "expected a digit before '.'" },
		{ "1. < a.b", 3, "expected a digit after '1.'" },
		{ "a.b = 1", 5, "expected '=='" },
		{ "a.b != 1", 5, "unexpected character '!'" },
		{ "A.b < 1", 1, "unexpected character 'A' (references are lowercase" },
		{ "a.b < 1 $", 9, "unexpected character '$'" },
		{ "a.b < 1e999", 7, "the number '1e999' is out of range" },
	};
	return cr_make_param_array(struct bad_case, cases, ARRAY_SIZE(cases));
}

ParameterizedTest(struct bad_case *c, expr, malformed)
{
	struct expr e;
	char err[256], prefix[32];

	cr_assert_eq(expr_parse(c->text, &e, err, sizeof err), -1, "\"%s\" parsed", c->text);
	cr_expect_null(e.lhs);
	cr_expect_null(e.rhs);
	snprintf(prefix, sizeof prefix, "column %d: ", c->column);
	cr_expect(!strncmp(err, prefix, strlen(prefix)), "\"%s\": %s", c->text, err);
	cr_expect(strstr(err, c->says) != NULL, "\"%s\": %s", c->text, err);
	expr_free(&e);
}

/* Text of N copies of OPEN, then MIDDLE, then N copies of CLOSE. */
static char *nested(size_t n, const char *open, const char *middle, const char *close)
{
	size_t lo = strlen(open), lc = strlen(close), lm = strlen(middle), i;
	char *s = malloc(n * (lo + lc) + lm + 1), *w = s;

	cr_assert_not_null(s);
	for (i = 0; i < n; i++, w += lo)
		memcpy(w, open, lo);
	memcpy(w, middle, lm);
	w += lm;
	for (i = 0; i < n; i++, w += lc)
		memcpy(w, close, lc);
	*w = '\0';
	return s;
}

static int parses(const char *text, char *err, size_t err_size)
{
	struct expr e;
	int ret = expr_parse(text, &e, err, err_size);

	expr_free(&e);
	return ret;
}

Test(expr, nesting_is_bounded)
{
	char err[200];
	char *ok = nested(64, "(", "1", ")"), *deep = nested(65, "(", "1", ")");
	char *minus = nested(65, "-", "1", ""), *hostile = nested(100000, "(", "", "");

	cr_expect_eq(parses(ok, err, sizeof err), -1, "no comparison yet");
	cr_expect(strstr(err, "expected a comparison") != NULL, "%s", err);
	cr_expect_eq(parses(deep, err, sizeof err), -1);
	cr_expect(!strncmp(err, "column 65: nested deeper than 64", 32), "%s", err);
	cr_expect_eq(parses(minus, err, sizeof err), -1);
	cr_expect(strstr(err, "nested deeper than 64") != NULL, "%s", err);
	cr_expect_eq(parses(hostile, err, sizeof err), -1);
	free(ok);
	free(deep);
	free(minus);
	free(hostile);
}

Test(expr, long_operator_chains_are_bounded)
{
	char err[200];
	char *fits = nested(200, "1 + ", "1 == 201", "");
	char *tall = nested(300, "1 + ", "1 == 301", "");
	char *huge = nested(100000, "a.b * ", "1 > 0", "");

	cr_expect_eq(parses(fits, err, sizeof err), 0, "%s", err);
	cr_expect(holds(fits));
	cr_expect_eq(parses(tall, err, sizeof err), -1);
	cr_expect(strstr(err, "expression too long") != NULL, "%s", err);
	cr_expect_eq(parses(huge, err, sizeof err), -1);
	free(fits);
	free(tall);
	free(huge);
}

Test(expr, small_or_missing_error_buffer)
{
	char err[8];
	struct expr e;

	cr_expect_eq(expr_parse("a.b <", &e, err, sizeof err), -1);
	cr_expect_str_eq(err, "column ", "truncated, still terminated");
	cr_expect_eq(expr_parse("a.b <", &e, NULL, 0), -1);
	cr_expect_eq(expr_parse(NULL, &e, NULL, 0), -1);
	expr_free(&e);
	expr_free(NULL);
}

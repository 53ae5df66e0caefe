/* test_cli_value.c: gates/cli/cli_value.c, the values every subcommand's
 * flags take: integers read as integers (no fraction, no exponent, no
 * space, no trailing text, no overflow), real numbers, lists. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <limits.h>
#include <stdlib.h>

#include "cli/cli_value.h"
#include "core/message.h"

struct integer_case {
	const char *text;
	bool ok;
	long long value;
};

/* Known cases from 0 to 1000 (and LLONG's own limits below). */
static const struct integer_case integer_cases[] = {
	{ "0", true, 0 }, { "7", true, 7 }, { "1000", true, 1000 }, { "+5", true, 5 },
	{ "007", true, 7 }, { "-0", true, 0 },
	{ "1001", false, 0 }, { "-1", false, 0 }, { "2.5", false, 0 }, { "1.0", false, 0 },
	{ "1e2", false, 0 }, { "10x", false, 0 }, { " 5", false, 0 }, { "5 ", false, 0 },
	{ "", false, 0 }, { "-", false, 0 }, { "+", false, 0 }, { "0x10", false, 0 },
	{ "nan", false, 0 }, { "inf", false, 0 }, { "99999999999999999999", false, 0 },
	{ "--5", false, 0 },
};

Test(cli_value, integers_are_integers)
{
	for (size_t i = 0; i < sizeof integer_cases / sizeof integer_cases[0]; i++) {
		const struct integer_case *c = &integer_cases[i];
		long long v = -12345;
		bool ok = cli_integer_parse(c->text, 0, 1000, &v);
		cr_expect_eq(ok, c->ok, "'%s': %s", c->text, ok ? "accepted" : "refused");
		cr_expect_eq(v, c->ok ? c->value : -12345, "'%s': %lld", c->text, v);
	}
}

Test(cli_value, integers_to_the_limits_of_long_long)
{
	long long v = 0;
	cr_expect(cli_integer_parse("9223372036854775807", LLONG_MIN, LLONG_MAX, &v));
	cr_expect_eq(v, LLONG_MAX);
	cr_expect(cli_integer_parse("-9223372036854775808", LLONG_MIN, LLONG_MAX, &v));
	cr_expect_eq(v, LLONG_MIN);
	cr_expect_not(cli_integer_parse("9223372036854775808", LLONG_MIN, LLONG_MAX, &v),
		      "one past: overflow");
	cr_expect_not(cli_integer_parse("-9223372036854775809", LLONG_MIN, LLONG_MAX, &v));
}

Test(cli_value, refusals_name_the_flag_value_and_range, .init = cr_redirect_stderr)
{
	long long ll;
	int i = 99;
	double d = 99;
	message_set_program("gate x");
	cr_expect_eq(cli_integer("--n", "2.5", 2, 1000, &ll), -1);
	cr_expect_eq(cli_int("--k", "-3", 1, 100, &i), -1);
	cr_expect_eq(i, 99, "untouched when refused");
	cr_expect_eq(cli_int("--k", "42", 1, 100, &i), 0);
	cr_expect_eq(i, 42);
	cr_expect_eq(cli_real("--t", "0.05", 0.1, 86400, &d), -1);
	cr_expect_eq(cli_real("--t", "nan", 0, 1000, &d), -1);
	cr_expect_eq(cli_real("--t", "5s", 0, 1000, &d), -1);
	cr_expect_eq(cli_real("--t", " 5", 0, 1000, &d), -1);
	cr_expect_eq(cli_real("--t", "1e400", 0, 1e300, &d), -1);
	cr_expect_eq(d, 99, "untouched when refused");
	cr_expect_eq(cli_real("--t", "2.5e1", 0, 1000, &d), 0);
	cr_expect_eq(d, 25);
	cr_expect_eq(cli_real("--t", ".5", 0, 1000, &d), 0);
	cr_expect_eq(d, 0.5);
	message_set_program("gate");
	fflush(stderr);
	cr_expect_stderr_eq_str("gate x: --n 2.5: expected an integer from 2 to 1000\n"
				"gate x: --k -3: expected an integer from 1 to 100\n"
				"gate x: --t 0.05: expected a number from 0.1 to 86400\n"
				"gate x: --t nan: expected a number from 0 to 1000\n"
				"gate x: --t 5s: expected a number from 0 to 1000\n"
				"gate x: --t  5: expected a number from 0 to 1000\n"
				"gate x: --t 1e400: expected a number from 0 to 1e+300\n");
}

Test(cli_value, lists_stay_null_terminated)
{
	const char **list = NULL;
	size_t n = 0;
	cr_assert_eq(cli_list_add(&list, &n, "--kernel", "a"), 0);
	cr_assert_eq(cli_list_add(&list, &n, "--kernel", "b"), 0);
	cr_expect_eq(n, 2);
	cr_expect_str_eq(list[0], "a");
	cr_expect_str_eq(list[1], "b");
	cr_expect_null(list[2]);
	free(list);
}

Test(cli_value, environment_assignments_are_checked, .init = cr_redirect_stderr)
{
	const char **env = NULL;
	size_t n = 0;
	cr_expect_eq(cli_env_add(&env, &n, "--env", "A=1"), 0);
	cr_expect_eq(cli_env_add(&env, &n, "--env", "A-B=1"), -1);
	cr_expect_eq(n, 1, "a refused one is not added");
	cr_expect_str_eq(env[0], "A=1");
	free(env);
	fflush(stderr);
	cr_expect_stderr_eq_str("gate: --env A-B=1: KEY must be letters, digits and _\n");
}

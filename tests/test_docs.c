/* test_docs.c: ci/check-docs.py, the check of the documentation's
 * references and of what code comments say (docs/testing.md). It passes on
 * the repository as it is, and fails on the fixtures of
 * tests/data/check-docs/, which break every rule it checks, naming each
 * file:line with the missing heading, anchor or page, the comment that
 * narrates a run and the percentage that is not its constant's. Skipped
 * where python3 is missing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/spawn.h"

static int run_check(char *const argv[], struct spawn_output *out)
{
	if (system("python3 -c '' >/dev/null 2>&1") != 0)
		cr_skip_test("python3 is not installed: ci/check-docs.py cannot run");
	cr_assert_eq(spawn_run(argv, NULL, 120, out), 0);
	cr_assert_eq(out->status, SPAWN_EXITED, "%s\n%s", out->out, out->err);
	return out->exit_code;
}

Test(docs, the_repository_passes_its_own_check, .timeout = 150)
{
	char *argv[] = { "/usr/bin/env", "python3", "ci/check-docs.py", NULL };
	struct spawn_output out;
	cr_expect_eq(run_check(argv, &out), 0, "%s\n%s", out.out, out.err);
	cr_expect(strstr(out.out, "; 0 problems"), "%s", out.out);
	spawn_output_free(&out);
}

Test(docs, a_broken_reference_fails_naming_its_line_and_heading, .timeout = 150)
{
	char *argv[] = { "/usr/bin/env", "python3", "ci/check-docs.py", "tests/data/check-docs/broken.md", NULL };
	static const char *const expected[] = {
		"broken.md:7: ../../../docs/noise.md#no-such-rounds: no heading with that anchor",
		"broken.md:9: README, \"No such heading\": no such heading in README.md",
		"broken.md:10: kernels.md, \"No such section\": no such heading in docs/kernels.md",
		"broken.md:11: counters.md, \"Not a heading of counters\": no such heading in docs/counters.md",
		"broken.md:12: noise.md, \"Rounds of golf\": no such heading in docs/noise.md",
		"broken.md:13: nowhere.md, \"Anything\": no such page",
		"broken.md:16: docs/noise.md#no-such-anchor: no heading with that anchor in docs/noise.md",
		"; 7 problems",
	};
	struct spawn_output out;
	cr_expect_eq(run_check(argv, &out), 1, "%s\n%s", out.out, out.err);
	for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
		cr_expect(strstr(out.out, expected[i]), "no \"%s\" in:\n%s", expected[i], out.out);
	/* the references that hold are not named */
	cr_expect(!strstr(out.out, "\"Conditions\""), "%s", out.out);
	cr_expect(!strstr(out.out, "\"Interference\""), "%s", out.out);
	cr_expect(!strstr(out.out, "noise.md#rounds:"), "%s", out.out);
	spawn_output_free(&out);
}

Test(docs, a_comment_that_narrates_a_run_or_misstates_a_constant_fails, .timeout = 150)
{
	char *argv[] = { "/usr/bin/env", "python3", "ci/check-docs.py", "tests/data/check-docs/comments.c", NULL };
	static const char *const expected[] = {
		"comments.c:5: a comment names a VM (VM)",
		"comments.c:5: a comment names a UTC time (14:05 UTC)",
		"comments.c:5: a comment names a date (2026-12-02)",
		"comments.c:8: the comment says 3%, the line below uses POLICY_MIN_EFFECT_AB = 0.02",
		"comments.c:12: 10% stated for POLICY_ALPHA, which is 0.05 (5%)",
		"; 5 problems",
	};
	struct spawn_output out;
	cr_expect_eq(run_check(argv, &out), 1, "%s\n%s", out.out, out.err);
	for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
		cr_expect(strstr(out.out, expected[i]), "no \"%s\" in:\n%s", expected[i], out.out);
	/* the comment that states the constant's own value is not named */
	cr_expect(!strstr(out.out, "comments.c:15"), "%s", out.out);
	spawn_output_free(&out);
}

/* test_ab_options.c: gates/cli/ab_options.c, the side options of `gate ab`:
 * split from the shared ones in both flag forms, refused combinations,
 * and each side's environment. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ab_options.h"
#include "core/message.h"

/* ab_main names the program in its messages; these tests call its parts. */
static void as_gate_ab(void)
{
	cr_redirect_stderr();
	message_set_program("gate ab");
}

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

Test(ab_options, split_keeps_shared_options_in_order)
{
	const char *argv[] = { "--quick", "--a-env", "X=1", "--kernel", "toy", "--b-env=Y=2",
			       "--b-kernel-dir", "/k/b", "--b-env", "Z=3" };
	struct ab_side_options a = { 0 }, b = { 0 };
	char *rest[ARGC(argv) + 1];
	int n;
	cr_assert_eq(ab_options_split(ARGC(argv), (char **)argv, &a, &b, rest, &n), 0);
	cr_expect_eq(n, 3);
	cr_expect_str_eq(rest[0], "--quick");
	cr_expect_str_eq(rest[1], "--kernel");
	cr_expect_str_eq(rest[2], "toy");
	cr_expect_null(rest[3]);
	cr_expect_eq(a.env_count, 1);
	cr_expect_str_eq(a.env[0], "X=1");
	cr_expect_eq(b.env_count, 2);
	cr_expect_str_eq(b.env[0], "Y=2");
	cr_expect_str_eq(b.env[1], "Z=3");
	cr_expect_str_eq(b.kernel_dir, "/k/b");
	cr_expect_null(a.kernel_dir);
	ab_options_free(&a);
	ab_options_free(&b);
}

Test(ab_options, side_environment_follows_the_shared_one)
{
	const char *argv[] = { "--a-env", "X=1" };
	const char *shared_env[] = { "COMMON=1", NULL };
	struct ab_side_options a = { 0 }, b = { 0 };
	char *rest[3];
	int n;
	cr_assert_eq(ab_options_split(ARGC(argv), (char **)argv, &a, &b, rest, &n), 0);
	struct run_options shared, oa, ob;
	run_options_defaults(&shared);
	shared.env = shared_env;
	shared.env_count = 1;
	cr_assert_eq(ab_options_for_side(&shared, &a, &oa), 0);
	cr_assert_eq(ab_options_for_side(&shared, &b, &ob), 0);
	cr_expect_eq(oa.env_count, 2);
	cr_expect_str_eq(oa.env[0], "COMMON=1");
	cr_expect_str_eq(oa.env[1], "X=1");
	cr_expect_null(oa.env[2]);
	cr_expect_eq(ob.env_count, 1);
	cr_expect_null(ob.env[1]);
	char text[200];
	ab_options_describe(&a, "build/kernels", NULL, text, sizeof text);
	cr_expect_str_eq(text, "kernels build/kernels, env X=1");
	ab_options_describe(&b, "build/kernels", "", text, sizeof text);
	cr_expect_str_eq(text, "kernels build/kernels");
	free(oa.env);
	free(ob.env);
	ab_options_free(&a);
	ab_options_free(&b);
}

/* A side is named by its label and the revision its kernels were built
 * from; a directory in no checkout keeps its path. */
Test(ab_options, a_side_is_its_label_and_revision)
{
	const char *argv[] = { "--a-label", "base", "--b-label=head", "--b-env", "X=1" };
	struct ab_side_options a = { 0 }, b = { 0 };
	char *rest[ARGC(argv) + 1], text[200];
	int n;
	cr_assert_eq(ab_options_split(ARGC(argv), (char **)argv, &a, &b, rest, &n), 0);
	cr_expect_eq(n, 0);
	cr_expect_str_eq(a.label, "base");
	cr_expect_str_eq(b.label, "head");
	ab_options_describe(&a, "/tmp/allocgate-base-x/build/kernels", "1a2b3c4", text,
			    sizeof text);
	cr_expect_str_eq(text, "base 1a2b3c4");
	ab_options_describe(&b, "build/kernels", "5d6e7f8-dirty", text, sizeof text);
	cr_expect_str_eq(text, "head 5d6e7f8-dirty, env X=1");
	ab_options_describe(&a, "/tmp/a", NULL, text, sizeof text);
	cr_expect_str_eq(text, "base, kernels /tmp/a");
	b.label = NULL;
	ab_options_describe(&b, "build/kernels", "5d6e7f8", text, sizeof text);
	cr_expect_str_eq(text, "5d6e7f8, env X=1");
	ab_options_free(&a);
	ab_options_free(&b);
}

Test(ab_options, bad_side_flags_are_named, .init = as_gate_ab)
{
	static const char *cases[][2] = {
		{ "--a-env", "NOEQUALS" }, { "--b-env", "=1" }, { "--a-kernel-dir", "" },
		{ "--b-what", "1" }, { "--a-allocator", "no-such-allocator" },
		{ "--a-label", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ab_side_options a = { 0 }, b = { 0 };
		char *rest[3];
		int n;
		cr_expect_eq(ab_options_split(2, (char **)cases[i], &a, &b, rest, &n), -1, "%s %s",
			     cases[i][0], cases[i][1]);
		ab_options_free(&a);
		ab_options_free(&b);
	}
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"gate ab: --a-env NOEQUALS: expected KEY=VALUE\n"
		"gate ab: --b-env =1: expected KEY=VALUE\n"
		"gate ab: --a-kernel-dir : expected a directory\n"
		"gate ab: --b-what : unknown side option (--a-env, --a-allocator, --a-kernel-dir, "
		"--a-label and their --b- forms)\n"
		"gate ab: --a-allocator no-such-allocator: unknown allocator (expected glibc, "
		"jemalloc, mimalloc, tcmalloc or a path to a shared library)\n"
		"gate ab: --a-label : expected a label of 1 to 64 characters\n");
}

Test(ab_options, baseline_flags_are_refused, .init = as_gate_ab)
{
	struct run_options o;
	run_options_defaults(&o);
	cr_expect_eq(ab_options_check(&o), 0);
	o.update_baseline = true;
	cr_expect_eq(ab_options_check(&o), -1);
	run_options_defaults(&o);
	o.runs = 3;
	cr_expect_eq(ab_options_check(&o), -1);
	run_options_defaults(&o);
	o.min_effect_whole = 0.05;
	cr_expect_eq(ab_options_check(&o), -1);
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"gate ab: --update-baseline: not with gate ab, which compares B with A measured "
		"in the same rounds and reads or writes no baseline (use gate run)\n"
		"gate ab: --runs: not with gate ab, which compares B with A measured in the same "
		"rounds and reads or writes no baseline (use gate run)\n"
		"gate ab: --min-effect-whole: not with gate ab, which compares B with A measured "
		"in the same rounds and reads or writes no baseline (use gate run)\n");
}

Test(ab_options, sampling_flags_are_taken_out)
{
	char *rest[] = { "--quick", "--duet", "--kernel", "toy", NULL };
	int n = 4;
	enum ab_mode_choice choice;
	cr_assert_eq(ab_options_take_mode(rest, &n, &choice), 0);
	cr_expect_eq(choice, AB_CHOICE_DUET);
	cr_expect_eq(n, 3);
	cr_expect_str_eq(rest[0], "--quick");
	cr_expect_str_eq(rest[1], "--kernel");
	cr_expect_str_eq(rest[2], "toy");
	cr_expect_null(rest[3]);
	char *other[] = { "--interleaved", NULL };
	n = 1;
	cr_assert_eq(ab_options_take_mode(other, &n, &choice), 0);
	cr_expect_eq(choice, AB_CHOICE_INTERLEAVED);
	cr_expect_eq(n, 0);
	char *none[] = { "--quick", NULL };
	n = 1;
	cr_assert_eq(ab_options_take_mode(none, &n, &choice), 0);
	cr_expect_eq(choice, AB_CHOICE_DEFAULT);
	cr_expect_eq(n, 1);
	char *both[] = { "--duet", "--interleaved", NULL };
	n = 2;
	cr_expect_eq(ab_options_take_mode(both, &n, &choice), -1, "both: exit 2 after a message");
	char *named[] = { "--sampling", "duet", "--quick", NULL };
	n = 3;
	cr_assert_eq(ab_options_take_mode(named, &n, &choice), 0);
	cr_expect_eq(choice, AB_CHOICE_DUET);
	cr_expect_eq(n, 1);
	cr_expect_str_eq(named[0], "--quick");
	char *eq[] = { "--sampling=interleaved", "--interleaved", NULL };
	n = 2;
	cr_assert_eq(ab_options_take_mode(eq, &n, &choice), 0, "the same mode twice agrees");
	cr_expect_eq(choice, AB_CHOICE_INTERLEAVED);
	char *unknown[] = { "--sampling", "auto", NULL };
	n = 2;
	cr_expect_eq(ab_options_take_mode(unknown, &n, &choice), -1);
}

Test(ab_options, all_rounds_is_taken_out)
{
	char *rest[] = { "--quick", "--all-rounds", "--kernel", "toy", NULL };
	int n = 4;
	bool all = false;
	ab_options_take_all_rounds(rest, &n, &all);
	cr_expect(all);
	cr_expect_eq(n, 3);
	cr_expect_str_eq(rest[0], "--quick");
	cr_expect_str_eq(rest[1], "--kernel");
	cr_expect_str_eq(rest[2], "toy");
	cr_expect_null(rest[3]);
	char *none[] = { "--quick", NULL };
	n = 1;
	ab_options_take_all_rounds(none, &n, &all);
	cr_expect(!all, "without the flag the looks stay");
	cr_expect_eq(n, 1);
}

/* test_ab_options.c: gates/cli/ab_options.c, the flags of `gate ab`: each
 * side's in both flag forms beside the shared ones of gate run, refused
 * values and combinations, each side's environment, the sampling mode. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdlib.h>
#include <string.h>

#include "allocgate/probe.h"
#include "cli/ab_options.h"
#include "core/message.h"

/* ab_main names the program in its messages; these tests call its parts. */
static void as_gate_ab(void)
{
	cr_redirect_stderr();
	message_set_program("gate ab");
}

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Parses ARGV (string literals, never written) into P after gate ab's
 * start: a zeroed plan with the shared defaults. */
static enum cli_parse parse(struct ab_plan *p, int argc, const char **argv)
{
	memset(p, 0, sizeof *p);
	run_options_defaults(&p->shared);
	return ab_options_parse(p, argc, (char **)argv);
}

static void done(struct ab_plan *p)
{
	run_options_free(&p->shared);
	ab_options_free(&p->a);
	ab_options_free(&p->b);
}

Test(ab_options, side_and_shared_flags_in_both_forms)
{
	const char *argv[] = { "--quick", "--a-env", "X=1", "--kernel", "toy", "--b-env=Y=2",
			       "--b-kernel-dir", "/k/b", "--b-env", "Z=3", "--rounds=7",
			       "--a-kernel-dir=/k/a" };
	struct ab_plan p;
	cr_assert_eq(parse(&p, ARGC(argv), argv), CLI_PARSED);
	cr_expect_eq(p.shared.tier, (unsigned)GATE_TIER_QUICK);
	cr_expect_eq(p.shared.kernel_count, 1);
	cr_expect_str_eq(p.shared.kernels[0], "toy");
	cr_expect_eq(p.shared.rounds, 7);
	cr_expect(p.shared.rounds_given);
	cr_expect_eq(p.a.name, 'a');
	cr_expect_eq(p.b.name, 'b');
	cr_expect_eq(p.a.env_count, 1);
	cr_expect_str_eq(p.a.env[0], "X=1");
	cr_expect_eq(p.b.env_count, 2);
	cr_expect_str_eq(p.b.env[0], "Y=2");
	cr_expect_str_eq(p.b.env[1], "Z=3");
	cr_expect_null(p.b.env[2]);
	cr_expect_str_eq(p.b.kernel_dir, "/k/b");
	cr_expect_str_eq(p.a.kernel_dir, "/k/a");
	cr_expect_eq(p.shared.env_count, 0, "a side's variables are not the shared ones");
	done(&p);
}

Test(ab_options, side_environment_follows_the_shared_one)
{
	const char *argv[] = { "--a-env", "X=1", "--env", "COMMON=1" };
	struct ab_plan p;
	cr_assert_eq(parse(&p, ARGC(argv), argv), CLI_PARSED);
	struct run_options oa, ob;
	cr_assert_eq(ab_options_for_side(&p.shared, &p.a, &oa), 0);
	cr_assert_eq(ab_options_for_side(&p.shared, &p.b, &ob), 0);
	cr_expect_eq(oa.env_count, 2);
	cr_expect_str_eq(oa.env[0], "COMMON=1");
	cr_expect_str_eq(oa.env[1], "X=1");
	cr_expect_null(oa.env[2]);
	cr_expect_eq(ob.env_count, 1);
	cr_expect_null(ob.env[1]);
	char text[200];
	ab_options_describe(&p.a, "build/kernels", NULL, text, sizeof text);
	cr_expect_str_eq(text, "kernels build/kernels, env X=1");
	ab_options_describe(&p.b, "build/kernels", "", text, sizeof text);
	cr_expect_str_eq(text, "kernels build/kernels");
	free(oa.env);
	free(ob.env);
	done(&p);
}

/* A side is named by its label and the revision its kernels were built
 * from; a directory in no checkout keeps its path. */
Test(ab_options, a_side_is_its_label_and_revision)
{
	const char *argv[] = { "--a-label", "base", "--b-label=head", "--b-env", "X=1" };
	struct ab_plan p;
	char text[200];
	cr_assert_eq(parse(&p, ARGC(argv), argv), CLI_PARSED);
	cr_expect_str_eq(p.a.label, "base");
	cr_expect_str_eq(p.b.label, "head");
	ab_options_describe(&p.a, "/tmp/allocgate-base-x/build/kernels", "1a2b3c4", text,
			    sizeof text);
	cr_expect_str_eq(text, "base 1a2b3c4");
	ab_options_describe(&p.b, "build/kernels", "5d6e7f8-dirty", text, sizeof text);
	cr_expect_str_eq(text, "head 5d6e7f8-dirty, env X=1");
	ab_options_describe(&p.a, "/tmp/a", NULL, text, sizeof text);
	cr_expect_str_eq(text, "base, kernels /tmp/a");
	p.b.label = NULL;
	ab_options_describe(&p.b, "build/kernels", "5d6e7f8", text, sizeof text);
	cr_expect_str_eq(text, "5d6e7f8, env X=1");
	done(&p);
}

/* Each bad command line: CLI_BAD_USAGE and one line naming the flag and
 * the value, in cli_refuse.h's wording. */
Test(ab_options, bad_flags_are_named, .init = as_gate_ab)
{
	static const char *cases[][2] = {
		{ "--a-env", "NOEQUALS" }, { "--b-env", "=1" }, { "--a-kernel-dir", "" },
		{ "--b-what", "1" }, { "--a-allocator", "no-such-allocator" },
		{ "--a-label", "" }, { "--rounds", "2.5" }, { "--warmup", "1.5" },
		{ "--rounds", "10x" }, { "--rounds", "-3" }, { "--rounds", "99999999999999999999" },
		{ "--sampling", "auto" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ab_plan p;
		cr_expect_eq(parse(&p, 2, cases[i]), CLI_BAD_USAGE, "%s %s", cases[i][0],
			     cases[i][1]);
		done(&p);
	}
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"gate ab: --a-env NOEQUALS: expected KEY=VALUE\n"
		"gate ab: --b-env =1: expected KEY=VALUE\n"
		"gate ab: --a-kernel-dir needs a value (--a-kernel-dir DIR)\n"
		"gate ab: unknown option '--b-what' (gate ab --help lists them)\n"
		"gate ab: --a-allocator no-such-allocator: unknown allocator (expected glibc, "
		"jemalloc, mimalloc, tcmalloc or a path to a shared library)\n"
		"gate ab: --a-label needs a value (--a-label TEXT)\n"
		"gate ab: --rounds 2.5: expected an integer from 2 to 1000\n"
		"gate ab: --warmup 1.5: expected auto or an integer from 0 to 1000\n"
		"gate ab: --rounds 10x: expected an integer from 2 to 1000\n"
		"gate ab: --rounds -3: expected an integer from 2 to 1000\n"
		"gate ab: --rounds 99999999999999999999: expected an integer from 2 to 1000\n"
		"gate ab: --sampling auto: expected duet or interleaved\n");
}

Test(ab_options, baseline_flags_are_refused, .init = as_gate_ab)
{
	const char *update[] = { "--update-baseline" }, *runs[] = { "--runs=3" },
		   *whole[] = { "--min-effect-whole", "5" };
	struct ab_plan p;
	struct run_options o;
	run_options_defaults(&o);
	cr_expect_eq(ab_options_check(&o), 0);
	cr_expect_eq(parse(&p, ARGC(update), update), CLI_BAD_USAGE);
	done(&p);
	cr_expect_eq(parse(&p, ARGC(runs), runs), CLI_BAD_USAGE);
	done(&p);
	cr_expect_eq(parse(&p, ARGC(whole), whole), CLI_BAD_USAGE);
	done(&p);
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"gate ab: --update-baseline: not with gate ab, which compares B with A measured "
		"in the same rounds and reads or writes no baseline (use gate run)\n"
		"gate ab: --runs: not with gate ab, which compares B with A measured in the same "
		"rounds and reads or writes no baseline (use gate run)\n"
		"gate ab: --min-effect-whole: not with gate ab, which compares B with A measured "
		"in the same rounds and reads or writes no baseline (use gate run)\n");
}

Test(ab_options, sampling_mode_and_all_rounds)
{
	const char *duet[] = { "--quick", "--duet", "--kernel", "toy" },
		   *interleaved[] = { "--interleaved", "--all-rounds" }, *none[] = { "--quick" },
		   *named[] = { "--sampling", "duet", "--quick" },
		   *agree[] = { "--sampling=interleaved", "--interleaved" };
	struct ab_plan p;
	cr_assert_eq(parse(&p, ARGC(duet), duet), CLI_PARSED);
	cr_expect_eq(p.choice, AB_CHOICE_DUET);
	cr_expect_str_eq(p.shared.kernels[0], "toy");
	cr_expect_not(p.all_rounds, "without the flag the looks stay");
	done(&p);
	cr_assert_eq(parse(&p, ARGC(interleaved), interleaved), CLI_PARSED);
	cr_expect_eq(p.choice, AB_CHOICE_INTERLEAVED);
	cr_expect(p.all_rounds);
	done(&p);
	cr_assert_eq(parse(&p, ARGC(none), none), CLI_PARSED);
	cr_expect_eq(p.choice, AB_CHOICE_DEFAULT);
	done(&p);
	cr_assert_eq(parse(&p, ARGC(named), named), CLI_PARSED);
	cr_expect_eq(p.choice, AB_CHOICE_DUET);
	done(&p);
	cr_assert_eq(parse(&p, ARGC(agree), agree), CLI_PARSED, "the same mode twice agrees");
	cr_expect_eq(p.choice, AB_CHOICE_INTERLEAVED);
	done(&p);
}

Test(ab_options, two_modes_conflict, .init = as_gate_ab)
{
	const char *both[] = { "--duet", "--interleaved" },
		   *named[] = { "--sampling=duet", "--interleaved" };
	struct ab_plan p;
	cr_expect_eq(parse(&p, ARGC(both), both), CLI_BAD_USAGE);
	done(&p);
	cr_expect_eq(parse(&p, ARGC(named), named), CLI_BAD_USAGE);
	done(&p);
	fflush(stderr);
	cr_expect_stderr_eq_str("gate ab: --duet and --interleaved: choose one\n"
				"gate ab: --sampling and --interleaved: choose one\n");
}

/* --help prints gate ab's own usage, its rows and the note on gate run's. */
Test(ab_options, help_is_gate_abs, .init = cr_redirect_stdout)
{
	const char *argv[] = { "--quick", "--help" };
	struct ab_plan p;
	cr_expect_eq(parse(&p, ARGC(argv), argv), CLI_HELP_PRINTED);
	done(&p);
	fflush(stdout);
	FILE *f = cr_get_redirected_stdout();
	char text[4096];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	cr_expect(strstr(text, "usage: gate ab [options]"), "%s", text);
	cr_expect(strstr(text, "  --b-label TEXT"), "%s", text);
	cr_expect(strstr(text, "and the options of gate run except"), "%s", text);
	cr_expect_null(strstr(text, "--update-baseline  "), "gate run's rows: %s", text);
}

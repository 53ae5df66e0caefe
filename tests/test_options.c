/* test_options.c: gates/cli/run_flags.c and gates/run/run_options.c, the
 * flags of `gate run`: defaults, tiers and their rounds, both flag forms,
 * validation and its messages. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "allocgate/probe.h"
#include "cli/run_flags.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Parses ARGV (string literals; run_options_parse never writes them) after
 * filling O with the defaults. */
static int parse(struct run_options *o, int argc, const char **argv)
{
	run_options_defaults(o);
	return run_options_parse(o, argc, (char **)argv);
}

static void done(struct run_options *o)
{
	free(o->kernels);
	free(o->env);
}

static void expect_close(double got, double want)
{
	cr_expect(fabs(got - want) <= 1e-12 * fabs(want), "got %.17g, want %.17g", got, want);
}

Test(options, defaults_are_the_default_tier)
{
	struct run_options o;

	cr_assert_eq(parse(&o, 0, NULL), 0);
	cr_expect_eq(o.tier, (unsigned)GATE_TIER_DEFAULT);
	cr_expect_str_eq(o.tier_name, "default");
	cr_expect_eq(o.rounds, 15);
	cr_expect_eq(o.warmup, 1);
	cr_expect_eq(o.seed, 1u);
	cr_expect_eq(o.timeout_seconds, 60.0);
	expect_close(o.min_effect, 0.25);
	expect_close(o.min_effect_whole, 0.10);
	expect_close(o.exact_tolerance, 0.01);
	expect_close(o.near_tolerance, 0.10);
	expect_close(o.alpha, 0.05);
	cr_expect_null(o.kernels);
	cr_expect_eq(o.kernel_count, 0);
	cr_expect_null(o.env);
	cr_expect_eq(o.env_count, 0);
	cr_expect_null(o.json_path);
	cr_expect_null(o.baseline_dir);
	cr_expect_null(o.kernel_dir);
	cr_expect_not(o.update_baseline);
	cr_expect_not(o.require_baseline);
	cr_expect_not(o.no_color);
	cr_expect_eq(o.verbose, 0);
}

Test(options, quick_sets_nine_rounds_and_the_quick_tier)
{
	struct run_options o;
	const char *argv[] = { "--quick" };

	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect_eq(o.tier, (unsigned)GATE_TIER_QUICK);
	cr_expect_str_eq(o.tier_name, "quick");
	cr_expect_eq(o.rounds, 9);
}

Test(options, full_sets_nine_rounds_and_the_full_tier)
{
	struct run_options o;
	const char *argv[] = { "--quick", "--full" };

	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect_eq(o.tier, (unsigned)GATE_TIER_FULL);
	cr_expect_str_eq(o.tier_name, "full");
	cr_expect_eq(o.rounds, 9, "the last tier flag decides");
}

Test(options, rounds_before_quick_wins)
{
	struct run_options o;
	const char *argv[] = { "--rounds", "7", "--quick" };

	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect_eq(o.tier, (unsigned)GATE_TIER_QUICK);
	cr_expect_eq(o.rounds, 7);
}

Test(options, rounds_after_quick_wins)
{
	struct run_options o;
	const char *argv[] = { "--quick", "--rounds=7" };

	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect_eq(o.tier, (unsigned)GATE_TIER_QUICK);
	cr_expect_eq(o.rounds, 7);
}

Test(options, rounds_in_equals_form_before_full_wins)
{
	struct run_options o;
	const char *argv[] = { "--rounds=3", "--full" };

	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect_eq(o.tier, (unsigned)GATE_TIER_FULL);
	cr_expect_eq(o.rounds, 3);
}

Test(options, warmup_auto)
{
	struct run_options o;
	const char *argv[] = { "--warmup", "auto" }, *eq[] = { "--warmup=auto" };
	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect_eq(o.warmup, OPTIONS_WARMUP_AUTO);
	cr_assert_eq(parse(&o, ARGC(eq), eq), 0);
	cr_expect_eq(o.warmup, OPTIONS_WARMUP_AUTO);
}

Test(options, environment_control_flags)
{
	struct run_options o;
	const char *argv[] = { "--no-thp", "--no-aslr", "--pin-cpu", "1" };
	cr_assert_eq(parse(&o, 0, NULL), 0);
	cr_expect_not(o.no_thp);
	cr_expect_eq(o.pin_cpu, -1);
	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect(o.no_thp);
	cr_expect(o.no_aslr);
	cr_expect_eq(o.pin_cpu, 1);
}

Test(options, correction_and_best_of, .init = cr_redirect_stderr)
{
	struct run_options o;
	const char *argv[] = { "--correction", "bh", "--best-of", "8" };
	const char *bad_correction[] = { "--correction", "bonferroni" }, *bad_best[] = { "--best-of", "0" };
	cr_assert_eq(parse(&o, 0, NULL), 0);
	cr_expect_not(o.fdr, "Holm by default");
	cr_expect_eq(o.best_of, 0, "each parameter set's best_of by default");
	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect(o.fdr);
	cr_expect_eq(o.best_of, 8);
	cr_expect_eq(parse(&o, ARGC(bad_correction), bad_correction), CLI_BAD_USAGE);
	cr_expect_eq(parse(&o, ARGC(bad_best), bad_best), CLI_BAD_USAGE);
	fflush(stderr);
	cr_expect_stderr_eq_str("gate: --correction bonferroni: expected holm or bh\n"
				"gate: --best-of 0: expected an integer from 1 to 1000\n");
}

/* gate ab doubles the tier's rounds unless --rounds said how many. */
Test(options, rounds_given_is_recorded)
{
	struct run_options o;
	const char *argv[] = { "--quick", "--rounds=4" }, *tier_only[] = { "--quick" };
	cr_assert_eq(parse(&o, ARGC(tier_only), tier_only), 0);
	cr_expect_not(o.rounds_given);
	cr_expect_eq(o.rounds, 9);
	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect(o.rounds_given);
	cr_expect_eq(o.rounds, 4);
}

Test(options, valued_flags_in_both_forms)
{
	struct run_options o;
	const char *argv[] = { "--json", "out.json", "--baseline-dir=base", "--kernel-dir", "kdir",
			       "--seed=42", "--warmup", "0", "--timeout=2.5", "--min-effect", "5",
			       "--update-baseline", "--require-baseline", "--no-color", "-v",
			       "--verbose" };

	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect_str_eq(o.json_path, "out.json");
	cr_expect_str_eq(o.baseline_dir, "base");
	cr_expect_str_eq(o.kernel_dir, "kdir");
	cr_expect_eq(o.seed, 42u);
	cr_expect_eq(o.warmup, 0);
	cr_expect_eq(o.timeout_seconds, 2.5);
	expect_close(o.min_effect, 0.05);
	cr_expect(o.update_baseline);
	cr_expect(o.require_baseline);
	cr_expect(o.no_color);
	cr_expect_eq(o.verbose, 2);
	cr_expect_eq(o.tier, (unsigned)GATE_TIER_DEFAULT, "untouched");
	cr_expect_eq(o.rounds, 15, "untouched");
}

Test(options, min_effect_is_a_percent)
{
	struct run_options o;
	const char *argv[] = { "--min-effect=25", "--min-effect-whole", "15" };

	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	expect_close(o.min_effect, 0.25);
	expect_close(o.min_effect_whole, 0.15);
	struct run_policy p;
	run_options_policy(&o, &p);
	expect_close(p.min_effect_whole, 0.15);
}

Test(options, largest_exact_seed)
{
	struct run_options o;
	const char *argv[] = { "--seed", "9007199254740991" };

	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect_eq(o.seed, 9007199254740991ULL, "2^53 - 1");
}

Test(options, kernel_repeated_builds_a_null_terminated_list)
{
	struct run_options o;
	const char *argv[] = { "--kernel", "resize", "--kernel=churn", "--kernel", "fragment" };

	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_assert_eq(o.kernel_count, 3);
	cr_expect_str_eq(o.kernels[0], "resize");
	cr_expect_str_eq(o.kernels[1], "churn");
	cr_expect_str_eq(o.kernels[2], "fragment");
	cr_expect_null(o.kernels[3]);
	done(&o);
}

Test(options, env_repeated_builds_a_null_terminated_list)
{
	struct run_options o;
	const char *argv[] = { "--env", "MALLOC_ARENA_MAX=2", "--env=GLIBC_TUNABLES=a=b:c=d",
			       "--env", "EMPTY=" };

	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_assert_eq(o.env_count, 3);
	cr_expect_str_eq(o.env[0], "MALLOC_ARENA_MAX=2");
	cr_expect_str_eq(o.env[1], "GLIBC_TUNABLES=a=b:c=d", "only the first '=' splits the flag");
	cr_expect_str_eq(o.env[2], "EMPTY=");
	cr_expect_null(o.env[3]);
	done(&o);
}

Test(options, help_prints_usage_and_returns_one, .init = cr_redirect_stdout)
{
	struct run_options o;
	const char *argv[] = { "--quick", "-h", "--bogus" };

	cr_expect_eq(parse(&o, ARGC(argv), argv), CLI_HELP_PRINTED);
	fflush(stdout);
	cr_expect_stdout_neq_str("", "usage must be printed");
}

/* ---- errors: CLI_BAD_USAGE and one message on stderr naming the flag ---- */

static void expect_error(const char **argv, int argc, const char *message)
{
	struct run_options o;

	cr_expect_eq(parse(&o, argc, argv), CLI_BAD_USAGE);
	done(&o);
	fflush(stderr);
	cr_expect_stderr_eq_str(message);
}

#define ERROR_TEST(name, message, ...)                                        \
	Test(options, name, .init = cr_redirect_stderr)                       \
	{                                                                     \
		const char *argv[] = { __VA_ARGS__ };                         \
		expect_error(argv, ARGC(argv), message);                      \
	}

ERROR_TEST(unknown_flag, "gate: unknown option '--bogus' (gate run --help lists them)\n",
	   "--bogus")
ERROR_TEST(unknown_flag_with_value,
	   "gate: unknown option '--bogus=1' (gate run --help lists them)\n", "--quick", "--bogus=1")
ERROR_TEST(unknown_flag_before_a_word,
	   "gate: unknown option '--bogus' (gate run --help lists them)\n", "--bogus", "word")
ERROR_TEST(flag_with_value_is_not_a_switch,
	   "gate: unknown option '--quick=1' (gate run --help lists them)\n", "--quick=1")
ERROR_TEST(positional_argument,
	   "gate: unexpected argument 'resize' (gate run --help shows the usage)\n", "resize")
ERROR_TEST(rounds_below_two, "gate: --rounds 1: expected an integer from 2 to 1000\n",
	   "--rounds", "1")
ERROR_TEST(rounds_above_1000, "gate: --rounds 1001: expected an integer from 2 to 1000\n",
	   "--rounds=1001")
ERROR_TEST(rounds_not_a_number, "gate: --rounds nine: expected an integer from 2 to 1000\n",
	   "--rounds", "nine")
ERROR_TEST(rounds_nan, "gate: --rounds nan: expected an integer from 2 to 1000\n",
	   "--rounds", "nan")
ERROR_TEST(rounds_fraction, "gate: --rounds 2.5: expected an integer from 2 to 1000\n",
	   "--rounds", "2.5")
ERROR_TEST(rounds_trailing_garbage, "gate: --rounds 10x: expected an integer from 2 to 1000\n",
	   "--rounds", "10x")
ERROR_TEST(rounds_negative, "gate: --rounds -3: expected an integer from 2 to 1000\n",
	   "--rounds=-3")
ERROR_TEST(rounds_overflow,
	   "gate: --rounds 99999999999999999999: expected an integer from 2 to 1000\n",
	   "--rounds", "99999999999999999999")
ERROR_TEST(rounds_exponent, "gate: --rounds 1e1: expected an integer from 2 to 1000\n",
	   "--rounds", "1e1")
ERROR_TEST(rounds_leading_space, "gate: --rounds  5: expected an integer from 2 to 1000\n",
	   "--rounds", " 5")
ERROR_TEST(rounds_empty, "gate: --rounds needs a value (--rounds N)\n", "--rounds=")
ERROR_TEST(rounds_missing_value, "gate: --rounds needs a value (--rounds N)\n", "--rounds")
ERROR_TEST(warmup_negative,
	   "gate: --warmup -1: expected auto or an integer from 0 to 1000\n", "--warmup", "-1")
ERROR_TEST(warmup_fraction,
	   "gate: --warmup 1.5: expected auto or an integer from 0 to 1000\n", "--warmup", "1.5")
ERROR_TEST(runs_fraction, "gate: --runs 2.5: expected an integer from 1 to 100\n",
	   "--runs=2.5")
ERROR_TEST(best_of_overflow,
	   "gate: --best-of 4294967297: expected an integer from 1 to 1000\n", "--best-of",
	   "4294967297")
ERROR_TEST(pin_cpu_fraction, "gate: --pin-cpu 1.0: expected an integer from 0 to 4095\n",
	   "--pin-cpu", "1.0")
ERROR_TEST(timeout_too_short, "gate: --timeout 0.05: expected a number from 0.1 to 86400\n",
	   "--timeout", "0.05")
ERROR_TEST(timeout_trailing_garbage, "gate: --timeout 5s: expected a number from 0.1 to 86400\n",
	   "--timeout", "5s")
ERROR_TEST(deadline_infinite, "gate: --deadline inf: expected a number from 1 to 604800\n",
	   "--deadline", "inf")
ERROR_TEST(min_effect_negative, "gate: --min-effect -5: expected a number from 0 to 1000\n",
	   "--min-effect=-5")
ERROR_TEST(min_effect_whole_word, "gate: --min-effect-whole ten: expected a number from 0 to "
	   "1000\n", "--min-effect-whole", "ten")
ERROR_TEST(seed_fraction, "gate: --seed 1.5: expected an integer from 0 to 9007199254740991\n",
	   "--seed", "1.5")
ERROR_TEST(seed_above_2_53, "gate: --seed 9007199254740992: expected an integer from 0 to "
	   "9007199254740991\n", "--seed", "9007199254740992")
ERROR_TEST(seed_not_a_number, "gate: --seed abc: expected an integer from 0 to "
	   "9007199254740991\n", "--seed", "abc")
ERROR_TEST(env_without_equals, "gate: --env FOO: expected KEY=VALUE\n", "--env", "FOO")
ERROR_TEST(env_without_key, "gate: --env =1: expected KEY=VALUE\n", "--env", "=1")
ERROR_TEST(env_bad_key, "gate: --env MY-VAR=1: KEY must be letters, digits and _\n",
	   "--env=MY-VAR=1")
ERROR_TEST(env_missing_value, "gate: --env needs a value (--env KEY=VALUE)\n", "--env")
ERROR_TEST(kernel_empty, "gate: --kernel needs a value (--kernel NAME)\n", "--kernel=")
ERROR_TEST(json_empty, "gate: --json needs a value (--json FILE)\n", "--json=")
ERROR_TEST(html_empty, "gate: --html needs a value (--html FILE)\n", "--html", "")
ERROR_TEST(baseline_dir_missing, "gate: --baseline-dir needs a value (--baseline-dir DIR)\n",
	   "--baseline-dir")
ERROR_TEST(backend_unknown, "gate: --backend dtrace: expected perf or bpf\n", "--backend=dtrace")

/* --junit, --markdown, --svg, --html and --shard (the CI reports and
 * sharding). */
Test(options, ci_reports_and_shard)
{
	struct run_options o;
	const char *argv[] = { "--junit", "j.xml", "--markdown=m.md", "--svg", "charts",
			       "--html", "r.html", "--shard", "2/3" };
	cr_assert_eq(parse(&o, ARGC(argv), argv), 0);
	cr_expect_str_eq(o.junit_path, "j.xml");
	cr_expect_str_eq(o.markdown_path, "m.md");
	cr_expect_str_eq(o.svg_dir, "charts");
	cr_expect_str_eq(o.html_path, "r.html");
	cr_expect_eq(o.shard_index, 2);
	cr_expect_eq(o.shard_count, 3);
	done(&o);
	run_options_defaults(&o);
	cr_expect_eq(o.shard_count, 0, "no sharding by default");
}

Test(options, bad_shard, .init = cr_redirect_stderr)
{
	static const char *const bad[] = { "0/2", "3/2", "1/0", "1", "1/2x", "a/b", "",
					   "1.0/2", "1/2.5", "-1/2", "1/99999999999999999999" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct run_options o;
		const char *argv[] = { "--shard", bad[i] };
		cr_expect_eq(parse(&o, 2, argv), CLI_BAD_USAGE, "accepted --shard '%s'", bad[i]);
		done(&o);
	}
	fflush(stderr);
	cr_expect_stderr_neq_str("");
}

Test(options, the_deadline_follows_the_tier_and_the_batches)
{
	struct run_options o;
	char *quick[] = { "--quick" }, *given[] = { "--deadline", "12.5" };
	run_options_defaults(&o);
	o.runs = 1;
	cr_expect_float_eq(run_options_deadline(&o), OPTIONS_DEADLINE_DEFAULT, 1e-9);
	o.runs = 3;
	cr_expect_float_eq(run_options_deadline(&o), 3 * OPTIONS_DEADLINE_DEFAULT, 1e-9);
	cr_assert_eq(run_options_parse(&o, 1, quick), 0);
	o.runs = 1;
	cr_expect_float_eq(run_options_deadline(&o), OPTIONS_DEADLINE_QUICK, 1e-9);
	cr_assert_eq(run_options_parse(&o, 2, given), 0);
	cr_expect_float_eq(run_options_deadline(&o), 12.5, 1e-9);
}

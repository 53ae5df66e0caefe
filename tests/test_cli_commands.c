/* test_cli_commands.c: every subcommand's command line (gates/cli/, one X_cmd.c each)
 * read by the one parser (cli_table.h): an unknown option is refused in
 * the same words by each, naming the command's --help, and every valued
 * flag of each is taken in the form --flag=VALUE. The subcommands are
 * called in this process; each refuses before it runs anything. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

/* A subcommand: how messages name it, how its --help is asked for, its
 * main, and ADD: "add" first (gate history add). */
struct command {
	const char *program, *command;
	int (*main)(int argc, char **argv, const char *self_dir);
	bool add;
};

static const struct command commands[] = {
	{ "gate", "gate run", run_main, false },
	{ "gate ab", "gate ab", ab_main, false },
	{ "gate matrix", "gate matrix", matrix_main, false },
	{ "gate diff", "gate diff", diff_main, false },
	{ "gate merge", "gate merge", merge_main, false },
	{ "gate list", "gate list", list_main, false },
	{ "gate history", "gate history", history_main, false },
	{ "gate history add", "gate history add", history_main, true },
	{ "gate bisect", "gate bisect", bisect_main, false },
};

#define COMMANDS (sizeof commands / sizeof commands[0])

/* C's main with ARG (NULL: none) and then --no-such-flag; its exit status. */
static int call(const struct command *c, const char *arg)
{
	char *argv[4];
	int argc = 0;
	if (c->add)
		argv[argc++] = "add";
	if (arg)
		argv[argc++] = (char *)arg;
	argv[argc++] = "--no-such-flag";
	argv[argc] = NULL;
	return c->main(argc, argv, "/nonexistent");
}

/* The one line an unknown option gets from C, into BUF at *LEN. */
static void unknown_line(const struct command *c, char *buf, size_t size, size_t *len)
{
	*len += (size_t)snprintf(buf + *len, size - *len, "%s: unknown option '--no-such-flag' "
				 "(%s --help lists them)\n", c->program, c->command);
}

Test(cli_commands, an_unknown_option_in_the_same_words_everywhere, .init = cr_redirect_stderr)
{
	static char want[4096];
	size_t len = 0;
	for (size_t i = 0; i < COMMANDS; i++) {
		cr_expect_eq(call(&commands[i], NULL), GATE_EXIT_USAGE, "%s", commands[i].command);
		unknown_line(&commands[i], want, sizeof want, &len);
	}
	fflush(stderr);
	cr_expect_stderr_eq_str(want);
}

/* A valued flag of a subcommand and a value it takes. */
struct valued {
	const char *command, *arg;
};

/* Every valued flag of every subcommand, in the form --flag=VALUE. */
static const struct valued valued_flags[] = {
	{ "gate run", "--kernel=toy" }, { "gate run", "--json=r.json" },
	{ "gate run", "--baseline-dir=b" }, { "gate run", "--env=A=1" },
	{ "gate run", "--allocator=glibc" }, { "gate run", "--backend=perf" },
	{ "gate run", "--seed=3" }, { "gate run", "--rounds=5" }, { "gate run", "--runs=2" },
	{ "gate run", "--warmup=auto" }, { "gate run", "--warmup=0" },
	{ "gate run", "--timeout=2.5" }, { "gate run", "--deadline=100" },
	{ "gate run", "--best-of=2" }, { "gate run", "--gate=all" },
	{ "gate run", "--min-effect=5" }, { "gate run", "--min-effect-whole=5" },
	{ "gate run", "--correction=bh" }, { "gate run", "--kernel-dir=k" },
	{ "gate run", "--junit=j.xml" }, { "gate run", "--markdown=m.md" },
	{ "gate run", "--svg=s" }, { "gate run", "--html=h.html" }, { "gate run", "--shard=1/2" },
	{ "gate run", "--pin-cpu=0" },
	{ "gate ab", "--a-env=A=1" }, { "gate ab", "--b-env=B=2" },
	{ "gate ab", "--a-allocator=glibc" }, { "gate ab", "--b-allocator=glibc" },
	{ "gate ab", "--a-kernel-dir=a" }, { "gate ab", "--b-kernel-dir=b" },
	{ "gate ab", "--a-label=base" }, { "gate ab", "--b-label=head" },
	{ "gate ab", "--sampling=duet" }, { "gate ab", "--rounds=5" },
	{ "gate ab", "--min-effect=3" }, { "gate ab", "--gate=timing" },
	{ "gate ab", "--kernel=toy" }, { "gate ab", "--warmup=1" },
	{ "gate matrix", "--allocators=glibc" }, { "gate matrix", "--svg=s" },
	{ "gate matrix", "--json=m.json" }, { "gate matrix", "--kernel=toy" },
	{ "gate matrix", "--rounds=5" },
	{ "gate diff", "--baseline-dir=b" }, { "gate diff", "--flame=f" },
	{ "gate merge", "--json=o.json" }, { "gate merge", "--junit=j.xml" },
	{ "gate merge", "--markdown=m.md" }, { "gate merge", "--svg=s" },
	{ "gate merge", "--html=h.html" },
	{ "gate list", "--kernel-dir=k" },
	{ "gate history", "--dir=d" }, { "gate history", "--kernel=toy" },
	{ "gate history", "--metric=wall_ns" }, { "gate history", "--min-effect=2" },
	{ "gate history", "--svg=h.svg" }, { "gate history", "--json=h.json" },
	{ "gate history add", "--dir=d" },
	{ "gate bisect", "--good=HEAD~1" }, { "gate bisect", "--bad=HEAD" },
	{ "gate bisect", "--build=make" }, { "gate bisect", "--kernel-dir=k" },
	{ "gate bisect", "--kernel=toy" }, { "gate bisect", "--metric=heap_*" },
	{ "gate bisect", "--cache-dir=c" }, { "gate bisect", "--build-timeout=60" },
	{ "gate bisect", "--json=b.json" },
};

static const struct command *command_named(const char *command)
{
	for (size_t i = 0; i < COMMANDS; i++)
		if (!strcmp(commands[i].command, command))
			return &commands[i];
	cr_assert_fail("no command %s", command);
	return NULL;
}

/* Each --flag=VALUE is taken: the parse goes on to the next argument, an
 * unknown option, and that is the one refusal said. */
Test(cli_commands, every_valued_flag_takes_the_equals_form, .init = cr_redirect_stderr)
{
	static char want[16384];
	size_t len = 0;
	for (size_t i = 0; i < sizeof valued_flags / sizeof valued_flags[0]; i++) {
		const struct command *c = command_named(valued_flags[i].command);
		cr_expect_eq(call(c, valued_flags[i].arg), GATE_EXIT_USAGE, "%s %s", c->command,
			     valued_flags[i].arg);
		unknown_line(c, want, sizeof want, &len);
	}
	fflush(stderr);
	cr_expect_stderr_eq_str(want);
}

/* The equals form is read, not skipped: a bad value after '=' is refused
 * naming the flag and the value, by every subcommand that takes an
 * integer or a number. */
Test(cli_commands, a_bad_value_after_equals_is_refused, .init = cr_redirect_stderr)
{
	static const struct valued bad[] = {
		{ "gate run", "--rounds=2.5" }, { "gate ab", "--warmup=1.5" },
		{ "gate matrix", "--rounds=10x" }, { "gate history", "--min-effect=x" },
		{ "gate bisect", "--build-timeout=1e3" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		cr_expect_eq(call(command_named(bad[i].command), bad[i].arg), GATE_EXIT_USAGE);
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"gate: --rounds 2.5: expected an integer from 2 to 1000\n"
		"gate ab: --warmup 1.5: expected auto or an integer from 0 to 1000\n"
		"gate matrix: --rounds 10x: expected an integer from 2 to 1000\n"
		"gate history: --min-effect x: expected a number from 0 to 1000\n"
		"gate bisect: --build-timeout 1e3: expected an integer from 1 to 86400\n");
}

/* Integers are read as integers by gate run and gate ab alike: a
 * fraction, trailing text, a negative count and an overflow each exit 2
 * naming the flag and the value. */
Test(cli_commands, integers_are_refused_unless_whole, .init = cr_redirect_stderr)
{
	static const char *const args[] = { "--rounds=2.5", "--warmup=1.5", "--rounds=10x",
					    "--rounds=-3", "--rounds=99999999999999999999" };
	static const char *const why[] = { "an integer from 2 to 1000",
					   "auto or an integer from 0 to 1000",
					   "an integer from 2 to 1000", "an integer from 2 to 1000",
					   "an integer from 2 to 1000" };
	static const char *const which[] = { "gate run", "gate ab" };
	static char want[4096];
	size_t len = 0;
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
			const struct command *c = command_named(which[k]);
			char *argv[] = { (char *)args[i], NULL };
			const char *eq = strchr(args[i], '=');
			cr_expect_eq(c->main(1, argv, "/nonexistent"), GATE_EXIT_USAGE, "%s %s",
				     c->command, args[i]);
			len += (size_t)snprintf(want + len, sizeof want - len, "%s: %.*s %s: "
						"expected %s\n", c->program, (int)(eq - args[i]),
						args[i], eq + 1, why[i]);
		}
	fflush(stderr);
	cr_expect_stderr_eq_str(want);
}

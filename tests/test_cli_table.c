/* test_cli_table.c: gates/cli/cli_table.c, the one parser of every
 * subcommand's flags, on a table of its own: `--flag VALUE` and
 * `--flag=VALUE`, switches, words, a second table's flags (ALSO), rows of
 * --help alone, required rows, and each refusal in cli_refuse.h's
 * wording. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <string.h>

#include "cli/cli_table.h"
#include "core/message.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* What the toy tables set: INNER is the second table's plan. */
struct inner {
	const char *deep;
	int deep_count;
};

struct toy {
	const char *name, *words[4], *flags[4];
	int switches, word_count;
	struct inner inner;
};

static int set_name(void *plan, const char *flag, const char *v)
{
	struct toy *t = plan;
	t->name = v;
	t->flags[0] = flag;
	if (!strcmp(v, "bad")) {
		message_error("%s %s: the row's own refusal", flag, v);
		return -1;
	}
	return 0;
}

static int set_switch(void *plan, const char *flag, const char *v)
{
	struct toy *t = plan;
	cr_expect_null(v, "a switch gets no value");
	t->flags[1] = flag;
	t->switches++;
	return 0;
}

static int set_deep(void *plan, const char *flag, const char *v)
{
	struct inner *in = plan;
	(void)flag;
	in->deep = v;
	in->deep_count++;
	return 0;
}

static int add_word(void *plan, char *arg)
{
	struct toy *t = plan;
	t->words[t->word_count++] = arg;
	return 0;
}

static void *inner_of(void *plan)
{
	return &((struct toy *)plan)->inner;
}

static const struct cli_flag inner_rows[] = {
	{ "--deep", "D", NULL, "the second table's flag", set_deep },
	{ "--shown", "S", NULL, "shown by the first table with its own help", set_deep },
};

static const struct cli_table inner_table = {
	.command = "toy inner",
	.head = "usage: toy inner\n",
	CLI_ROWS(inner_rows),
};

static const struct cli_flag toy_rows[] = {
	{ "--name", "NAME", NULL, "a valued flag", set_name },
	{ "--on", NULL, "--on, -o", "a switch", set_switch },
	{ "-o", NULL, "", NULL, set_switch },
	{ "--shown", "S", NULL, "help alone: parsed by the inner table", NULL },
};

static const char *const toy_required[] = { "--name", NULL };

static const struct cli_table toy_table = {
	.command = "toy cmd",
	.head = "usage: toy cmd [options] WORD...\n",
	.tail = "the end\n",
	.required = toy_required,
	CLI_ROWS(toy_rows),
	.word = add_word,
	.also = &inner_table,
	.also_plan = inner_of,
};

static enum cli_parse parse(struct toy *t, int argc, const char **argv)
{
	memset(t, 0, sizeof *t);
	return cli_table_parse(&toy_table, t, argc, (char **)argv);
}

Test(cli_table, both_forms_switches_words_and_the_second_table)
{
	const char *argv[] = { "w1", "--name", "x=y", "-o", "--deep=a=b", "w2", "--on",
			       "--shown", "s", "--name=last" };
	struct toy t;
	cr_assert_eq(parse(&t, ARGC(argv), argv), CLI_PARSED);
	cr_expect_str_eq(t.name, "last", "the last one given");
	cr_expect_str_eq(t.flags[0], "--name", "SET gets the row's name, also after '='");
	cr_expect_str_eq(t.flags[1], "--on");
	cr_expect_eq(t.switches, 2);
	cr_expect_eq(t.word_count, 2);
	cr_expect_str_eq(t.words[0], "w1");
	cr_expect_str_eq(t.words[1], "w2");
	cr_expect_str_eq(t.inner.deep, "s", "a row without SET: the second table's");
	cr_expect_eq(t.inner.deep_count, 2);
	const char *spaced[] = { "--name", "x=y" };
	cr_assert_eq(parse(&t, ARGC(spaced), spaced), CLI_PARSED);
	cr_expect_str_eq(t.name, "x=y", "the next argument is the value as it stands");
}

Test(cli_table, a_value_may_start_with_a_dash)
{
	const char *argv[] = { "--name", "-1" };
	struct toy t;
	cr_assert_eq(parse(&t, ARGC(argv), argv), CLI_PARSED);
	cr_expect_str_eq(t.name, "-1");
}

/* One refusal per command line, each in its one wording. */
Test(cli_table, each_refusal_in_its_wording, .init = cr_redirect_stderr)
{
	static const char *cases[][3] = {
		{ "--bogus", NULL }, { "--on=1", NULL }, { "-x", NULL }, { "--name", NULL },
		{ "--name=", NULL }, { "--name", "" }, { "--deep", NULL }, { "--name", "bad" },
		{ "--on", NULL }, { "--name=x", "--bogus=1" },
		{ "--a-flag-far-longer-than-any-row-of-any-table-is-ever-going-to-be=1", NULL },
	};
	message_set_program("toy");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct toy t;
		int argc = cases[i][1] ? 2 : 1;
		cr_expect_eq(parse(&t, argc, cases[i]), CLI_BAD_USAGE, "%s", cases[i][0]);
	}
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"toy: unknown option '--bogus' (toy cmd --help lists them)\n"
		"toy: unknown option '--on=1' (toy cmd --help lists them)\n"
		"toy: unknown option '-x' (toy cmd --help lists them)\n"
		"toy: --name needs a value (--name NAME)\n"
		"toy: --name needs a value (--name NAME)\n"
		"toy: --name needs a value (--name NAME)\n"
		"toy: --deep needs a value (--deep D)\n"
		"toy: --name bad: the row's own refusal\n"
		"toy: missing --name NAME (toy cmd --help shows the usage)\n"
		"toy: unknown option '--bogus=1' (toy cmd --help lists them)\n"
		"toy: unknown option '--a-flag-far-longer-than-any-row-of-any-table-is-ever-going-"
		"to-be=1' (toy cmd --help lists them)\n");
}

static int no_more_words(void *plan, char *arg)
{
	(void)plan;
	message_error("unexpected argument '%s'", arg);
	return -1;
}

/* A table without WORD refuses every word in cli_refuse.h's wording. */
Test(cli_table, a_word_where_none_is_taken, .init = cr_redirect_stderr)
{
	static const struct cli_table words_refused = {
		.command = "toy plain",
		.head = "usage: toy plain\n",
		CLI_ROWS(toy_rows),
	};
	static const struct cli_table word_refuses = {
		.command = "toy own",
		.head = "usage: toy own\n",
		CLI_ROWS(toy_rows),
		.word = no_more_words,
	};
	char *argv[] = { "--name", "x", "resize" };
	struct toy t = { 0 };
	message_set_program("toy");
	cr_expect_eq(cli_table_parse(&words_refused, &t, ARGC(argv), argv), CLI_BAD_USAGE);
	cr_expect_eq(cli_table_parse(&word_refuses, &t, ARGC(argv), argv), CLI_BAD_USAGE);
	fflush(stderr);
	cr_expect_stderr_eq_str("toy: unexpected argument 'resize' (toy plain --help shows the "
				"usage)\n"
				"toy: unexpected argument 'resize'\n");
}

/* --help in order: what comes before it is parsed, what comes after is not
 * looked at; the usage is the first table's, rows of --help alone too. */
Test(cli_table, help_prints_the_usage, .init = cr_redirect_stdout)
{
	const char *argv[] = { "--on", "-h", "--bogus" };
	struct toy t;
	cr_expect_eq(parse(&t, ARGC(argv), argv), CLI_HELP_PRINTED);
	cr_expect_eq(t.switches, 1);
	fflush(stdout);
	cr_expect_stdout_eq_str(
		"usage: toy cmd [options] WORD...\n"
		"  --name NAME              a valued flag\n"
		"  --on, -o                 a switch\n"
		"  --shown S                help alone: parsed by the inner table\n"
		"the end\n");
}

Test(cli_table, every_required_row_missing_is_named, .init = cr_redirect_stderr)
{
	static const struct cli_flag rows[] = {
		{ "--good", "REV", NULL, "", set_name },
		{ "--bad", "REV", NULL, "", set_name },
		{ "--build", "CMD", NULL, "", set_name },
	};
	static const char *const required[] = { "--good", "--bad", "--build", NULL };
	static const struct cli_table table = {
		.command = "toy three",
		.head = "",
		.required = required,
		CLI_ROWS(rows),
	};
	char *none[] = { NULL }, *one[] = { "--bad=x" }, *all[] = { "--build", "c", "--good=g",
								  "--bad", "b" };
	struct toy t = { 0 };
	message_set_program("toy");
	cr_expect_eq(cli_table_parse(&table, &t, 0, none), CLI_BAD_USAGE);
	cr_expect_eq(cli_table_parse(&table, &t, ARGC(one), one), CLI_BAD_USAGE);
	cr_expect_eq(cli_table_parse(&table, &t, ARGC(all), all), CLI_PARSED);
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"toy: missing --good REV, --bad REV and --build CMD (toy three --help shows the "
		"usage)\n"
		"toy: missing --good REV and --build CMD (toy three --help shows the usage)\n");
}

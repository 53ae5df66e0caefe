/* matrix_cmd.c: `gate matrix`: its flags (--allocators and those of gate
 * run it takes; one table, cli_table.h), then the run (run/run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_table.h"
#include "cli/commands.h"
#include "cli/run_flags.h"
#include "core/message.h"
#include "run/run.h"

/* The command line being parsed: the matrix's own flags into PLAN, the
 * flags of gate run, in order, into REST (REST_COUNT of them). */
struct matrix_args {
	struct matrix_plan *plan;
	char **rest;
	int rest_count;
};

/* FLAG, an option of gate run that means nothing here: -1 after a message. */
static int not_with_matrix(const char *flag)
{
	message_error("%s: not with gate matrix, which measures every allocator in the same "
		      "rounds, gates nothing and reads or writes no baseline (--allocators LIST "
		      "chooses the allocators; gate run --allocator NAME gates one)", flag);
	return -1;
}

static int set_allocators(void *args, const char *flag, const char *v)
{
	struct matrix_plan *p = ((struct matrix_args *)args)->plan;
	(void)flag;
	if (!v || !*v) {
		message_error("--allocators: expected a comma list (glibc,jemalloc,...)");
		return -1;
	}
	p->allocators = v;
	p->allocators_given = true;
	return 0;
}

/* --allocator: a usage error before run_options_parse looks for the
 * library, the same exit 2 whether or not that allocator is installed. */
static int no_allocator(void *args, const char *flag, const char *v)
{
	(void)args, (void)flag, (void)v;
	return not_with_matrix("--allocator");
}

/* ARG, a flag of gate run or its value, kept for its parser. */
static int pass_on(void *args, char *arg)
{
	struct matrix_args *a = args;
	if (!strncmp(arg, "--allocator=", 12))
		return no_allocator(args, arg, NULL);
	a->rest[a->rest_count++] = arg;
	return 0;
}

static const struct cli_flag matrix_flags[] = {
	{ "--allocators", "LIST", NULL, "comma list of glibc, jemalloc, mimalloc, tcmalloc or library\n"
	  "paths (default: glibc and every one of the others that is\n"
	  "installed; a missing one is named with its package)", set_allocators },
	{ "--svg", NULL, "--svg DIR", "writes DIR/matrix.svg, the claims as a heat map", NULL },
	{ "--allocator", NULL, "", NULL, no_allocator },
};

static const struct cli_table matrix_table = {
	.head = "usage: gate matrix [--quick|--full] [--kernel NAME]... [--allocators LIST]\n"
		"                   [--json FILE] [--markdown FILE] [--svg DIR] [options of gate run]\n"
		"measures every kernel under each allocator in the same shuffled rounds and\n"
		"prints a table of every declared claim x allocator: holds, fails or\n"
		"inconclusive, with its estimate and interval, the counts that explain it,\n"
		"and each variant's wall time against the first allocator's.\n",
	.tail = "It gates nothing (gate run --allocator NAME does). exit status: 0 the table\n"
		"is complete; 2 usage or bad input; 3 nothing measured; 4 samples failed.\n",
	.flags = matrix_flags,
	.count = sizeof matrix_flags / sizeof matrix_flags[0],
	.width = 18,
	.other = pass_on,
};

/* Options of gate run that mean nothing here. */
static int check_options(const struct run_options *o)
{
	const char *flag = o->update_baseline ? "--update-baseline"
			 : o->require_baseline ? "--require-baseline"
			 : o->baseline_dir ? "--baseline-dir" : o->runs > 1 ? "--runs"
			 : o->allocator ? "--allocator" : o->junit_path ? "--junit"
			 : o->html_path ? "--html"
			 : o->shard_count ? "--shard" : NULL;
	return flag ? not_with_matrix(flag) : 0;
}

/* Parses ARGV into P, REST (room for ARGC + 1) holding the flags gate run
 * shares: CLI_PARSED, CLI_HELP_PRINTED, or CLI_BAD_USAGE after a message
 * (cli/commands.h). */
static enum cli_parse parse(struct matrix_plan *p, int argc, char **argv, char **rest)
{
	struct matrix_args args = { p, rest, 0 };
	if (!rest) {
		message_error("out of memory");
		return CLI_BAD_USAGE;
	}
	enum cli_parse parsed = cli_table_parse(&matrix_table, &args, argc, argv);
	if (parsed != CLI_PARSED)
		return parsed;
	run_options_defaults(&p->options);
	if (run_options_parse(&p->options, args.rest_count, rest) || check_options(&p->options))
		return CLI_BAD_USAGE;
	return CLI_PARSED;
}

int matrix_main(int argc, char **argv, const char *self_dir)
{
	struct matrix_plan p;
	char **rest = calloc((size_t)argc + 1, sizeof *rest);
	int ret;
	message_set_program("gate matrix");
	memset(&p, 0, sizeof p);
	enum cli_parse parsed = parse(&p, argc, argv, rest);
	if (parsed == CLI_PARSED) {
		ret = run_matrix(&p, self_dir);
	} else {
		run_options_free(&p.options);
		ret = cli_parse_exit(parsed);
	}
	free(rest);
	return ret;
}

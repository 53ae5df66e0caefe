/* matrix_cmd.c: `gate matrix`: its flags (--allocators beside those of
 * gate run it takes; one table, cli_table.h), then the run (run/run.h). */
#include <string.h>

#include "cli/cli_refuse.h"
#include "cli/cli_table.h"
#include "cli/commands.h"
#include "cli/run_flags.h"
#include "core/message.h"
#include "run/run.h"

/* FLAG, an option of gate run that means nothing here: -1 after a message. */
static int not_with_matrix(const char *flag)
{
	return cli_refuse_not_here(flag, "which measures every allocator in the same rounds, "
				   "gates nothing and reads or writes no baseline (--allocators "
				   "LIST chooses the allocators; gate run --allocator NAME gates "
				   "one)");
}

static int set_allocators(void *plan, const char *flag, const char *v)
{
	struct matrix_plan *p = plan;
	(void)flag;
	p->allocators = v;
	p->allocators_given = true;
	return 0;
}

/* --allocator: a usage error before gate run's row looks for the library,
 * the same exit 2 whether or not that allocator is installed. */
static int no_allocator(void *plan, const char *flag, const char *v)
{
	(void)plan, (void)v;
	return not_with_matrix(flag);
}

static const struct cli_flag matrix_flags[] = {
	{ "--allocators", "LIST", NULL, "comma list of glibc, jemalloc, mimalloc, tcmalloc or library\n"
	  "paths (default: glibc and every one of the others that is\n"
	  "installed; a missing one is named with its package)", set_allocators },
	{ "--svg", "DIR", NULL, "writes DIR/matrix.svg, the claims as a heat map", NULL },
	{ "--allocator", "NAME", "", NULL, no_allocator },
};

/* The options every allocator shares, in PLAN. */
static void *options_of(void *plan)
{
	return &((struct matrix_plan *)plan)->options;
}

static const struct cli_table matrix_table = {
	.command = "gate matrix",
	.head = "usage: gate matrix [--quick|--full] [--kernel NAME]... [--allocators LIST]\n"
		"                   [--json FILE] [--markdown FILE] [--svg DIR] [options of gate run]\n"
		"measures every kernel under each allocator in the same shuffled rounds and\n"
		"prints a table of every declared claim x allocator: holds, fails or\n"
		"inconclusive, with its estimate and interval, the counts that explain it,\n"
		"and each variant's wall time against the first allocator's.\n",
	.tail = "It gates nothing (gate run --allocator NAME does). exit status: 0 the table\n"
		"is complete; 2 usage or bad input; 3 nothing measured; 4 samples failed.\n",
	CLI_ROWS(matrix_flags),
	.width = 18,
	.also = &run_flags_table,
	.also_plan = options_of,
};

/* Options of gate run that mean nothing here. */
static int check_options(const struct run_options *o)
{
	const char *flag = o->update_baseline ? "--update-baseline"
			 : o->require_baseline ? "--require-baseline"
			 : o->baseline_dir ? "--baseline-dir" : o->runs > 1 ? "--runs"
			 : o->allocator ? "--allocator" : o->junit_path ? "--junit"
			 : o->html_path ? "--html" : o->dhat_path ? "--dhat"
			 : o->shard_count ? "--shard" : NULL;
	return flag ? not_with_matrix(flag) : 0;
}

int matrix_main(int argc, char **argv, const char *self_dir)
{
	struct matrix_plan p;
	message_set_program("gate matrix");
	memset(&p, 0, sizeof p);
	run_options_defaults(&p.options);
	enum cli_parse parsed = cli_table_parse(&matrix_table, &p, argc, argv);
	if (parsed == CLI_PARSED && check_options(&p.options))
		parsed = CLI_BAD_USAGE;
	if (parsed == CLI_PARSED)
		return run_matrix(&p, self_dir);
	run_options_free(&p.options);
	return cli_parse_exit(parsed);
}

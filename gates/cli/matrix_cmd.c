/* matrix_cmd.c: `gate matrix`: its flags (--allocators and those of
 * gate run it takes), then the run (run/run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run_flags.h"
#include "core/message.h"
#include "run/run.h"

static void usage(FILE *f)
{
	fputs("usage: gate matrix [--quick|--full] [--kernel NAME]... [--allocators LIST]\n"
	      "                   [--json FILE] [--markdown FILE] [--svg DIR] [options of gate run]\n"
	      "measures every kernel under each allocator in the same shuffled rounds and\n"
	      "prints a table of every declared claim x allocator: holds, fails or\n"
	      "inconclusive, with its estimate and interval, the counts that explain it,\n"
	      "and each variant's wall time against the first allocator's.\n"
	      "  --allocators LIST  comma list of glibc, jemalloc, mimalloc, tcmalloc or library\n"
	      "                     paths (default: glibc and every one of the others that is\n"
	      "                     installed; a missing one is named with its package)\n"
	      "  --svg DIR          writes DIR/matrix.svg, the claims as a heat map\n"
	      "It gates nothing (gate run --allocator NAME does). exit status: 0 the table\n"
	      "is complete; 2 usage or bad input; 3 nothing measured; 4 samples failed.\n", f);
}

/* FLAG, an option of gate run that means nothing here: -1 after a message. */
static int not_with_matrix(const char *flag)
{
	message_error("%s: not with gate matrix, which measures every allocator in the same "
		      "rounds, gates nothing and reads or writes no baseline (--allocators LIST "
		      "chooses the allocators; gate run --allocator NAME gates one)", flag);
	return -1;
}

/* Options of gate run that mean nothing here. */
static int check_options(const struct run_options *o)
{
	const char *flag = o->update_baseline ? "--update-baseline"
			 : o->require_baseline ? "--require-baseline"
			 : o->baseline_dir ? "--baseline-dir" : o->runs > 1 ? "--runs"
			 : o->allocator ? "--allocator" : o->junit_path ? "--junit"
			 : o->shard_count ? "--shard" : NULL;
	return flag ? not_with_matrix(flag) : 0;
}

/* Parses ARGV into P, REST holding the flags gate run shares: CLI_PARSED,
 * CLI_HELP_PRINTED, or CLI_BAD_USAGE after a message (cli/commands.h). */
static enum cli_parse parse(struct matrix_plan *p, int argc, char **argv, char **rest)
{
	int rest_count = 0;
	if (!rest) {
		message_error("out of memory");
		return CLI_BAD_USAGE;
	}
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return CLI_HELP_PRINTED;
		}
		if (!strcmp(argv[i], "--allocators")) {
			if (i + 1 >= argc || !*argv[i + 1]) {
				message_error("--allocators: expected a comma list (glibc,jemalloc,...)");
				return CLI_BAD_USAGE;
			}
			p->allocators = argv[++i];
			p->allocators_given = true;
			continue;
		}
		/* a usage error before run_options_parse looks for the library:
		 * the same exit 2 whether or not that allocator is installed */
		if (!strcmp(argv[i], "--allocator") || !strncmp(argv[i], "--allocator=", 12)) {
			not_with_matrix("--allocator");
			return CLI_BAD_USAGE;
		}
		rest[rest_count++] = argv[i];
	}
	run_options_defaults(&p->options);
	if (run_options_parse(&p->options, rest_count, rest) || check_options(&p->options))
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

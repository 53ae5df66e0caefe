/* merge_cmd.c: `gate merge RESULT.json... [--json OUT] [--junit FILE]
 * [--markdown FILE] [--svg DIR] [--no-color]`: its flags, then the merge
 * (run/run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "core/message.h"
#include "run/run.h"

static void merge_usage(FILE *f)
{
	fputs("usage: gate merge RESULT.json... [--json OUT] [--junit FILE] [--markdown FILE]\n"
	      "                  [--svg DIR] [--no-color]\n"
	      "joins --json results of shards and platforms into one result and one verdict\n", f);
}

/* CLI_PARSED, CLI_HELP_PRINTED, or CLI_BAD_USAGE after a message
 * (cli/commands.h). */
static enum cli_parse parse_args(struct merge_plan *a, int argc, char **argv)
{
	a->inputs = calloc((size_t)argc + 1, sizeof *a->inputs);
	if (!a->inputs)
		return CLI_BAD_USAGE;
	for (int i = 0; i < argc; i++) {
		const char *f = argv[i], **slot = NULL;
		if (!strcmp(f, "--help") || !strcmp(f, "-h")) {
			merge_usage(stdout);
			return CLI_HELP_PRINTED;
		}
		if (!strcmp(f, "--no-color")) {
			a->no_color = true;
			continue;
		}
		slot = !strcmp(f, "--json") ? &a->reports.json
		       : !strcmp(f, "--junit") ? &a->reports.junit
		       : !strcmp(f, "--markdown") ? &a->reports.markdown
		       : !strcmp(f, "--svg") ? &a->reports.svg_dir : NULL;
		if (slot) {
			if (i + 1 >= argc || !*argv[i + 1]) {
				message_error("%s: expected a path", f);
				return CLI_BAD_USAGE;
			}
			*slot = argv[++i];
		} else if (f[0] == '-') {
			message_error("unknown option '%s'", f);
			merge_usage(stderr);
			return CLI_BAD_USAGE;
		} else {
			a->inputs[a->input_count++] = f;
		}
	}
	if (!a->input_count) {
		message_error("no result files given");
		merge_usage(stderr);
		return CLI_BAD_USAGE;
	}
	return CLI_PARSED;
}

int merge_main(int argc, char **argv, const char *self_dir)
{
	struct merge_plan p;
	int ret;
	(void)self_dir;
	message_set_program("gate merge");
	memset(&p, 0, sizeof p);
	enum cli_parse parsed = parse_args(&p, argc, argv);
	ret = parsed == CLI_PARSED ? run_merge(&p) : cli_parse_exit(parsed);
	free(p.inputs);
	return ret;
}

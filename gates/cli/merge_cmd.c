/* merge_cmd.c: `gate merge RESULT.json... [--json OUT] [--junit FILE]
 * [--markdown FILE] [--svg DIR] [--html FILE] [--dhat FILE] [--no-color]`: its flags (one table,
 * cli_table.h), then the merge (run/run.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_refuse.h"
#include "cli/cli_table.h"
#include "cli/commands.h"
#include "core/message.h"
#include "run/run.h"

/* A report's path: FLAG names which. */
static int set_report(void *plan, const char *flag, const char *v)
{
	struct merge_plan *p = plan;
	*(!strcmp(flag, "--json") ? &p->reports.json
	  : !strcmp(flag, "--junit") ? &p->reports.junit
	  : !strcmp(flag, "--markdown") ? &p->reports.markdown
	  : !strcmp(flag, "--html") ? &p->reports.html
	  : !strcmp(flag, "--dhat") ? &p->reports.dhat : &p->reports.svg_dir) = v;
	return 0;
}

static int set_no_color(void *plan, const char *flag, const char *v)
{
	(void)flag, (void)v;
	((struct merge_plan *)plan)->no_color = true;
	return 0;
}

/* A result file. */
static int add_input(void *plan, char *arg)
{
	struct merge_plan *p = plan;
	p->inputs[p->input_count++] = arg;
	return 0;
}

static const struct cli_flag merge_flags[] = {
	{ "--json", "OUT", NULL, "write the merged result as JSON", set_report },
	{ "--junit", "FILE", NULL, "write a JUnit XML report", set_report },
	{ "--markdown", "FILE", NULL, "write a markdown summary", set_report },
	{ "--svg", "DIR", NULL, "write one SVG chart of the samples per kernel", set_report },
	{ "--html", "FILE", NULL, "write the merged result as one HTML page", set_report },
	{ "--dhat", "FILE", NULL, "write the call stacks for DHAT's viewer", set_report },
	{ "--no-color", NULL, NULL, "no colour (also NO_COLOR=1)", set_no_color },
};

static const struct cli_table merge_table = {
	.command = "gate merge",
	.head = "usage: gate merge RESULT.json... [--json OUT] [--junit FILE] [--markdown FILE]\n"
		"                  [--svg DIR] [--html FILE] [--dhat FILE] [--no-color]\n"
		"joins --json results of shards and platforms into one result and one verdict\n",
	CLI_ROWS(merge_flags),
	.word = add_input,
};

/* CLI_PARSED, CLI_HELP_PRINTED, or CLI_BAD_USAGE after a message
 * (cli/commands.h): one result file at least. */
static enum cli_parse parse(struct merge_plan *p, int argc, char **argv)
{
	p->inputs = calloc((size_t)argc + 1, sizeof *p->inputs);
	if (!p->inputs) {
		message_error("out of memory");
		return CLI_BAD_USAGE;
	}
	enum cli_parse parsed = cli_table_parse(&merge_table, p, argc, argv);
	if (parsed == CLI_PARSED && !p->input_count) {
		cli_refuse_missing("gate merge", "RESULT.json");
		return CLI_BAD_USAGE;
	}
	return parsed;
}

int merge_main(int argc, char **argv, const char *self_dir)
{
	struct merge_plan p;
	(void)self_dir;
	message_set_program("gate merge");
	memset(&p, 0, sizeof p);
	enum cli_parse parsed = parse(&p, argc, argv);
	int ret = parsed == CLI_PARSED ? run_merge(&p) : cli_parse_exit(parsed);
	free(p.inputs);
	return ret;
}

/* history_cmd.c: `gate history add RESULT.json --dir DIR` and `gate
 * history --dir DIR [...]`: their flags (a table each, cli_table.h), then
 * the run (run/run.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_table.h"
#include "cli/commands.h"
#include "core/message.h"
#include "run/run.h"

/* Which table parsed the arguments: the one the usage names. */
static const struct cli_table *history_parsing;

/* ARG, not what gate history takes: -1 after a message and the usage. */
static int unexpected(const char *arg)
{
	message_error("unexpected argument '%s'", arg);
	cli_table_usage(history_parsing, stderr);
	return -1;
}

/* A flag's value: *FIELD of the plan, FLAG names which. */
static int set_path(void *plan, const char *flag, const char *v)
{
	struct history_plan *p = plan;
	if (!v || !*v) {
		message_error("%s: expected a value", flag);
		return -1;
	}
	*(!strcmp(flag, "--dir") ? &p->dir
	  : !strcmp(flag, "--kernel") ? &p->kernel
	  : !strcmp(flag, "--metric") ? &p->metric
	  : !strcmp(flag, "--svg") ? &p->svg : &p->json) = v;
	return 0;
}

/* --min-effect PERCENT: 0 to 1000. */
static int set_min_effect(void *plan, const char *flag, const char *v)
{
	char *end;
	double x = v ? strtod(v, &end) : NAN;
	if (!v || end == v || *end || !(x >= 0 && x <= 1000)) {
		message_error("%s: '%s': expected a percent from 0 to 1000", flag, v ? v : "");
		return -1;
	}
	((struct history_plan *)plan)->min_effect = x / 100;
	return 0;
}

/* `history add`'s one result file. */
static int add_result(void *plan, char *arg)
{
	struct history_plan *p = plan;
	if (arg[0] == '-' || p->add)
		return unexpected(arg);
	p->add = arg;
	return 0;
}

static int no_other(void *plan, char *arg)
{
	(void)plan;
	return unexpected(arg);
}

static const struct cli_flag show_flags[] = {
	{ "--dir", "DIR", NULL, "the history: one file per run (gate history add)", set_path },
	{ "--kernel", "NAME", NULL, "only this kernel's series", set_path },
	{ "--metric", "M", NULL, "only this metric (wall_ns is also REGION.wall_ns)", set_path },
	{ "--min-effect", "PERCENT", NULL, "smallest change of a timing or near-exact\n"
	  "level reported (default 2)", set_min_effect },
	{ "--svg", "FILE", NULL, "draw the series asked for (else those that\n"
	  "changed) over the commits, change points marked", set_path },
	{ "--json", "FILE", NULL, "write the change points as JSON", set_path },
};

static const struct cli_table show_table = {
	.head = "usage: gate history --dir DIR [--kernel NAME] [--metric M] [--min-effect PERCENT]\n"
		"                    [--svg FILE] [--json FILE]\n"
		"       gate history add RESULT.json --dir DIR\n"
		"Finds the commits that moved a series of the history: exact series at every\n"
		"change, timing by E-divisive means (Matteson & James 2014) with a permutation\n"
		"test. Exit status: 0 no change point, 1 change points, 2 bad input.\n",
	.flags = show_flags,
	.count = sizeof show_flags / sizeof show_flags[0],
	.other = no_other,
};

static const struct cli_flag add_flags[] = {
	{ "--dir", "DIR", NULL, "the history's directory (made when missing)", set_path },
};

static const struct cli_table add_table = {
	.head = "usage: gate history add RESULT.json --dir DIR\n"
		"Keeps the --json result RESULT.json as one file of the history in DIR: its\n"
		"commit, the commit's time (git, else the run's start), platform, CPU, and\n"
		"per series the median (timing: samples and spread).\n",
	.flags = add_flags,
	.count = sizeof add_flags / sizeof add_flags[0],
	.other = add_result,
};

int history_main(int argc, char **argv, const char *self_dir)
{
	struct history_plan p = { .min_effect = NAN };
	bool add = argc > 0 && !strcmp(argv[0], "add");
	(void)self_dir;
	message_set_program(add ? "gate history add" : "gate history");
	history_parsing = add ? &add_table : &show_table;
	enum cli_parse parsed = cli_table_parse(history_parsing, &p, argc - add, argv + add);
	if (parsed != CLI_PARSED)
		return cli_parse_exit(parsed);
	if (!p.dir || (add && !p.add)) {
		message_error(!p.dir ? "--dir DIR is required" : "no result file given");
		cli_table_usage(history_parsing, stderr);
		return GATE_EXIT_USAGE;
	}
	return add ? run_history_add(&p) : run_history(&p);
}

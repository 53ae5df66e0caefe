/* history_cmd.c: `gate history add RESULT.json --dir DIR` and `gate
 * history --dir DIR [...]`: their flags (a table each, cli_table.h), then
 * the run (run/run.h). */
#include <math.h>
#include <string.h>

#include "cli/cli_refuse.h"
#include "cli/cli_table.h"
#include "cli/cli_value.h"
#include "cli/commands.h"
#include "core/message.h"
#include "run/run.h"

/* A flag's value: *FIELD of the plan, FLAG names which. */
static int set_text(void *plan, const char *flag, const char *v)
{
	struct history_plan *p = plan;
	*(!strcmp(flag, "--dir") ? &p->dir
	  : !strcmp(flag, "--kernel") ? &p->kernel
	  : !strcmp(flag, "--metric") ? &p->metric
	  : !strcmp(flag, "--svg") ? &p->svg : &p->json) = v;
	return 0;
}

/* --min-effect PERCENT: 0 to 1000. */
static int set_min_effect(void *plan, const char *flag, const char *v)
{
	struct history_plan *p = plan;
	double percent;
	if (cli_real(flag, v, 0, 1000, &percent))
		return -1;
	p->min_effect = percent / 100;
	return 0;
}

/* `history add`'s one result file. */
static int add_result(void *plan, char *arg)
{
	struct history_plan *p = plan;
	if (p->add)
		return cli_refuse_unexpected("gate history add", arg);
	p->add = arg;
	return 0;
}

static const struct cli_flag show_flags[] = {
	{ "--dir", "DIR", NULL, "the history: one file per run (gate history add)", set_text },
	{ "--kernel", "NAME", NULL, "only this kernel's series", set_text },
	{ "--metric", "M", NULL, "only this metric (wall_ns is also REGION.wall_ns)", set_text },
	{ "--min-effect", "PERCENT", NULL, "smallest change of a timing or near-exact\n"
	  "level reported (default 2)", set_min_effect },
	{ "--svg", "FILE", NULL, "draw the series asked for (else those that\n"
	  "changed) over the commits, change points marked", set_text },
	{ "--json", "FILE", NULL, "write the change points as JSON", set_text },
};

/* Both forms need the history's directory. */
static const char *const dir_required[] = { "--dir", NULL };

static const struct cli_table show_table = {
	.command = "gate history",
	.required = dir_required,
	.head = "usage: gate history --dir DIR [--kernel NAME] [--metric M] [--min-effect PERCENT]\n"
		"                    [--svg FILE] [--json FILE]\n"
		"       gate history add RESULT.json --dir DIR\n"
		"Finds the commits that moved a series of the history: exact series at every\n"
		"change, timing by E-divisive means (Matteson & James 2014) with a permutation\n"
		"test. Exit status: 0 no change point, 1 change points, 2 bad input.\n",
	CLI_ROWS(show_flags),
};

static const struct cli_flag add_flags[] = {
	{ "--dir", "DIR", NULL, "the history's directory (made when missing)", set_text },
};

static const struct cli_table add_table = {
	.command = "gate history add",
	.required = dir_required,
	.head = "usage: gate history add RESULT.json --dir DIR\n"
		"Keeps the --json result RESULT.json as one file of the history in DIR: its\n"
		"commit, the commit's time (git, else the run's start), platform, CPU, and\n"
		"per series the median (timing: samples and spread).\n",
	CLI_ROWS(add_flags),
	.word = add_result,
};

int history_main(int argc, char **argv, const char *self_dir)
{
	struct history_plan p = { .min_effect = NAN };
	bool add = argc > 0 && !strcmp(argv[0], "add");
	(void)self_dir;
	message_set_program(add ? "gate history add" : "gate history");
	enum cli_parse parsed = cli_table_parse(add ? &add_table : &show_table, &p, argc - add,
						argv + add);
	if (parsed != CLI_PARSED)
		return cli_parse_exit(parsed);
	if (add && !p.add) {
		cli_refuse_missing("gate history add", "RESULT.json");
		return GATE_EXIT_USAGE;
	}
	return add ? run_history_add(&p) : run_history(&p);
}

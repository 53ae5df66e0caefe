/* diff_cmd.c: `gate diff A.json B.json` and `gate diff --baseline B.json`:
 * its flags (one table, cli_table.h), then the diff (run/run.h). */
#include <stdbool.h>
#include <string.h>

#include "cli/cli_refuse.h"
#include "cli/cli_table.h"
#include "cli/commands.h"
#include "core/message.h"
#include "run/run.h"

/* What gate diff was asked for: FILES[0] (A) against FILES[1] (B), or,
 * with BASELINE, the platform's baseline in BASELINE_DIR against FILES[0];
 * FLAME_DIR: where --flame writes the flame graphs, NULL when not asked. */
struct diff_plan {
	const char *files[2], *baseline_dir, *flame_dir;
	int file_count;
	bool baseline, changed_only;
};

/* A result file, at most two. */
static int add_file(void *plan, char *arg)
{
	struct diff_plan *p = plan;
	if (p->file_count >= 2)
		return cli_refuse_unexpected("gate diff", arg);
	p->files[p->file_count++] = arg;
	return 0;
}

/* --changed or --baseline: FLAG names which. */
static int set_switch(void *plan, const char *flag, const char *v)
{
	struct diff_plan *p = plan;
	(void)v;
	if (!strcmp(flag, "--changed"))
		p->changed_only = true;
	else
		p->baseline = true;
	return 0;
}

/* --baseline-dir or --flame DIR: FLAG names which. */
static int set_dir(void *plan, const char *flag, const char *v)
{
	struct diff_plan *p = plan;
	*(!strcmp(flag, "--flame") ? &p->flame_dir : &p->baseline_dir) = v;
	return 0;
}

static const struct cli_flag diff_flags[] = {
	{ "--changed", NULL, NULL, "leave out the series whose median is the same\n"
	  "on both sides", set_switch },
	{ "--baseline", NULL, NULL, "take this platform's stored baseline as A", set_switch },
	{ "--baseline-dir", "DIR", NULL, "where <platform>.json lives (default: baselines/ next\n"
	  "to the gate's build)", set_dir },
	{ "--flame", "DIR", NULL, "write the allocation flame graphs of B's call stacks,\n"
	  "and of B against A, into DIR (docs/counters.md)", set_dir },
};

static const struct cli_table diff_table = {
	.command = "gate diff",
	.head = "usage: gate diff [--changed] [--flame DIR] A.json B.json\n"
		"       gate diff [--changed] --baseline [--baseline-dir DIR] B.json\n"
		"Shows every series of A (old) and B (new) side by side: median, change,\n"
		"grouped per kernel, variant and parameter set, largest change first.\n"
		"A and B are --json results or baseline files.\n",
	CLI_ROWS(diff_flags),
	.word = add_file,
};

/* CLI_PARSED, CLI_HELP_PRINTED, or CLI_BAD_USAGE after a message
 * (cli/commands.h): both files, or with --baseline one. */
static enum cli_parse parse(struct diff_plan *p, int argc, char **argv)
{
	enum cli_parse parsed = cli_table_parse(&diff_table, p, argc, argv);
	if (parsed != CLI_PARSED)
		return parsed;
	const char *missing = p->file_count >= (p->baseline ? 1 : 2) ? NULL
			    : p->file_count || p->baseline ? "B.json" : "A.json and B.json";
	if (p->baseline && p->file_count == 2) {
		cli_refuse_unexpected("gate diff", p->files[1]);
		return CLI_BAD_USAGE;
	}
	if (missing) {
		cli_refuse_missing("gate diff", missing);
		return CLI_BAD_USAGE;
	}
	return CLI_PARSED;
}

int diff_main(int argc, char **argv, const char *self_dir)
{
	struct diff_plan p;
	char base_path[4096];
	message_set_program("gate diff");
	memset(&p, 0, sizeof p);
	enum cli_parse parsed = parse(&p, argc, argv);
	if (parsed != CLI_PARSED)
		return cli_parse_exit(parsed);
	if (p.baseline) {   /* the baseline is A, the file given B */
		if (run_baseline_path(p.baseline_dir, self_dir, base_path, sizeof base_path))
			return GATE_EXIT_USAGE;
		p.files[1] = p.files[0];
		p.files[0] = base_path;
	}
	return run_diff(p.files[0], p.files[1], p.changed_only, p.flame_dir);
}

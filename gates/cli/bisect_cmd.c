/* bisect_cmd.c: `gate bisect --good REV --bad REV --build CMD`: its flags
 * (one table, cli_table.h), then the search (run/run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_refuse.h"
#include "cli/cli_table.h"
#include "cli/cli_value.h"
#include "cli/commands.h"
#include "core/message.h"
#include "run/run.h"

#define BISECT_KERNELS_MAX 64

struct bisect_args {
	struct bisect_plan plan;
	const char *kernels[BISECT_KERNELS_MAX];
	const char *metrics[BISECT_KERNELS_MAX];
};

static int set_text(void *plan, const char *flag, const char *v)
{
	struct bisect_plan *p = &((struct bisect_args *)plan)->plan;
	*(!strcmp(flag, "--good") ? &p->good
	  : !strcmp(flag, "--bad") ? &p->bad
	  : !strcmp(flag, "--build") ? &p->build
	  : !strcmp(flag, "--kernel-dir") ? &p->kernel_dir
	  : !strcmp(flag, "--cache-dir") ? &p->cache_dir : &p->json) = v;
	return 0;
}

/* --kernel NAME or --metric NAME, repeatable. */
static int add_name(void *plan, const char *flag, const char *v)
{
	struct bisect_args *a = plan;
	bool kernel = !strcmp(flag, "--kernel");
	size_t *count = kernel ? &a->plan.kernel_count : &a->plan.metric_count;
	if (*count == BISECT_KERNELS_MAX) {
		char why[64];
		snprintf(why, sizeof why, "at most %d", BISECT_KERNELS_MAX);
		return cli_refuse_value(flag, v, why);
	}
	(kernel ? a->kernels : a->metrics)[(*count)++] = v;
	return 0;
}

static int set_seconds(void *plan, const char *flag, const char *v)
{
	long long seconds;
	if (cli_integer(flag, v, 1, 86400, &seconds))
		return -1;
	((struct bisect_args *)plan)->plan.build_seconds = (double)seconds;
	return 0;
}

static int set_switch(void *plan, const char *flag, const char *v)
{
	struct bisect_plan *p = &((struct bisect_args *)plan)->plan;
	(void)v;
	if (!strcmp(flag, "--quick") || !strcmp(flag, "--full"))
		p->tier = flag;
	else if (!strcmp(flag, "--no-cost"))
		p->no_cost = true;
	else if (!strcmp(flag, "--timing"))
		p->timing = true;
	else
		p->no_color = true;
	return 0;
}

static const struct cli_flag bisect_flags[] = {
	{ "--good", "REV", NULL, "a revision whose kernels measure as they should", set_text },
	{ "--bad", "REV", NULL, "a later revision (good an ancestor) where they do not", set_text },
	{ "--build", "CMD", NULL, "the shell command that builds the kernels, run in each\n"
	  "revision's worktree where the gate runs in this one", set_text },
	{ "--kernel-dir", "DIR", NULL, "where CMD puts the kernels (default build/kernels)",
	  set_text },
	{ "--kernel", "NAME", NULL, "measure only this kernel (repeatable)", add_name },
	{ "--metric", "NAME", NULL, "only this metric decides (repeatable; NAME* a prefix):\n"
	  "e.g. proc_realloc_calls, heap_*", add_name },
	{ "--quick", NULL, NULL, "the quick tier's parameter sets (or --full)", set_switch },
	{ "--full", NULL, "", NULL, set_switch },
	{ "--no-cost", NULL, NULL, "no cost pass: counts alone decide", set_switch },
	{ "--timing", NULL, NULL, "timing decides: each probe timed against the good\n"
	  "revision by gate ab, in the same rounds", set_switch },
	{ "--cache-dir", "DIR", NULL, "each commit's result, kept for the next search\n"
	  "(default: allocgate-bisect/ in the git directory)", set_text },
	{ "--build-timeout", "SECONDS", NULL, "a build's time limit (default 1800)", set_seconds },
	{ "--json", "FILE", NULL, "write the outcome as JSON (docs/json-format.md)", set_text },
	{ "--no-color", NULL, NULL, "no colour (also NO_COLOR=1)", set_switch },
};

static const char *const bisect_required[] = { "--good", "--bad", "--build", NULL };

static const struct cli_table bisect_table = {
	.command = "gate bisect",
	.required = bisect_required,
	.head = "usage: gate bisect --good REV --bad REV --build CMD [options]\n"
		"Names the first commit between REV and REV (first parents) whose exact\n"
		"series (allocation counts, calls, cost) differ from the good one's: each\n"
		"probed revision built by CMD in a git worktree and measured once.\n"
		"Exit 0: found; 1: no single first bad commit (none differs, or skipped\n"
		"commits hide it: the range is named); 2: bad input.\n",
	CLI_ROWS(bisect_flags),
	.width = 26,
};

int bisect_main(int argc, char **argv, const char *self_dir)
{
	struct bisect_args a;
	(void)self_dir;
	message_set_program("gate bisect");
	memset(&a, 0, sizeof a);
	a.plan.kernel_dir = "build/kernels";
	a.plan.build_seconds = 1800;
	enum cli_parse parsed = cli_table_parse(&bisect_table, &a, argc, argv);
	if (parsed != CLI_PARSED)
		return cli_parse_exit(parsed);
	a.plan.kernels = a.kernels;
	a.plan.metrics = a.metrics;
	a.plan.no_color |= getenv("NO_COLOR") != NULL;
	return run_bisect(&a.plan);
}

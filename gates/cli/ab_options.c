/* ab_options.c: the flags of `gate ab` (ab_options.h): one table of its
 * own rows, read by the parser and by --help, with gate run's beside it
 * (cli_table.h, ALSO). */
#include <string.h>

#include "cli/ab_options.h"
#include "cli/cli_refuse.h"
#include "cli/cli_table.h"
#include "cli/cli_value.h"
#include "cli/run_flags.h"

/* The command line being parsed: the plan, and the flag that chose the
 * sampling mode (NULL: none yet), for a second one that disagrees. */
struct ab_args {
	struct ab_plan *plan;
	const char *mode_flag;
};

/* The side FLAG ("--a-env", "--b-label") sets in ARGS's plan. */
static struct ab_side_options *side(void *args, const char *flag)
{
	struct ab_plan *p = ((struct ab_args *)args)->plan;
	return flag[2] == 'a' ? &p->a : &p->b;
}

static int set_env(void *args, const char *flag, const char *v)
{
	struct ab_side_options *s = side(args, flag);
	return cli_env_add(&s->env, &s->env_count, flag, v);
}

static int set_allocator(void *args, const char *flag, const char *v)
{
	struct ab_side_options *s = side(args, flag);
	if (cli_allocator(flag, v, s->preload, sizeof s->preload))
		return -1;
	s->allocator = *s->preload ? v : NULL;
	return 0;
}

static int set_kernel_dir(void *args, const char *flag, const char *v)
{
	side(args, flag)->kernel_dir = v;
	return 0;
}

/* The longest label a side may have: a word or two ("base", "head",
 * "main at v2.1"), not a paragraph on the comparison line. */
#define AB_LABEL_MAX 64

static int set_label(void *args, const char *flag, const char *v)
{
	if (strlen(v) > AB_LABEL_MAX)
		return cli_refuse_value(flag, v, "expected a label of 1 to 64 characters");
	side(args, flag)->label = v;
	return 0;
}

/* --duet, --interleaved or --sampling MODE: the sampling mode; one that
 * differs from a mode chosen before is refused, the same one agrees. */
static int set_mode(void *args, const char *flag, const char *v)
{
	struct ab_args *a = args;
	enum ab_mode_choice c = !strcmp(flag, "--duet") ? AB_CHOICE_DUET
			      : !strcmp(flag, "--interleaved") ? AB_CHOICE_INTERLEAVED
			      : !strcmp(v, "duet") ? AB_CHOICE_DUET
			      : !strcmp(v, "interleaved") ? AB_CHOICE_INTERLEAVED : AB_CHOICE_DEFAULT;
	if (c == AB_CHOICE_DEFAULT)
		return cli_refuse_value(flag, v, "expected duet or interleaved");
	if (a->mode_flag && a->plan->choice != c)
		return cli_refuse_conflict(a->mode_flag, flag);
	a->plan->choice = c;
	a->mode_flag = flag;
	return 0;
}

static int set_all_rounds(void *args, const char *flag, const char *v)
{
	(void)flag, (void)v;
	((struct ab_args *)args)->plan->all_rounds = true;
	return 0;
}

/* gate ab's flags; a row without SET is a flag of gate run shown with
 * gate ab's default. */
static const struct cli_flag ab_flags[] = {
	{ "--a-env", "KEY=VALUE", NULL, "variable for side A's kernel processes (repeatable)",
	  set_env },
	{ "--b-env", "KEY=VALUE", NULL, "the same for side B", set_env },
	{ "--a-allocator", "NAME|PATH", NULL, "preload jemalloc, mimalloc, tcmalloc or a library",
	  set_allocator },
	{ "--b-allocator", "NAME|PATH", NULL, "into that side's kernels (default: none, glibc)",
	  set_allocator },
	{ "--a-kernel-dir", "DIR", NULL, "that side's kernel executables, e.g. a build of the",
	  set_kernel_dir },
	{ "--b-kernel-dir", "DIR", NULL, "base commit (default: --kernel-dir)", set_kernel_dir },
	{ "--a-label", "TEXT", NULL, "what the reports call that side beside its", set_label },
	{ "--b-label", "TEXT", NULL, "revision, e.g. base and head (default: none)", set_label },
	{ "--duet", NULL, NULL, "start A's and B's sample of a variant together, each\n"
	  "on its own CPU, swapped every round (docs/noise.md)", set_mode },
	{ "--interleaved", NULL, NULL, "one sample at a time, A's and B's in one shuffled\norder",
	  set_mode },
	{ "--sampling", "MODE", NULL, "duet or interleaved (the default)", set_mode },
	{ "--min-effect", "PERCENT", NULL, "smallest timing change that fails (default 2)", NULL },
	{ "--gate", "LIST", NULL, "what fails the run (default all: both sides run in\n"
	  "the same rounds, so timing gates too)", NULL },
	{ "--rounds", "N", NULL, "measured rounds (default 61; 19 with --quick\nand --full)", NULL },
	{ "--all-rounds", NULL, NULL, "no look: every group takes all its rounds (by\n"
	  "default a variant stops once its verdicts are\nsettled, docs/noise.md)", set_all_rounds },
};

/* The options both sides share, in ARGS's plan. */
static void *shared_of(void *args)
{
	return &((struct ab_args *)args)->plan->shared;
}

static const struct cli_table ab_table = {
	.command = "gate ab",
	.head = "usage: gate ab [options]  (B against A, measured in the same rounds)\n",
	.tail = "and the options of gate run except --update-baseline, --require-baseline,\n"
		"--baseline-dir, --runs and --min-effect-whole (no baseline is read or\n"
		"written).\n"
		"Both sides identical (an A/A run) measures the gate's own false alarms.\n",
	CLI_ROWS(ab_flags),
	.also = &run_flags_table,
	.also_plan = shared_of,
};

enum cli_parse ab_options_parse(struct ab_plan *p, int argc, char **argv)
{
	struct ab_args args = { p, NULL };
	p->a.name = 'a';
	p->b.name = 'b';
	enum cli_parse parsed = cli_table_parse(&ab_table, &args, argc, argv);
	if (parsed == CLI_PARSED && ab_options_check(&p->shared))
		return CLI_BAD_USAGE;
	return parsed;
}

int ab_options_check(const struct run_options *o)
{
	const char *flag = o->update_baseline ? "--update-baseline"
			 : o->require_baseline ? "--require-baseline"
			 : o->baseline_dir ? "--baseline-dir" : o->runs ? "--runs"
			 : o->min_effect_whole != POLICY_MIN_EFFECT_WHOLE ? "--min-effect-whole" : NULL;
	return flag ? cli_refuse_not_here(flag, "which compares B with A measured in the same "
					  "rounds and reads or writes no baseline (use gate run)")
		    : 0;
}

/* ab_options.c: the flags of `gate ab` beside gate run's (ab_options.h):
 * one table, read by the parser and by --help. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ab_options.h"
#include "cli/cli_table.h"
#include "core/message.h"
#include "sample/allocator.h"

static int bad(const char *flag, const char *value, const char *why)
{
	message_error("%s %s: %s", flag, value ? value : "", why);
	return -1;
}

static int add_env(struct ab_side_options *s, const char *flag, const char *value)
{
	const char *why = run_options_env_problem(value);
	if (why)
		return bad(flag, value, why);
	const char **env = realloc(s->env, (s->env_count + 2) * sizeof *env);
	if (!env)
		return bad(flag, value, "out of memory");
	s->env = env;
	env[s->env_count++] = value;
	env[s->env_count] = NULL;
	return 0;
}

static int set_allocator(struct ab_side_options *s, const char *flag, const char *v)
{
	char path[4096], why[512];
	if (!v || !*v)
		return bad(flag, v, "expected glibc, jemalloc, mimalloc, tcmalloc or a path");
	if (allocator_is_default(v)) {
		s->allocator = NULL;
		s->preload[0] = '\0';
		return 0;
	}
	if (allocator_resolve(v, path, sizeof path, why, sizeof why) ||
	    allocator_preload_env(path, s->preload, sizeof s->preload))
		return bad(flag, v, why);
	s->allocator = v;
	return 0;
}

static int set_env(struct ab_side_options *s, const char *flag, const char *v)
{
	return add_env(s, flag, v);
}

static int set_kernel_dir(struct ab_side_options *s, const char *flag, const char *v)
{
	if (!v || !*v)
		return bad(flag, v, "expected a directory");
	s->kernel_dir = v;
	return 0;
}

/* The longest label a side may have: a word or two ("base", "head",
 * "main at v2.1"), not a paragraph on the comparison line. */
#define AB_LABEL_MAX 64

static int set_label(struct ab_side_options *s, const char *flag, const char *v)
{
	if (!v || !*v || strlen(v) > AB_LABEL_MAX)
		return bad(flag, v, "expected a label of 1 to 64 characters");
	s->label = v;
	return 0;
}

/* One flag of gate ab beside gate run's, its line(s) of --help and what it
 * does: SET_SIDE sets a side's option (the side is the flag's letter), a
 * MODE picks how the sides are sampled (AB_CHOICE_DEFAULT: --sampling's
 * value says), and a row with neither is a flag of gate run shown with
 * gate ab's default. */
static const struct ab_flag {
	const char *name, *value, *help;
	int (*set_side)(struct ab_side_options *s, const char *flag, const char *v);
	bool mode;
	enum ab_mode_choice choice;
} ab_flags[] = {
	{ "--a-env", "KEY=VALUE", "variable for side A's kernel processes (repeatable)",
	  .set_side = set_env },
	{ "--b-env", "KEY=VALUE", "the same for side B", .set_side = set_env },
	{ "--a-allocator", "NAME|PATH", "preload jemalloc, mimalloc, tcmalloc or a library",
	  .set_side = set_allocator },
	{ "--b-allocator", "NAME|PATH", "into that side's kernels (default: none, glibc)",
	  .set_side = set_allocator },
	{ "--a-kernel-dir", "DIR", "that side's kernel executables, e.g. a build of the",
	  .set_side = set_kernel_dir },
	{ "--b-kernel-dir", "DIR", "base commit (default: --kernel-dir)",
	  .set_side = set_kernel_dir },
	{ "--a-label", "TEXT", "what the reports call that side beside its",
	  .set_side = set_label },
	{ "--b-label", "TEXT", "revision, e.g. base and head (default: none)",
	  .set_side = set_label },
	{ "--duet", NULL, "start A's and B's sample of a variant together, each\n"
	  "on its own CPU, swapped every round (docs/noise.md)",
	  .mode = true, .choice = AB_CHOICE_DUET },
	{ "--interleaved", NULL, "one sample at a time, A's and B's in one shuffled\norder",
	  .mode = true, .choice = AB_CHOICE_INTERLEAVED },
	{ "--sampling", "MODE", "duet or interleaved (the default)", .mode = true },
	{ "--min-effect", "PERCENT", "smallest timing change that fails (default 2)",
	  .mode = false },
	{ "--gate", "LIST", "what fails the run (default all: both sides run in\n"
	  "the same rounds, so timing gates too)", .mode = false },
	{ "--rounds", "N", "measured rounds (default 61; 19 with --quick\nand --full)",
	  .mode = false },
	{ "--all-rounds", NULL, "no look: every group takes all its rounds (by\n"
	  "default a variant stops once its verdicts are\nsettled, docs/noise.md)", .mode = false },
};

#define AB_FLAGS (sizeof ab_flags / sizeof ab_flags[0])

void ab_options_usage(void *fp)
{
	fputs("usage: gate ab [options]  (B against A, measured in the same rounds)\n", fp);
	for (size_t i = 0; i < AB_FLAGS; i++)
		cli_table_usage_row(fp, CLI_TABLE_WIDTH, ab_flags[i].name, ab_flags[i].value,
				    ab_flags[i].help);
	fputs("and the options of gate run except --update-baseline, --require-baseline,\n"
	      "--baseline-dir, --runs and --min-effect-whole (no baseline is read or\n"
	      "written).\n"
	      "Both sides identical (an A/A run) measures the gate's own false alarms.\n", fp);
}

/* Handles side flag FLAG ("--a-env", ...) with VALUE; 1 if not a side flag. */
static int side_flag(struct ab_side_options *a, struct ab_side_options *b, const char *flag,
		     const char *value)
{
	if (strncmp(flag, "--a-", 4) && strncmp(flag, "--b-", 4))
		return 1;
	for (size_t i = 0; i < AB_FLAGS; i++)
		if (ab_flags[i].set_side && !strcmp(ab_flags[i].name, flag))
			return ab_flags[i].set_side(flag[2] == 'a' ? a : b, flag, value);
	return bad(flag, "", "unknown side option (--a-env, --a-allocator, --a-kernel-dir, "
		   "--a-label and their --b- forms)");
}

int ab_options_split(int argc, char **argv, struct ab_side_options *a,
		     struct ab_side_options *b, char **rest, int *rest_count)
{
	a->name = 'a';
	b->name = 'b';
	*rest_count = 0;
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i], *eq = strchr(arg, '=');
		char flag[32];
		if (strncmp(arg, "--a-", 4) && strncmp(arg, "--b-", 4)) {
			rest[(*rest_count)++] = argv[i];
			continue;
		}
		const char *value;
		if (eq && (size_t)(eq - arg) < sizeof flag) {
			snprintf(flag, sizeof flag, "%.*s", (int)(eq - arg), arg);
			value = eq + 1;
		} else {
			snprintf(flag, sizeof flag, "%s", arg);
			value = i + 1 < argc ? argv[++i] : NULL;
		}
		if (side_flag(a, b, flag, value))
			return -1;
	}
	rest[*rest_count] = NULL;
	return 0;
}

/* The choice named MODE (--sampling's value), or AB_CHOICE_DEFAULT if none. */
static enum ab_mode_choice choice_named(const char *mode)
{
	return !mode ? AB_CHOICE_DEFAULT : !strcmp(mode, "duet") ? AB_CHOICE_DUET
	     : !strcmp(mode, "interleaved") ? AB_CHOICE_INTERLEAVED : AB_CHOICE_DEFAULT;
}

/* The mode row ARG names ("--duet", "--sampling", "--sampling=MODE"), or NULL. */
static const struct ab_flag *mode_flag(const char *arg)
{
	for (size_t i = 0; i < AB_FLAGS; i++) {
		const struct ab_flag *f = &ab_flags[i];
		size_t n = strlen(f->name);
		if (f->mode && !strncmp(arg, f->name, n) &&
		    (!arg[n] || (f->value && arg[n] == '=')))
			return f;
	}
	return NULL;
}

int ab_options_take_mode(char **rest, int *rest_count, enum ab_mode_choice *choice)
{
	int kept = 0, bad = 0;
	*choice = AB_CHOICE_DEFAULT;
	for (int i = 0; i < *rest_count; i++) {
		const struct ab_flag *f = mode_flag(rest[i]);
		enum ab_mode_choice c;
		if (!f) {
			rest[kept++] = rest[i];
			continue;
		}
		c = f->choice;
		if (f->value) {   /* --sampling MODE, --sampling=MODE */
			const char *eq = strchr(rest[i], '=');
			const char *value = eq ? eq + 1 : i + 1 < *rest_count ? rest[++i] : "";
			c = choice_named(value);
			if (c == AB_CHOICE_DEFAULT) {
				message_error("--sampling %s: expected duet or interleaved",
					      value);
				bad = 1;
				continue;
			}
		}
		if (*choice != AB_CHOICE_DEFAULT && *choice != c && !bad) {
			message_error("--duet, --interleaved and --sampling: choose one mode");
			bad = 1;
		}
		*choice = c;
	}
	rest[kept] = NULL;
	*rest_count = kept;
	return bad ? -1 : 0;
}

void ab_options_take_all_rounds(char **rest, int *rest_count, bool *all_rounds)
{
	int kept = 0;
	*all_rounds = false;
	for (int i = 0; i < *rest_count; i++) {
		if (!strcmp(rest[i], "--all-rounds"))
			*all_rounds = true;
		else
			rest[kept++] = rest[i];
	}
	rest[kept] = NULL;
	*rest_count = kept;
}

int ab_options_check(const struct run_options *o)
{
	const char *flag = o->update_baseline ? "--update-baseline"
			 : o->require_baseline ? "--require-baseline"
			 : o->baseline_dir ? "--baseline-dir" : o->runs ? "--runs"
			 : o->min_effect_whole != POLICY_MIN_EFFECT_WHOLE ? "--min-effect-whole" : NULL;
	if (!flag)
		return 0;
	message_error("%s: not with gate ab, which compares B with A measured in the "
		"same rounds and reads or writes no baseline (use gate run)", flag);
	return -1;
}

/* options.c: command-line options of `gate run`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "probe.h"

void options_defaults(struct run_options *o)
{
	memset(o, 0, sizeof *o);
	o->tier = GATE_TIER_DEFAULT;
	o->tier_name = "default";
	o->seed = 1;
	o->rounds = 15;
	o->warmup = 1;
	o->timeout_seconds = 60;
	/* 25%: on a shared 2-core VM, memory-heavy regions of a few ms drift by
	 * 20-90% over minutes (docs/noise.md); smaller timing changes are
	 * reported (inconclusive) but do not fail unless --min-effect says so. */
	o->min_effect = 0.25;
	o->exact_tolerance = 0.01;
	o->near_tolerance = 0.10;
	o->alpha = 0.05;
}

void options_usage(void *fp)
{
	FILE *f = fp;
	fputs("usage: gate run [options]\n"
	      "  --quick | --full         tier (default: the default tier)\n"
	      "  --kernel NAME            run only this kernel (repeatable)\n"
	      "  --json FILE              write the result structure as JSON\n"
	      "  --baseline-dir DIR       where baselines/<platform>.json live (default: baselines)\n"
	      "  --update-baseline        store this run as the platform's baseline\n"
	      "  --require-baseline       exit 2 when this platform has no baseline\n"
	      "  --env KEY=VALUE          set a variable for the kernel processes only (repeatable)\n"
	      "  --seed N                 seed of the schedule and the kernels (default 1)\n"
	      "  --rounds N               measured rounds (default 15; --quick 9; --full 9)\n"
	      "  --runs K                 independent batches of all rounds (default 1;\n"
	      "                           3 with --update-baseline: the baseline's own drift)\n"
	      "  --warmup N               discarded rounds first (default 1)\n"
	      "  --timeout SECONDS        per sample (default 60)\n"
	      "  --min-effect PERCENT     smallest timing change that fails (default 25)\n"
	      "  --kernel-dir DIR         kernel executables (default: next to the gate binary)\n"
	      "  --no-color               no colour (also NO_COLOR=1)\n"
	      "  -v, --verbose            print each sample as it is taken\n", f);
}

static int bad(const char *flag, const char *value, const char *why)
{
	fprintf(stderr, "gate: %s %s: %s\n", flag, value ? value : "", why);
	return -1;
}

static int parse_number(const char *flag, const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = s ? strtod(s, &end) : NAN;
	if (!s || errno || *end || end == s || !(v >= lo && v <= hi)) {
		char why[96];
		snprintf(why, sizeof why, "expected a number from %g to %g", lo, hi);
		return bad(flag, s, why);
	}
	*out = v;
	return 0;
}

static int add_env(struct run_options *o, const char *value)
{
	const char *eq = value ? strchr(value, '=') : NULL;
	if (!eq || eq == value)
		return bad("--env", value, "expected KEY=VALUE");
	for (const char *c = value; c < eq; c++)
		if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
		      (*c >= '0' && *c <= '9') || *c == '_'))
			return bad("--env", value, "KEY must be letters, digits and _");
	const char **env = realloc(o->env, (o->env_count + 2) * sizeof *env);
	if (!env)
		return bad("--env", value, "out of memory");
	o->env = env;
	env[o->env_count++] = value;
	env[o->env_count] = NULL;
	return 0;
}

static int add_kernel(struct run_options *o, const char *name)
{
	if (!name || !*name)
		return bad("--kernel", name, "expected a kernel name");
	const char **k = realloc(o->kernels, (o->kernel_count + 2) * sizeof *k);
	if (!k)
		return bad("--kernel", name, "out of memory");
	o->kernels = k;
	k[o->kernel_count++] = name;
	k[o->kernel_count] = NULL;
	return 0;
}

static void set_tier(struct run_options *o, const char *name, unsigned tier, int rounds)
{
	o->tier = tier;
	o->tier_name = name;
	o->rounds = rounds;
}

/* Handles one flag that takes VALUE; returns 0, -1 on error, 1 if unknown. */
static int parse_valued(struct run_options *o, const char *flag, const char *v)
{
	double x = 0; /* read below even when parse_number fails */
	if (!strcmp(flag, "--kernel"))
		return add_kernel(o, v);
	if (!strcmp(flag, "--env"))
		return add_env(o, v);
	if (!strcmp(flag, "--json") || !strcmp(flag, "--baseline-dir") ||
	    !strcmp(flag, "--kernel-dir")) {
		if (!v || !*v)
			return bad(flag, v, "expected a path");
		*(flag[2] == 'j' ? &o->json_path : flag[2] == 'b' ? &o->baseline_dir
								   : &o->kernel_dir) = v;
		return 0;
	}
	if (!strcmp(flag, "--seed")) {
		if (parse_number(flag, v, 0, 9007199254740991.0, &x) || x != floor(x))
			return x != floor(x) ? bad(flag, v, "expected an integer") : -1;
		o->seed = (uint64_t)x;
		return 0;
	}
	if (!strcmp(flag, "--runs")) {
		if (parse_number(flag, v, 1, 100, &x) || x != floor(x))
			return x != floor(x) ? bad(flag, v, "expected an integer") : -1;
		o->runs = (int)x;
		return 0;
	}
	if (!strcmp(flag, "--rounds") || !strcmp(flag, "--warmup")) {
		int is_rounds = flag[2] == 'r';
		if (parse_number(flag, v, is_rounds ? 2 : 0, 1000, &x))
			return -1;
		*(is_rounds ? &o->rounds : &o->warmup) = (int)x;
		return 0;
	}
	if (!strcmp(flag, "--timeout"))
		return parse_number(flag, v, 0.1, 86400, &o->timeout_seconds);
	if (!strcmp(flag, "--min-effect")) {
		if (parse_number(flag, v, 0, 1000, &x))
			return -1;
		o->min_effect = x / 100;
		return 0;
	}
	return 1;
}

int options_parse(struct run_options *o, int argc, char **argv)
{
	int rounds_given = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			options_usage(stdout);
			return 1;
		} else if (!strcmp(a, "--quick")) {
			set_tier(o, "quick", GATE_TIER_QUICK, rounds_given ? o->rounds : 9);
		} else if (!strcmp(a, "--full")) {
			set_tier(o, "full", GATE_TIER_FULL, rounds_given ? o->rounds : 9);
		} else if (!strcmp(a, "--update-baseline")) {
			o->update_baseline = true;
		} else if (!strcmp(a, "--require-baseline")) {
			o->require_baseline = true;
		} else if (!strcmp(a, "--no-color")) {
			o->no_color = true;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			o->verbose++;
		} else {
			const char *eq = strchr(a, '=');
			char flag[32];
			const char *value;
			if (a[0] == '-' && a[1] == '-' && eq && (size_t)(eq - a) < sizeof flag) {
				snprintf(flag, sizeof flag, "%.*s", (int)(eq - a), a);
				value = eq + 1;
			} else {
				snprintf(flag, sizeof flag, "%s", a);
				value = i + 1 < argc ? argv[++i] : NULL;
			}
			int r = parse_valued(o, flag, value);
			if (r == 1) {
				if (!eq && value)
					i--;
				fprintf(stderr, "gate: unknown option '%s' (see gate run --help)\n", a);
				return -1;
			}
			if (r)
				return -1;
			rounds_given |= !strcmp(flag, "--rounds");
		}
	}
	return 0;
}

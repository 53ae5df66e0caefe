/* run_flags.c: the command-line flags of `gate run` (run_flags.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocgate/probe.h"
#include "cli/run_flags.h"
#include "core/message.h"
#include "sample/allocator.h"
#include "sample/backend.h"

void run_options_usage(void *fp)
{
	FILE *f = fp;
	fputs("usage: gate run [options]\n"
	      "  --quick | --full         tier (default: the default tier)\n"
	      "  --kernel NAME            run only this kernel (repeatable)\n"
	      "  --json FILE              write the result structure as JSON\n"
	      "  --baseline-dir DIR       where <platform>.json lives (default: baselines/ next\n"
	      "                           to the gate's build; with --kernel-dir ./baselines)\n"
	      "  --update-baseline        store this run as the platform's baseline\n"
	      "  --require-baseline       exit 2 when this platform has no baseline\n"
	      "  --env KEY=VALUE          set a variable for the kernel processes only (repeatable)\n"
	      "  --allocator NAME|PATH    preload jemalloc, mimalloc, tcmalloc or a library into\n"
	      "                           the kernels; own baseline key (default: the C\n"
	      "                           library's own malloc, glibc or msvcrt)\n"
	      "  --backend NAME           how a sample is wrapped: perf (default: as is), bpf\n"
	      "                           (under gate-bpf: adds bpf.* allocator counts,\n"
	      "                           root): docs/counters.md\n"
	      "  --no-cost, --cost        leave out (or take) the cost pass: one sample per\n"
	      "                           variant under callgrind, cost_* counts of every\n"
	      "                           thread (default on where valgrind is installed;\n"
	      "                           ALLOCGATE_COST=0 turns it off): docs/counters.md\n"
	      "  --seed N                 seed of the schedule and the kernels (default 1)\n"
	      "  --rounds N               measured rounds (default 15; --quick 9; --full 9)\n"
	      "  --runs K                 independent batches of all rounds (default 1;\n"
	      "                           3 with --update-baseline: the baseline's own drift)\n"
	      "  --warmup N|auto          discarded rounds first (default 1; auto: until two\n"
	      "                           rounds agree within 10% on every variant, at most 5)\n"
	      "  --timeout SECONDS        per sample (default 60); a variant whose sample\n"
	      "                           timed out or crashed is not sampled again\n"
	      "  --deadline SECONDS       for the whole run: then it stops sampling, reports\n"
	      "                           what it measured and exits 4 (default: 150 s for\n"
	      "                           --quick, 900 s, 7200 s for --full; times --runs)\n"
	      "  --best-of K              a timed sample is the fastest of K runs of the\n"
	      "                           variant in one process (default: the parameter\n"
	      "                           set's best_of, else 1): docs/noise.md\n"
	      "  --gate LIST              what fails the run: counts, cost, timing,\n"
	      "                           deterministic (counts,cost) or all; the rest is\n"
	      "                           measured and reported as information (default\n"
	      "                           deterministic; declared expectations always gate):\n"
	      "                           docs/noise.md, \"What gates\"\n"
	      "  --min-effect PERCENT     smallest timing change that fails (default 25)\n"
	      "  --correction holm|bh     adjust the run's timing p-values by Holm (default)\n"
	      "                           or Benjamini-Hochberg: docs/noise.md\n"
	      "  --kernel-dir DIR         kernel executables (default: next to the gate binary);\n"
	      "                           their counted builds in DIR-counted (docs/install.md)\n"
	      "  --junit FILE             write a JUnit XML report\n"
	      "  --markdown FILE          write a markdown summary (also appended to\n"
	      "                           $GITHUB_STEP_SUMMARY when that is set)\n"
	      "  --svg DIR                write one SVG chart of the samples per kernel\n"
	      "  --shard I/N              run only share I of N: (kernel, params) group g\n"
	      "                           of the sorted list runs in shard (g mod N) + 1\n"
	      "  --pin-cpu N              run every kernel process on CPU N\n"
	      "  --no-aslr                run kernels without address-space randomisation\n"
	      "  --no-thp                 run kernels without transparent huge pages (Linux)\n"
	      "  --no-color               no colour (also NO_COLOR=1)\n"
	      "  --details                the terminal report lists every series (default:\n"
	      "                           one row per variant, unchanged counts folded)\n"
	      "  -v, --verbose            print each sample as it is taken (and --details)\n", f);
}

static int bad(const char *flag, const char *value, const char *why)
{
	message_error("%s %s: %s", flag, value ? value : "", why);
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
	const char *why = run_options_env_problem(value);
	if (why)
		return bad("--env", value, why);
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

/* --shard I/N: 1 <= I <= N <= 1000; 0 or -1 after a message. */
static int parse_shard(struct run_options *o, const char *v)
{
	int i = 0, n = 0, used = 0;
	if (!v || sscanf(v, "%d/%d%n", &i, &n, &used) != 2 || v[used] || n < 1 || n > 1000 ||
	    i < 1 || i > n)
		return bad("--shard", v, "expected I/N with 1 <= I <= N <= 1000, e.g. 1/2");
	o->shard_index = i;
	o->shard_count = n;
	return 0;
}

/* --allocator NAME|PATH (allocator.h): resolved now, preloaded through --env. */
static int parse_allocator(struct run_options *o, const char *v)
{
	static char path[4096], env[4200];
	char why[512];
	if (!v || !*v)
		return bad("--allocator", v, "expected glibc, jemalloc, mimalloc, tcmalloc or a path");
	o->allocator = allocator_is_default(v) ? NULL : v;
	if (!o->allocator)
		return 0;
	if (allocator_resolve(v, path, sizeof path, why, sizeof why) ||
	    allocator_preload_env(path, env, sizeof env))
		return bad("--allocator", v, why);
	return add_env(o, env);
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
	if (!strcmp(flag, "--junit") || !strcmp(flag, "--markdown") || !strcmp(flag, "--svg")) {
		if (!v || !*v)
			return bad(flag, v, "expected a path");
		*(flag[2] == 'j' ? &o->junit_path : flag[2] == 'm' ? &o->markdown_path
								   : &o->svg_dir) = v;
		return 0;
	}
	if (!strcmp(flag, "--shard"))
		return parse_shard(o, v);
	if (!strcmp(flag, "--allocator"))
		return parse_allocator(o, v);
	if (!strcmp(flag, "--backend")) {
		if (v && !strcmp(v, "callgrind"))
			return bad(flag, v, "replaced by the cost pass, on by default where valgrind "
				   "is installed (cost_* metrics; docs/counters.md)");
		if (!v || !backend_known(v))
			return bad(flag, v, "expected perf or bpf");
		o->backend = !strcmp(v, "perf") ? NULL : v;
		return 0;
	}
	if (!strcmp(flag, "--seed")) {
		if (parse_number(flag, v, 0, 9007199254740991.0, &x) || x != floor(x))
			return x != floor(x) ? bad(flag, v, "expected an integer") : -1;
		o->seed = (uint64_t)x;
		return 0;
	}
	if (!strcmp(flag, "--correction")) {
		if (!v || (strcmp(v, "holm") && strcmp(v, "bh")))
			return bad(flag, v, "expected holm or bh");
		o->fdr = !strcmp(v, "bh");
		return 0;
	}
	if (!strcmp(flag, "--gate")) {
		if (!v || policy_gates_parse(v, &o->gates))
			return bad(flag, v, "expected a comma-separated list of counts, cost, timing, "
				   "deterministic, all");
		return 0;
	}
	if (!strcmp(flag, "--best-of")) {
		if (parse_number(flag, v, 1, 1000, &x) || x != floor(x))
			return x != floor(x) ? bad(flag, v, "expected an integer") : -1;
		o->best_of = (int)x;
		return 0;
	}
	if (!strcmp(flag, "--pin-cpu")) {
		if (parse_number(flag, v, 0, 4095, &x) || x != floor(x))
			return x != floor(x) ? bad(flag, v, "expected a CPU number") : -1;
		o->pin_cpu = (int)x;
		return 0;
	}
	if (!strcmp(flag, "--runs")) {
		if (parse_number(flag, v, 1, 100, &x) || x != floor(x))
			return x != floor(x) ? bad(flag, v, "expected an integer") : -1;
		o->runs = (int)x;
		return 0;
	}
	if (!strcmp(flag, "--warmup") && v && !strcmp(v, "auto")) {
		o->warmup = OPTIONS_WARMUP_AUTO;
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
	if (!strcmp(flag, "--deadline"))
		return parse_number(flag, v, 1, 7 * 86400, &o->deadline_seconds);
	if (!strcmp(flag, "--min-effect")) {
		if (parse_number(flag, v, 0, 1000, &x))
			return -1;
		o->min_effect = x / 100;
		return 0;
	}
	return 1;
}

enum cli_parse run_options_parse(struct run_options *o, int argc, char **argv)
{
	bool rounds_given = false;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			run_options_usage(stdout);
			return CLI_HELP_PRINTED;
		} else if (!strcmp(a, "--quick")) {
			set_tier(o, "quick", GATE_TIER_QUICK, rounds_given ? o->rounds : 9);
		} else if (!strcmp(a, "--full")) {
			set_tier(o, "full", GATE_TIER_FULL, rounds_given ? o->rounds : 9);
		} else if (!strcmp(a, "--update-baseline")) {
			o->update_baseline = true;
		} else if (!strcmp(a, "--require-baseline")) {
			o->require_baseline = true;
		} else if (!strcmp(a, "--no-aslr")) {
			o->no_aslr = true;
		} else if (!strcmp(a, "--no-thp")) {
			o->no_thp = true;
		} else if (!strcmp(a, "--details")) {
			o->details = true;
		} else if (!strcmp(a, "--no-cost") || !strcmp(a, "--cost")) {
			o->cost = a[2] == 'c';
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
				message_error("unknown option '%s' (see gate run --help)", a);
				return CLI_BAD_USAGE;
			}
			if (r)
				return CLI_BAD_USAGE;
			rounds_given |= !strcmp(flag, "--rounds");
		}
	}
	o->rounds_given = rounds_given;
	return CLI_PARSED;
}

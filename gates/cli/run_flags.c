/* run_flags.c: the command-line flags of `gate run` (run_flags.h), one
 * table (cli_table.h): each row is a flag, the value it takes, its lines
 * of --help and how it sets the options. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocgate/probe.h"
#include "cli/cli_table.h"
#include "cli/run_flags.h"
#include "core/message.h"
#include "sample/allocator.h"
#include "sample/backend.h"

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

/* An integer flag from LO to HI into *OUT; WHAT names what is expected
 * when VALUE is a number but not an integer. */
static int parse_integer(const char *flag, const char *v, double lo, double hi,
			 const char *what, int *out)
{
	double x = 0; /* read below even when parse_number fails */
	if (parse_number(flag, v, lo, hi, &x) || x != floor(x))
		return x != floor(x) ? bad(flag, v, what) : -1;
	*out = (int)x;
	return 0;
}

/* A path flag's VALUE into *OUT. */
static int set_path(const char *flag, const char *v, const char **out)
{
	if (!v || !*v)
		return bad(flag, v, "expected a path");
	*out = v;
	return 0;
}

static int set_quick(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	(void)flag, (void)v;
	o->tier = GATE_TIER_QUICK;
	o->tier_name = "quick";
	o->rounds = o->rounds_given ? o->rounds : 9;
	return 0;
}

static int set_full(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	(void)flag, (void)v;
	o->tier = GATE_TIER_FULL;
	o->tier_name = "full";
	o->rounds = o->rounds_given ? o->rounds : 9;
	return 0;
}

/* The switches: FLAG names which. */
static int set_switch(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	(void)v;
	if (!strcmp(flag, "--update-baseline"))
		o->update_baseline = true;
	else if (!strcmp(flag, "--require-baseline"))
		o->require_baseline = true;
	else if (!strcmp(flag, "--no-aslr"))
		o->no_aslr = true;
	else if (!strcmp(flag, "--no-thp"))
		o->no_thp = true;
	else if (!strcmp(flag, "--details"))
		o->details = true;
	else if (!strcmp(flag, "--no-color"))
		o->no_color = true;
	else if (!strcmp(flag, "--no-cost") || !strcmp(flag, "--cost"))
		o->cost = flag[2] == 'c';
	else   /* -v, --verbose */
		o->verbose++;
	return 0;
}

static int set_kernel(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	(void)flag;
	return add_kernel(o, v);
}

static int set_env(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	(void)flag;
	return add_env(o, v);
}

static int set_file(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	const char **out = !strcmp(flag, "--json") ? &o->json_path
			 : !strcmp(flag, "--baseline-dir") ? &o->baseline_dir
			 : !strcmp(flag, "--kernel-dir") ? &o->kernel_dir
			 : !strcmp(flag, "--junit") ? &o->junit_path
			 : !strcmp(flag, "--markdown") ? &o->markdown_path
			 : !strcmp(flag, "--html") ? &o->html_path : &o->svg_dir;
	return set_path(flag, v, out);
}

static int set_allocator(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	(void)flag;
	return parse_allocator(o, v);
}

static int set_backend(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	if (v && !strcmp(v, "callgrind"))
		return bad(flag, v, "replaced by the cost pass, on by default where valgrind "
			   "is installed (cost_* metrics; docs/cost.md)");
	if (!v || !backend_known(v))
		return bad(flag, v, "expected perf or bpf");
	o->backend = !strcmp(v, "perf") ? NULL : v;
	return 0;
}

static int set_seed(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	double x = 0; /* read below even when parse_number fails */
	if (parse_number(flag, v, 0, 9007199254740991.0, &x) || x != floor(x))
		return x != floor(x) ? bad(flag, v, "expected an integer") : -1;
	o->seed = (uint64_t)x;
	return 0;
}

static int set_rounds(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	double x = 0;
	if (parse_number(flag, v, 2, 1000, &x))
		return -1;
	o->rounds = (int)x;
	o->rounds_given = true;
	return 0;
}

static int set_runs(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	return parse_integer(flag, v, 1, 100, "expected an integer", &o->runs);
}

static int set_warmup(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	double x = 0;
	if (v && !strcmp(v, "auto")) {
		o->warmup = OPTIONS_WARMUP_AUTO;
		return 0;
	}
	if (parse_number(flag, v, 0, 1000, &x))
		return -1;
	o->warmup = (int)x;
	return 0;
}

static int set_timeout(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	return parse_number(flag, v, 0.1, 86400, &o->timeout_seconds);
}

static int set_deadline(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	return parse_number(flag, v, 1, 7 * 86400, &o->deadline_seconds);
}

static int set_best_of(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	return parse_integer(flag, v, 1, 1000, "expected an integer", &o->best_of);
}

static int set_gate(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	if (!v || policy_gates_parse(v, &o->gates))
		return bad(flag, v, "expected a comma-separated list of counts, cost, timing, "
			   "deterministic, all");
	return 0;
}

/* A percent from 0 to 1000 into *FRACTION (/ 100). */
static int percent(const char *flag, const char *v, double *fraction)
{
	double x = 0;
	if (parse_number(flag, v, 0, 1000, &x))
		return -1;
	*fraction = x / 100;
	return 0;
}

static int set_min_effect(void *plan, const char *flag, const char *v)
{
	return percent(flag, v, &((struct run_options *)plan)->min_effect);
}

static int set_min_effect_whole(void *plan, const char *flag, const char *v)
{
	return percent(flag, v, &((struct run_options *)plan)->min_effect_whole);
}

static int set_correction(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	if (!v || policy_correction_parse(v, &o->fdr))
		return bad(flag, v, "expected holm or bh");
	return 0;
}

static int set_shard(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	(void)flag;
	return parse_shard(o, v);
}

static int set_pin_cpu(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	return parse_integer(flag, v, 0, 4095, "expected a CPU number", &o->pin_cpu);
}

/* The flags of gate run (cli_table.h). */
static const struct cli_flag flags[] = {
	{ "--quick", NULL, "--quick | --full", "tier (default: the default tier)", set_quick },
	{ "--full", NULL, "", NULL, set_full },
	{ "--kernel", "NAME", NULL, "run only this kernel (repeatable)", set_kernel },
	{ "--json", "FILE", NULL, "write the result structure as JSON", set_file },
	{ "--baseline-dir", "DIR", NULL, "where <platform>.json lives (default: baselines/ next\n"
	  "to the gate's build; with --kernel-dir ./baselines)", set_file },
	{ "--update-baseline", NULL, NULL, "store this run as the platform's baseline", set_switch },
	{ "--require-baseline", NULL, NULL, "exit 2 when this platform has no baseline",
	  set_switch },
	{ "--env", "KEY=VALUE", NULL,
	  "set a variable for the kernel processes only (repeatable)", set_env },
	{ "--allocator", "NAME|PATH", NULL, "preload jemalloc, mimalloc, tcmalloc or a library into\n"
	  "the kernels; own baseline key (default: the C\n"
	  "library's own malloc, glibc or msvcrt)", set_allocator },
	{ "--backend", "NAME", NULL, "how a sample is wrapped: perf (default: as is), bpf\n"
	  "(under gate-bpf: adds bpf.* allocator counts,\nroot): docs/counters.md", set_backend },
	{ "--no-cost", NULL, "--no-cost, --cost", "leave out (or take) the cost pass: one sample per\n"
	  "variant under callgrind, cost_* counts of every\n"
	  "thread (default on where valgrind is installed;\n"
	  "ALLOCGATE_COST=0 turns it off): docs/cost.md", set_switch },
	{ "--cost", NULL, "", NULL, set_switch },
	{ "--seed", "N", NULL, "seed of the schedule and the kernels (default 1)", set_seed },
	{ "--rounds", "N", NULL, "measured rounds (default 15; --quick 9; --full 9)", set_rounds },
	{ "--runs", "K", NULL, "independent batches of all rounds (default 1;\n"
	  "3 with --update-baseline: the baseline's own drift)", set_runs },
	{ "--warmup", "N|auto", NULL, "discarded rounds first (default 1; auto: until two\n"
	  "rounds agree within 10% on every variant, at most 5)", set_warmup },
	{ "--timeout", "SECONDS", NULL, "per sample (default 60); a variant whose sample\n"
	  "timed out or crashed is not sampled again", set_timeout },
	{ "--deadline", "SECONDS", NULL, "for the whole run: then it stops sampling, reports\n"
	  "what it measured and exits 4 (default: 150 s for\n"
	  "--quick, 900 s, 7200 s for --full; times --runs)", set_deadline },
	{ "--best-of", "K", NULL, "a timed sample is the fastest of K runs of the\n"
	  "variant in one process (default: the parameter\n"
	  "set's best_of, else 1): docs/noise.md", set_best_of },
	{ "--gate", "LIST", NULL, "what fails the run: counts, cost, timing,\n"
	  "deterministic (counts,cost) or all; the rest is\n"
	  "measured and reported as information (default\n"
	  "deterministic; declared expectations always gate):\n"
	  "docs/noise.md, \"What gates\"", set_gate },
	{ "--min-effect", "PERCENT", NULL, "smallest timing change that fails (default 25)",
	  set_min_effect },
	{ "--min-effect-whole", "PERCENT", NULL, "smallest slowdown of the code as a whole, beyond\n"
	  "what the reference workload allows the machine,\n"
	  "that fails (default 10; the smaller of the two\n"
	  "applies): docs/noise.md, \"The reference workload\"", set_min_effect_whole },
	{ "--correction", "holm|bh", NULL, "adjust the run's timing p-values by Holm (default)\n"
	  "or Benjamini-Hochberg: docs/noise.md", set_correction },
	{ "--kernel-dir", "DIR", NULL, "kernel executables (default: next to the gate binary);\n"
	  "their counted builds in DIR-counted (docs/install.md)", set_file },
	{ "--junit", "FILE", NULL, "write a JUnit XML report", set_file },
	{ "--markdown", "FILE", NULL, "write a markdown summary (also appended to\n"
	  "$GITHUB_STEP_SUMMARY when that is set)", set_file },
	{ "--svg", "DIR", NULL, "write one SVG chart of the samples per kernel", set_file },
	{ "--html", "FILE", NULL, "write the run as one HTML page (no network needed):\n"
	  "the verdict, what changed, every series, the charts", set_file },
	{ "--shard", "I/N", NULL, "run only share I of N: (kernel, params) group g\n"
	  "of the sorted list runs in shard (g mod N) + 1", set_shard },
	{ "--pin-cpu", "N", NULL, "run every kernel process on CPU N", set_pin_cpu },
	{ "--no-aslr", NULL, NULL, "run kernels without address-space randomisation", set_switch },
	{ "--no-thp", NULL, NULL, "run kernels without transparent huge pages (Linux)",
	  set_switch },
	{ "--no-color", NULL, NULL, "no colour (also NO_COLOR=1)", set_switch },
	{ "--details", NULL, NULL, "the terminal report lists every series (default:\n"
	  "one row per variant, unchanged counts folded)", set_switch },
	{ "-v", NULL, "-v, --verbose", "print each sample as it is taken (and --details)",
	  set_switch },
	{ "--verbose", NULL, "", NULL, set_switch },
};

/* An argument no row names. */
static int unknown(void *plan, char *arg)
{
	(void)plan;
	message_error("unknown option '%s' (see gate run --help)", arg);
	return -1;
}

static const struct cli_table run_table = {
	.head = "usage: gate run [options]\n",
	.flags = flags,
	.count = sizeof flags / sizeof flags[0],
	.equals = true,
	.other = unknown,
};

void run_options_usage(void *f)
{
	cli_table_usage(&run_table, f);
}

enum cli_parse run_options_parse(struct run_options *o, int argc, char **argv)
{
	o->rounds_given = false;
	return cli_table_parse(&run_table, o, argc, argv);
}

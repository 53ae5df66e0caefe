/* run_flags.c: the command-line flags of `gate run` (run_flags.h), one
 * table (cli_table.h): each row is a flag, the value it takes, its lines
 * of --help and how it sets the options. */
#include <stdio.h>
#include <string.h>

#include "allocgate/probe.h"
#include "cli/cli_refuse.h"
#include "cli/cli_table.h"
#include "cli/cli_value.h"
#include "cli/run_flags.h"
#include "sample/backend.h"

static int set_env(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	return cli_env_add(&o->env, &o->env_count, flag, v);
}

static int set_kernel(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	return cli_list_add(&o->kernels, &o->kernel_count, flag, v);
}

static int set_variant(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	return cli_list_add(&o->variants, &o->variant_count, flag, v);
}

/* --allocator NAME|PATH (allocator.h): resolved now, preloaded through --env. */
static int set_allocator(void *plan, const char *flag, const char *v)
{
	static char preload[4200];
	struct run_options *o = plan;
	if (cli_allocator(flag, v, preload, sizeof preload))
		return -1;
	o->allocator = *preload ? v : NULL;
	return *preload ? cli_env_add(&o->env, &o->env_count, "--env", preload) : 0;
}

/* --quick or --full: the tier and its rounds, unless --rounds said. */
static int set_tier(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	bool quick = !strcmp(flag, "--quick");
	(void)v;
	o->tier = quick ? GATE_TIER_QUICK : GATE_TIER_FULL;
	o->tier_name = quick ? "quick" : "full";
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

/* A path: FLAG names which. */
static int set_file(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	*(!strcmp(flag, "--json") ? &o->json_path
	  : !strcmp(flag, "--baseline-dir") ? &o->baseline_dir
	  : !strcmp(flag, "--kernel-dir") ? &o->kernel_dir
	  : !strcmp(flag, "--junit") ? &o->junit_path
	  : !strcmp(flag, "--markdown") ? &o->markdown_path
	  : !strcmp(flag, "--html") ? &o->html_path
	  : !strcmp(flag, "--dhat") ? &o->dhat_path : &o->svg_dir) = v;
	return 0;
}

static int set_backend(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	if (!strcmp(v, "callgrind"))
		return cli_refuse_value(flag, v, "replaced by the cost pass, on by default where "
					"valgrind is installed (cost_* metrics; docs/cost.md)");
	if (!backend_known(v))
		return cli_refuse_value(flag, v, "expected perf or bpf");
	o->backend = !strcmp(v, "perf") ? NULL : v;
	return 0;
}

/* --seed N: 0 to 2^53 - 1, exact in a JSON reader that reads numbers as
 * doubles. */
static int set_seed(void *plan, const char *flag, const char *v)
{
	long long seed;
	if (cli_integer(flag, v, 0, 9007199254740991LL, &seed))
		return -1;
	((struct run_options *)plan)->seed = (uint64_t)seed;
	return 0;
}

static int set_rounds(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	o->rounds_given = true;
	return cli_int(flag, v, 2, 1000, &o->rounds);
}

static int set_runs(void *plan, const char *flag, const char *v)
{
	return cli_int(flag, v, 1, 100, &((struct run_options *)plan)->runs);
}

static int set_warmup(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	long long n;
	if (!strcmp(v, "auto")) {
		o->warmup = OPTIONS_WARMUP_AUTO;
		return 0;
	}
	if (!cli_integer_parse(v, 0, 1000, &n))
		return cli_refuse_value(flag, v, "expected auto or an integer from 0 to 1000");
	o->warmup = (int)n;
	return 0;
}

static int set_timeout(void *plan, const char *flag, const char *v)
{
	return cli_real(flag, v, 0.1, 86400, &((struct run_options *)plan)->timeout_seconds);
}

static int set_deadline(void *plan, const char *flag, const char *v)
{
	return cli_real(flag, v, 1, 7 * 86400, &((struct run_options *)plan)->deadline_seconds);
}

static int set_best_of(void *plan, const char *flag, const char *v)
{
	return cli_int(flag, v, 1, 1000, &((struct run_options *)plan)->best_of);
}

static int set_gate(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	if (policy_gates_parse(v, &o->gates))
		return cli_refuse_value(flag, v, "expected a comma-separated list of counts, cost, "
					"timing, deterministic, all");
	return 0;
}

/* --min-effect or --min-effect-whole PERCENT, 0 to 1000, as a fraction. */
static int set_min_effect(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	double percent;
	if (cli_real(flag, v, 0, 1000, &percent))
		return -1;
	*(!strcmp(flag, "--min-effect") ? &o->min_effect : &o->min_effect_whole) = percent / 100;
	return 0;
}

static int set_correction(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	if (policy_correction_parse(v, &o->fdr))
		return cli_refuse_value(flag, v, "expected holm or bh");
	return 0;
}

/* --shard I/N: 1 <= I <= N <= 1000. */
static int set_shard(void *plan, const char *flag, const char *v)
{
	struct run_options *o = plan;
	const char *slash = strchr(v, '/');
	char index[24];
	long long i = 0, n = 0;
	if (!slash || (size_t)(slash - v) >= sizeof index)
		return cli_refuse_value(flag, v, "expected I/N with 1 <= I <= N <= 1000, e.g. 1/2");
	snprintf(index, sizeof index, "%.*s", (int)(slash - v), v);
	if (!cli_integer_parse(slash + 1, 1, 1000, &n) || !cli_integer_parse(index, 1, n, &i))
		return cli_refuse_value(flag, v, "expected I/N with 1 <= I <= N <= 1000, e.g. 1/2");
	o->shard_index = (int)i;
	o->shard_count = (int)n;
	return 0;
}

static int set_pin_cpu(void *plan, const char *flag, const char *v)
{
	return cli_int(flag, v, 0, 4095, &((struct run_options *)plan)->pin_cpu);
}

/* The flags of gate run (cli_table.h). */
static const struct cli_flag flags[] = {
	{ "--quick", NULL, "--quick | --full", "tier (default: the default tier)", set_tier },
	{ "--full", NULL, "", NULL, set_tier },
	{ "--kernel", "NAME", NULL, "run only this kernel (repeatable)", set_kernel },
	{ "--variant", "NAME", NULL, "run only this variant of the kernels (repeatable;\n"
	  "an expectation naming another is skipped)", set_variant },
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
	  "applies): docs/noise.md, \"The reference workload\"", set_min_effect },
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
	{ "--dhat", "FILE", NULL, "write the allocation call stacks for DHAT's viewer\n"
	  "(valgrind's dh_view.html): docs/sites.md", set_file },
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

const struct cli_table run_flags_table = {
	.command = "gate run",
	.head = "usage: gate run [options]\n",
	CLI_ROWS(flags),
};

void run_options_usage(void *f)
{
	cli_table_usage(&run_flags_table, f);
}

enum cli_parse run_options_parse(struct run_options *o, int argc, char **argv)
{
	o->rounds_given = false;
	return cli_table_parse(&run_flags_table, o, argc, argv);
}

/* run_options.h: what `gate run` was asked to do: the plan a run is made
 * from (cli/run_flags.c parses the command line into it). */
#ifndef GATE_RUN_OPTIONS_H
#define GATE_RUN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/policy.h"
#include "sample/runner.h"

struct run_options {
	unsigned tier;               /* one GATE_TIER_* bit */
	const char *tier_name;       /* "quick", "default", "full" */
	const char **kernels;        /* --kernel NAME, NULL-terminated; empty = all */
	size_t kernel_count;
	const char **variants;       /* --variant NAME, NULL-terminated; empty = all */
	size_t variant_count;
	const char *json_path;       /* --json FILE */
	const char *baseline_dir;    /* --baseline-dir DIR */
	const char *kernel_dir;      /* --kernel-dir DIR (kernel executables) */
	bool update_baseline;
	bool require_baseline;
	bool no_color;
	const char **env;            /* --env KEY=VALUE, NULL-terminated */
	size_t env_count;
	uint64_t seed;
	int rounds;                  /* measured rounds per (kernel, params) and batch */
	bool rounds_given;           /* --rounds was on the command line */
	int runs;                    /* independent batches (--runs); 0 = 1, or 3 when updating */
	int warmup;                  /* discarded rounds before them, or OPTIONS_WARMUP_AUTO */
	double timeout_seconds;      /* per sample */
	double deadline_seconds;     /* --deadline: the whole run's; 0: the tier's default */
	double deadline_at;          /* runner_now() past which no sample starts; 0: none */
	double min_effect;           /* timing: smallest relative change that fails */
	double min_effect_whole;     /* ... when the code slowed as a whole */
	unsigned gates;              /* --gate: POLICY_GATE_* bits, what may fail the run */
	double exact_tolerance;      /* exact: relative tolerance */
	double near_tolerance;       /* near-exact: relative tolerance */
	double alpha;                /* family-wise error rate (Holm) */
	bool fdr;                    /* --correction bh: gate ab adjusts by Benjamini-Hochberg */
	int verbose;                 /* -v: each sample as it is taken, and --details */
	bool details;                /* --details: every series in the terminal report */
	const char *junit_path;      /* --junit FILE */
	const char *markdown_path;   /* --markdown FILE */
	const char *svg_dir;         /* --svg DIR: one chart per kernel */
	const char *html_path;       /* --html FILE: the page of the run */
	const char *dhat_path;       /* --dhat FILE: the call stacks for DHAT's viewer */
	int shard_index, shard_count; /* --shard I/N: 1-based I; 0/0 = no sharding */
	int pin_cpu;                 /* --pin-cpu N: every kernel process on CPU N; -1 none */
	int best_of;                 /* --best-of K: each timed sample the fastest of K runs
				      * in one process; 0: each parameter set's best_of */
	bool no_aslr;                /* --no-aslr: kernels run without address randomisation */
	bool no_thp;                 /* --no-thp: kernels run without transparent huge pages */
	const char *allocator;       /* --allocator NAME|PATH; NULL: glibc, nothing preloaded */
	const char *backend;         /* --backend bpf: the wrapper of each sample;
				      * NULL: none, "perf" (sample/backend.h) */
	bool cost;                   /* the cost pass (cost_pass.h): on unless --no-cost
				      * or ALLOCGATE_COST=0 */
	int cost_runs;               /* cost samples per variant and batch (0: 1, or
				      * enough for 3 in all with --update-baseline) */
};

/* The default --deadline of a tier, per batch (--runs): far above a normal
 * run (measured: docs/measurements.md#time-per-run), below what a hanging
 * allocator would cost (a 60 s timeout per variant). */
#define OPTIONS_DEADLINE_QUICK 150.0
#define OPTIONS_DEADLINE_DEFAULT 900.0
#define OPTIONS_DEADLINE_FULL 7200.0

/* The deadline of O in seconds: --deadline, else its tier's default
 * times its batches. */
double run_options_deadline(const struct run_options *o);

/* O's tier as the policy knows it (core/policy.h). */
enum policy_tier run_options_policy_tier(const struct run_options *o);

/* The sampling plan (sample/runner.h) of O; its environment points into O. */
void run_options_plan(const struct run_options *o, struct runner_plan *plan);

/* The run policy (core/policy.h) of O: its thresholds, and how many
 * rounds, batches and cost samples it takes; RECORDED set. */
void run_options_policy(const struct run_options *o, struct run_policy *p);

/* --warmup auto: warm-up rounds until two in a row agree (runner.h). */
#define OPTIONS_WARMUP_AUTO RUNNER_WARMUP_AUTO

/* Fills O with the defaults of the default tier. */
void run_options_defaults(struct run_options *o);

/* Frees what O holds (its --env and --kernel lists), not O. */
void run_options_free(struct run_options *o);

/* What is wrong with an --env assignment VALUE (a message), or NULL. */
const char *run_options_env_problem(const char *value);

#endif

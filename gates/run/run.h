/* run.h: the runs the subcommands ask for, each from its plan: the
 * samples taken, the claims evaluated, the comparison, the confirmation,
 * the conclusion, the baseline updated and the reports written, in that
 * order; every decision is decide/'s. Each returns the process exit
 * status (core/exit_status.h), having said what went wrong. */
#ifndef GATE_RUN_H
#define GATE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "run/ab_plan.h"
#include "run/reports.h"
#include "run/run_options.h"

/* `gate run`: O's kernels against this platform's baseline (and stored
 * as it with O->update_baseline). Takes what O holds (run_options_free).
 * SELF_DIR is the directory of the gate binary. */
int run_gate(struct run_options *o, const char *self_dir);

/* What `gate ab` was asked: the options both sides share, each side's. */
struct ab_plan {
	struct run_options shared;
	struct ab_side_options a, b;
	enum ab_mode_choice choice;    /* --duet, --interleaved or neither */
	bool all_rounds;               /* --all-rounds: no look, every group takes its
					* rounds (decide/sequential.h) */
};

/* `gate ab`: side B against side A, measured in the same rounds. Takes
 * what P holds. */
int run_ab(struct ab_plan *p, const char *self_dir);

/* What `gate matrix` was asked. */
struct matrix_plan {
	struct run_options options;    /* the options every allocator shares */
	const char *allocators;        /* --allocators LIST; NULL: the default list */
	bool allocators_given;
};

/* `gate matrix`: every kernel under every allocator of P. Takes what P holds. */
int run_matrix(struct matrix_plan *p, const char *self_dir);

/* What `gate merge` was asked. */
struct merge_plan {
	const char **inputs;           /* the result files */
	size_t input_count;
	struct report_paths reports;   /* --json, --junit, --markdown, --svg, --html, --dhat */
	bool no_color;
};

/* `gate merge`: P's results joined into one result, one report, one verdict. */
int run_merge(const struct merge_plan *p);

/* `gate diff`: every series of the files A and B (results or baselines)
 * side by side, with CHANGED_ONLY those whose median moved; with
 * FLAME_DIR (--flame DIR, else NULL) also run_diff_flame. */
int run_diff(const char *a, const char *b, bool changed_only, const char *flame_dir);

/* `gate diff --flame DIR`: the flame graphs of B's call stacks (loaded from
 * B_PATH) and their differentials against A's (A_PATH) into DIR
 * (report/flame_svg.h's layout). GATE_EXIT_OK, or GATE_EXIT_USAGE after a
 * message: a side without stacks recorded, neither side with a stack, or
 * a file that could not be written. */
int run_diff_flame(const char *dir, const struct run_result *a, const char *a_path,
		   const struct run_result *b, const char *b_path);

/* What `gate bisect` was asked. */
struct bisect_plan {
	const char *good, *bad;        /* revisions, good an ancestor of bad */
	const char *build;             /* the shell command that builds the kernels */
	const char *kernel_dir;        /* where BUILD puts them, from the directory the
					* gate runs in (default build/kernels) */
	const char *cache_dir;         /* results kept per commit (default: the git
					* directory's allocgate-bisect/) */
	const char *json;              /* --json FILE, or NULL */
	const char *tier;              /* "--quick", "--full" or NULL (the default tier) */
	const char **kernels;          /* --kernel NAME..., may be none */
	size_t kernel_count;
	const char **metrics;          /* --metric NAME[*]...: only these decide; none: all */
	size_t metric_count;
	double build_seconds;          /* a build's time limit */
	bool no_cost, no_color;
	bool timing;                   /* --timing: gate ab's timing verdicts decide */
};

/* `gate bisect`: the first commit between P's good and bad revisions whose
 * exact series differ from the good one's. */
int run_bisect(const struct bisect_plan *p);

/* `gate list`: every kernel of DIR, its variants, parameter sets and
 * expectations, printed. */
int run_list(const char *dir);

/* This platform's baseline file in DIR (NULL: the one beside SELF_DIR's
 * build), into OUT; 0, or -1 (no memory, or OUT too small). */
int run_baseline_path(const char *dir, const char *self_dir, char *out, size_t size);

/* What `gate history` was asked: with ADD, store that result in DIR;
 * otherwise find the change points of DIR's history. */
struct history_plan {
	const char *dir;               /* --dir DIR */
	const char *add;               /* `history add RESULT.json`; NULL: show */
	const char *kernel, *metric;   /* --kernel NAME, --metric M; NULL: every one */
	const char *svg, *json;        /* --svg FILE, --json FILE; NULL: none */
	double min_effect;             /* --min-effect PERCENT / 100; NaN: the default */
};

/* `gate history add`: P's result as one file of the history in P's DIR. */
int run_history_add(const struct history_plan *p);

/* `gate history`: the change points of P's DIR, printed (and its files
 * written); 0 none, 1 some, 2 bad input. */
int run_history(const struct history_plan *p);

#endif

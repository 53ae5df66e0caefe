/* result.h: the one result structure of a gate run.
 *
 * The runner fills it; every reporter (terminal, JSON, ...) only reads it
 * and never recomputes a statistic. The baseline file stores the samples of
 * a run_result's series, so a stored baseline loads into the same structure.
 */
#ifndef GATE_RESULT_H
#define GATE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/exit_status.h"
#include "core/policy.h"

enum metric_class { METRIC_EXACT, METRIC_NEAR, METRIC_TIMING };

enum verdict {
	VERDICT_PASS,         /* checked, holds */
	VERDICT_FAIL,         /* checked, broken: regression or violated expectation */
	VERDICT_INCONCLUSIVE, /* checked, the interval straddles the threshold */
	VERDICT_IMPROVED,     /* baseline comparison: significantly better; gate ab: a
			       * claim that fails on A and holds on B */
	VERDICT_FAIL_BOTH,    /* gate ab: a claim that fails on A and on B: it fails
			       * before and after, not by the change (compare_ab.h) */
	VERDICT_NEW,          /* no baseline entry for this series */
	VERDICT_SKIPPED,      /* not compared (hardware changed, too few samples, ...) */
	VERDICT_ERROR,        /* could not be checked (kernel crashed, bad record, ...) */
};

/* Name of a verdict as used in reports and JSON ("pass", "fail", ...). */
const char *result_verdict_name(enum verdict v);

/* The word for a series' verdict: result_verdict_name, but "not compared" for
 * VERDICT_SKIPPED (the terminal, markdown, JUnit and JSON all say so; an
 * expectation that does not apply is "skipped"). */
const char *result_series_verdict_name(enum verdict v);

/* Name of a metric class ("exact", "near", "timing"); class_parse returns
 * 0 and sets *out, or -1 for an unknown name. */
const char *result_class_name(enum metric_class c);
int result_class_parse(const char *name, enum metric_class *out);

/* One measured quantity of one (kernel, variant, params): its samples in
 * round order (NaN where that round's sample failed) and its comparison
 * against the baseline. */
struct series {
	char *kernel, *variant, *params, *metric, *unit;
	enum metric_class cls;
	char *file;               /* where the variant is declared; may be NULL */
	int line;
	double *samples;
	size_t sample_count;
	size_t batches;           /* independent batches the samples come from, in
				   * equal consecutive chunks (--runs); 1 usually */
	char *kernel_digest;      /* of the kernel executable that measured it (digest.h), may be NULL */
	double *history;          /* batch medians of earlier recordings of this series: same
				   * executable, machine and software (history.h); oldest first */
	size_t history_count;
	double drift;             /* largest |batch median / median - 1| over the baseline's
				   * batches and its history, NaN when it has one batch and
				   * no history */
	double tolerance;         /* relative change this comparison allows, NaN if none */
	bool advisory;            /* timing whose drift is too large to gate alone: shown,
				   * never failing on its own (compare.c; the note says
				   * why); the uniform rule may fail it, clearing this
				   * (decide/reference.h) */
	bool gated;               /* its class may fail the run (policy's gates, --gate);
				   * false: measured, compared and reported as information */
	bool *disturbed;          /* timing: per sample, whether other tasks took the CPU
				   * from it (decide/interference.h); NULL when unknown */
	size_t disturbed_len;     /* entries of disturbed (samples may be added later) */
	size_t disturbed_count;   /* samples disturbed */
	double disturbed_share;   /* their median share of the region taken by others */

	double median;
	bool has_baseline;
	double baseline_median;
	size_t baseline_count;
	double change;            /* median / baseline_median - 1 */
	double ci_low, ci_high;   /* interval of the ratio current / baseline */
	double p_value;           /* one-sided Mann-Whitney, NaN when not run */
	const char *test;         /* how it was compared (static text), NULL when not */
	int confirmed;            /* timing regression re-measured: 1 held, 0 did not, -1 n/a */
	double confirm_change;    /* change in the confirmation batch, NaN when none */
	enum verdict verdict;
	char *note;               /* why, for a person; may be NULL */
};

/* gate ab: a declared expectation as evaluated on side A alone. */
struct expect_side {
	bool measured;            /* false outside gate ab, or when A does not declare it */
	enum verdict verdict;     /* the claim's own verdict on A */
	size_t rounds;
	double estimate;          /* median over A's rounds (lhs / rhs or lhs - rhs, as B's) */
	double ci_low, ci_high;
};

/* One declared expectation evaluated on one parameter set. */
struct expect_result {
	char *kernel, *params, *file, *expr;
	char *conditions;         /* as declared (core/conditions.h); NULL: everywhere */
	bool gated;               /* false: declared for another allocator than the run's,
				   * measured and reported as information, never failing */
	int line;
	size_t rounds;            /* rounds with a usable value */
	size_t disturbed;         /* rounds left out as disturbed (decide/interference.h) */
	bool ratio;               /* estimate is lhs / rhs, else lhs - rhs */
	double estimate;          /* median over rounds */
	double lhs_median, rhs_median; /* medians over the rounds of each side's value,
				   * for a person ("7 < 16"); NaN when none */
	double ci_low, ci_high;   /* distribution-free interval of the median */
	double confidence;        /* coverage of that interval, 0..1 */
	bool unknown_metric;      /* an error: it names a metric no record of its kernel
				   * has (misspelt): the run exits 2 */
	enum verdict verdict;     /* gate ab: the decision of both sides (compare_ab.h) */
	enum verdict b_verdict;   /* gate ab: the claim's own verdict on B, when a.measured */
	struct expect_side a;     /* gate ab: the claim on side A; the figures above are B's */
	char *note;
};

/* One allocation call site of a variant, from its counted sample
 * (docs/protocol.md, "Allocation sites"): calls and requested bytes
 * inside the regions; or from its cost sample (sample/cost_sites.h):
 * calls at any line, libraries' included, through hooks and wrappers.
 * FILE is relative to the current directory when it lies below it. */
struct site {
	char *kernel, *variant, *params;
	char *file, *function, *kind;   /* kind: "malloc", "free", ... */
	int line;
	uint64_t calls, bytes;
	bool cost;                      /* from the cost pass's call graph (bytes 0):
					 * compared only where both sides have such */
	char *via;                      /* the allocation wrapper its calls went through,
					 * "FILE:LINE FUNCTION" (sample/cost_sites.h); NULL none */
};

/* A site that appeared, disappeared or changed its calls or bytes between
 * a baseline (or gate ab's side A) and this run (side B). */
struct site_change {
	char *kernel, *variant, *params;
	char *file, *function, *kind;
	int line;
	bool before, after;             /* present in the baseline / A, in this run / B */
	uint64_t calls_before, calls_after, bytes_before, bytes_after;
	char *via_before, *via_after;   /* each side's wrapper (struct site's via); NULL none */
	bool file_same;                 /* gate ab: FILE reads the same on both sides, so
					 * the change that moved its calls is elsewhere */
};

/* One allocation call stack of a variant, from its cost sample's call graph
 * (sample/cost_stacks.h): the calls of one allocator entry point along one
 * path of functions, from the variant's function (the root) to the function
 * that made the call, allocation wrappers folded as in the sites. */
struct stack {
	char *kernel, *variant, *params;
	char *region;             /* the measured regions open where the calls were made,
				   * outermost first, joined by '/' ("alloc", "outer/inner";
				   * one stack per such set: a region's calls are those of
				   * every stack whose set names it); "" the kernel's
				   * unnamed region */
	char *kind;               /* the entry point: "malloc", "calloc", "realloc", "free",
				   * "aligned" (sample/cost_dump.h, cost_entry_name) */
	char **frames;            /* function names, root first; the last called KIND */
	size_t frame_count;       /* 0 for the rest (below) */
	char *file;               /* where the last frame made the calls; NULL unknown */
	int line;                 /* its line, 0 unknown */
	uint64_t calls;           /* calls of KIND along this stack, inside the regions */
	uint64_t bytes;           /* bytes requested by them, when bytes_known */
	bool bytes_known;         /* callgrind does not see arguments: known only where the
				   * counted build's site at FILE:LINE is reached by this
				   * stack alone */
	uint64_t instructions;    /* instructions inside KIND (inclusive) along this stack */
	bool truncated;           /* deeper than the frames followed: frames[0] is not the
				   * variant's function */
	bool rest;                /* the stacks of this variant and KIND left out by the bound
				   * (decide/stacks.h), summed; no frames */
};

/* The allocation call stacks of a run, of its baseline or of gate ab's side A. */
struct stacks {
	struct stack *items;      /* in result_stack_order */
	size_t count;
	bool recorded;            /* a cost pass took them or a file held them: a file of an
				   * older version has none, which is not "no calls" */
};

/* A sample that could not be taken, or a counter the machine refused. */
struct problem {
	char *kernel, *variant, *params; /* NULL where it concerns the run */
	char *what;                      /* metric name or "sample" */
	char *reason;
};

/* Machine and software the run happened on; all strings owned. */
struct context {
	char *platform_key;   /* baselines/<key>.json */
	char *os, *arch, *libc, *libc_version, *kernel_release;
	char *cpu_model;
	int cpu_count;
	/* The CPU's identity (core/cpu_identity.h): NULL, or 0 for the counts,
	 * where the machine does not say and in baselines of older versions */
	char *cpu_vendor;     /* "AuthenticAMD", "GenuineIntel", "implementer 0x41" */
	char *cpu_family;     /* "0x1a": the displayed family, hex */
	char *cpu_model_number; /* "0x02": the displayed model, hex (arm64: the part) */
	char *cpu_stepping;   /* "1" */
	char *cpu_microcode;  /* "0xa0011d1" (/proc/cpuinfo; virtual machines often hide it) */
	char *cpu_caches;     /* "L1d 48K, L1i 32K, L2 1024K, L3 32768K" (CPU 0's) */
	int cpu_cores;        /* physical cores */
	int cpu_threads;      /* hardware threads (logical CPUs), online or not */
	char *cpu_governor;   /* cpufreq scaling governor of CPU 0 ("performance") */
	char *cpu_boost;      /* "on" or "off": turbo/boost, where the driver says */
	char *cpu_hypervisor; /* "KVM", "Xen", "Hyper-V", ...; "none" on bare metal */
	long page_size;
	char *thp;            /* /sys/kernel/mm/transparent_hugepage/enabled */
	char *compiler, *cflags;
	char *counters;       /* "available: ...; unavailable: ..." (the counters
				 * the run saw, update_counters_note) */
	char *env;            /* --env assignments, space separated */
	char *tier;
	char *commit;
	char *gate_version;
	long long seed;
	char *started_at;     /* ISO 8601 UTC */
	char *tunables;       /* GLIBC_TUNABLES the kernels ran with, "" for none */
	char *aslr;           /* /proc/sys/kernel/randomize_va_space, or "off (--no-aslr)" */
	char *pinning;        /* "cpu N" (--pin-cpu) or "none" */
	char *best_of;        /* "K (--best-of)" or "per parameter set" */
	char *allocator;      /* --allocator: "glibc" (the default) or the name/path preloaded */
	char *cost_tool;      /* the cost pass's valgrind ("valgrind-3.19.0"), "" when off */
	char *cost_cpu;       /* the key lines of the CPU valgrind presents, as glibc's
			       * ifuncs see it: a digest and summary (core/cost_key.h),
			       * or "off: WHY" */
	char *cost_diagnostics; /* ld.so --list-diagnostics under valgrind: its CPU and
				 * version lines, whole (NULL in older files) */
	char *cost_libc;      /* the libc and loader builds the cost samples ran with:
			       * "libc.so.6 fnv1a64-elf:...; ld-linux-x86-64.so.2 ..." */
	char *cost_tunables;  /* the GLIBC_TUNABLES the cost pass pins (cost_pass.h) */
	char *cost_ifuncs;    /* glibc's ifunc variants the cost samples ran, sorted,
			       * comma-separated ("" without libc's debug symbols) */
};

/* gate ab: how the two sides' samples were taken (sample/duet.h). */
enum ab_mode {
	AB_MODE_NONE,           /* not a gate ab run */
	AB_MODE_INTERLEAVED,    /* every sample alone, A's and B's in one shuffled order */
	AB_MODE_DUET,           /* A's and B's sample of a variant started together */
};

#define AB_SCHEDULE_CPUS 64

struct ab_schedule {
	enum ab_mode mode;
	bool duet_asked;        /* --duet, or duet as the default */
	char why[200];          /* why interleaved where duet was asked; "" otherwise */
	int cpus[AB_SCHEDULE_CPUS]; /* duet: the CPUs, one per physical core first; set X
				     * is positions 0, 2, 4, ..., set Y 1, 3, 5, ... */
	size_t cpu_count;
	size_t pairs;           /* measured pairs: a sample of A and one of B started together */
	size_t alone;           /* measured samples taken alone in duet groups */
	size_t interleaved_groups; /* groups whose threads did not fit twice */
	double skew_median_us, skew_max_us; /* how far apart a pair's processes started */
	/* early stops (decide/sequential.h): groups measured on both sides,
	 * those that stopped at a look, the rounds taken of the budget, and
	 * the samples (a variant's round on one side) taken of theirs, less
	 * where variants stopped before their group */
	size_t groups_compared, groups_settled;
	size_t rounds_taken, rounds_budget;
	size_t samples_taken, samples_budget;
	double settle_level;    /* the interval a settled series lies in, 0..1 */
};

/* The reference workload (sample/reference.h): work the gate carries, the
 * same whatever the kernels are, timed once after every group of every
 * batch. How far the machine moved since the baseline is read from it
 * (decide/reference.h), not from the code under test. */
enum reference_part_id { REFERENCE_CPU, REFERENCE_MEMORY, REFERENCE_FAULTS, REFERENCE_PARTS };

/* The version of what a pass of the reference workload does, stored with
 * its samples: raised whenever sample/reference.c changes a pass, so that
 * a baseline's samples of another pass are never compared with this one's
 * (store/reference_json.h reads them as absent). */
#define REFERENCE_WORKLOAD_VERSION 1

struct reference_part {
	double *samples;          /* ns of one pass of the part, in the order taken */
	size_t count;
	double median;            /* of SAMPLES, NaN when none */
	/* against the baseline's (decide/reference.h); NaN when not compared */
	double baseline_median;
	double change;            /* Hodges-Lehmann ratio now / baseline, minus 1 */
	double ci_low, ci_high;   /* its Moses 95% interval, as ratios */
};

enum reference_state {
	REFERENCE_NOT_COMPARED,   /* no baseline, another hardware, or no samples */
	REFERENCE_NO_BASELINE,    /* measured, but the baseline has none (an older file) */
	REFERENCE_UNSURE,         /* neither held nor moved beyond doubt: a part's
				   * interval reaches past REFERENCE_MOVE_MIN but not
				   * wholly */
	REFERENCE_HOLDS,          /* every part's interval stays below REFERENCE_MOVE_MIN */
	REFERENCE_MOVED,          /* a part's interval lies wholly past it: the machine moved */
};

struct reference {
	struct reference_part part[REFERENCE_PARTS];
	enum reference_state state;
	double shift;             /* REFERENCE_MOVED: the slowdown the machine shows
				   * (the change of the part that slowed most, among those
				   * whose interval lies past REFERENCE_MOVE_MIN); 0 otherwise */
	enum reference_part_id shift_part; /* the part that shows it */
	double code_shift;        /* the code slowed as a whole (decide/reference.h): the
				   * median of the groups' median changes; 0 otherwise */
	double bound;             /* with code_shift: the most the machine may have slowed
				   * (reference_bound), a ratio; 1 otherwise */
	bool faster;              /* every part faster beyond doubt, one by at least
				   * REFERENCE_MOVE_MIN (decide/reference.h) */
	enum reference_part_id faster_part; /* with faster: the part that sped up most */
};

/* "cpu", "memory", "faults". */
const char *result_reference_part_name(enum reference_part_id id);

/* "not compared", "no baseline reference", "unsure", "holds", "moved". */
const char *result_reference_state_name(enum reference_state s);

/* "cpu +0.4%, memory -1.2%, faults +2.0%": the change of every compared
 * part of REF, into BUF ("" when none was compared). */
void result_reference_parts(const struct reference *ref, char *buf, size_t size);

/* Appends sample NS to part ID of REF; 0 or -1 on no memory. */
int result_reference_append(struct reference *ref, enum reference_part_id id, double ns);

struct run_result {
	struct context ctx;
	struct reference reference; /* the machine's own pace (sample/reference.h) */
	struct series *series;
	size_t series_count;
	struct expect_result *expects;
	size_t expect_count;
	struct problem *problems;
	size_t problem_count;
	struct site *sites;       /* sorted by kernel, variant, params, file, line, kind */
	size_t site_count;
	bool sites_recorded;      /* the sites were taken (a counted pass ran) or read: a
				   * file of an older version has none, which is not "no
				   * allocation at any site" */
	struct site_change *site_changes;   /* against the baseline or A (decide/sites.h) */
	size_t site_change_count;
	struct stacks stacks;     /* this run's (gate ab: B's) allocation call stacks */
	struct stacks stacks_before; /* the baseline's or gate ab's side A's: the differential
				   * flame graphs' other side; not recorded when none */
	char *baseline_path;   /* NULL when none was found */
	char *baseline_written; /* --update-baseline: the file this run wrote; NULL none */
	size_t same_code_kernels; /* gate ab: kernels whose code is A's, not measured
				   * (sample/kernel_code.h) */
	const char *const *variants_asked; /* --variant NAMEs: the only variants measured
				   * (not owned, not stored); none: every variant */
	size_t variants_asked_count;
	char *baseline_note;   /* e.g. "hardware changed since the baseline: ..." */
	char *comparison;      /* gate ab: what B and A are; NULL against a baseline */
	struct ab_schedule schedule; /* gate ab: duet or interleaved, and where */
	struct run_policy policy; /* the rules it was decided by (policy.h) */
	double wall_seconds;
	int sample_failures;   /* samples that failed (a kernel that crashed, hung, printed
				* no record, ...): what made the run "unchecked"; -1 when
				* unknown (a result file that did not record it) */
	int exit_code;         /* the process's exit status (core/exit_status.h), final
				 * before any report is rendered */
};

/* Whether metric NAME ([REGION.]heap_*, proc_* or sys_*) comes from the counted
 * pass: one sample per variant and batch, copied into every round of it,
 * so its rounds are not independent samples (docs/counters.md). */
int result_metric_is_counted(const char *name);

/* Whether metric NAME ([REGION.]ctx_switches, cpu_migrations,
 * sched_wait_ns or others_cpu_permille) counts what the scheduler did: how often the threads
 * waited, were preempted or moved, how long they waited to run. That follows the host's load and how much the threads overlap,
 * not the code alone (docs/counters.md, "Every counter of a sample";
 * measured: docs/measurements.md#scheduler-events-against-a-baseline).
 * Shown, never tested against the baseline; a kernel gates contention
 * with a declared expectation (kernels/thread_cache.c). */
int result_metric_is_scheduling(const char *name);

/* Whether metric NAME is others_cpu_permille: the machine's load during a
 * round, filed alike for every sample of the round (sample/machine_load.h).
 * It says whether a sample was disturbed, nothing of the code: `gate ab`
 * shows it and leaves it out of its tests (and of their Holm family). */
int result_metric_is_machine_load(const char *name);

/* The median change (ratio - 1) of R's compared timing series (a verdict
 * of pass, fail, improved or inconclusive; scheduler events left out),
 * with their number in *SERIES; below RESULT_SHIFT_MIN_SERIES series, NaN
 * and 0. How far the machine moved as a whole since the baseline: the
 * decision (decide/compare.c) and the reports (core/result_tally.h) read
 * it. Unchanged kernels can slow together within minutes of the
 * baseline's recording (docs/noise.md, "The reference workload"): from a
 * move of RESULT_SHIFT_NOTABLE on, one regressed series among many moved
 * ones is the machine's more likely than the code's, and the reports say
 * so. */
#define RESULT_SHIFT_MIN_SERIES 10
#define RESULT_SHIFT_NOTABLE 0.10
double result_timing_shift(const struct run_result *r, size_t *series);

/* Whether metric NAME ([REGION.]heap_* or proc_*) counts allocation calls
 * or bytes: the counts that allocation sites explain (decide/sites.h). */
int result_metric_is_allocation_count(const char *name);

/* Adds a series (strings are copied); returns it or NULL on no memory. */
struct series *result_add_series(struct run_result *r, const char *kernel,
				 const char *variant, const char *params,
				 const char *metric, const char *unit,
				 enum metric_class cls);

/* Finds a series by its four names; NULL when absent. */
struct series *result_find_series(const struct run_result *r, const char *kernel,
				  const char *variant, const char *params,
				  const char *metric);

/* result_find_series, trying the series at *HINT and the one after it
 * first; *HINT becomes the index of the series found (unchanged when none
 * is). Who files a record's metrics in the order their series were added
 * finds each after the first in one step, where a search costs the run's
 * series (16,000 at 40 kernels). */
struct series *result_find_series_near(const struct run_result *r, size_t *hint,
				       const char *kernel, const char *variant,
				       const char *params, const char *metric);

/* Appends sample VALUE to S; 0 or -1 on no memory. */
int result_series_append(struct series *s, double value);

/* Frees the expectation results of R after the first KEEP. */
void result_drop_expects(struct run_result *r, size_t keep);

/* Adds an expectation result / a problem (strings copied); NULL or -1 on no memory. */
struct expect_result *result_add_expect(struct run_result *r);
int result_add_problem(struct run_result *r, const char *kernel,
		       const char *variant, const char *params,
		       const char *what, const char *reason);

/* Whether KIND is an allocation call of the protocol's `site` records:
 * malloc, calloc, realloc, free, strdup, strndup, aligned_alloc,
 * posix_memalign. */
int result_site_kind_known(const char *kind);

/* Adds a site (strings copied); returns it or NULL on no memory. */
struct site *result_add_site(struct run_result *r, const char *kernel, const char *variant,
			     const char *params, const char *file, const char *function,
			     const char *kind, int line, uint64_t calls, uint64_t bytes);

/* Whether R has any site of (KERNEL, VARIANT, PARAMS). */
int result_has_sites(const struct run_result *r, const char *kernel, const char *variant,
		     const char *params);

/* Adds a site change (strings copied from S, the site on either side);
 * returns it or NULL on no memory. */
struct site_change *result_add_site_change(struct run_result *r, const struct site *s);

/* Adds a stack to SET (strings and FRAMES copied; FRAME_COUNT 0 and
 * FRAMES NULL for a rest); returns it, or NULL on no memory. */
struct stack *result_add_stack(struct stacks *set, const char *kernel, const char *variant,
			       const char *params, const char *region, const char *kind,
			       const char *const *frames, size_t frame_count);

/* Adds a copy of S to SET, of kernel KERNEL (NULL: S's); returns it, or
 * NULL on no memory. */
struct stack *result_add_stack_copy(struct stacks *set, const struct stack *s,
				    const char *kernel);

/* The order of stacks: kernel, variant, params, region, kind, then frames
 * root first (a rest after every stack of its variant, region and kind),
 * then file (none first) and line. */
int result_stack_order(const struct stack *a, const struct stack *b);

/* Sorts SET in that order; frees what SET holds and zeroes it. */
void result_stacks_sort(struct stacks *set);
void result_stacks_free(struct stacks *set);

/* The order of sites: kernel, variant, params, file, line, kind, function. */
int result_site_order(const struct site *a, const struct site *b);

/* Sorts R's sites and site changes in that order (result_sort does). */
void result_sites_sort(struct run_result *r);

/* Frees R's sites and site changes (result_free does). */
void result_sites_free(struct run_result *r);

/* Sorts series by kernel, variant, params, metric (stable report order),
 * and the sites. */
void result_sort(struct run_result *r);

/* Frees everything R owns and zeroes it. */
void result_free(struct run_result *r);

/* A malloc'd copy of S, or NULL when S is NULL (an optional field) or on
 * no memory (tell them apart by S). */
char *result_dup_or_null(const char *s);

/* Appends LINE (one line; a newline between) to *NOTE, a malloc'd string
 * or NULL (a series' or the run's note); on no memory *NOTE stays as it
 * was. */
void result_note_append(char **note, const char *line);
void result_context_free(struct context *c);

#endif

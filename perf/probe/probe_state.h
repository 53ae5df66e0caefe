/* probe_state.h: what the probe's own files (perf/probe/) share and
 * kernels do not call: the state of the one kernel process, the helpers
 * every part uses, and each part's entry points. Kernels see only
 * allocgate/probe.h.
 *
 * The parts, one job each: probe_main.c (gate_kernel_main: the flags to
 * --list, --help or one sample), probe_args.c (the command line),
 * probe_list.c (--list: the tables checked and printed), probe_params.c
 * (parameters, seed, threads, gate_consume), probe_region.c (regions and
 * their boundary marks), probe_cost.c (the cost pass's hooks),
 * probe_metric.c (gate_metric), probe_sample.c (the repetitions of one
 * sample), probe_record.c (the sample record), probe_fail.c (failures).
 */
#ifndef GATE_PROBE_STATE_H
#define GATE_PROBE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "allocgate/probe.h"
#include "counters/counters.h"
#include "counting/alloc_count_probe.h"
#include "counting/interpose_read.h"
#include "probe/params.h"

/* probe_bug never returns: said to the compiler, so that the region
 * boundaries keep no path after a failed check (their instructions inside
 * a counted interval, which the cost pass counts, stay few). */
#if defined(__GNUC__) || defined(__clang__)
#define PROBE_NORETURN __attribute__((noreturn))
#else
#define PROBE_NORETURN _Noreturn
#endif

#define PROBE_MAX_REGIONS 16
#define PROBE_MAX_DEPTH 8
#define PROBE_MAX_METRICS 64
#define PROBE_NAME_SIZE 48       /* region or metric name, without prefix */
#define PROBE_UNIT_SIZE 16
#define PROBE_MAX_THREADS 4096
#define PROBE_MAX_BEST_OF 1000

/* A named region (or the unnamed one, name ""), totals over its entries. */
struct probe_region {
	char name[PROBE_NAME_SIZE];
	struct counter_totals totals;     /* this repetition's entries */
	struct counter_totals best;       /* the sample: repetitions folded */
	struct alloc_count_totals heap;   /* counted builds: heap_* counts */
	uint64_t proc[INTERPOSE_IDS];     /* the interposer's proc_* counts */
	unsigned first_repetition;        /* the repetition that entered it first */
};

/* An open region: which one and the counters read at its begin. */
struct probe_frame {
	struct probe_region *region;
	struct counters_snapshot start;
	struct alloc_count_snapshot heap_start;
	uint64_t proc_start[INTERPOSE_IDS];
};

/* A metric the kernel reported with gate_metric. */
struct probe_metric {
	const struct probe_region *region;   /* prefix; NULL for none */
	char name[PROBE_NAME_SIZE];
	char unit[PROBE_UNIT_SIZE];
	enum gate_metric_class cls;
	uint64_t value;                      /* this repetition's */
	uint64_t best;                       /* the sample: repetitions folded */
	bool reported;                       /* in this repetition */
	unsigned first_repetition;
};

/* The one kernel process: what the command line asked, the regions and
 * metrics of the sample so far (probe_state.c defines it). */
struct probe_state {
	const struct gate_kernel *kernel;
	const char *variant;
	struct gate_params params;
	uint64_t seed;
	int threads;                       /* 0: --threads not given */
	unsigned best_of;                  /* repetitions of the variant; 0: not given */
	unsigned repetition;               /* the one running, from 0 */
	bool running;                      /* counters open, variant running */
	int cpu_count_used;                /* the value gate_cpu_count() gave; 0: not asked */
	int threads_used;                  /* most threads of a gate_parallel_region; 0: none */
	struct probe_region regions[PROBE_MAX_REGIONS];
	size_t region_count;
	struct probe_frame stack[PROBE_MAX_DEPTH];
	size_t depth;
	const struct probe_region *last;   /* region that ended last */
	struct probe_metric metrics[PROBE_MAX_METRICS];
	size_t metric_count;
};

extern struct probe_state probe;

/* The metric class names of the record, by enum gate_metric_class. */
extern const char *const probe_class_names[];

/* probe_fail.c: reports a bug of the kernel file (FMT, printf style) with
 * the kernel and variant, and exits 2. */
PROBE_NORETURN void probe_bug(const char *fmt, ...);

/* probe_fail.c: whether S is a non-empty run of [A-Za-z0-9_] (lower case
 * only when LOWER) shorter than MAX. */
bool probe_is_identifier(const char *s, bool lower, size_t max);

/* probe_params.c: gate_parallel_region ran THREADS threads: the sample
 * reports the most as its metric "threads" (docs/protocol.md). */
void probe_threads_used(int threads);

/* What the command line asked; NULL for a flag not given. */
struct probe_args {
	const char *list, *help, *variant, *params, *seed, *threads, *best_of;
};

/* probe_args.c: reads ARGV's flags into A; returns 0, or -EINVAL after a
 * message on stderr. */
int probe_parse_args(int argc, char **argv, struct probe_args *a);

/* probe_args.c: --seed, --threads and --best-of of A into the state;
 * returns 0, or -EINVAL after a message. */
int probe_parse_numbers(const struct probe_args *a);

/* probe_args.c: prints --help (flags, variants, parameter sets, counters)
 * to OUT. */
void probe_usage(FILE *out);

/* probe_list.c: checks the kernel's tables; returns 0, or -EINVAL after a
 * message naming the entry. */
int probe_check_kernel(const struct gate_kernel *k);

/* probe_list.c: prints --list of K (checked by probe_check_kernel);
 * returns the exit status. */
int probe_list(const struct gate_kernel *k);

/* probe_sample.c: runs VARIANT on probe.params (its repetitions) and
 * prints its record; returns the exit status. */
int probe_run_sample(const struct gate_variant *variant);

/* probe_record.c: prints the sample record of the folded repetitions. */
void probe_print_sample(void);

#endif

/* runner.h: takes the samples. Every sample is one kernel process; rounds
 * run each variant of a (kernel, parameter set) once, in a freshly
 * shuffled order, after warm-up rounds whose samples are discarded. */
#ifndef GATE_RUNNER_H
#define GATE_RUNNER_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "core/rng.h"
#include "sample/duet.h"
#include "sample/kernel_info.h"

/* How many start-time differences of duet pairs are kept for the median. */
#define RUNNER_DUET_SKEWS 4096

/* `gate ab --duet`: the CPUs the two sides run on, and what was done
 * (sample/duet.h; runner_duet.c). Shared by both sides' plans. */
struct runner_duet {
	struct duet_cpus cpus;
	size_t pairs;              /* measured pairs: a sample of A and one of B started together */
	size_t alone;              /* measured samples taken alone (no partner on the other
				    * side, or the partner could not run) */
	double skew_ns[RUNNER_DUET_SKEWS]; /* how far apart a pair's processes started */
	size_t skew_count;
	double skew_max_ns;
	char interleaved[512];     /* groups run interleaved: their threads need more than
				    * half the CPUs ("refcount/threads_5, ...") */
	size_t interleaved_count;
};

struct runner_side;

/* `gate ab`: the measured rounds after which a variant, or the whole group,
 * may stop before its budget (decide/sequential.h), and whether it may:
 * SETTLED(CTX, SIDES, SIDE_COUNT, FIRST_ROUND, ROUNDS, VARIANT) after
 * ROUNDS rounds from FIRST_ROUND, for the variant of that name on every
 * side that has it. */
#define RUNNER_LOOKS_MAX 16
struct runner_looks {
	size_t at[RUNNER_LOOKS_MAX];
	size_t count;
	bool (*settled)(void *ctx, const struct runner_side *sides, size_t side_count,
			size_t first_round, size_t rounds, const char *variant);
	void *ctx;
};

/* How the runner takes the samples of every group: what the CLI's options
 * say about sampling (run/run_options.c, run_options_plan), and nothing else. */
struct runner_plan {
	const char **env;          /* KEY=VALUE for every kernel process, NULL-terminated */
	uint64_t seed;             /* --seed: the kernels' own random data */
	int rounds;                /* measured rounds per group and batch */
	int warmup;                /* discarded rounds first, or RUNNER_WARMUP_AUTO */
	int best_of;               /* each timed sample the fastest of K; 0: per parameter set */
	const char *backend;       /* sample/backend.h: NULL for the default */
	double timeout_seconds;    /* per sample */
	double deadline_seconds;   /* the run's --deadline (for the message) */
	double deadline_at;        /* runner_now() past which no sample starts; 0: none */
	bool cost;                 /* take the cost pass (cost_pass.h) */
	bool skip_counted_pass;    /* no counted pass (a confirmation batch:
				    * confirm_takes_counted_pass) */
	int cost_runs;             /* cost samples per variant (0: 1) */
	int verbose;               /* -v: each sample on stderr */
	const char *interposer;    /* liballocgate-interpose.so, preloaded into the
				    * counted pass (proc_* counts); NULL: none */
	struct runner_duet *duet;  /* gate ab --duet: the sides' samples in simultaneous
				    * pairs (runner_run_sides); NULL: interleaved */
	const struct runner_looks *looks; /* gate ab: may a group stop early; NULL:
					   * every round */
	void (*after_round)(void *ctx);   /* called after each measured round (gate
					   * run: the reference workload between
					   * rounds); NULL: nothing */
	void *after_round_ctx;
};

/* --warmup auto: warm-up rounds until two in a row agree. */
#define RUNNER_WARMUP_AUTO (-1)

/* What runner_list_kernel returns for an executable that ran and printed
 * nothing of the protocol: not a kernel. */
#define RUNNER_NOT_A_KERNEL (-ENOEXEC)

/* Asks the kernel executable at PATH for its `--list` into OUT. Returns 0;
 * RUNNER_NOT_A_KERNEL with ERR saying so; or -EINVAL with ERR saying why
 * (did not start, crashed, timed out, bad output). */
int runner_list_kernel(const char *path, double timeout_seconds, struct kernel_info *out,
		       char *err, size_t err_size);

/* Runs the warm-up and measured rounds of every variant of K on parameter
 * set P, appending samples to R (one series per variant and metric, one
 * sample per round, NaN where a sample failed; the first measured round is
 * sample FIRST_ROUND, so batches follow each other) and problems for failed
 * samples and refused counters. RNG shuffles the order of each round.
 * Returns the number of samples that failed. */
int runner_run_params(const struct kernel_info *k, const struct kernel_paramset *p,
		      const struct runner_plan *o, struct rng *rng,
		      struct run_result *r, size_t first_round);

/* Seconds on a monotonic clock (what --deadline is measured on). */
double runner_now(void);

/* --warmup auto: two consecutive warm-up rounds agree when every one of
 * the N items (side, variant) has a wall time within this fraction of its
 * wall time in the previous round; at most this many rounds are run. */
#define RUNNER_WARMUP_TOLERANCE 0.10
#define RUNNER_WARMUP_MAX 5

/* Whether warm-up round CUR agrees with round PREV (N wall times each; a
 * NaN or non-positive value never agrees). */
int runner_warmup_stable(const double *prev, const double *cur, size_t n);

/* One side of an A/B run: a kernel (from its own directory), its parameter
 * set, the plan it runs with (environment) and where its samples go. */
struct runner_side {
	const struct kernel_info *k;
	const struct kernel_paramset *p;
	const struct runner_plan *o;
	struct run_result *r;
};

/* runner_run_params over several sides at once: every round runs every
 * variant of every side once, all in one shuffled order, so round i of A
 * and round i of B are taken within the same seconds and the machine's
 * drift hits both. With SIDES[0].o->duet and two sides, each round's
 * sample of a variant of A and the same variant of B start together, one
 * per CPU set (duet.h), where the variants' threads fit. Rounds, warm-up
 * and looks come from SIDES[0].o: at a look, each variant that SETTLED
 * accepts takes no more samples on any side (its series hold NaN for the
 * rounds after), and the group's rounds end once every variant has (its
 * series hold the rounds taken, the counted and cost samples copied into
 * as many). Writes the rounds taken to *ROUNDS_TAKEN and the samples
 * (variant rounds of every side) taken and budgeted to SAMPLES[0] and
 * SAMPLES[1], when not NULL. Returns the number of samples that failed. */
int runner_run_sides(const struct runner_side *sides, size_t side_count,
		     struct rng *rng, size_t first_round, size_t *rounds_taken,
		     size_t *samples);

#endif

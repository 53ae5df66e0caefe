/* toy.c: the test suite's own kernel. Small, fast, and with knobs that
 * the end-to-end tests turn through `gate run --env`:
 *   TOY_SLOWDOWN_PERCENT=N  both variants do about N% more work that
 *                           allocates nothing (a timing regression; N
 *                           may be a fraction: 1.5)
 *   TOY_EXTRA_ALLOC=1       one extra malloc/free per operation
 *   TOY_BREAK=1             "single" does 3x its work, breaking the
 *                           declared ratio below (a violated expectation)
 * The kernel counts its own malloc calls and reports them as "allocs".
 */
#include <stdlib.h>
#include <string.h>

#include <allocgate/probe.h>

#include "toy_work.h"

static long env_long(const char *name)
{
	const char *v = getenv(name);
	return v ? strtol(v, NULL, 10) : 0;
}

static double env_double(const char *name)
{
	const char *v = getenv(name);
	return v ? strtod(v, NULL) : 0;
}

static void run(const struct gate_params *params, long long factor)
{
	long long ops = gate_param(params, "ops") * factor;
	/* TOY_SLOWDOWN_PERCENT=N: extra work worth about N% of the churn
	 * (9 busy passes cost about one malloc/touch/free round here); N may
	 * be a fraction (1.5). */
	long long extra_work = (long long)(9.0 * (double)ops *
					   env_double("TOY_SLOWDOWN_PERCENT") / 100.0);
	int extra = env_long("TOY_EXTRA_ALLOC") != 0;
	gate_region_begin(NULL);
	unsigned long long allocs = churn(ops, extra);
	busy(extra_work);
	gate_region_end();
	gate_metric("allocs", "count", GATE_EXACT, allocs);
	/* TOY_REPETITIONS=1: metrics that tell the repetitions of a sample
	 * (--best-of, best_of) apart: rep_ns (timing) 200, 300, 100, 200, ...
	 * by run, rep_first (near) the run's number, rep_same (exact) 7.
	 * TOY_REPETITIONS=2 makes rep_same the run's number, =3 reports it in
	 * the first run only: neither is repeatable. */
	/* TOY_PER_CORE=K: per_core_ops = the machine's cores x 1000 x K, an
	 * exact count that follows the core count (as thread_cache's "cores"
	 * sets do), so the gate compares it only on the same cores */
	long per_core = env_long("TOY_PER_CORE");
	if (per_core)
		gate_metric("per_core_ops", "count", GATE_EXACT,
			    (unsigned long long)gate_cpu_count() * 1000u * (unsigned long long)per_core);
	static unsigned long long runs;
	long repetitions = env_long("TOY_REPETITIONS");
	if (repetitions) {
		runs++;
		gate_metric("rep_ns", "ns", GATE_TIMING, 100 * (1 + (runs % 3)));
		gate_metric("rep_first", "count", GATE_NEAR, runs);
		if (repetitions != 3 || runs == 1)
			gate_metric("rep_same", "count", GATE_EXACT, repetitions == 2 ? runs : 7);
	}
}

static void single(const struct gate_params *params)
{
	run(params, env_long("TOY_BREAK") ? 3 : 1);
}

static void twice(const struct gate_params *params)
{
	run(params, 2);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("single", single, "OPS malloc/touch/free rounds"),
	GATE_VARIANT("twice", twice, "2 x OPS rounds"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	/* best_of=16: a timed sample is the fastest of 16 runs in one process;
	 * 16 runs of this 1 ms region halve the spread of the per-round ratio
	 * on a shared VM (docs/noise.md) */
	{ "small", GATE_TIER_QUICK | GATE_TIER_DEFAULT, "ops=100000 best_of=16" },
	{ "large", GATE_TIER_FULL, "ops=1000000" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	/* task_clock_ns, not wall_ns: CPU time does not count the moments the
	 * process waits for a core, so the test suite can share the machine.
	 * Linux only: the task clock is a perf event. */
	GATE_EXPECT_ON("linux", "single.task_clock_ns < 0.75 * twice.task_clock_ns"),
	/* Windows' process CPU time (cpu_ns, GetProcessTimes) ticks in 10-16 ms,
	 * about one round of "single": wall time, median of 9+ paired rounds. */
	GATE_EXPECT_ON("windows", "single.wall_ns < 0.75 * twice.wall_ns"),
	GATE_EXPECT("twice.allocs == 2 * single.allocs"),
	/* declared for another OS (and, should the suite run there, for a
	 * machine no one has): never evaluated on Linux or Windows */
	GATE_EXPECT_ON("darwin,cores>=100000", "single.wall_ns > 1000 * twice.wall_ns"),
	{ 0 },
};

GATE_KERNEL("toy", "test kernel: malloc/free churn with knobs for injected regressions",
	    variants, paramsets, expects)

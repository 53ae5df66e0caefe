/* probe_region_bench.c: what one gate_region_begin()/gate_region_end()
 * pair costs (docs/cost.md), with every counter the machine gives open.
 *
 * Not a test (tests never time anything): built by `ninja bench`, run by
 * hand as a kernel: build/bench/probe_region_bench --variant empty
 * --params n_1m, and the counted build build/bench/probe_region_bench-counted
 * (heap_* snapshots at every boundary). It times N empty regions in a row,
 * best of 5, and prints ns per begin/end pair on stderr. Outside valgrind
 * each boundary also asks RUNNING_ON_VALGRIND (the cost pass's marks). */
#include <stdio.h>
#include <time.h>

#include <allocgate/probe.h>

#define BENCH_RUNS 5

static double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void empty(const struct gate_params *params)
{
	long long n = gate_param(params, "n");
	double best = 0;
	for (int run = 0; run < BENCH_RUNS; run++) {
		double start = bench_now();
		for (long long i = 0; i < n; i++) {
			gate_region_begin("r");
			gate_region_end();
		}
		double ns = (bench_now() - start) * 1e9 / (double)n;
		best = run == 0 || ns < best ? ns : best;
	}
	fprintf(stderr, "probe_region_bench: %lld empty regions, best of %d: %.1f ns per "
		"begin/end pair\n", n, BENCH_RUNS, best);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("empty", empty, "N empty regions, timed by the variant itself"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	{ "n_1m", GATE_TIER_FULL, "n=1000000" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	{ 0 },
};

GATE_KERNEL("probe_region_bench", "benchmark: the probe's own cost per region", variants,
	    paramsets, expects)

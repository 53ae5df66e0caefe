/* alloc_count_bench.c: what one counted call costs (docs/counters.md).
 *
 * Not a test (tests never time anything): built by `ninja bench`, run by
 * hand: build/bench/alloc_count_bench [PAIRS] [THREADS]. Each thread does
 * PAIRS malloc(32)/free pairs, first straight, then through the counting
 * wrappers inside an open region (without a call site, then with one, as
 * the forced include's macros call them: the per-site counts of
 * perf/counting/alloc_sites.c), and the best of 5 runs of each is kept; the
 * difference per call is the wrappers' overhead. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "allocgate/alloc_count.h"
#include "counting/alloc_count_probe.h"

#define BENCH_RUNS 5

static long bench_pairs = 1000000;
static int bench_counted;   /* 0 plain, 1 counted, 2 counted with the call's site */
static void *volatile bench_sink;

static double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *bench_worker(void *arg)
{
	(void)arg;
	for (long i = 0; i < bench_pairs; i++) {
		void *p;
		if (bench_counted == 2) {
			p = gate_count_malloc_at(32, __FILE__, __LINE__, __func__);
			bench_sink = p;
			gate_count_free_at(p, __FILE__, __LINE__, __func__);
		} else if (bench_counted) {
			p = gate_count_malloc(32);
			bench_sink = p;
			gate_count_free(p);
		} else {
			p = (malloc)(32);
			bench_sink = p;
			(free)(p);
		}
	}
	return NULL;
}

/* Best of BENCH_RUNS: seconds for THREADS threads doing the pairs. */
static double bench_best(int threads)
{
	pthread_t th[64];
	double best = 1e30;
	for (int run = 0; run < BENCH_RUNS; run++) {
		double t0 = bench_now();
		for (int i = 0; i < threads; i++)
			pthread_create(&th[i], NULL, bench_worker, NULL);
		for (int i = 0; i < threads; i++)
			pthread_join(th[i], NULL);
		double t = bench_now() - t0;
		best = t < best ? t : best;
	}
	return best;
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[2]) : 1;
	struct alloc_count_snapshot s;
	struct alloc_count_totals t = { { 0 } };
	if (argc > 1)
		bench_pairs = atol(argv[1]);
	if (threads < 1 || threads > 64 || bench_pairs < 1) {
		fprintf(stderr, "usage: alloc_count_bench [PAIRS] [THREADS 1..64]\n");
		return 2;
	}
	double plain = bench_best(threads);
	gate_alloc_count_install();
	alloc_count_begin(&s);
	bench_counted = 1;
	double counted = bench_best(threads);
	bench_counted = 2;
	double sited = bench_best(threads);
	alloc_count_end(&s, &t);
	double calls = 2.0 * (double)bench_pairs;   /* per thread: malloc + free */
	printf("threads %d, %ld malloc/free pairs each, best of %d\n", threads, bench_pairs,
	       BENCH_RUNS);
	printf("plain    %.2f ns per call\ncounted  %.2f ns per call\nsites    %.2f ns per call\n"
	       "overhead %.2f ns per call, %.2f with the site (counted %llu calls)\n",
	       plain / calls * 1e9, counted / calls * 1e9, sited / calls * 1e9,
	       (counted - plain) / calls * 1e9, (sited - plain) / calls * 1e9,
	       (unsigned long long)t.value[ALLOC_CALLS]);
	return 0;
}

/* threads.c: the test kernel of the cost pass (tests/test_cost_pass.c).
 * Its work is known, so what callgrind counts can be checked against it:
 *   spin      THREADS threads, each SPINS rounds of arithmetic, inside one
 *             region: the count grows with THREADS as the work does
 *   split     the same work on one thread in two regions, "a" then "b"
 *   whole     that work in one region "ab": a + b must add up to it
 *   nested    region "outer" holds region "inner": outer covers inner
 *   waiting   a thread started before the region waits for it to open,
 *             then does the work: threads already running are counted
 *   allocs    THREADS threads, each ALLOCS malloc/free pairs, plus one
 *             calloc and one realloc per thread: exact call counts
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <allocgate/probe.h>

struct job {
	long long spins;
	long long allocs;
	atomic_int *go;       /* waiting: 0 until the region opened */
};

/* SPINS rounds of a multiply-xorshift: a fixed instruction count per round. */
static void spin(long long spins)
{
	unsigned long long h = 0x9e3779b97f4a7c15ull;
	for (long long i = 0; i < spins; i++) {
		h = (h ^ (unsigned long long)i) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	gate_consume(&h);
}

static void *spin_worker(void *arg)
{
	spin(((struct job *)arg)->spins);
	return NULL;
}

static void *alloc_worker(void *arg)
{
	const struct job *j = arg;
	for (long long i = 0; i < j->allocs; i++) {
		char *p = malloc(16 + (size_t)(i & 127));
		gate_consume(p);
		free(p);
	}
	char *c = calloc(4, 32), *r = realloc(c, 4096);
	gate_consume(r);
	free(r);
	return NULL;
}

/* THREADS jobs of PARAMS' sizes (calloc'd; free it). */
static struct job *make_jobs(const struct gate_params *params, int threads)
{
	struct job *jobs = calloc((size_t)threads, sizeof *jobs);
	for (int t = 0; jobs && t < threads; t++) {
		jobs[t].spins = gate_param(params, "spins");
		jobs[t].allocs = gate_param_or(params, "allocs", 0);
	}
	return jobs;
}

static void run_parallel(const struct gate_params *params, void *(*worker)(void *))
{
	int threads = (int)gate_param(params, "threads");
	struct job *jobs = make_jobs(params, threads);
	if (!jobs || gate_parallel_region(NULL, worker, jobs, sizeof *jobs, threads))
		abort();
	free(jobs);
}

static void v_spin(const struct gate_params *params)
{
	run_parallel(params, spin_worker);
}

static void v_allocs(const struct gate_params *params)
{
	run_parallel(params, alloc_worker);
}

static void v_split(const struct gate_params *params)
{
	long long spins = gate_param(params, "spins");
	gate_region_begin("a");
	spin(spins);
	gate_region_end();
	gate_region_begin("b");
	spin(2 * spins);
	gate_region_end();
}

static void v_whole(const struct gate_params *params)
{
	long long spins = gate_param(params, "spins");
	gate_region_begin("ab");
	spin(spins);
	spin(2 * spins);
	gate_region_end();
}

static void v_nested(const struct gate_params *params)
{
	long long spins = gate_param(params, "spins");
	gate_region_begin("outer");
	spin(spins);
	gate_region_begin("inner");
	spin(2 * spins);
	gate_region_end();
	gate_region_end();
}

static void *waiting_worker(void *arg)
{
	struct job *j = arg;
	while (!atomic_load(j->go))
		;
	spin(j->spins);
	return NULL;
}

static void v_waiting(const struct gate_params *params)
{
	atomic_int go = 0;
	struct job j = { gate_param(params, "spins"), 0, &go };
	pthread_t t;
	if (pthread_create(&t, NULL, waiting_worker, &j))
		abort();
	gate_region_begin(NULL);
	atomic_store(&go, 1);
	pthread_join(t, NULL);
	gate_region_end();
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("spin", v_spin, "THREADS threads of SPINS rounds each, one region"),
	GATE_VARIANT("split", v_split, "SPINS then 2 x SPINS rounds in regions a and b"),
	GATE_VARIANT("whole", v_whole, "the same work in one region ab"),
	GATE_VARIANT("nested", v_nested, "region inner (2 x SPINS) inside region outer"),
	GATE_VARIANT("waiting", v_waiting, "a thread started before the region does SPINS"),
	GATE_VARIANT("allocs", v_allocs, "THREADS threads of ALLOCS malloc/free pairs"),
	{ 0 },
};

/* Full tier only: the other end-to-end tests run the quick and default
 * tiers over every test kernel and need not meet this one. */
static const struct gate_paramset paramsets[] = {
	{ "t1", GATE_TIER_FULL, "threads=1 spins=200000 allocs=1000" },
	{ "t4", GATE_TIER_FULL, "threads=4 spins=200000 allocs=1000" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	{ 0 },
};

GATE_KERNEL("threads", "test kernel: known work on known threads, for the cost pass",
	    variants, paramsets, expects)

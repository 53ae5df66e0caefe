// toy_bench.cc: the toy kernel's measured work (tests/kernels/toy.c,
// variant "single", parameter set "small": ops=100000) as a Google
// Benchmark, for ci/peerbench.py's Google Benchmark + compare.py
// procedure. One iteration is one region of the toy: churn(ops) then
// busy(extra work), the extra work set by TOY_SLOWDOWN_PERCENT as in the
// toy. churn() and busy() are toy.c's, line for line (tests/peerbench
// checks that they stay so); gate_consume() is the probe's barrier
// (perf/probe/probe_params.c) for GCC and Clang.
#include <cstdlib>
#include <cstring>

#include <benchmark/benchmark.h>

// the toy's parameter set "small"
static const long long TOY_SMALL_OPS = 100000;

static void gate_consume(const void *p)
{
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

static double env_double(const char *name)
{
	const char *v = getenv(name);
	return v ? strtod(v, NULL) : 0;
}

/* OPS rounds of malloc, touch, free; returns the malloc count. */
static unsigned long long churn(long long ops, int extra_alloc)
{
	unsigned long long allocs = 0, sum = 0;
	for (long long i = 0; i < ops; i++) {
		unsigned char *p = (unsigned char *)malloc(64 + (size_t)(i & 63));
		allocs++;
		memset(p, (int)i, 64);
		sum += p[(i & 63)];
		gate_consume(p);
		if (extra_alloc) {
			void *q = malloc(32);
			allocs++;
			gate_consume(q);
			free(q);
		}
		free(p);
	}
	gate_consume(&sum);
	return allocs;
}

/* Extra work that allocates nothing: ROUNDS passes of a 64-byte touch
 * and a multiply-xorshift, a few ns each (the detection benchmark reports
 * the effect it actually made, not this nominal size). */
static void busy(long long rounds)
{
	static unsigned char buf[128];
	unsigned long long h = 0x9e3779b97f4a7c15ull;
	for (long long i = 0; i < rounds; i++) {
		memset(buf + (i & 63), (int)i, 64);
		h = (h ^ buf[i & 127]) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	gate_consume(&h);
	gate_consume(buf);
}

// One iteration: one region of the toy's "single" on "small", the extra
// work computed as toy.c's run() does (9 busy passes cost about one
// malloc/touch/free round).
static void toy_single_small(benchmark::State &state)
{
	long long ops = TOY_SMALL_OPS;
	long long extra_work = (long long)(9.0 * (double)ops *
					   env_double("TOY_SLOWDOWN_PERCENT") / 100.0);
	for (auto _ : state) {
		churn(ops, 0);
		busy(extra_work);
	}
}
BENCHMARK(toy_single_small);

BENCHMARK_MAIN();

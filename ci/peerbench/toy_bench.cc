// toy_bench.cc: the toy kernel's measured work (tests/kernels/toy.c,
// variant "single", parameter set "small": ops=100000) as a Google
// Benchmark, for ci/peerbench.py's Google Benchmark + compare.py
// procedure. One iteration is one region of the toy: churn(ops) then
// busy(extra work), the extra work set by TOY_SLOWDOWN_PERCENT as in the
// toy. churn() and busy() are the toy's own (tests/kernels/toy_work.h);
// gate_consume() is the probe's barrier
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

#include "../../tests/kernels/toy_work.h"

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

/* toy_work.h: the toy kernel's measured work (tests/kernels/toy.c), shared
 * with ci/peerbench/toy_bench.cc, so that the Google Benchmark of
 * ci/peerbench.py times the same code: churn() and busy(). The includer
 * provides gate_consume(const void *), the compiler barrier
 * (allocgate/probe.h's in the toy). Valid C and C++. */
#ifndef TESTS_TOY_WORK_H
#define TESTS_TOY_WORK_H

#include <stdlib.h>
#include <string.h>

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

#endif

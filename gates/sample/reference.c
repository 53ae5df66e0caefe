/* reference.c: the reference workload (reference.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/rng.h"
#include "sample/reference.h"
#include "sample/reference_pages.h"

#define LINE_WORDS (64 / sizeof(size_t))   /* one cache line of indices */
#define PAGE_BYTES 4096u

/* The memory part's cycle: word 0 of every cache line holds the index of
 * the next line; built once (Sattolo's algorithm: one cycle through every
 * line), kept for the run. */
static size_t *cycle;

/* Keeps V live so that the compiler cannot drop the work that made it. */
static volatile uint64_t sink;

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int build_cycle(void)
{
	size_t lines = REFERENCE_MEMORY_BYTES / 64;
	size_t *order = malloc(lines * sizeof *order);
	cycle = malloc(REFERENCE_MEMORY_BYTES);
	if (!order || !cycle) {
		free(order);
		free(cycle);
		cycle = NULL;
		return -1;
	}
	struct rng rng;
	rng_seed(&rng, 0x5eed);   /* the same cycle in every run */
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	for (size_t i = lines - 1; i > 0; i--) {   /* Sattolo: j < i, one cycle */
		size_t j = (size_t)rng_below(&rng, i), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	memset(cycle, 0, REFERENCE_MEMORY_BYTES);
	for (size_t i = 0; i < lines; i++)
		cycle[order[i] * LINE_WORDS] = order[(i + 1) % lines];
	free(order);
	return 0;
}

static double cpu_part(void)
{
	static unsigned char table[REFERENCE_CPU_TABLE_BYTES];
	uint64_t h = 0x9e3779b97f4a7c15ull;
	double start = now_ns();
	for (uint32_t i = 0; i < REFERENCE_CPU_PASSES; i++) {
		size_t at = (size_t)(h >> 40) % REFERENCE_CPU_TABLE_BYTES;
		table[at] = (unsigned char)(table[at] + (unsigned char)h);
		h = (h ^ table[(at * 7) % REFERENCE_CPU_TABLE_BYTES]) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	double ns = now_ns() - start;
	sink = h;
	return ns;
}

/* Each pass walks on from where the last one stopped, so that every step
 * reaches a line no recent pass has brought into a cache: the 1M-line
 * cycle is walked once in about 128 passes. */
static double memory_part(void)
{
	static size_t walked_to;
	size_t at = walked_to;
	double start = now_ns();
	for (uint32_t i = 0; i < REFERENCE_MEMORY_STEPS; i++)
		at = cycle[at * LINE_WORDS];
	double ns = now_ns() - start;
	walked_to = at;
	return ns;
}

/* -1 when the pages were refused. */
static double fault_part(void)
{
	double start = now_ns();
	unsigned char *p = reference_pages_map(REFERENCE_FAULT_BYTES);
	if (!p)
		return -1;
	for (size_t i = 0; i < REFERENCE_FAULT_BYTES; i += PAGE_BYTES)
		p[i] = (unsigned char)i;
	sink = p[PAGE_BYTES];
	reference_pages_unmap(p, REFERENCE_FAULT_BYTES);
	return now_ns() - start;
}

int reference_sample(struct reference *ref)
{
	double cpu = INFINITY, memory = INFINITY, faults = INFINITY;
	if (!cycle && build_cycle())
		return -1;
	for (int i = 0; i < REFERENCE_REPEATS; i++) {
		double f = fault_part();
		if (f < 0)
			return -1;
		cpu = fmin(cpu, cpu_part());
		memory = fmin(memory, memory_part());
		faults = fmin(faults, f);
	}
	if (result_reference_append(ref, REFERENCE_CPU, cpu) ||
	    result_reference_append(ref, REFERENCE_MEMORY, memory) ||
	    result_reference_append(ref, REFERENCE_FAULTS, faults))
		return -1;
	return 0;
}

bool reference_due(double since_last, bool group_end, bool taken_in_group)
{
	return since_last >= REFERENCE_EVERY_SECONDS || (group_end && !taken_in_group);
}

void reference_release(void)
{
	free(cycle);
	cycle = NULL;
}

/* allocs.c: a test kernel with known allocation counts, for the counter
 * backends' cross-checks (tests/test_bpf_gate.c, tests/test_callgrind.c).
 * In its one region it makes exactly `ops` malloc/free pairs, `strdups`
 * strdup/free pairs, one calloc, one realloc and one free(NULL), and
 * reports what it called itself:
 *   malloc_calls  direct malloc calls (ops)
 *   strdup_calls  strdup calls; each mallocs once inside libc, which an
 *                 allocator uprobe sees and a compile-time wrapper of
 *                 strdup counts as strdup, not malloc (docs/counters.md)
 */
#include <stdlib.h>
#include <string.h>

#include <allocgate/probe.h>

/* Through a volatile pointer, so that the compiler cannot know the
 * string's length and turn strdup into malloc + memcpy. */
static char text[] = "allocgate counts this";
static char *volatile text_ptr = text;
static void *volatile null_ptr;   /* free(NULL) that the compiler cannot drop */

static void counted(const struct gate_params *params)
{
	long long ops = gate_param(params, "ops"), strdups = gate_param(params, "strdups");
	gate_region_begin("work");
	for (long long i = 0; i < ops; i++) {
		unsigned char *p = malloc(16 + (size_t)(i & 15));
		gate_consume(p);
		free(p);
	}
	for (long long i = 0; i < strdups; i++) {
		char *s = strdup(text_ptr);
		gate_consume(s);
		free(s);
	}
	void *c = calloc(4, 8);
	gate_consume(c);
	c = realloc(c, 4096);
	gate_consume(c);
	free(c);
	free(null_ptr);
	gate_region_end();
	gate_metric("malloc_calls", "count", GATE_EXACT, (uint64_t)ops);
	gate_metric("strdup_calls", "count", GATE_EXACT, (uint64_t)strdups);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("counted", counted, "known numbers of malloc, strdup, calloc, realloc, free"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	{ "small", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "ops=1000 strdups=10" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	{ 0 },
};

GATE_KERNEL("allocs", "known allocation counts for the counter backends' tests", variants,
	    paramsets, expects)

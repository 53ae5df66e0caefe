/* strbuf_append.c: the kernel of this example project. Appending short
 * pieces to a strbuf: geometric growth (strbuf_append) against exact
 * growth (strbuf_append_exact, one realloc per append). The claims below
 * are about the library in src/, compiled into the counted build too, so
 * its reallocations are counted (heap_* metrics, Makefile). */
#include <allocgate/probe.h>

#include "strbuf.h"

static const char piece[] = "0123456789abcdef";

static void append(const struct gate_params *p, int (*add)(struct strbuf *, const char *, size_t))
{
	long long n = gate_param(p, "appends");
	struct strbuf sb = { 0 };
	gate_region_begin(NULL);
	for (long long i = 0; i < n; i++)
		if (add(&sb, piece, 1 + (size_t)(i % 16)))
			gate_fail("append %lld of %lld: out of memory", i + 1, n);
	gate_region_end();
	gate_consume(sb.data);
	strbuf_free(&sb);
}

static void geometric(const struct gate_params *p)
{
	append(p, strbuf_append);
}

static void exact(const struct gate_params *p)
{
	append(p, strbuf_append_exact);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("geometric", geometric, "strbuf_append: capacity doubles"),
	GATE_VARIANT("exact", exact, "strbuf_append_exact: one realloc per append"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	{ "1k", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "appends=1000" },
	{ "100k", GATE_TIER_DEFAULT | GATE_TIER_FULL, "appends=100000" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	/* doubling from 16 bytes to ~8.5 bytes per append: about log2(n)
	 * reallocations, against n */
	GATE_EXPECT("geometric.heap_realloc_calls < 0.05 * exact.heap_realloc_calls"),
	/* one live block when the region ends: the string (freed after it) */
	GATE_EXPECT("geometric.heap_live_blocks == 1"),
	{ 0 },
};

GATE_KERNEL("strbuf_append", "strbuf growth: geometric against exact", variants, paramsets,
	    expects)

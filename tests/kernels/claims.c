/* claims.c: a test kernel whose claims are keyed by allocator
 * (core/conditions.h), with exact counts that depend on the allocator:
 * glibc shrinks a block in place, tests/preload/moving_realloc.c moves it
 * every time. For tests/test_e2e_matrix.c. */
#include <stdlib.h>

#include <allocgate/probe.h>

static void shrink(const struct gate_params *params)
{
	long long steps = gate_param(params, "steps");
	size_t size = 64 * 1024;
	unsigned char *p = malloc(size);
	uint64_t moves = 0;
	if (!p)
		abort();
	p[0] = 1;
	gate_region_begin(NULL);
	for (long long i = 0; i < steps; i++) {
		size -= 1024;
		unsigned char *q = realloc(p, size);
		if (!q)
			abort();
		moves += q != p;
		p = q;
	}
	gate_region_end();
	gate_consume(p);
	free(p);
	gate_metric("realloc_moved", "count", GATE_EXACT, moves);
	gate_metric("steps", "count", GATE_EXACT, (uint64_t)steps);
}

static const struct gate_variant variants[] = {
	GATE_VARIANT("shrink", shrink, "shrink a 64 KiB block by 1 KiB steps with realloc"),
	{ 0 },
};

static const struct gate_paramset paramsets[] = {
	{ "small", GATE_TIER_QUICK | GATE_TIER_DEFAULT, "steps=8" },
	{ "strict", GATE_TIER_FULL, "steps=8" },
	{ 0 },
};

static const struct gate_expect expects[] = {
	/* everywhere */
	GATE_EXPECT("shrink.steps == 8"),
	/* glibc shrinks in place */
	GATE_EXPECT_UNDER("glibc", "shrink.realloc_moved == 0"),
	/* the moving allocator moves at every step */
	GATE_EXPECT_UNDER("libmoving_realloc", "shrink.realloc_moved == shrink.steps"),
	/* declared for both, true only for glibc: fails under the moving one
	 * (the full tier only) */
	GATE_EXPECT_UNDER_AT("glibc|libmoving_realloc", "strict", "shrink.realloc_moved == 0"),
	/* another OS: never evaluated here */
	GATE_EXPECT_ON("darwin", "shrink.steps == 9"),
	{ 0 },
};

GATE_KERNEL("claims", "claims keyed by allocator, for the allocator matrix's tests", variants,
	    paramsets, expects)

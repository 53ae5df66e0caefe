/* free_cost.c: write-up 001, the cost of free() next to the cost of malloc().
 *
 * Write-up 001_dbb883d654bb4bb2, summarised in docs/kernels.md (Visual C++ 10 and Intel C++
 * 12.1 runtimes on Windows). N blocks of random size 1..1024 bytes are
 * allocated with malloc(), then freed in random order; the sizes and the
 * order are drawn before the clock starts. The two phases are measured as
 * two regions, "alloc" and "free", so that the free/malloc cost ratio is a
 * paired per-sample result (random_order.free.wall_ns against
 * random_order.alloc.wall_ns of the same process).
 *
 * What the seed found, free time as a share of malloc time:
 *   N       1K    10K   100K   1M     2M     3M     4M     5M
 *   VC10    51%   98%   100%   106%   134%   158%   176%   193%
 *   ICC     47%   97%   101%   106%   102%   110%   114%   119%
 * i.e. free is about half the cost of malloc for few live blocks and
 * grows past it as the number of live blocks rises.
 *
 * Where the declared ratios hold, and why (figures: docs/kernels.md):
 *   - free cheaper than malloc at 1K blocks, costlier at 5M: everywhere
 *     measured (both Windows runtimes; glibc 2.36: 9% and 200%).
 *   - free about as costly as malloc from 10K to 1M blocks (97-106%):
 *     Windows only. glibc's malloc of a fresh heap splits the top chunk and
 *     takes a page fault per 4 KiB of new heap, while free of a heap that
 *     still fits the CPU caches touches only cached memory (tcache takes 7
 *     chunks per size class, fastbins the chunks up to 128 bytes, the rest
 *     coalesce with their neighbours), so free starts far lower (9% at 1K,
 *     34% at 10K) and crosses malloc between 100K (89%) and 1M (140%)
 *     blocks, to 200% at 4-5M.
 *   - glibc: the rise comes from the random order, not from free() itself:
 *     freed in allocation order, the same blocks cost at most 56% of malloc
 *     at every N, and the random order costs 2-5x that from 100K blocks on
 *     (each free touches the chunk header and its neighbours at a random
 *     place of a heap of 50 MB to 2.6 GB: cache and TLB misses).
 *
 * A second variant, alloc_order, frees the same blocks in the order they
 * were allocated; it separates the cost of randomness (cache and TLB
 * misses, coalescing with scattered neighbours) from the cost of free().
 *
 * Kernel-side exact counts of the alloc region: alloc.blocks and
 * alloc.bytes_requested (sum of the sizes asked of malloc, before the
 * allocator's rounding and headers).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <allocgate/probe.h>

/* Largest block the seed asks for, bytes; sizes are 1..FREE_MAX_BYTES. */
#define FREE_MAX_BYTES 1024

/* What the measured regions work from; drawn and allocated in setup. */
struct free_plan {
	size_t blocks;
	uint16_t *sizes;  /* bytes of block i, 1..FREE_MAX_BYTES */
	uint32_t *order;  /* order[k]: the block freed k-th */
	void **ptrs;      /* what malloc returned for block i */
	uint64_t bytes_requested;
};

/* Failures: a parameter set out of range is a bug of this file and exits
 * 2 (gate_param, gate_param_size); a failure of the run itself, such as an
 * allocation or a thread refused, is gate_fail("WHAT:") of allocgate/probe.h,
 * which prints "NAME: variant V: WHAT: strerror(errno)" and exits 1: the
 * gate reports the sample as failed, never as measured. */

/* splitmix64 (Steele, Lea, Flood 2014): small, seedable, good enough for
 * sizes and a shuffle. */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Setup, outside the regions: sizes, the free order, the pointer table.
 * The tables are large enough from 32K blocks on to be mmapped by glibc,
 * so they do not share the heap the regions measure. RANDOM selects a
 * shuffled order (Fisher-Yates; the modulo bias is below 2^-40 for N up to
 * 5M, irrelevant here) or the allocation order. */
static struct free_plan plan_make(size_t blocks, int random)
{
	struct free_plan plan = { blocks, NULL, NULL, NULL, 0 };
	uint64_t state = gate_seed();

	plan.sizes = malloc(blocks * sizeof *plan.sizes);
	plan.order = malloc(blocks * sizeof *plan.order);
	plan.ptrs = calloc(blocks, sizeof *plan.ptrs);
	if (!plan.sizes || !plan.order || !plan.ptrs)
		gate_fail("setup:");
	for (size_t i = 0; i < blocks; i++) {
		plan.sizes[i] = (uint16_t)(1 + rng_next(&state) % FREE_MAX_BYTES);
		plan.bytes_requested += plan.sizes[i];
		plan.order[i] = (uint32_t)i;
	}
	for (size_t i = blocks; random && i > 1; i--) {
		size_t j = (size_t)(rng_next(&state) % i);
		uint32_t t = plan.order[i - 1];

		plan.order[i - 1] = plan.order[j];
		plan.order[j] = t;
	}
	return plan;
}

static void plan_release(struct free_plan *plan)
{
	free(plan->sizes);
	free(plan->order);
	free(plan->ptrs);
}

static void phase_alloc(struct free_plan *plan)
{
	for (size_t i = 0; i < plan->blocks; i++) {
		plan->ptrs[i] = malloc(plan->sizes[i]);
		if (!plan->ptrs[i])
			gate_fail("malloc:");
	}
	/* The pointers escape, so neither loop can be folded away. */
	gate_consume(plan->ptrs);
}

static void phase_free(struct free_plan *plan)
{
	for (size_t k = 0; k < plan->blocks; k++)
		free(plan->ptrs[plan->order[k]]);
}

static void free_cost_run(const struct gate_params *params, int random)
{
	/* n: the blocks of one sample. The free order is a table of uint32_t,
	 * so n is at most UINT32_MAX; outside 1 to UINT32_MAX gate_param_size
	 * names the parameter set, the key and the range and exits 2, before
	 * anything is allocated or measured (the plan's tables included). */
	size_t n = gate_param_size(params, "n", 1, UINT32_MAX);
	struct free_plan plan;

	/* setup, outside the regions */
	plan = plan_make(n, random);

	gate_region_begin("alloc");
	phase_alloc(&plan);
	gate_region_end();
	/* Reported after "alloc" ended, so they are alloc.blocks and
	 * alloc.bytes_requested: what that region asked of malloc. */
	gate_metric("blocks", "count", GATE_EXACT, plan.blocks);
	gate_metric("bytes_requested", "bytes", GATE_EXACT, plan.bytes_requested);

	gate_region_begin("free");
	phase_free(&plan);
	gate_region_end();
	plan_release(&plan);
}

static void random_order(const struct gate_params *p) { free_cost_run(p, 1); }
static void alloc_order(const struct gate_params *p) { free_cost_run(p, 0); }

static const struct gate_variant free_variants[] = {
	GATE_VARIANT("random_order", random_order, "malloc N random-size blocks, free them in random order (the seed)"),
	GATE_VARIANT("alloc_order", alloc_order, "the same blocks freed in the order they were allocated"),
	{ 0 },
};

/* The seed's eight points run in the full tier (5M blocks: 2.6 GB of
 * requests, about 3.5 s a sample here); the default tier takes the first
 * three decades, the quick tier the first two. */
static const struct gate_paramset free_paramsets[] = {
	{ "n_1k", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "n=1000" },
	{ "n_10k", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "n=10000" },
	{ "n_100k", GATE_TIER_DEFAULT | GATE_TIER_FULL, "n=100000" },
	{ "n_1m", GATE_TIER_FULL, "n=1000000" },
	{ "n_2m", GATE_TIER_FULL, "n=2000000" },
	{ "n_3m", GATE_TIER_FULL, "n=3000000" },
	{ "n_4m", GATE_TIER_FULL, "n=4000000" },
	{ "n_5m", GATE_TIER_FULL, "n=5000000" },
	{ NULL, 0, NULL },
};

/* Margins: about 2x from the medians measured here where the claim is
 * glibc's (rounds of 100K blocks spread from 0.56 to 1.24), the seed's
 * figure with room for its two runtimes where it is the seed's
 * (docs/kernels.md). */
static const struct gate_expect free_expects[] = {
	/* Few live blocks: free is the cheap half (seed: 47-51%). */
	GATE_EXPECT_AT("n_1k", "random_order.free.wall_ns < 0.75 * random_order.alloc.wall_ns"),
	/* Five million live blocks: free costs more than malloc (seed: 119% Intel
	 * runtime, 193% Visual C++ 10; glibc 2.36: about 200%). */
	GATE_EXPECT_AT("n_5m", "random_order.free.wall_ns > random_order.alloc.wall_ns"),
	/* The seed's middle range: free about as costly as malloc (97-106%),
	 * a claim about the seed's runtimes' heap (crt). */
	GATE_EXPECT_UNDER_AT("crt", "n_10k,n_100k,n_1m",
			  "random_order.free.wall_ns > 0.8 * random_order.alloc.wall_ns"),
	/* glibc: malloc of a fresh heap pays a page fault per 4 KiB, so free
	 * starts far lower (9% at 1K) and rises past malloc by 1M blocks (140%
	 * on an Intel Xeon VM), to 200% at 5M. Where between 1K and 1M it
	 * crosses follows the machine's caches: at 100K free cost 0.46-0.69x
	 * malloc on the Intel VM and 0.11-0.32x on an AMD EPYC VM (docs/
	 * kernels.md), so no claim is made at 100K. The margins are glibc's
	 * (ptmalloc's chunk headers, its brk heap): claims about glibc. */
	GATE_EXPECT_UNDER_AT("glibc", "n_1k", "random_order.free.wall_ns < 0.2 * random_order.alloc.wall_ns"),
	GATE_EXPECT_UNDER_AT("glibc", "n_5m", "random_order.free.wall_ns > 1.3 * random_order.alloc.wall_ns"),
	/* glibc: the rise is the random order's, not free()'s: in allocation
	 * order free stays at 10-60% of malloc at every N, and the random order
	 * costs 2-5x more from 1M blocks on (cache and TLB misses on chunk
	 * headers scattered over the heap). At 100K blocks how much more
	 * follows the machine's caches: 2.6x on an Intel Xeon VM, 1.6-2.1x and
	 * 1.15-1.35x on two AMD EPYC VMs (docs/kernels.md), so the timing claim
	 * starts at 1M and the cost pass carries 100K (below). */
	GATE_EXPECT_UNDER("glibc", "alloc_order.free.wall_ns < 0.8 * alloc_order.alloc.wall_ns"),
	GATE_EXPECT_UNDER_AT("glibc", "n_1m,n_2m,n_3m,n_4m,n_5m",
			  "random_order.free.wall_ns > 1.25 * alloc_order.free.wall_ns"),
	/* the misses themselves, in the cost pass's fixed simulated cache: at
	 * 100K blocks the random order's free misses the first-level cache
	 * 4.5x as often as the allocation order's, on every machine */
	GATE_EXPECT_UNDER_AT("glibc", "n_100k,n_1m,n_2m,n_3m,n_4m,n_5m",
			  "random_order.free.cost_l1_misses > 3 * alloc_order.free.cost_l1_misses"),
	{ NULL, NULL, NULL, NULL, 0 },
};

GATE_KERNEL("free_cost", "Seed 001: cost of free() relative to malloc() for N random-size blocks",
	    free_variants, free_paramsets, free_expects)

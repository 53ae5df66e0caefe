/* resize.c: write-up 000, resizing one block in small steps.
 *
 * Write-up 000_391c03ae3ef27ea0, summarised in docs/kernels.md (Windows 7, Core i3 2310M,
 * Visual C++ runtime). A block of START bytes is resized SPAN/STEP times by
 * STEP bytes, up to START + SPAN (grow) or down to START - SPAN (shrink),
 * in three ways:
 *   lossful  free() the block, malloc() the new size; the data is lost;
 *   copy     malloc() the new size, memcpy() what fits, free() the old one;
 *   realloc  realloc() to the new size.
 * The seed's sets are 2 MB +-1 MB in 1 KB steps and 32 MB +-16 MB in 16 KB
 * steps (1024 steps each); they run in the full tier. The default and quick
 * tiers keep the shape (START +- START/2) with fewer bytes and steps.
 *
 * What the seed found (2 MB set, ms): lossful grow 3, lossful shrink 5,
 * copy grow 1265, copy shrink 744, realloc grow 316, realloc shrink 0;
 * (32 MB set): lossful 4 / 4, realloc grow 21453, realloc shrink 0. Claims:
 *   (a) shrinking with realloc is 10,000-100,000x cheaper than malloc+copy;
 *   (b) growing with realloc is ~4x cheaper than malloc+copy;
 *   (c) growing with realloc is 100x (2 MB) to 5000x (32 MB) slower than
 *       free+malloc, so "if you do not need the data, free+malloc to grow";
 *   (d) shrinking with realloc is ~40x cheaper than free+malloc.
 *
 * Where each declared claim holds, and why (measured figures:
 * docs/kernels.md). glibc serves a block of 256 KiB or more with mmap()
 * (M_MMAP_THRESHOLD: 128 KiB at start; free() of an mmapped chunk raises
 * it to that chunk's size, up to 32 MiB on 64-bit), so every walk starts
 * from an mmapped block:
 *   (a) everywhere: a shrinking realloc splits the block in place (heap
 *       chunk) or unmaps its tail (glibc mmapped chunk: mremap()); it never
 *       copies, so it never moves. glibc: 105x at 2 MB, 630x at 32 MB,
 *       but only 8-12x at 256 KiB, where the copies stay in the cache.
 *   (b) everywhere: glibc grows an mmapped chunk with mremap(MREMAP_MAYMOVE),
 *       which moves page tables, not bytes (here it moves once, then grows
 *       in place into the hole it left); malloc+copy copies every step and
 *       faults in every page of each new mmapped block: 400x at 256 KiB,
 *       8000x at 2 MB, 35000x at 32 MB.
 *   (c) Windows only. On glibc the first free() raises the mmap threshold,
 *       so free+malloc carves nearly every later block from the brk heap
 *       (7 mmap() calls in the 1024 steps of 2MB_1KB, page faults as the
 *       heap grows); at 32 MB, past the 32 MiB cap, it is an munmap()+mmap()
 *       pair per step. realloc is one mremap() per page gained. realloc
 *       grow is 1.6-10x faster than free+malloc.
 *   (d) Windows only. On glibc lossful shrinking carves from the brk heap
 *       without a system call, while realloc shrink calls mremap() whenever
 *       the page count drops and the kernel frees the written pages:
 *       realloc is 1.5-1.9x slower than free+malloc.
 *
 * Kernel-side exact counts: steps (all variants); bytes_copied (copy
 * variants); realloc_moved / realloc_in_place (realloc variants: whether
 * the pointer changed; on glibc a moved mmapped chunk was remapped, not
 * copied).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <allocgate/probe.h>

/* The walk one sample makes: SIZE(i) = START +- i * STEP, i = 1..STEPS. */
struct resize_walk {
	size_t start, step, steps;
	int grow; /* 1: sizes rise, 0: sizes fall */
};

/* Kernel-side counts of one sample, reported after the region. */
struct resize_counts {
	uint64_t bytes_copied, moved, in_place;
};

/* Failures: a parameter set out of range is a bug of this file and exits
 * 2 (gate_param, gate_param_size); a failure of the run itself, such as an
 * allocation or a thread refused, is gate_fail("WHAT:") of allocgate/probe.h,
 * which prints "NAME: variant V: WHAT: strerror(errno)" and exits 1: the
 * gate reports the sample as failed, never as measured. */

/* Reads start=, span=, step= (bytes); a shrink must stay above zero. */
static struct resize_walk walk_read(const struct gate_params *params, int grow)
{
	struct resize_walk walk;
	long long start = gate_param(params, "start");
	long long span = gate_param(params, "span");
	long long step = gate_param(params, "step");

	if (start <= 0 || span <= 0 || step <= 0 || span % step || span >= start) {
		fprintf(stderr, "resize: parameter set %s: need start > span > 0 and "
			"span a multiple of step > 0\n", gate_params_name(params));
		exit(2);
	}
	walk.start = (size_t)start;
	walk.step = (size_t)step;
	walk.steps = (size_t)(span / step);
	walk.grow = grow;
	return walk;
}

static size_t walk_size(const struct resize_walk *walk, size_t i)
{
	return walk->grow ? walk->start + i * walk->step : walk->start - i * walk->step;
}

/* Setup, outside the region: the block every variant starts from, written
 * whole so that its pages are present (the seed's block held data). */
static unsigned char *block_setup(size_t bytes)
{
	unsigned char *p = malloc(bytes);

	if (!p)
		gate_fail("malloc:");
	memset(p, 0xa5, bytes);
	return p;
}

/* free() then malloc(): the data is given up, only the block is kept. */
static unsigned char *walk_lossful(const struct resize_walk *walk, unsigned char *p)
{
	for (size_t i = 1; i <= walk->steps; i++) {
		free(p);
		p = malloc(walk_size(walk, i));
		if (!p)
			gate_fail("malloc:");
		gate_consume(p);
	}
	return p;
}

/* malloc() the new size, copy what fits, free() the old block. */
static unsigned char *walk_copy(const struct resize_walk *walk, unsigned char *p,
				struct resize_counts *counts)
{
	for (size_t i = 1; i <= walk->steps; i++) {
		size_t size = walk_size(walk, i);
		size_t keep = walk->grow ? walk_size(walk, i - 1) : size;
		unsigned char *q = malloc(size);

		if (!q)
			gate_fail("malloc:");
		memcpy(q, p, keep);
		free(p);
		p = q;
		counts->bytes_copied += keep;
		gate_consume(p);
	}
	return p;
}

/* realloc(); a changed address counts as a move. The address is kept as
 * an integer: the old pointer's value may not be used once realloc freed it. */
static unsigned char *walk_realloc(const struct resize_walk *walk, unsigned char *p,
				   struct resize_counts *counts)
{
	for (size_t i = 1; i <= walk->steps; i++) {
		uintptr_t before = (uintptr_t)p;
		unsigned char *q = realloc(p, walk_size(walk, i));

		if (!q)
			gate_fail("realloc:");
		if ((uintptr_t)q == before)
			counts->in_place++;
		else
			counts->moved++;
		p = q;
		gate_consume(p);
	}
	return p;
}

enum resize_way { WAY_LOSSFUL, WAY_COPY, WAY_REALLOC };

/* One sample: setup, the measured walk, then the counts. */
static void resize_run(const struct gate_params *params, enum resize_way way, int grow)
{
	struct resize_walk walk = walk_read(params, grow);
	struct resize_counts counts = { 0, 0, 0 };
	unsigned char *p = block_setup(walk.start);

	gate_region_begin(NULL);
	if (way == WAY_LOSSFUL)
		p = walk_lossful(&walk, p);
	else if (way == WAY_COPY)
		p = walk_copy(&walk, p, &counts);
	else
		p = walk_realloc(&walk, p, &counts);
	gate_region_end();
	free(p);

	gate_metric("steps", "count", GATE_EXACT, walk.steps);
	if (way == WAY_COPY)
		gate_metric("bytes_copied", "bytes", GATE_EXACT, counts.bytes_copied);
	if (way == WAY_REALLOC) {
		gate_metric("realloc_moved", "count", GATE_EXACT, counts.moved);
		gate_metric("realloc_in_place", "count", GATE_EXACT, counts.in_place);
	}
}

static void lossful_grow(const struct gate_params *p) { resize_run(p, WAY_LOSSFUL, 1); }
static void lossful_shrink(const struct gate_params *p) { resize_run(p, WAY_LOSSFUL, 0); }
static void copy_grow(const struct gate_params *p) { resize_run(p, WAY_COPY, 1); }
static void copy_shrink(const struct gate_params *p) { resize_run(p, WAY_COPY, 0); }
static void realloc_grow(const struct gate_params *p) { resize_run(p, WAY_REALLOC, 1); }
static void realloc_shrink(const struct gate_params *p) { resize_run(p, WAY_REALLOC, 0); }

static const struct gate_variant resize_variants[] = {
	GATE_VARIANT("lossful_grow", lossful_grow, "free() then malloc() of the larger size, data lost"),
	GATE_VARIANT("lossful_shrink", lossful_shrink, "free() then malloc() of the smaller size, data lost"),
	GATE_VARIANT("copy_grow", copy_grow, "malloc() larger, memcpy() the old bytes, free() the old block"),
	GATE_VARIANT("copy_shrink", copy_shrink, "malloc() smaller, memcpy() what fits, free() the old block"),
	GATE_VARIANT("realloc_grow", realloc_grow, "realloc() to the larger size"),
	GATE_VARIANT("realloc_shrink", realloc_shrink, "realloc() to the smaller size"),
	{ 0 },
};

/* The seed's own walks run in the full tier (copy_grow on 32MB_16KB takes
 * about 24 s a sample here). The default and quick sets keep the shape
 * (START +- START/2) and the glibc regime: 256 KiB is above the initial
 * 128 KiB mmap threshold, so every variant starts from an mmapped block as
 * the seed's sets do. Shortening a 2 MB walk instead would not do: its
 * first step (munmap of the whole written block) then dominates. */
static const struct gate_paramset resize_paramsets[] = {
	{ "2MB_1KB", GATE_TIER_FULL, "start=2097152 span=1048576 step=1024" },
	{ "32MB_16KB", GATE_TIER_FULL, "start=33554432 span=16777216 step=16384" },
	{ "256KB_512B", GATE_TIER_DEFAULT, "start=262144 span=131072 step=512" },
	{ "256KB_1KB", GATE_TIER_QUICK, "start=262144 span=131072 step=1024" },
	{ NULL, 0, NULL },
};

/* Margins: the seed's factor halved or better, and, for the glibc claims,
 * at least 1.5x away from the medians measured here (docs/kernels.md). */
static const struct gate_expect resize_expects[] = {
	/* (a) A shrinking realloc never copies: >= 4x cheaper than copying at
	 * 256 KiB (glibc: 8-12x), >= 50x at the seed's sizes (glibc: 105x at
	 * 2 MB, 630x at 32 MB; seed: 10,000x and more). */
	GATE_EXPECT("realloc_shrink.wall_ns < 0.25 * copy_shrink.wall_ns"),
	/* the same finding in the cost pass, which no other task and no CPU
	 * model moves (0.00063x at 256 KiB on every machine measured) */
	GATE_EXPECT("realloc_shrink.cost_instructions < 0.25 * copy_shrink.cost_instructions"),
	GATE_EXPECT_AT("2MB_1KB,32MB_16KB", "realloc_shrink.wall_ns < 0.02 * copy_shrink.wall_ns"),
	GATE_EXPECT("realloc_shrink.realloc_moved == 0"),
	/* (b) Keeping the data while growing: realloc >= 2x cheaper than
	 * malloc+copy (seed: 4x). In the instructions it runs under every
	 * allocator: mimalloc and tcmalloc move the block 2-4 times in a walk,
	 * malloc+copy moves it at every step. In time where the allocator
	 * grows the block without faulting its pages in: glibc's mremap()
	 * (>= 50x; measured 400x at 256 KiB and more at larger blocks) and
	 * jemalloc (55x at 256 KiB). Mimalloc and tcmalloc fault in every page
	 * a growing block reaches (160-163 at 256 KiB), so their time ratio
	 * follows the machine's cost of a page fault against a copy: 0.11 at
	 * the 512 B step but 0.34-0.70 at the 1 KiB step on AMD EPYC VMs
	 * (docs/kernels.md): information under them, not a claim. */
	GATE_EXPECT("realloc_grow.cost_instructions < 0.5 * copy_grow.cost_instructions"),
	GATE_EXPECT_UNDER("glibc|jemalloc", "realloc_grow.wall_ns < 0.5 * copy_grow.wall_ns"),
	GATE_EXPECT_UNDER("glibc", "realloc_grow.wall_ns < 0.02 * copy_grow.wall_ns"),
	/* (c) Growing: the seed's runtime made realloc 100-5000x slower than
	 * free+malloc; on glibc one mremap() per page beats free+malloc by
	 * 1.6x (256 KiB) to 10x (32 MB). Both are claims about the allocator,
	 * not the OS: the seed's is the Windows C runtime's heap (crt), the
	 * other glibc's mremap() of a block above its mmap threshold; mimalloc
	 * and tcmalloc copy on growth like the seed's runtime (gate matrix,
	 * docs/kernels.md). */
	GATE_EXPECT_UNDER("crt", "realloc_grow.wall_ns > 10 * lossful_grow.wall_ns"),
	GATE_EXPECT_UNDER("glibc", "realloc_grow.wall_ns < lossful_grow.wall_ns"),
	/* (d) Shrinking: the seed found realloc 40x cheaper than free+malloc.
	 * On glibc a block above the mmap threshold gives back one mremap()
	 * per page (32 at 256 KiB), while free+malloc carves from the brk heap
	 * with two calls in all. Which of the two is faster follows the
	 * machine's cost of a system call against a page fault: realloc
	 * 1.7-1.9x slower on an Intel Xeon VM, 0.66-0.69x on an AMD EPYC VM
	 * (docs/kernels.md), so glibc's claim is the calls, which hold on
	 * both. jemalloc, mimalloc and tcmalloc shrink in place without a
	 * system call, like the seed's runtime (gate matrix). */
	GATE_EXPECT_UNDER("crt", "realloc_shrink.wall_ns < 0.1 * lossful_shrink.wall_ns"),
	GATE_EXPECT_UNDER("glibc", "realloc_shrink.sys_mremap > 8 * (lossful_shrink.sys_mremap + "
				   "lossful_shrink.sys_munmap + lossful_shrink.sys_mmap + "
				   "lossful_shrink.sys_brk)"),
	{ NULL, NULL, NULL, NULL, 0 },
};

GATE_KERNEL("resize", "Seed 000: resizing a block in small steps (free+malloc, malloc+copy, realloc)",
	    resize_variants, resize_paramsets, resize_expects)

#!/usr/bin/env python3
"""ci/synth_project.py N DIR: write a synthetic project of N kernels.

The project of the scale benchmark (ci/scalebench.sh, docs/measurements.md,
"At scale"): DIR/kernels/synth_NNN.c, N files of 4 variants and 2 parameter
sets each (both in the default tier), every other one allocation-heavy
(malloc/free of small blocks, a growing realloc, calloc'd batches, a free
list) and the rest compute-bound (integer mixing, a small sort, a prefix
sum, a branchy scan), and a Makefile that builds them as a user's project
builds its kernels (docs/install.md): against an installed allocgate found by
pkg-config, a timed build in BUILD/kernels and a counted twin in
BUILD/kernels-counted. `make BUILD=build-b REVISION=1` builds the same
kernels with a constant changed in every file: other code, the same work,
what a pull request that touches every kernel and slows none looks like.

Every kernel declares two claims: a count (exact in the counted build) and,
for the compute-bound ones, a timing ratio with a wide margin.
Exit 0 when written, 2 on bad arguments.
"""
import os
import sys

ALLOC_KERNEL = r'''/* synth_{i:03d}.c: a synthetic allocation-heavy kernel of the scale
 * benchmark (ci/synth_project.py wrote it). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <allocgate/probe.h>

#ifndef REVISION
#define REVISION 0
#endif
#define SALT {salt}u

static void small_blocks(const struct gate_params *p)
{{
	long long n = gate_param(p, "n");
	gate_region_begin(NULL);
	for (long long i = 0; i < n; i++) {{
		unsigned char *b = malloc(16 + (size_t)((i * SALT) % 48));
		if (!b)
			gate_fail("malloc %lld of %lld failed", i + 1, n);
		b[0] = (unsigned char)i;
		gate_consume(b);
		free(b);
	}}
	gate_region_end();
	gate_consume((void *)(uintptr_t)REVISION);
}}

static void grow(const struct gate_params *p)
{{
	long long n = gate_param(p, "n");
	unsigned char *b = NULL;
	gate_region_begin(NULL);
	for (long long i = 0; i < n; i++) {{
		unsigned char *nb = realloc(b, (size_t)(i + 1) * 8);
		if (!nb)
			gate_fail("realloc %lld of %lld failed", i + 1, n);
		b = nb;
		b[i * 8] = (unsigned char)(i ^ SALT);
	}}
	gate_region_end();
	b[0] ^= REVISION;
	gate_consume(b);
	free(b);
}}

static void batch(const struct gate_params *p)
{{
	long long n = gate_param(p, "n");
	enum {{ BATCH = 64 }};
	void *live[BATCH];
	gate_region_begin(NULL);
	for (long long i = 0; i < n; i += BATCH) {{
		for (int k = 0; k < BATCH; k++)
			if (!(live[k] = calloc(1, 32 + (size_t)((k * SALT) % 96))))
				gate_fail("calloc failed");
		for (int k = BATCH - 1; k >= 0; k--)
			free(live[k]);
	}}
	gate_region_end();
	gate_consume((void *)(uintptr_t)REVISION);
}}

static void free_list(const struct gate_params *p)
{{
	long long n = gate_param(p, "n");
	enum {{ KEEP = 32 }};
	void *pool[KEEP];
	int top = 0;
	gate_region_begin(NULL);
	for (long long i = 0; i < n; i++) {{
		void *b = top > 0 ? pool[--top] : malloc(64);
		if (!b)
			gate_fail("malloc failed");
		memset(b, (int)(i ^ SALT), 64);
		gate_consume(b);
		pool[top++] = b;
	}}
	gate_region_end();
	if (top > 0)
		*(unsigned char *)pool[0] ^= REVISION;
	while (top > 0)
		free(pool[--top]);
}}

static const struct gate_variant variants[] = {{
	GATE_VARIANT("small_blocks", small_blocks, "malloc and free of a small block, n times"),
	GATE_VARIANT("grow", grow, "one block grown by realloc in 8-byte steps"),
	GATE_VARIANT("batch", batch, "64 calloc'd blocks, freed in reverse, n/64 times"),
	GATE_VARIANT("free_list", free_list, "a free list of 64-byte blocks reused"),
	{{ 0 }},
}};

{paramsets}
static const struct gate_expect expects[] = {{
	/* the free list allocates once and keeps the block */
	GATE_EXPECT("free_list.heap_blocks_allocated < 0.01 * small_blocks.heap_blocks_allocated"),
	GATE_EXPECT("small_blocks.heap_blocks_freed == small_blocks.heap_blocks_allocated"),
	{{ 0 }},
}};

GATE_KERNEL("synth_{i:03d}", "synthetic allocation-heavy kernel {i}", variants, paramsets, expects)
'''

COMPUTE_KERNEL = r'''/* synth_{i:03d}.c: a synthetic compute-bound kernel of the scale benchmark
 * (ci/synth_project.py wrote it). */
#include <stdint.h>
#include <stdlib.h>

#include <allocgate/probe.h>

#ifndef REVISION
#define REVISION 0
#endif
#define SALT {salt}u

static uint64_t mix_rounds(long long n)
{{
	uint64_t h = SALT;
	for (long long i = 0; i < n; i++) {{
		h ^= (uint64_t)i * 0x9e3779b97f4a7c15u;
		h = (h << 13 | h >> 51) * 5 + SALT;
	}}
	return h;
}}

static void mix(const struct gate_params *p)
{{
	long long n = gate_param(p, "n");
	gate_region_begin(NULL);
	uint64_t h = mix_rounds(n);
	gate_region_end();
	h ^= REVISION;
	gate_consume(&h);
}}

static void mix_twice(const struct gate_params *p)
{{
	long long n = gate_param(p, "n");
	gate_region_begin(NULL);
	uint64_t h = mix_rounds(2 * n);
	gate_region_end();
	h += REVISION;
	gate_consume(&h);
}}

static void sort_small(const struct gate_params *p)
{{
	long long n = gate_param(p, "n");
	enum {{ LEN = 64 }};
	uint32_t x = SALT;
	gate_region_begin(NULL);
	uint32_t *a = malloc(LEN * sizeof *a);
	if (!a)
		gate_fail("malloc of %d integers failed", LEN);
	for (long long done = 0; done < n; done += LEN * 4) {{
		for (int k = 0; k < LEN; k++)
			a[k] = x = x * 1664525u + 1013904223u;
		for (int k = 1; k < LEN; k++) {{
			uint32_t v = a[k];
			int j = k - 1;
			while (j >= 0 && a[j] > v) {{
				a[j + 1] = a[j];
				j--;
			}}
			a[j + 1] = v;
		}}
	}}
	gate_region_end();
	a[0] ^= REVISION;
	gate_consume(a);
	free(a);
}}

static void prefix_scan(const struct gate_params *p)
{{
	long long n = gate_param(p, "n");
	enum {{ LEN = 1024 }};
	static uint32_t a[LEN];
	uint32_t odd = 0;
	gate_region_begin(NULL);
	for (long long done = 0; done < n; done += LEN) {{
		a[0] = (uint32_t)done ^ SALT;
		for (int k = 1; k < LEN; k++)
			a[k] = a[k - 1] + (uint32_t)k;
		for (int k = 0; k < LEN; k++)
			if (a[k] & 1)
				odd++;
	}}
	gate_region_end();
	odd -= REVISION;
	gate_consume(&odd);
}}

static const struct gate_variant variants[] = {{
	GATE_VARIANT("mix", mix, "n rounds of integer mixing"),
	GATE_VARIANT("mix_twice", mix_twice, "2n rounds of the same mixing"),
	GATE_VARIANT("sort_small", sort_small, "insertion sorts of 64 integers"),
	GATE_VARIANT("prefix_scan", prefix_scan, "a prefix sum and a branchy scan"),
	{{ 0 }},
}};

{paramsets}
static const struct gate_expect expects[] = {{
	/* twice the rounds: about twice the time, 1.5x with room */
	GATE_EXPECT("mix_twice.wall_ns > 1.5 * mix.wall_ns"),
	/* the sort's one scratch array; nothing else allocates */
	GATE_EXPECT("sort_small.heap_blocks_allocated == 1"),
	GATE_EXPECT("mix.heap_calls + prefix_scan.heap_calls == 0"),
	{{ 0 }},
}};

GATE_KERNEL("synth_{i:03d}", "synthetic compute-bound kernel {i}", variants, paramsets, expects)
'''

# Both kinds' parameter sets: the small one in every tier, the large one
# in the default and full tiers.
PARAMSETS = r'''static const struct gate_paramset paramsets[] = {{
	{{ "n_{small}", GATE_TIER_QUICK | GATE_TIER_DEFAULT | GATE_TIER_FULL, "n={small}" }},
	{{ "n_{large}", GATE_TIER_DEFAULT | GATE_TIER_FULL, "n={large}" }},
	{{ 0 }},
}};
'''

MAKEFILE = r'''# The synthetic project's build (ci/synth_project.py wrote it): each kernel
# twice against an installed allocgate found by pkg-config (docs/install.md).
#   make [BUILD=build] [REVISION=0]
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
BUILD ?= build
REVISION ?= 0
PROBE_CFLAGS := $(shell $(PKG_CONFIG) --cflags allocgate)
PROBE_LIBS := $(shell $(PKG_CONFIG) --libs allocgate)
COUNTED_CFLAGS := $(shell $(PKG_CONFIG) --cflags allocgate-counted)
NAMES := $(basename $(notdir $(wildcard kernels/*.c)))

all: $(NAMES:%=$(BUILD)/kernels/%) $(NAMES:%=$(BUILD)/kernels-counted/%)

$(BUILD)/kernels/%: kernels/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DREVISION=$(REVISION) $(PROBE_CFLAGS) -o $@ $< $(PROBE_LIBS)

$(BUILD)/kernels-counted/%: kernels/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DREVISION=$(REVISION) $(COUNTED_CFLAGS) -o $@ $< $(PROBE_LIBS)

.PHONY: all
'''

# Work per sample at n: the small set about 0.1-0.8 ms, the large one ten
# times that on the 2-core VM of docs/measurements.md.
ALLOC_SIZES = (20000, 200000)
COMPUTE_SIZES = (200000, 2000000)


def main(argv):
    if len(argv) != 3 or not argv[1].isdigit() or not 1 <= int(argv[1]) <= 999:
        print("usage: ci/synth_project.py N DIR  (1 <= N <= 999)", file=sys.stderr)
        return 2
    n, root = int(argv[1]), argv[2]
    os.makedirs(os.path.join(root, "kernels"), exist_ok=True)
    for i in range(n):
        alloc = i % 2 == 0
        small, large = ALLOC_SIZES if alloc else COMPUTE_SIZES
        text = (ALLOC_KERNEL if alloc else COMPUTE_KERNEL).format(
            i=i, salt=2654435761 % (1000 + 7 * i) | 1,
            paramsets=PARAMSETS.format(small=small, large=large))
        with open(os.path.join(root, "kernels", "synth_%03d.c" % i), "w") as f:
            f.write(text)
    with open(os.path.join(root, "Makefile"), "w") as f:
        f.write(MAKEFILE)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

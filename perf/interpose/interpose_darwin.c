/* interpose_darwin.c: liballocgate-interpose.dylib, the allocation counter
 * of interpose_linux.c for macOS. Inserted with DYLD_INSERT_LIBRARIES into
 * the counted pass's sample only (allocator_os_preload_var), it replaces
 * malloc, calloc, realloc, free, posix_memalign and aligned_alloc through
 * dyld's interposing: each (replacement, original) pair in the
 * __DATA,__interpose section makes every other image's calls of the
 * original go to the replacement, while this image's own calls reach the
 * original (Apple's dyld-interposing.h, DYLD_INTERPOSE). The counting is
 * interpose_count.c's.
 *
 * Not counted: allocations made through malloc zones directly
 * (malloc_zone_malloc, the Objective-C and CoreFoundation allocators);
 * the C calls above are what C code makes. The live totals take each
 * block's size from malloc_size (<malloc/malloc.h>, declared below so that
 * this file can be checked with Linux's headers). Written for macOS and compiled
 * there by configure.py; this repository's machines have no macOS, so it
 * has been checked here only with -fsyntax-only (docs/counters.md). */
#define _POSIX_C_SOURCE 200112L   /* posix_memalign */
#include <stddef.h>
#include <stdlib.h>

#include "interpose/interpose.h"
#include "interpose/interpose_count.h"

#define count(id, bytes) interpose_count_call(__builtin_return_address(0), (id), (bytes))

/* <malloc/malloc.h>: the bytes the block at PTR can hold (0: not a block
 * of a malloc zone). */
size_t malloc_size(const void *ptr);

/* Counts new block P as live. */
static void *live_new(void *p)
{
	if (p)
		interpose_count_live((int64_t)malloc_size(p), 1);
	return p;
}

static void *counting_malloc(size_t size)
{
	count(INTERPOSE_MALLOC, size);
	return live_new(malloc(size));
}

static void *counting_calloc(size_t n, size_t size)
{
	count(INTERPOSE_CALLOC, n * size);
	return live_new(calloc(n, size));
}

static void *counting_realloc(void *old, size_t size)
{
	count(INTERPOSE_REALLOC, size);
	size_t old_size = old ? malloc_size(old) : 0;
	void *p = realloc(old, size);
	if (p)
		interpose_count_live((int64_t)malloc_size(p) - (int64_t)old_size, old ? 0 : 1);
	return p;
}

static void counting_free(void *p)
{
	count(INTERPOSE_FREE, 0);
	if (p)
		interpose_count_live(-(int64_t)malloc_size(p), -1);
	free(p);
}

static int counting_posix_memalign(void **out, size_t align, size_t size)
{
	count(INTERPOSE_ALIGNED, size);
	int ret = posix_memalign(out, align, size);
	if (ret == 0)
		live_new(*out);
	return ret;
}

static void *counting_aligned_alloc(size_t align, size_t size)
{
	count(INTERPOSE_ALIGNED, size);
	return live_new(aligned_alloc(align, size));
}

/* dyld's interposing tuples (DYLD_INTERPOSE of <mach-o/dyld-interposing.h>). */
#define INTERPOSE(replacement, original)                                           \
	__attribute__((used)) static const struct {                                \
		const void *replacement_fn, *original_fn;                           \
	} interpose_##original __attribute__((section("__DATA,__interpose"))) = {   \
		(const void *)(unsigned long)&replacement,                          \
		(const void *)(unsigned long)&original                              \
	}

INTERPOSE(counting_malloc, malloc);
INTERPOSE(counting_calloc, calloc);
INTERPOSE(counting_realloc, realloc);
INTERPOSE(counting_free, free);
INTERPOSE(counting_posix_memalign, posix_memalign);
INTERPOSE(counting_aligned_alloc, aligned_alloc);

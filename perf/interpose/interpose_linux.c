/* interpose_linux.c: liballocgate-interpose.so, the allocation counter for
 * code that was not compiled with the counting include (a prebuilt shared
 * library: glib's g_strdup, jansson's json_loads, the C library's own
 * strdup and stdio). Preloaded (LD_PRELOAD) into the counted pass's sample
 * only, it replaces malloc, calloc, realloc, free and the aligned
 * allocators the way glibc documents for a replacement malloc ("Replacing
 * malloc", the glibc manual): every call of the process, in every thread
 * and from every library, is counted with relaxed atomics and handed to
 * the next definition (the C library's malloc, or a preloaded allocator
 * that follows this library in LD_PRELOAD). The probe reads the totals at
 * each region's begin and end (perf/counting/interpose_read_linux.c) and reports
 * the differences as proc_* metrics.
 *
 * Until dlsym has found the next definitions, allocations (dlsym's own)
 * come from a small static arena that is never freed. The counting itself
 * is interpose_count.c's (shared with macOS, interpose_darwin.c). Built
 * with -D_GNU_SOURCE (RTLD_NEXT) by configure.py. */
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "interpose/interpose.h"
#include "interpose/interpose_count.h"


static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);
static int (*next_posix_memalign)(void **, size_t, size_t);
static void *(*next_aligned_alloc)(size_t, size_t);
static void *(*next_memalign)(size_t, size_t);

/* The bootstrap arena: what dlsym allocates while the next definitions
 * are being looked up. */
static _Alignas(max_align_t) unsigned char arena[65536];
static _Atomic size_t arena_used;
static _Atomic int resolving;

static void *arena_alloc(size_t size)
{
	size = (size + 15) & ~(size_t)15;
	size_t at = atomic_fetch_add(&arena_used, size);
	if (at + size > sizeof arena) {
		errno = ENOMEM;
		return NULL;
	}
	return arena + at;
}

static int in_arena(const void *p)
{
	return (const unsigned char *)p >= arena && (const unsigned char *)p < arena + sizeof arena;
}

static void resolve(void)
{
	if (next_free || atomic_exchange(&resolving, 1))
		return;
	next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	next_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	next_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	next_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
	next_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
	next_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
	next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
}

#define count(id, bytes) interpose_count_call(__builtin_return_address(0), (id), (bytes))


void *malloc(size_t size)
{
	resolve();
	if (!next_malloc)
		return arena_alloc(size);
	count(INTERPOSE_MALLOC, size);
	return next_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	resolve();
	if (!next_calloc) {   /* dlsym's own calloc: the arena is zeroed */
		if (size && n > SIZE_MAX / size)
			return NULL;
		return arena_alloc(n * size);
	}
	count(INTERPOSE_CALLOC, n * size);
	return next_calloc(n, size);
}

void *realloc(void *old, size_t size)
{
	resolve();
	if (!next_realloc || in_arena(old)) {
		/* an arena block's size is not kept: copy what the arena holds
		 * from it, at most SIZE bytes */
		void *p = next_malloc ? next_malloc(size) : arena_alloc(size);
		if (p && old) {
			size_t room = (size_t)(arena + sizeof arena - (unsigned char *)old);
			memcpy(p, old, size < room ? size : room);
		}
		return p;
	}
	count(INTERPOSE_REALLOC, size);
	return next_realloc(old, size);
}

void free(void *p)
{
	resolve();
	if (in_arena(p))
		return;
	count(INTERPOSE_FREE, 0);
	if (next_free)
		next_free(p);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	resolve();
	count(INTERPOSE_ALIGNED, size);
	return next_posix_memalign ? next_posix_memalign(out, align, size) : ENOMEM;
}

void *aligned_alloc(size_t align, size_t size)
{
	resolve();
	count(INTERPOSE_ALIGNED, size);
	return next_aligned_alloc ? next_aligned_alloc(align, size) : NULL;
}

void *memalign(size_t align, size_t size)
{
	resolve();
	count(INTERPOSE_ALIGNED, size);
	return next_memalign ? next_memalign(align, size) : NULL;
}

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
 * Each block made or freed also moves the live totals (proc_live_bytes,
 * proc_live_blocks) by its usable size, read from the allocator's own
 * malloc_usable_size: one call that reads the block's header, and two
 * more relaxed adds on the process-wide totals.
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
static void *(*next_valloc)(size_t), *(*next_pvalloc)(size_t);
static size_t (*next_usable_size)(void *);

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

/* The live totals need each block's usable size from the allocator that
 * made it, and each block counted once. A preloaded library that replaces
 * only some of the functions breaks both: tests/preload/moving_realloc.c's
 * realloc is a malloc, a copy and a free that come back through this
 * library (the block would count twice), and a malloc_usable_size of
 * another library cannot read its blocks. So the live totals are kept
 * only when malloc, calloc, realloc, free and malloc_usable_size lie in
 * one object (dladdr's base address; it takes the loader's lock and
 * allocates nothing). The aligned allocators are not asked: an allocator
 * that lacks one leaves the C library's, whose blocks its free could not
 * take back, so a program that runs under it does not call that one. */
static void live_check(void)
{
	void *const found[] = { (void *)next_malloc, (void *)next_calloc, (void *)next_realloc,
				(void *)next_free };
	Dl_info usable, info;
	if (!next_usable_size || !dladdr((void *)next_usable_size, &usable)) {
		interpose_live_stop("the allocator has no malloc_usable_size, which the live "
				    "bytes need");
		return;
	}
	for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
		if (found[i] && (!dladdr(found[i], &info) || info.dli_fbase != usable.dli_fbase)) {
			interpose_live_stop("the allocator's malloc, calloc, realloc, free and "
					    "malloc_usable_size are not all in one library (a "
					    "preloaded library replaces only some of them), so "
					    "blocks would be sized or counted twice");
			return;
		}
	}
}

/* Usable size of block P (0 for NULL). */
static size_t usable(void *p)
{
	return p && next_usable_size ? next_usable_size(p) : 0;
}

/* Counts new block P as live. */
static void *live_new(void *p)
{
	if (p)
		interpose_count_live((int64_t)usable(p), 1);
	return p;
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
	next_valloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "valloc");
	next_pvalloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "pvalloc");
	next_usable_size = (size_t (*)(void *))dlsym(RTLD_NEXT, "malloc_usable_size");
	next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	live_check();
}

#define count(id, bytes) interpose_count_call(__builtin_return_address(0), (id), (bytes))


void *malloc(size_t size)
{
	resolve();
	if (!next_malloc)
		return arena_alloc(size);
	count(INTERPOSE_MALLOC, size);
	return live_new(next_malloc(size));
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
	return live_new(next_calloc(n, size));
}

void *realloc(void *old, size_t size)
{
	resolve();
	if (!next_realloc || in_arena(old)) {
		/* an arena block's size is not kept: copy what the arena holds
		 * from it, at most SIZE bytes */
		void *p = next_malloc ? live_new(next_malloc(size)) : arena_alloc(size);
		if (p && old) {
			size_t room = (size_t)(arena + sizeof arena - (unsigned char *)old);
			memcpy(p, old, size < room ? size : room);
		}
		return p;
	}
	count(INTERPOSE_REALLOC, size);
	size_t old_size = usable(old);
	void *p = next_realloc(old, size);
	if (p)
		interpose_count_live((int64_t)usable(p) - (int64_t)old_size, old ? 0 : 1);
	else if (old && size == 0)   /* glibc: realloc(p, 0) frees p */
		interpose_count_live(-(int64_t)old_size, -1);
	return p;
}

void free(void *p)
{
	resolve();
	if (in_arena(p))
		return;
	count(INTERPOSE_FREE, 0);
	if (p)
		interpose_count_live(-(int64_t)usable(p), -1);
	if (next_free)
		next_free(p);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	resolve();
	count(INTERPOSE_ALIGNED, size);
	int ret = next_posix_memalign ? next_posix_memalign(out, align, size) : ENOMEM;
	if (ret == 0)
		live_new(*out);
	return ret;
}

void *aligned_alloc(size_t align, size_t size)
{
	resolve();
	count(INTERPOSE_ALIGNED, size);
	return next_aligned_alloc ? live_new(next_aligned_alloc(align, size)) : NULL;
}

void *memalign(size_t align, size_t size)
{
	resolve();
	count(INTERPOSE_ALIGNED, size);
	return next_memalign ? live_new(next_memalign(align, size)) : NULL;
}

/* valloc and pvalloc too (glibc's manual lists them among what a
 * replacement should provide): a block they made unseen would be taken
 * off the live totals when freed. */
void *valloc(size_t size)
{
	resolve();
	count(INTERPOSE_ALIGNED, size);
	return next_valloc ? live_new(next_valloc(size)) : NULL;
}

void *pvalloc(size_t size)
{
	resolve();
	count(INTERPOSE_ALIGNED, size);
	return next_pvalloc ? live_new(next_pvalloc(size)) : NULL;
}

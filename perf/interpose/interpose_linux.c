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
 * each region's begin and end (perf/interpose_read_linux.c) and reports
 * the differences as proc_* metrics.
 *
 * Until dlsym has found the next definitions, allocations (dlsym's own)
 * come from a small static arena that is never freed. Built with
 * -D_GNU_SOURCE (RTLD_NEXT) by configure.py. */
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "interpose.h"

static _Atomic uint64_t totals[INTERPOSE_IDS];

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

/* ---- per caller library (interpose.h) ----
 *
 * Which shared object a call came from: dladdr of the return address,
 * which takes the loader's (recursive) lock and allocates nothing, once
 * per return address; a direct-mapped cache of addresses to library slots
 * answers the later calls. No thread-local storage: in a preloaded
 * library its first use in a thread may allocate. */
struct library_slot {
	_Atomic(const char *) name;        /* NULL: free; else the file name */
	_Atomic uint64_t calls[INTERPOSE_IDS], bytes[INTERPOSE_IDS];
};

#define CACHE_SLOTS 1024
#define NOT_A_LIBRARY (-1)                 /* unknown to dladdr, or the table is full */
#define THE_EXECUTABLE (-2)                /* counted at its source lines instead */

static struct library_slot libraries[INTERPOSE_LIBRARIES];
static _Atomic uint64_t unattributed_calls;
static _Atomic uintptr_t cache_addr[CACHE_SLOTS];
static _Atomic int cache_slot[CACHE_SLOTS];
static atomic_int counting_on;
static _Atomic(const char *) main_name;   /* dladdr's name of the executable */

void allocgate_interpose_counting(int on)
{
	if (!atomic_load(&main_name)) {
		Dl_info info;
		/* the caller is the probe, linked into the kernel executable */
		if (dladdr(__builtin_return_address(0), &info) && info.dli_fname)
			atomic_store(&main_name, info.dli_fname);
	}
	atomic_store(&counting_on, on);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* The library slot of the object that holds ADDR; THE_EXECUTABLE, or
 * NOT_A_LIBRARY for an address dladdr does not know or a full table. */
static int library_of(uintptr_t addr)
{
	size_t c = (addr >> 4) % CACHE_SLOTS;
	if (atomic_load_explicit(&cache_addr[c], memory_order_acquire) == addr) {
		int slot = atomic_load_explicit(&cache_slot[c], memory_order_acquire);
		if (atomic_load_explicit(&cache_addr[c], memory_order_acquire) == addr)
			return slot;
	}
	Dl_info info;
	int slot = NOT_A_LIBRARY;
	const char *main = atomic_load(&main_name);
	if (dladdr((void *)addr, &info) && info.dli_fname && main &&
	    (!*info.dli_fname || !strcmp(info.dli_fname, main))) {
		slot = THE_EXECUTABLE;
	} else if (dladdr((void *)addr, &info) && info.dli_fname && *info.dli_fname) {
		const char *name = base_name(info.dli_fname);
		for (int i = 0; i < INTERPOSE_LIBRARIES && slot == NOT_A_LIBRARY; i++) {
			const char *have = atomic_load(&libraries[i].name);
			if (!have && atomic_compare_exchange_strong(&libraries[i].name, &have, name))
				slot = i;
			else if (have && !strcmp(have, name))
				slot = i;
		}
	}
	atomic_store_explicit(&cache_addr[c], 0, memory_order_release);
	atomic_store_explicit(&cache_slot[c], slot, memory_order_release);
	atomic_store_explicit(&cache_addr[c], addr, memory_order_release);
	return slot;
}

static void count_library(void *caller, enum interpose_id id, size_t bytes)
{
	int slot = library_of((uintptr_t)caller);
	if (slot == THE_EXECUTABLE)
		return;
	if (slot == NOT_A_LIBRARY) {   /* said, never lost: sites-dropped */
		atomic_fetch_add_explicit(&unattributed_calls, 1, memory_order_relaxed);
		return;
	}
	atomic_fetch_add_explicit(&libraries[slot].calls[id], 1, memory_order_relaxed);
	if (bytes)
		atomic_fetch_add_explicit(&libraries[slot].bytes[id], bytes, memory_order_relaxed);
}

size_t allocgate_interpose_libraries(struct interpose_library *out, size_t max,
				     uint64_t *unattributed)
{
	size_t n = 0;
	for (int i = 0; i < INTERPOSE_LIBRARIES && n < max; i++) {
		const char *name = atomic_load(&libraries[i].name);
		if (!name)
			continue;
		out[n].name = name;
		for (int k = 0; k < INTERPOSE_IDS; k++) {
			out[n].calls[k] = atomic_load_explicit(&libraries[i].calls[k],
							       memory_order_relaxed);
			out[n].bytes[k] = atomic_load_explicit(&libraries[i].bytes[k],
							       memory_order_relaxed);
		}
		n++;
	}
	*unattributed = atomic_load_explicit(&unattributed_calls, memory_order_relaxed);
	return n;
}

static void count_from(void *caller, enum interpose_id id, size_t bytes)
{
	atomic_fetch_add_explicit(&totals[id], 1, memory_order_relaxed);
	if (bytes)
		atomic_fetch_add_explicit(&totals[INTERPOSE_BYTES], bytes, memory_order_relaxed);
	if (atomic_load_explicit(&counting_on, memory_order_relaxed))
		count_library(caller, id, bytes);
}

#define count(id, bytes) count_from(__builtin_return_address(0), (id), (bytes))

void allocgate_interpose_totals(uint64_t *out, size_t n)
{
	for (size_t i = 0; i < n && i < INTERPOSE_IDS; i++)
		out[i] = atomic_load_explicit(&totals[i], memory_order_relaxed);
}

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

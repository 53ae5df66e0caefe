/* alloc_count.c: the counting wrappers of a counted kernel build.
 *
 * Thread safety at little cost: each thread counts calls and bytes in its
 * own block (plain relaxed loads and stores, no read-modify-write, no
 * shared cache line); blocks are pushed once onto a lock-free registry and
 * never freed, so the counts of threads that have exited still add up at
 * region end. Live bytes and blocks are process-wide (a block may be freed
 * by another thread than the one that made it): one relaxed atomic add
 * each per call, and a compare-and-swap only when the peak grows.
 * Counting happens only while a region is open (alloc_depth > 0).
 *
 * Sizes of freed and reallocated blocks come from alloc_count_block_size
 * (the allocator's usable size, alloc_size_<os>.c), so the live and peak
 * figures are in usable bytes and bytes copied by a moving realloc are
 * min(old usable size, new size): an upper bound of what the allocator
 * copied, exact whenever the old request filled its size class.
 */
#define GATE_ALLOC_COUNT_IMPL
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "allocgate/alloc_count.h"
#include "counting/alloc_count_probe.h"
#include "counting/alloc_sites.h"

/* One thread's counts; written by that thread only. */
struct alloc_thread {
	_Atomic uint64_t value[ALLOC_COUNT_IDS];
	struct alloc_thread *next;
};

static _Atomic(struct alloc_thread *) alloc_threads;
static _Thread_local struct alloc_thread *alloc_self;
static atomic_bool alloc_installed;
static atomic_int alloc_depth;
static _Atomic int64_t alloc_live_bytes, alloc_live_blocks, alloc_peak;

static const struct {
	const char *name, *unit;
} alloc_names[ALLOC_COUNT_IDS] = {
	[ALLOC_MALLOC_CALLS] = { "heap_malloc_calls", "count" },
	[ALLOC_CALLOC_CALLS] = { "heap_calloc_calls", "count" },
	[ALLOC_REALLOC_CALLS] = { "heap_realloc_calls", "count" },
	[ALLOC_FREE_CALLS] = { "heap_free_calls", "count" },
	[ALLOC_STRDUP_CALLS] = { "heap_strdup_calls", "count" },
	[ALLOC_ALIGNED_CALLS] = { "heap_aligned_calls", "count" },
	[ALLOC_CALLS] = { "heap_calls", "count" },
	[ALLOC_ALLOCS] = { "heap_blocks_allocated", "count" },
	[ALLOC_FREES] = { "heap_blocks_freed", "count" },
	[ALLOC_BYTES_REQUESTED] = { "heap_bytes_requested", "bytes" },
	[ALLOC_REALLOC_MOVED] = { "heap_realloc_moved", "count" },
	[ALLOC_REALLOC_IN_PLACE] = { "heap_realloc_in_place", "count" },
	[ALLOC_REALLOC_COPIED] = { "heap_realloc_copied_bytes", "bytes" },
	[ALLOC_PEAK_LIVE_BYTES] = { "heap_peak_live_bytes", "bytes" },
	[ALLOC_LIVE_BYTES] = { "heap_live_bytes", "bytes" },
	[ALLOC_LIVE_BLOCKS] = { "heap_live_blocks", "count" },
};

const char *alloc_count_name(enum alloc_count_id id)
{
	return alloc_names[id].name;
}

const char *alloc_count_unit(enum alloc_count_id id)
{
	return alloc_names[id].unit;
}

/* The peak of threaded kernels depends on how the threads interleave
 * (8 threads that each hold one block at most: 1 to 8 blocks at once), so
 * it is nearly exact, not exact. The live bytes and blocks at a region's
 * end are exact: they are the sum of every call's change, which is the
 * same in whatever order the threads made the calls, and every thread of
 * a gate_parallel_region has been joined (its calls added) before the
 * region ends; a block freed subtracts the usable size it added, read from
 * the same block, so a region that frees what it made reads 0. */
const char *alloc_count_class(enum alloc_count_id id)
{
	return id == ALLOC_PEAK_LIVE_BYTES ? "near" : "exact";
}

void gate_alloc_count_install(void)
{
	atomic_store(&alloc_installed, true);
}

bool alloc_count_active(void)
{
	return atomic_load_explicit(&alloc_installed, memory_order_relaxed);
}

/* Threads' blocks come from this pool first: a calloc of the counting's
 * own inside a region would be counted by the allocation interposer
 * (proc_*, perf/interpose/) as the kernel's. Blocks are never freed. */
#define ALLOC_POOL_THREADS 1024
static struct alloc_thread alloc_pool[ALLOC_POOL_THREADS];
static _Atomic size_t alloc_pool_used;

/* This thread's block, registered on first use; NULL when out of memory
 * (the call is then not counted, and the kernel sees its own result). */
static struct alloc_thread *alloc_thread(void)
{
	struct alloc_thread *t = alloc_self;
	if (t)
		return t;
	size_t slot = atomic_fetch_add(&alloc_pool_used, 1);
	/* beyond the pool: the real calloc (this file is not counted) */
	t = slot < ALLOC_POOL_THREADS ? &alloc_pool[slot] : calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->next = atomic_load(&alloc_threads);
	while (!atomic_compare_exchange_weak(&alloc_threads, &t->next, t))
		;
	alloc_self = t;
	return t;
}

static void alloc_add(struct alloc_thread *t, enum alloc_count_id id, uint64_t n)
{
	uint64_t v = atomic_load_explicit(&t->value[id], memory_order_relaxed);
	atomic_store_explicit(&t->value[id], v + n, memory_order_relaxed);
}

/* Adds DELTA usable bytes and BLOCKS blocks to the live totals; raises the peak. */
static void alloc_live(int64_t delta, int64_t blocks)
{
	int64_t live = atomic_fetch_add_explicit(&alloc_live_bytes, delta,
						 memory_order_relaxed) + delta;
	atomic_fetch_add_explicit(&alloc_live_blocks, blocks, memory_order_relaxed);
	int64_t peak = atomic_load_explicit(&alloc_peak, memory_order_relaxed);
	while (live > peak && !atomic_compare_exchange_weak_explicit(
		       &alloc_peak, &peak, live, memory_order_relaxed, memory_order_relaxed))
		;
}

/* The counting block of this thread when a region is open, else NULL. */
static struct alloc_thread *alloc_counting(void)
{
	if (atomic_load_explicit(&alloc_depth, memory_order_relaxed) <= 0)
		return NULL;
	return alloc_thread();
}

/* Where a call was made (the macros' __FILE__, __LINE__, __func__); a
 * NULL file: a direct call of a gate_count_* function, counted without a
 * site. */
struct alloc_at {
	const char *file;
	int line;
	const char *function;
};

/* Counts a call of kind CALL at AT that returned BLOCK for REQUEST bytes. */
static void alloc_note_new(enum alloc_count_id call, enum alloc_site_kind kind,
			   const struct alloc_at *at, void *block, size_t request)
{
	struct alloc_thread *t = alloc_counting();
	if (!t)
		return;
	alloc_add(t, call, 1);
	alloc_add(t, ALLOC_CALLS, 1);
	alloc_add(t, ALLOC_BYTES_REQUESTED, request);
	alloc_site_note(at->file, at->line, at->function, kind, request);
	if (block) {
		alloc_add(t, ALLOC_ALLOCS, 1);
		alloc_live((int64_t)alloc_count_block_size(block), 1);
	}
}

void *gate_count_malloc_at(size_t size, const char *file, int line, const char *function)
{
	struct alloc_at at = { file, line, function };
	void *p = malloc(size);
	alloc_note_new(ALLOC_MALLOC_CALLS, ALLOC_SITE_MALLOC, &at, p, size);
	return p;
}

void *gate_count_calloc_at(size_t count, size_t size, const char *file, int line,
			   const char *function)
{
	struct alloc_at at = { file, line, function };
	void *p = calloc(count, size);
	alloc_note_new(ALLOC_CALLOC_CALLS, ALLOC_SITE_CALLOC, &at, p, p ? count * size : 0);
	return p;
}

char *gate_count_strdup_at(const char *s, const char *file, int line, const char *function)
{
	struct alloc_at at = { file, line, function };
	char *p = strdup(s);
	alloc_note_new(ALLOC_STRDUP_CALLS, ALLOC_SITE_STRDUP, &at, p, strlen(s) + 1);
	return p;
}

char *gate_count_strndup_at(const char *s, size_t n, const char *file, int line,
			    const char *function)
{
	struct alloc_at at = { file, line, function };
	char *p = alloc_os_strndup(s, n);
	alloc_note_new(ALLOC_STRDUP_CALLS, ALLOC_SITE_STRNDUP, &at, p, p ? strlen(p) + 1 : 0);
	return p;
}

void *gate_count_aligned_alloc_at(size_t alignment, size_t size, const char *file, int line,
				  const char *function)
{
	struct alloc_at at = { file, line, function };
	void *p = alloc_os_aligned_alloc(alignment, size);
	alloc_note_new(ALLOC_ALIGNED_CALLS, ALLOC_SITE_ALIGNED_ALLOC, &at, p, size);
	return p;
}

int gate_count_posix_memalign_at(void **out, size_t alignment, size_t size, const char *file,
				 int line, const char *function)
{
	struct alloc_at at = { file, line, function };
	int ret = alloc_os_posix_memalign(out, alignment, size);
	alloc_note_new(ALLOC_ALIGNED_CALLS, ALLOC_SITE_POSIX_MEMALIGN, &at,
		       ret == 0 ? *out : NULL, size);
	return ret;
}

void gate_count_free_at(void *block, const char *file, int line, const char *function)
{
	struct alloc_thread *t = alloc_counting();
	if (t) {
		alloc_add(t, ALLOC_FREE_CALLS, 1);
		alloc_add(t, ALLOC_CALLS, 1);
		alloc_site_note(file, line, function, ALLOC_SITE_FREE, 0);
		if (block) {
			alloc_add(t, ALLOC_FREES, 1);
			alloc_live(-(int64_t)alloc_count_block_size(block), -1);
		}
	}
	free(block);
}

/* The same without a site (direct calls: the tests, the benchmark). */
void *gate_count_malloc(size_t size)
{
	return gate_count_malloc_at(size, NULL, 0, NULL);
}

void *gate_count_calloc(size_t count, size_t size)
{
	return gate_count_calloc_at(count, size, NULL, 0, NULL);
}

char *gate_count_strdup(const char *s)
{
	return gate_count_strdup_at(s, NULL, 0, NULL);
}

char *gate_count_strndup(const char *s, size_t n)
{
	return gate_count_strndup_at(s, n, NULL, 0, NULL);
}

void *gate_count_aligned_alloc(size_t alignment, size_t size)
{
	return gate_count_aligned_alloc_at(alignment, size, NULL, 0, NULL);
}

int gate_count_posix_memalign(void **out, size_t alignment, size_t size)
{
	return gate_count_posix_memalign_at(out, alignment, size, NULL, 0, NULL);
}

void gate_count_free(void *block)
{
	gate_count_free_at(block, NULL, 0, NULL);
}

void *gate_count_realloc(void *old, size_t size)
{
	return gate_count_realloc_at(old, size, NULL, 0, NULL);
}

/* Counts realloc(OLD, SIZE) -> NEW, OLD having held OLD_SIZE usable bytes. */
static void alloc_note_realloc(struct alloc_thread *t, void *old, size_t old_size,
			       void *new, size_t size)
{
	alloc_add(t, ALLOC_REALLOC_CALLS, 1);
	alloc_add(t, ALLOC_CALLS, 1);
	alloc_add(t, ALLOC_BYTES_REQUESTED, size);
	if (!new)
		return;   /* failed (old kept), or realloc(p, 0) freed it: see below */
	if (!old) {
		alloc_add(t, ALLOC_ALLOCS, 1);
		alloc_live((int64_t)alloc_count_block_size(new), 1);
		return;
	}
	alloc_add(t, new == old ? ALLOC_REALLOC_IN_PLACE : ALLOC_REALLOC_MOVED, 1);
	if (new != old)
		alloc_add(t, ALLOC_REALLOC_COPIED, old_size < size ? old_size : size);
	alloc_live((int64_t)alloc_count_block_size(new) - (int64_t)old_size, 0);
}

void *gate_count_realloc_at(void *old, size_t size, const char *file, int line,
			    const char *function)
{
	struct alloc_thread *t = alloc_counting();
	size_t old_size = t ? alloc_count_block_size(old) : 0;
	void *p = realloc(old, size);
	if (t) {
		alloc_site_note(file, line, function, ALLOC_SITE_REALLOC, size);
		alloc_note_realloc(t, old, old_size, p, size);
		if (!p && old && size == 0) {   /* glibc: realloc(p, 0) frees p */
			alloc_add(t, ALLOC_FREES, 1);
			alloc_live(-(int64_t)old_size, -1);
		}
	}
	return p;
}

/* ---- the probe's side ---- */

/* Sum over every thread that counted so far into OUT. */
static void alloc_sum(uint64_t *out)
{
	memset(out, 0, sizeof(uint64_t) * ALLOC_COUNT_IDS);
	for (struct alloc_thread *t = atomic_load(&alloc_threads); t; t = t->next)
		for (int i = 0; i < ALLOC_COUNT_IDS; i++)
			out[i] += atomic_load_explicit(&t->value[i], memory_order_relaxed);
}

void alloc_count_begin(struct alloc_count_snapshot *s)
{
	if (!alloc_count_active())
		return;
	alloc_sum(s->value);
	s->live_bytes = atomic_load(&alloc_live_bytes);
	s->live_blocks = atomic_load(&alloc_live_blocks);
	s->outer_peak = atomic_exchange(&alloc_peak, s->live_bytes);
	atomic_fetch_add(&alloc_depth, 1);
}

void alloc_count_end(const struct alloc_count_snapshot *s, struct alloc_count_totals *t)
{
	uint64_t now[ALLOC_COUNT_IDS];
	if (!alloc_count_active())
		return;
	atomic_fetch_sub(&alloc_depth, 1);
	alloc_sum(now);
	for (int i = 0; i < ALLOC_COUNT_IDS; i++)
		t->value[i] += now[i] - s->value[i];
	int64_t peak = atomic_load(&alloc_peak);
	uint64_t rise = peak > s->live_bytes ? (uint64_t)(peak - s->live_bytes) : 0;
	if (rise > t->value[ALLOC_PEAK_LIVE_BYTES])
		t->value[ALLOC_PEAK_LIVE_BYTES] = rise;
	t->live_net_bytes += atomic_load(&alloc_live_bytes) - s->live_bytes;
	t->live_net_blocks += atomic_load(&alloc_live_blocks) - s->live_blocks;
	t->value[ALLOC_LIVE_BYTES] = t->live_net_bytes > 0 ? (uint64_t)t->live_net_bytes : 0;
	t->value[ALLOC_LIVE_BLOCKS] = t->live_net_blocks > 0 ? (uint64_t)t->live_net_blocks : 0;
	/* the enclosing region's peak includes this one's */
	if (s->outer_peak > peak)
		atomic_store(&alloc_peak, s->outer_peak);
}

/* alloc_count_probe.h: what the probe reads of the allocation counts.
 *
 * alloc_count.c keeps the counts of a counted kernel build (see
 * alloc_count.h); the probe takes a snapshot at each region begin and adds
 * the difference at region end, as it does for the counters. In a plain
 * build nothing installs the counting: alloc_count_active() is false and
 * begin/end return at once, so the timed region pays one predictable
 * branch. Every count is exact (class exact) but the peak (near): counts
 * of the kernel's calls.
 */
#ifndef GATE_ALLOC_COUNT_PROBE_H
#define GATE_ALLOC_COUNT_PROBE_H

#include <stdbool.h>
#include <stdint.h>

/* The counts, in the order a sample reports them. */
enum alloc_count_id {
	ALLOC_MALLOC_CALLS,        /* malloc() calls */
	ALLOC_CALLOC_CALLS,        /* calloc() calls */
	ALLOC_REALLOC_CALLS,       /* realloc() calls */
	ALLOC_FREE_CALLS,          /* free() calls, free(NULL) included */
	ALLOC_STRDUP_CALLS,        /* strdup() and strndup() calls */
	ALLOC_ALIGNED_CALLS,       /* aligned_alloc() and posix_memalign() calls */
	ALLOC_CALLS,               /* all of the above */
	ALLOC_ALLOCS,              /* new blocks returned (realloc(NULL, n) included) */
	ALLOC_FREES,               /* blocks released (free of non-NULL) */
	ALLOC_BYTES_REQUESTED,     /* bytes asked for by every allocating call */
	ALLOC_REALLOC_MOVED,       /* realloc returned another address */
	ALLOC_REALLOC_IN_PLACE,    /* realloc returned the same address */
	ALLOC_REALLOC_COPIED,      /* bytes a moving realloc copied: min(old usable, new) */
	ALLOC_PEAK_LIVE_BYTES,     /* most usable bytes live at once, above the region's start */
	ALLOC_LIVE_BYTES,          /* usable bytes live at the region's end above its start */
	ALLOC_LIVE_BLOCKS,         /* blocks allocated in the region and not freed by its end */
	ALLOC_COUNT_IDS
};

/* Counts at a region's begin (the probe keeps one per open region). */
struct alloc_count_snapshot {
	uint64_t value[ALLOC_COUNT_IDS];
	int64_t live_bytes, live_blocks;   /* process totals at begin */
	int64_t outer_peak;                /* the enclosing region's peak so far */
};

/* Region totals over its entries. The live figures are levels, not
 * counts: each entry adds its net change (end less begin, negative when it
 * freed blocks made before it) to live_net_*, and value[ALLOC_LIVE_*] is
 * that sum clamped at 0, so a region entered twice that leaks one block
 * each time reports 2. */
struct alloc_count_totals {
	uint64_t value[ALLOC_COUNT_IDS];
	int64_t live_net_bytes, live_net_blocks;
};

/* Whether this process counts (a counted build installed the wrappers). */
bool alloc_count_active(void);

/* Starts counting for a region: snapshot into S. No-op when inactive. */
void alloc_count_begin(struct alloc_count_snapshot *s);

/* Ends the region begun with S: adds its counts to T. No-op when inactive. */
void alloc_count_end(const struct alloc_count_snapshot *s, struct alloc_count_totals *t);

/* Metric name of count ID ("heap_malloc_calls", ...). */
const char *alloc_count_name(enum alloc_count_id id);

/* Class of count ID: "exact", or "near" for the peak (threads interleave;
 * the live bytes at the end do not depend on the order: alloc_count.c). */
const char *alloc_count_class(enum alloc_count_id id);

/* Unit of count ID: "count" or "bytes". */
const char *alloc_count_unit(enum alloc_count_id id);

/* Usable size of BLOCK as the allocator in use reports it (0 for NULL):
 * malloc_usable_size on Linux, malloc_size on macOS, _msize on Windows. */
size_t alloc_count_block_size(void *block);

/* The C library's strndup, aligned_alloc and posix_memalign where it has
 * them (alloc_size_<os>.c); the Windows CRT has none of the three. */
char *alloc_os_strndup(const char *s, size_t n);

/* The C library's aligned_alloc (alloc_os_strndup). */
void *alloc_os_aligned_alloc(size_t alignment, size_t size);

/* The C library's posix_memalign (alloc_os_strndup). */
int alloc_os_posix_memalign(void **out, size_t alignment, size_t size);

#endif

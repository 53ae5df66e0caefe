/* interpose.h: the counts of liballocgate-interpose.so (interpose_linux.c)
 * and how the probe reads them. Every allocation call of the process,
 * whoever makes it; the probe reports a region's share as proc_* metrics
 * (docs/counters.md, "Allocations inside code you did not compile"). */
#ifndef GATE_INTERPOSE_H
#define GATE_INTERPOSE_H

#include <stddef.h>
#include <stdint.h>

enum interpose_id {
	INTERPOSE_MALLOC,     /* malloc() calls */
	INTERPOSE_CALLOC,     /* calloc() calls */
	INTERPOSE_REALLOC,    /* realloc() calls */
	INTERPOSE_FREE,       /* free() calls, free(NULL) included */
	INTERPOSE_ALIGNED,    /* posix_memalign, aligned_alloc, memalign (valloc, pvalloc) calls */
	INTERPOSE_BYTES,      /* bytes asked for by the allocating calls */
	INTERPOSE_LIVE_BYTES, /* usable bytes of the blocks made and not yet freed */
	INTERPOSE_LIVE_BLOCKS,/* blocks made and not yet freed */
	INTERPOSE_IDS
};

/* The name the probe looks up in the process: the totals since the
 * process started, N of them (INTERPOSE_IDS), into OUT. The two live
 * totals are levels, not counts: they go down at each free, so they are
 * kept modulo 2^64 and a difference of two readings is read as signed. */
void allocgate_interpose_totals(uint64_t *out, size_t n);

/* NULL when the live totals are kept; else why not (the allocator's
 * functions are not all of one library: see interpose_linux.c). */
const char *allocgate_interpose_live_off(void);

/* Per caller library: the calls (and requested bytes) of each kind made
 * from the code of one shared object, the kernel executable's own calls
 * (counted at their source lines by the counted build) left out, while
 * counting is on. At most INTERPOSE_LIBRARIES; calls beyond them are
 * counted in *UNATTRIBUTED. */
#define INTERPOSE_LIBRARIES 64

struct interpose_library {
	const char *name;                  /* the object's file name: "libglib-2.0.so.0" */
	uint64_t calls[INTERPOSE_IDS];     /* [INTERPOSE_BYTES] and the live ids unused */
	uint64_t bytes[INTERPOSE_IDS];
};

/* The probe turns the per-library counting on at its outermost region's
 * begin (ON 1) and off at its end (ON 0). */
void allocgate_interpose_counting(int on);

/* The libraries that made calls while counting was on, up to MAX, into
 * OUT; returns how many. */
size_t allocgate_interpose_libraries(struct interpose_library *out, size_t max,
				     uint64_t *unattributed);

#endif

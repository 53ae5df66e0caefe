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
	INTERPOSE_ALIGNED,    /* posix_memalign, aligned_alloc, memalign calls */
	INTERPOSE_BYTES,      /* bytes asked for by the allocating calls */
	INTERPOSE_IDS
};

/* The name the probe looks up in the process: the totals since the
 * process started, N of them (INTERPOSE_IDS), into OUT. */
void allocgate_interpose_totals(uint64_t *out, size_t n);

#endif

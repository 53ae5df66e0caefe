/* alloc_sites.h: per call site counts of a counted build (alloc_count.c's
 * wrappers, alloc_sites.c): calls and requested bytes per (file, line,
 * function, kind) inside the measured regions, for the `site` records of a
 * sample (docs/protocol.md) and the gate's site verdicts. */
#ifndef GATE_ALLOC_SITES_H
#define GATE_ALLOC_SITES_H

#include <stdint.h>

enum alloc_site_kind {
	ALLOC_SITE_MALLOC,
	ALLOC_SITE_CALLOC,
	ALLOC_SITE_REALLOC,
	ALLOC_SITE_FREE,
	ALLOC_SITE_STRDUP,
	ALLOC_SITE_STRNDUP,
	ALLOC_SITE_ALIGNED_ALLOC,
	ALLOC_SITE_POSIX_MEMALIGN,
	ALLOC_SITE_KINDS
};

/* Fixed size (no allocation of its own, ever): a site beyond it is counted
 * in alloc_sites_dropped's total, never silently lost. */
#define ALLOC_SITE_SLOTS 4096

/* One site as the probe prints it. */
struct alloc_site_view {
	const char *file, *function, *kind;
	int line;
	uint64_t calls, bytes;
};

/* Counts one call of KIND at FILE:LINE in FUNCTION that requested BYTES
 * (0 for free). FILE NULL: a call without a site (not counted here).
 * Thread-safe, lock-free. */
void alloc_site_note(const char *file, int line, const char *function,
		     enum alloc_site_kind kind, uint64_t bytes);

/* Calls FN for every site that counted a call, in table order. */
void alloc_sites_each(void (*fn)(const struct alloc_site_view *site, void *arg), void *arg);

/* Calls at sites that found the table full. */
uint64_t alloc_sites_dropped(void);

/* "malloc", "calloc", ... */
const char *alloc_site_kind_name(enum alloc_site_kind kind);

#endif

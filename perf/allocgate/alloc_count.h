/* alloc_count.h: the forced include of a counted kernel build.
 *
 * configure.py builds every kernel twice: build/kernels/NAME as written,
 * and build/kernels-counted/NAME with `-include perf/allocgate/alloc_count.h`
 * (/FI on MSVC) and -DGATE_ALLOC_COUNT. In the counted build the macros
 * below route the kernel's own calls of malloc, calloc, realloc, free,
 * strdup, strndup, aligned_alloc and posix_memalign through the counting
 * wrappers of alloc_count.c; the kernel source is not changed. Calls made
 * inside the C library or the probe (not compiled with this include) are
 * not counted: the counts are those of the kernel's source.
 *
 * The header is included first, so it includes <stdlib.h> and <string.h>
 * itself before defining the macros: their later inclusion by the kernel
 * is then a no-op (include guards) and never sees a macro that would turn
 * a prototype into a wrapper call. The macros are function-like, so only
 * calls are rerouted (free passed as a function pointer is not counted).
 *
 * What is counted, per measured region (the runner takes the figures from
 * one extra counted sample per variant and parameter set; the timing
 * samples come from the plain build): see docs/counters.md, metrics heap_*;
 * and per call site (file, line, function, kind) inside the regions: the
 * sample's `site` records (docs/protocol.md, "Allocation sites").
 */
#ifndef GATE_ALLOC_COUNT_H
#define GATE_ALLOC_COUNT_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Counting malloc: malloc(N), counted when a region is open. */
void *gate_count_malloc(size_t size);

/* Counting calloc. */
void *gate_count_calloc(size_t count, size_t size);

/* Counting realloc: also whether the block moved and what was copied. */
void *gate_count_realloc(void *old, size_t size);

/* Counting free. */
void gate_count_free(void *block);

/* Counting strdup. */
char *gate_count_strdup(const char *s);

/* Counting strndup. */
char *gate_count_strndup(const char *s, size_t n);

/* Counting aligned_alloc. */
void *gate_count_aligned_alloc(size_t alignment, size_t size);

/* Counting posix_memalign. */
int gate_count_posix_memalign(void **out, size_t alignment, size_t size);

/* The same, with the call's site: the macros below pass __FILE__,
 * __LINE__ and __func__, so each call site of the counted sources has its
 * own calls and bytes (the `site` records of docs/protocol.md). */
void *gate_count_malloc_at(size_t size, const char *file, int line, const char *function);
void *gate_count_calloc_at(size_t count, size_t size, const char *file, int line,
			   const char *function);
void *gate_count_realloc_at(void *old, size_t size, const char *file, int line,
			    const char *function);
void gate_count_free_at(void *block, const char *file, int line, const char *function);
char *gate_count_strdup_at(const char *s, const char *file, int line, const char *function);
char *gate_count_strndup_at(const char *s, size_t n, const char *file, int line,
			    const char *function);
void *gate_count_aligned_alloc_at(size_t alignment, size_t size, const char *file, int line,
				  const char *function);
int gate_count_posix_memalign_at(void **out, size_t alignment, size_t size, const char *file,
				 int line, const char *function);

/* Turns the counting on for this process; called by the kernel's main()
 * (GATE_KERNEL in probe.h) before anything else in a counted build. */
void gate_alloc_count_install(void);

#ifndef GATE_ALLOC_COUNT_IMPL
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef strdup
#undef strndup
#undef aligned_alloc
#undef posix_memalign
#define GATE_ALLOC_AT __FILE__, __LINE__, __func__
#define malloc(n) gate_count_malloc_at((n), GATE_ALLOC_AT)
#define calloc(c, n) gate_count_calloc_at((c), (n), GATE_ALLOC_AT)
#define realloc(p, n) gate_count_realloc_at((p), (n), GATE_ALLOC_AT)
#define free(p) gate_count_free_at((p), GATE_ALLOC_AT)
#define strdup(s) gate_count_strdup_at((s), GATE_ALLOC_AT)
#define strndup(s, n) gate_count_strndup_at((s), (n), GATE_ALLOC_AT)
#define aligned_alloc(a, n) gate_count_aligned_alloc_at((a), (n), GATE_ALLOC_AT)
#define posix_memalign(p, a, n) gate_count_posix_memalign_at((p), (a), (n), GATE_ALLOC_AT)
#define GATE_ALLOC_COUNT_INSTALL() gate_alloc_count_install()
#endif

#endif

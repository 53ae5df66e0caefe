/* interpose_read.h: whether liballocgate-interpose counts this process's
 * allocations, and its totals (interpose_read_posix.c, with the OS's
 * preload variable from interpose_read_<os>.c; on Windows never present:
 * interpose_read_windows.c). */
#ifndef GATE_INTERPOSE_READ_H
#define GATE_INTERPOSE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "interpose/interpose.h"

/* Whether the interposer is loaded into this process. */
bool interpose_present(void);

/* Its totals since the process started into OUT (INTERPOSE_IDS of them);
 * no-op when absent. */
void interpose_read(uint64_t *out);

/* NULL when the interposer keeps the live totals (proc_live_*); else why
 * not. NULL when absent. */
const char *interpose_live_off(void);

/* Whether count ID is a level (the live totals), whose region share is a
 * signed difference reported clamped at 0, rather than a count. */
bool interpose_is_level(enum interpose_id id);

/* Per caller library counting on (ON 1) or off (0): the probe's
 * outermost region begin and end. No-op when absent. */
void interpose_counting(int on);

/* The libraries that allocated while counting was on (interpose.h), up
 * to MAX, into OUT; returns how many (0 when absent), *UNATTRIBUTED the
 * calls beyond the interposer's table. */
size_t interpose_libraries(struct interpose_library *out, size_t max, uint64_t *unattributed);

/* OS part (POSIX): the variable that preloads the interposer. */
const char *interpose_os_preload_var(void);

/* Metric name of count ID ("proc_malloc_calls", ...). */
const char *interpose_name(enum interpose_id id);

/* Unit of count ID ("count", "bytes"). */
const char *interpose_unit(enum interpose_id id);

#endif

/* interpose_count.h: what the OS's allocator replacements of the
 * interposer (interpose_linux.c, interpose_darwin.c) call to count
 * (interpose_count.c). */
#ifndef GATE_INTERPOSE_COUNT_H
#define GATE_INTERPOSE_COUNT_H

#include <stddef.h>
#include <stdint.h>

#include "interpose/interpose.h"

/* Counts one call of kind ID asking for BYTES, made from the code at
 * CALLER (its return address: which library made it). */
__attribute__((visibility("hidden"))) void interpose_count_call(void *caller, enum interpose_id id, size_t bytes);

/* Adds BYTES usable bytes and BLOCKS blocks (negative at a free) to the
 * live totals. */
__attribute__((visibility("hidden"))) void interpose_count_live(int64_t bytes, int64_t blocks);

/* Stops the live totals for good, WHY (a static string) saying why. */
__attribute__((visibility("hidden"))) void interpose_live_stop(const char *why);

#endif

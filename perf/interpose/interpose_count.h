/* interpose_count.h: what the OS's allocator replacements of the
 * interposer (interpose_linux.c, interpose_darwin.c) call to count
 * (interpose_count.c). */
#ifndef GATE_INTERPOSE_COUNT_H
#define GATE_INTERPOSE_COUNT_H

#include <stddef.h>

#include "interpose/interpose.h"

/* Counts one call of kind ID asking for BYTES, made from the code at
 * CALLER (its return address: which library made it). */
__attribute__((visibility("hidden"))) void interpose_count_call(void *caller, enum interpose_id id, size_t bytes);

#endif

/* alloc_libc_posix.h: the allocation calls of alloc_count_probe.h that
 * Linux and macOS share (their C libraries have them all), written once.
 * It defines them, so exactly one source per target includes it:
 * alloc_size_linux.c or alloc_size_darwin.c (configure.py builds one
 * alloc_size_<os>.c), after its own alloc_count_block_size, so that the
 * object, and the kernels linked with it, keep their layout. */
#ifndef GATE_ALLOC_LIBC_POSIX_H
#define GATE_ALLOC_LIBC_POSIX_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "counting/alloc_count_probe.h"

char *alloc_os_strndup(const char *s, size_t n)
{
	return strndup(s, n);
}

void *alloc_os_aligned_alloc(size_t alignment, size_t size)
{
	return aligned_alloc(alignment, size);
}

int alloc_os_posix_memalign(void **out, size_t alignment, size_t size)
{
	return posix_memalign(out, alignment, size);
}

#endif

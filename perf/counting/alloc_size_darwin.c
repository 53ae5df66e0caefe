/* alloc_size_darwin.c: usable size of a heap block on macOS (malloc_size,
 * man malloc_size: the bytes the block can hold, at least those asked). */
#include <malloc/malloc.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "counting/alloc_count_probe.h"

size_t alloc_count_block_size(void *block)
{
	return block ? malloc_size(block) : 0;
}

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

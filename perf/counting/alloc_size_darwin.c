/* alloc_size_darwin.c: usable size of a heap block on macOS (malloc_size,
 * man malloc_size: the bytes the block can hold, at least those asked).
 * The other allocation calls are alloc_libc_posix.h's, shared with
 * Linux. */
#include <malloc/malloc.h>
#include <stddef.h>

#include "counting/alloc_count_probe.h"

size_t alloc_count_block_size(void *block)
{
	return block ? malloc_size(block) : 0;
}

#include "counting/alloc_libc_posix.h"

/* alloc_size_linux.c: usable size of a heap block on Linux.
 *
 * malloc_usable_size (glibc, musl, and every allocator that replaces
 * malloc through LD_PRELOAD: jemalloc, mimalloc, tcmalloc export their
 * own) is what the block can hold: at least what was asked, rounded up to
 * the allocator's size class. The counts use it on both sides of the live
 * bytes (allocation and free) so that they balance without a header.
 * The other allocation calls are alloc_libc_posix.h's, shared with
 * macOS. */
#include <malloc.h>
#include <stddef.h>

#include "counting/alloc_count_probe.h"

size_t alloc_count_block_size(void *block)
{
	return block ? malloc_usable_size(block) : 0;
}

#include "counting/alloc_libc_posix.h"

/* alloc_size_windows.c: usable size of a heap block with the Windows CRT
 * (_msize: the size of a block from malloc/calloc/realloc). The CRT has no
 * strndup (written here), and its aligned blocks (_aligned_malloc) cannot
 * be given to free(), so aligned_alloc and posix_memalign fail: a kernel
 * that needs them is not portable to Windows as written. */
#include <malloc.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "counting/alloc_count_probe.h"

size_t alloc_count_block_size(void *block)
{
	return block ? _msize(block) : 0;
}

char *alloc_os_strndup(const char *s, size_t n)
{
	size_t len = 0;
	while (len < n && s[len])
		len++;
	char *p = malloc(len + 1);
	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

void *alloc_os_aligned_alloc(size_t alignment, size_t size)
{
	(void)alignment, (void)size;
	errno = ENOSYS;
	return NULL;
}

int alloc_os_posix_memalign(void **out, size_t alignment, size_t size)
{
	(void)out, (void)alignment, (void)size;
	return ENOSYS;
}

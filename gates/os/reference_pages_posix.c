/* reference_pages_posix.c: reference_pages.h on Linux and macOS: an
 * anonymous private mapping, whose pages are only backed when first
 * written (mmap(2)). */
#include <sys/mman.h>

#include "sample/reference_pages.h"

void *reference_pages_map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_NOHUGEPAGE
	/* one fault per base page, whatever transparent huge pages are set to */
	madvise(p, bytes, MADV_NOHUGEPAGE);
#endif
	return p;
}

void reference_pages_unmap(void *addr, size_t bytes)
{
	munmap(addr, bytes);
}

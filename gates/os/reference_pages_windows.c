/* reference_pages_windows.c: reference_pages.h on Windows: committed
 * pages that the system zero-fills on first touch (VirtualAlloc). */
#include <windows.h>

#include "sample/reference_pages.h"

void *reference_pages_map(size_t bytes)
{
	return VirtualAlloc(NULL, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void reference_pages_unmap(void *addr, size_t bytes)
{
	(void)bytes;
	VirtualFree(addr, 0, MEM_RELEASE);
}

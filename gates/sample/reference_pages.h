/* reference_pages.h: fresh pages from the operating system for the
 * reference workload's fault part (sample/reference.h): memory no
 * allocator has touched, so that writing a byte to each page takes the
 * kernel's page fault path every time. One file per OS:
 * os/reference_pages_posix.c (mmap, munmap), os/reference_pages_windows.c
 * (VirtualAlloc, VirtualFree). */
#ifndef GATE_REFERENCE_PAGES_H
#define GATE_REFERENCE_PAGES_H

#include <stddef.h>

/* BYTES of fresh, readable and writable pages; NULL when the system
 * refuses them. */
void *reference_pages_map(size_t bytes);

/* Returns pages from reference_pages_map (ADDR, the same BYTES). */
void reference_pages_unmap(void *addr, size_t bytes);

#endif

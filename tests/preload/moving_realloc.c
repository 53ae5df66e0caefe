/* moving_realloc.c: a preloaded "allocator" whose realloc always moves the
 * block (malloc, copy, free), for the tests of claims keyed by allocator
 * (tests/test_e2e_matrix.c, tests/kernels/claims.c). Under --allocator
 * PATH its key name is "libmoving_realloc". malloc and free are glibc's. */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

void *realloc(void *p, size_t n)
{
	if (!p)
		return malloc(n);
	if (!n) {
		free(p);
		return NULL;
	}
	size_t old = malloc_usable_size(p);
	void *q = malloc(n);
	if (!q)
		return NULL;
	memcpy(q, p, old < n ? old : n);
	free(p);
	return q;
}

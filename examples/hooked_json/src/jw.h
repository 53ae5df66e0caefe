/* jw.h: a small JSON writer that allocates only through hooks: the
 * functions given to jw_set_alloc_funcs (malloc, realloc and free unless
 * set), as libraries that let their user choose the allocator do. */
#ifndef JW_H
#define JW_H

#include <stddef.h>

/* An array of integers and strings, printed as JSON. */
struct jw_array;

/* Sets the allocation functions every later call uses; a NULL one keeps
 * the C library's. */
void jw_set_alloc_funcs(void *(*malloc_fn)(size_t), void *(*realloc_fn)(void *, size_t),
			void (*free_fn)(void *));

/* A new empty array, or NULL on no memory. */
struct jw_array *jw_array_new(void);

/* Appends an integer or a copy of string S; 0, or -1 on no memory. */
int jw_array_add_int(struct jw_array *a, long long v);
int jw_array_add_string(struct jw_array *a, const char *s);

/* A ("[1,\"x\"]") as a NUL-terminated string the caller frees with
 * jw_free, or NULL on no memory. */
char *jw_print(const struct jw_array *a);

/* Frees A and everything in it; frees a string of jw_print. */
void jw_array_free(struct jw_array *a);
void jw_free(void *p);

#endif

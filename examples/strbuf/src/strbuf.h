/* strbuf.h: a growable string, the library this example project gates. */
#ifndef STRBUF_H
#define STRBUF_H

#include <stddef.h>

struct strbuf {
	char *data;      /* NUL-terminated, or NULL before the first append */
	size_t len;      /* bytes in data, the NUL not counted */
	size_t cap;      /* bytes allocated */
};

/* Appends N bytes of S, growing the block geometrically (doubling): a
 * constant number of reallocations per doubling of the length. Returns 0,
 * or -1 when out of memory (SB unchanged). */
int strbuf_append(struct strbuf *sb, const char *s, size_t n);

/* The same, growing the block to exactly what is needed: one realloc per
 * append (what the geometric policy is measured against). */
int strbuf_append_exact(struct strbuf *sb, const char *s, size_t n);

/* Frees what SB holds and empties it. */
void strbuf_free(struct strbuf *sb);

#endif

/* strbuf.c: the growable string of strbuf.h. */
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

static int grow_to(struct strbuf *sb, size_t cap)
{
	char *p = realloc(sb->data, cap);
	if (!p)
		return -1;
	sb->data = p;
	sb->cap = cap;
	return 0;
}

int strbuf_append(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 16;
		while (cap < sb->len + n + 1)
			cap *= 2;
		if (grow_to(sb, cap))
			return -1;
	}
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
	return 0;
}

int strbuf_append_exact(struct strbuf *sb, const char *s, size_t n)
{
	if (grow_to(sb, sb->len + n + 1))
		return -1;
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
	return 0;
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->data);
	sb->data = NULL;
	sb->len = sb->cap = 0;
}

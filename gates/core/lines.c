/* lines.c: helpers for the strict line formats of docs/protocol.md. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/lines.h"

char *lines_next(char **cursor)
{
	char *line = *cursor;
	if (!line || !*line)
		return NULL;
	char *nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = line + strlen(line);
	}
	return line;
}

char *lines_field(char **rest)
{
	char *s = *rest;
	if (!s || !*s)
		return NULL;
	char *sp = strchr(s, ' ');
	if (sp) {
		*sp = '\0';
		*rest = sp + 1;
	} else {
		*rest = s + strlen(s);
	}
	return s;
}

int lines_is_ident(const char *s, int dots)
{
	if (!s || !*s || *s == '.')
		return 0;
	for (; *s; s++) {
		if (*s == '.' && (s[1] == '.' || !s[1]))
			return 0; /* "a..b" and "a." name no region */
		int ok = (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_';
		if (!ok && !(dots && *s == '.'))
			return 0;
	}
	return 1;
}

int lines_parse_u64(const char *s, unsigned long long *out)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

char *lines_dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

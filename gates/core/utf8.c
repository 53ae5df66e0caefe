/* utf8.c: well-formed UTF-8 (utf8.h). */
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

size_t utf8_sequence(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len, i;
	uint32_t c, min;

	if (u[0] == 0)
		return 0;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		len = 2, c = u[0] & 0x1f, min = 0x80;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		len = 3, c = u[0] & 0x0f, min = 0x800;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		len = 4, c = u[0] & 0x07, min = 0x10000;
	else
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

char *utf8_valid_dup(const char *s)
{
	/* each byte becomes at most the three of U+FFFD */
	char *out = malloc(3 * strlen(s) + 1), *o = out;
	uint32_t cp;
	size_t n;

	if (!out)
		return NULL;
	while (*s) {
		n = utf8_sequence(s, &cp);
		if (n) {
			memcpy(o, s, n);
			o += n, s += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3, s++;
		}
	}
	*o = '\0';
	return out;
}

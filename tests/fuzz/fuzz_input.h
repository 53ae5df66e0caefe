/* fuzz_input.h: turning libFuzzer's bytes into the C strings the parsers
 * take (the runner hands them a kernel's whole stdout as one string). */
#ifndef GATE_FUZZ_INPUT_H
#define GATE_FUZZ_INPUT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* DATA as a malloc'd NUL-terminated string (cut at an embedded NUL, as a
 * C caller would see it); NULL on no memory. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif

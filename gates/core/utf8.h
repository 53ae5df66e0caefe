/* utf8.h: well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF), for the text a kernel, a file or the
 * environment hands the gate and its files and reports pass on. */
#ifndef GATE_UTF8_H
#define GATE_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1-4) of the well-formed UTF-8 sequence at S, its code point
 * in *CP; 0 when S does not start one (a stray or truncated byte, or
 * S at its terminating NUL). */
size_t utf8_sequence(const char *s, uint32_t *cp);

/* A malloc'd copy of S with each byte that does not start a well-formed
 * sequence replaced by U+FFFD; NULL on no memory. */
char *utf8_valid_dup(const char *s);

#endif

/* lines.h: small helpers shared by the strict line-format parsers. */
#ifndef GATE_LINES_H
#define GATE_LINES_H

#include <stddef.h>

/* Splits the next line off *CURSOR (in place: the '\n' becomes '\0');
 * returns it, or NULL at the end of the text. */
char *lines_next(char **cursor);

/* Cuts the next space-separated field off *REST (in place); returns it, or
 * NULL when *REST is empty. Two spaces in a row give an empty field. */
char *lines_field(char **rest);

/* Whether S is a non-empty identifier of [a-z0-9_] (with '.' when DOTS). */
int lines_is_ident(const char *s, int dots);

/* Parses a non-negative decimal integer that fills S; 0 or -1. */
int lines_parse_u64(const char *s, unsigned long long *out);

/* strdup that returns NULL for NULL. */
char *lines_dup(const char *s);

#endif

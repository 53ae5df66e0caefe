/* source_line.h: where a declaration is in a source file, for tests that
 * expect the gate to name a file and line (toy.c's GATE_VARIANT and
 * GATE_EXPECT lines move when the kernel is edited). Header-only. */
#ifndef TESTS_SOURCE_LINE_H
#define TESTS_SOURCE_LINE_H

#include <stdio.h>
#include <string.h>

/* The 1-based number of the first line of FILE containing NEEDLE, or 0. */
static inline int line_of(const char *file, const char *needle)
{
	FILE *src = fopen(file, "r");
	char line[1024];
	int n = 0, found = 0;
	while (src && !found && fgets(line, sizeof line, src))
		if (++n && strstr(line, needle))
			found = n;
	if (src)
		fclose(src);
	return found;
}

#endif

/* callgrind.c: valgrind's command line and callgrind's output format
 * (valgrind docs, "Callgrind Format Specification": "events:" names the
 * event columns, "summary:" or "totals:" gives their sums). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

size_t callgrind_prefix(const char *valgrind, const char *out_arg, char **prefix)
{
	size_t n = 0;
	prefix[n++] = (char *)valgrind;
	prefix[n++] = "--tool=callgrind";
	prefix[n++] = "--collect-atstart=no";   /* the probe toggles it around the region */
	prefix[n++] = (char *)out_arg;
	prefix[n++] = "--quiet";
	return n;
}

/* The line of TEXT starting with KEY (at a line start), or NULL. */
static const char *line_with(const char *text, const char *key)
{
	size_t len = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len))
			return p + len;
	return NULL;
}

/* Column of event Ir in the "events:" line LINE; -1 when absent. */
static int ir_column(const char *line)
{
	int col = 0;
	while (*line && *line != '\n') {
		while (*line == ' ' || *line == '\t')
			line++;
		if (!strncmp(line, "Ir", 2) && (line[2] == ' ' || line[2] == '\n' || !line[2] ||
						 line[2] == '\t'))
			return col;
		while (*line && *line != ' ' && *line != '\t' && *line != '\n')
			line++;
		col++;
	}
	return -1;
}

int callgrind_parse_instructions(const char *text, uint64_t *ir, char *err, size_t err_size)
{
	const char *events = line_with(text, "events:");
	const char *sum = line_with(text, "summary:");
	int col = events ? ir_column(events) : -1;
	if (!sum)
		sum = line_with(text, "totals:");
	if (col < 0 || !sum) {
		snprintf(err, err_size, "callgrind output has no %s",
			 col < 0 ? "\"events:\" line with Ir" : "\"summary:\" or \"totals:\" line");
		return -EINVAL;
	}
	for (int i = 0;; i++) {
		char *end;
		while (*sum == ' ' || *sum == '\t')
			sum++;
		errno = 0;
		unsigned long long v = strtoull(sum, &end, 10);
		if (end == sum || errno || *sum == '-') {
			snprintf(err, err_size, "callgrind summary line has no number for Ir");
			return -EINVAL;
		}
		if (i == col) {
			*ir = v;
			return 0;
		}
		sum = end;
	}
}

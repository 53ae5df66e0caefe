/* report_markdown.h: the --markdown summary (also appended to
 * $GITHUB_STEP_SUMMARY), rendered from the run result only: the verdict
 * line, what broke with file:line, the inconclusive ones, problems, and per
 * kernel a table of the compared series in a collapsed <details>. */
#ifndef GATE_REPORT_MARKDOWN_H
#define GATE_REPORT_MARKDOWN_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/* Prints R as GitHub-flavoured markdown to F (ARG unused). */
void report_markdown_print(FILE *f, const struct run_result *r, const void *arg);

/* Writes the markdown of R to PATH atomically; 0 or a negative errno with ERR. */
int report_markdown_write(const char *path, const struct run_result *r, char *err,
			  size_t err_size);

/* Appends the markdown of R to PATH (the step summary is shared by every
 * step of a job, so it is appended to, not replaced); 0 or a negative errno. */
int report_markdown_append(const char *path, const struct run_result *r, char *err,
			   size_t err_size);

#endif

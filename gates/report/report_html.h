/* report_html.h: the --html report, one self-contained page of a run
 * rendered from the run result only: the verdict first, the changed groups
 * with the markdown summary's paragraphs (page.h), every series and every
 * expectation in tables a click on a column's title sorts, each kernel's
 * wall-time chart (report_svg.h) and the allocation flame graphs
 * (flame_svg.h), inline. Its styles and its one script are in the page and
 * its Content-Security-Policy forbids every load, so it reads the same
 * offline from an uploaded artifact; without the script it reads the same,
 * unsorted. Every text the gate did not write passes the HTML rule of
 * escape.h. */
#ifndef GATE_REPORT_HTML_H
#define GATE_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/* Prints the page of R to F (ARG unused). */
void report_html_print(FILE *f, const struct run_result *r, const void *arg);

/* Writes the page of R to PATH atomically; 0 or a negative errno with ERR. */
int report_html_write(const char *path, const struct run_result *r, char *err, size_t err_size);

#endif

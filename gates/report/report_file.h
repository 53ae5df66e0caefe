/* report_file.h: writing one rendered report to a file atomically
 * (atomic_file.h), shared by the --junit, --markdown and --svg reporters. */
#ifndef GATE_REPORT_FILE_H
#define GATE_REPORT_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/* Renders R (with ARG, the renderer's own argument) to F. */
typedef void (*report_render_fn)(FILE *f, const struct run_result *r, const void *arg);

/* Renders R into PATH atomically. Returns 0, or a negative errno with ERR
 * naming PATH (then PATH is unchanged). */
int report_file_write(const char *path, report_render_fn render, const struct run_result *r,
		      const void *arg, char *err, size_t err_size);

#endif

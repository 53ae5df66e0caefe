/* report_svg.h: the --svg charts, one plain SVG file per kernel
 * (DIR/<kernel>.svg, no scripts), rendered from the run result only.
 *
 * One row per (parameter set, variant, wall-time metric): every sample as
 * a dot at its ratio to the baseline median on a logarithmic axis shared by
 * the kernel's rows, the run's median as a bar, the baseline (ratio 1) as a
 * vertical line, the verdict and change at the right, coloured by verdict.
 * Series without a baseline are drawn against their own median. */
#ifndef GATE_REPORT_SVG_H
#define GATE_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/* Prints the chart of kernel KERNEL (a const char *, as ARG) of R to F. */
void report_svg_print(FILE *f, const struct run_result *r, const void *kernel);

/* The same chart for an HTML page (report_html.h): no XML prolog, the
 * <svg> of class "plot", its styles scoped to that class. */
void report_svg_print_inline(FILE *f, const struct run_result *r, const char *kernel);

/* Whether KERNEL of R has a row to draw (a wall-time series with samples). */
bool report_svg_draws(const struct run_result *r, const char *kernel);

/* Writes one chart per kernel of R into DIR (created when missing, one
 * level), each atomically; returns how many, or a negative errno with ERR. */
int report_svg_write_dir(const char *dir, const struct run_result *r, char *err,
			 size_t err_size);

#endif

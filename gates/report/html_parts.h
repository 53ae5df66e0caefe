/* html_parts.h: the parts of the --html page (report_html.h), each written
 * by one file: the skeleton with its styles and script (html_skeleton.c),
 * the tables (html_tables.c), the charts and flame graphs (html_graphs.c). */
#ifndef GATE_HTML_PARTS_H
#define GATE_HTML_PARTS_H

#include <stdbool.h>
#include <stdio.h>

#include "core/result.h"

/* The page's start: doctype, the policy that forbids every load, its
 * title (the verdict's words), its styles, and <body>. */
void html_open(FILE *f, const struct run_result *r);

/* The page's end: its script (sorting the tables, then data-ready on
 * <body>), </body>, </html>. */
void html_close(FILE *f);

/* Links to the sections below the changes that R has. */
void html_contents(FILE *f, const struct run_result *r);

/* Every series of R, one row each: kernel, variant, params, metric, the
 * medians, the change, its interval, the verdict; numeric cells carry
 * their value (data-v) for sorting. */
void html_series_table(FILE *f, const struct run_result *r);

/* Every expectation of R, one row each; nothing when there is none. */
void html_expect_table(FILE *f, const struct run_result *r);

/* Each kernel's wall-time chart (report_svg.h), inline. */
void html_plots(FILE *f, const struct run_result *r);

/* Whether R has a kernel with a chart. */
bool html_has_plots(const struct run_result *r);

/* The allocation flame graphs of R's stacks (flame_svg.h), one per
 * (kernel, variant, params), differential when the other side's stacks
 * were recorded; collapsed but for the variants whose stacks changed. */
void html_flames(FILE *f, const struct run_result *r);

/* Whether R has a (kernel, variant, params) with stacks. */
bool html_has_flames(const struct run_result *r);

#endif

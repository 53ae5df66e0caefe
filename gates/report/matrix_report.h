/* matrix_report.h: the renderers of `gate matrix`'s table (core/matrix.h):
 * the terminal (matrix_text.c), markdown (matrix_markdown.c), the JSON file
 * (matrix_json.c, docs/json-format.md "The matrix file") and the SVG heat
 * map (matrix_svg.c), with what they share (matrix_cells.c). Nothing here
 * computes a statistic. */
#ifndef GATE_MATRIX_REPORT_H
#define GATE_MATRIX_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/matrix.h"
#include "report/report_outputs.h"

struct matrix_outputs {
	const char *json_path;      /* --json FILE, or NULL */
	const char *markdown_path;  /* --markdown FILE, or NULL */
	const char *svg_dir;        /* --svg DIR: DIR/matrix.svg, or NULL */
	bool no_color;
	bool details;               /* every variant's wall time, not only the claims */
};

/* The word of a cell: "holds", "fails", "inconclusive", "skipped",
 * "error", or "-" where it was not measured. */
const char *matrix_cell_word(const struct matrix_cell *c);

/* "0.0123 [0.0095, 0.0134]" (or "-") into BUF. */
void matrix_cell_estimate(const struct matrix_cell *c, char *buf, size_t size);

/* Whether count K of claim I is the first of its (variant, metric) among
 * the claims of I's group (kernel, parameter set): each count that
 * explains a group's claims is shown once. */
bool matrix_count_first(const struct matrix *m, size_t i, size_t k);

/* The terminal table: claims x allocators, the counts that explain them,
 * the wall times against the first allocator (every variant with
 * DETAILS, else those of the claims' variants), problems, one summary line. */
void matrix_text_print(FILE *f, const struct matrix *m, bool color, bool details);

/* The same as markdown tables, every text of a kernel's under escape.h's
 * markdown rule. */
void matrix_markdown_print(FILE *f, const struct matrix *m);

/* The JSON file; 0, or a negative errno with ERR naming PATH (unchanged). */
int matrix_json_write(const char *path, const struct matrix *m, char *err, size_t err_size);

/* The claims x allocators heat map as an SVG document. */
void matrix_svg_print(FILE *f, const struct matrix *m);

/* Where O (or, for the step summary, the environment) sends file output
 * K of the matrix (report_outputs.h's kinds; --junit is none: NULL); NULL
 * when it was not asked for. --svg DIR writes DIR/matrix.svg into PATH. */
const char *matrix_output_path(const struct matrix_outputs *o, enum report_output k,
			       char *path, size_t path_size);

/* Writes file output K of M to PATH (atomically; the step summary
 * appended). Returns 0, or a negative errno with ERR naming the file. */
int matrix_output_write(const struct matrix *m, enum report_output k, const char *path,
			char *err, size_t err_size);

#endif

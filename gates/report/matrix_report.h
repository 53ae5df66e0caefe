/* matrix_report.h: the renderers of `gate matrix`'s table (core/matrix.h):
 * the terminal (matrix_text.c), markdown (matrix_text.c), the JSON file
 * (matrix_json.c, docs/json-format.md "The matrix file") and the SVG heat
 * map (matrix_svg.c). Nothing here computes a statistic. */
#ifndef GATE_MATRIX_REPORT_H
#define GATE_MATRIX_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/matrix.h"

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

/* The terminal table: claims x allocators, the counts that explain them,
 * the wall times against the first allocator (every variant with
 * DETAILS, else those of the claims' variants), problems, one summary line. */
void matrix_text_print(FILE *f, const struct matrix *m, bool color, bool details);

/* The same as markdown tables. */
void matrix_markdown_print(FILE *f, const struct matrix *m);

/* The JSON file; 0, or a negative errno with ERR naming PATH (unchanged). */
int matrix_json_write(const char *path, const struct matrix *m, char *err, size_t err_size);

/* The claims x allocators heat map as an SVG document. */
void matrix_svg_print(FILE *f, const struct matrix *m);

/* Prints the terminal table to stdout, writes the files O asks for (each
 * atomically) and appends the markdown to $GITHUB_STEP_SUMMARY when set.
 * Returns 0, or 2 after a message naming the file that failed. */
int matrix_report_all(const struct matrix *m, const struct matrix_outputs *o);

#endif

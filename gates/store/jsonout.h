/* jsonout.h: the pieces shared by the JSON files the gate writes (the
 * baseline, baseline.c, and the --json result, report_json.c).
 *
 * Both files have the same shape: one top-level object whose scalars sit
 * one per line, whose objects are indented, and whose arrays hold one
 * element per line (compact), so that a diff shows one series per line.
 * Numbers that are NaN or infinite are written as null. The layout is
 * documented in docs/json-format.md.
 */
#ifndef GATE_JSONOUT_H
#define GATE_JSONOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "core/result.h"

/* Version of the file format; readers reject a larger one. */
#define JSONOUT_SCHEMA 1

/* The fields of struct context as JSON keys, in struct order: written by
 * jsonout_context and read back by baseline_load from this one table. */
enum jsonout_kind { JSONOUT_STRING, JSONOUT_INT, JSONOUT_LONG, JSONOUT_LLONG, JSONOUT_COUNT };
struct jsonout_field {
	const char *name;
	enum jsonout_kind kind;  /* char *, int, long, long long; COUNT: an int,
				  * null when 0 (unknown) */
	size_t offset;           /* offsetof(struct context, ...) */
};
extern const struct jsonout_field jsonout_context_fields[];
extern const size_t jsonout_context_field_count;

/* A JSON string for S: null for NULL, bytes that are not UTF-8 become U+FFFD.
 * Returns a new reference, or NULL on no memory. */
json_t *jsonout_string(const char *s);

/* A JSON number for V: an integer when V is integral and exact in a double,
 * null when V is NaN or infinite. Returns a new reference or NULL. */
json_t *jsonout_number(double v);

/* A JSON array of the N numbers V (jsonout_number each). Returns a new
 * reference or NULL on no memory. */
json_t *jsonout_numbers(const double *v, size_t n);

/* The "context" object: every field of C, in struct order, NULL strings as
 * null. Returns a new reference or NULL on no memory. */
json_t *jsonout_context(const struct context *c);

/* A series object with the baseline fields (kernel, variant, params,
 * metric, unit, class, median, samples); with COMPARISON the fields of the
 * comparison against the baseline follow. Returns a new reference or NULL. */
json_t *jsonout_series(const struct series *s, bool comparison);

/* Writes ROOT, an object, to FP in the layout above, ending in a newline.
 * Returns 0 or -ENOMEM (write errors show in ferror(FP)). */
int jsonout_dump(FILE *fp, const json_t *root);

/* Writes ROOT to PATH atomically (atomic_file.h) in the layout above.
 * Returns 0 or a negative errno with ERR naming PATH. */
int jsonout_write_file(const char *path, const json_t *root, char *err, size_t err_size);

#endif

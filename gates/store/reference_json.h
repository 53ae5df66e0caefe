/* reference_json.h: the reference workload's samples (core/result.h,
 * struct reference) in the JSON files: "reference" in the baseline and the
 * --json result, one object per part and line:
 *   {"part": "cpu", "version": 1, "unit": "ns", "median": M, "samples": [...]}
 * and in the --json result also each part's comparison (baseline_median,
 * change, ci_low, ci_high) and, beside the array, "reference_state" and
 * "reference_shift" (docs/json-format.md, "Baseline file"). */
#ifndef GATE_REFERENCE_JSON_H
#define GATE_REFERENCE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/result.h"

/* The "reference" array of REF, with the comparison fields when COMPARISON;
 * NULL on no memory. */
json_t *reference_json(const struct reference *ref, bool comparison);

/* Reads a "reference" array ARR (NULL or null: absent, a file of an older version:
 * no samples) into OUT's samples, strictly: each part at most once, by its
 * name, its version a positive integer, samples positive and finite; a
 * --json result's comparison fields too (NaN where absent or null). A
 * part of another REFERENCE_WORKLOAD_VERSION (absent: 1) is checked but
 * left out, as if the file had none. Returns 0, -1 with ERR naming the
 * entry and field, or -ENOMEM. */
int reference_json_load(const json_t *arr, struct reference *out, char *err,
			size_t err_size);

/* The state named NAME (result_reference_state_name) into *OUT; 0, or -1
 * for another name. */
int reference_state_parse(const char *name, enum reference_state *out);

#endif

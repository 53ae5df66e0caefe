/* sites_json.h: the allocation sites of a result (core/result.h) in the
 * JSON files: "sites" in the baseline and the --json result, and
 * "site_changes" in the --json result (docs/json-format.md, "Allocation
 * sites"). One object per line, in result_site_order. */
#ifndef GATE_SITES_JSON_H
#define GATE_SITES_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "core/result.h"

/* The "sites" array of R; NULL on no memory. */
json_t *sites_json(const struct run_result *r);

/* The "site_changes" array of R; NULL on no memory. */
json_t *site_changes_json(const struct run_result *r);

/* Reads a "sites" array ARR (NULL: the key is absent, a file of an older
 * version: no sites, not recorded) into OUT, strictly. Returns 0, or -1
 * with ERR naming the entry and the field; -ENOMEM. */
int sites_json_load(const json_t *arr, struct run_result *out, char *err, size_t err_size);

/* The same for "site_changes". */
int site_changes_json_load(const json_t *arr, struct run_result *out, char *err,
			   size_t err_size);

#endif

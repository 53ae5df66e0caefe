/* stacks_json.h: the allocation call stacks of a result (core/result.h,
 * struct stacks) in the JSON files: "stacks" in the baseline and the --json
 * result, "stacks_before" in the --json result (docs/json-format.md,
 * "Allocation call stacks"). One object per line, in result_stack_order. */
#ifndef GATE_STACKS_JSON_H
#define GATE_STACKS_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "core/result.h"

/* The array of SET's stacks; NULL on no memory. */
json_t *stacks_json(const struct stacks *set);

/* Reads the array ARR of key KEY ("stacks", "stacks_before") into OUT,
 * strictly; NULL (the key is absent: a file of an older version) leaves
 * OUT not recorded. Returns 0, or -1 with ERR naming the entry and the
 * field ("stacks[3].frames[1]: expected a non-empty string"); -ENOMEM. */
int stacks_json_load(const json_t *arr, const char *key, struct stacks *out, char *err,
		     size_t err_size);

#endif

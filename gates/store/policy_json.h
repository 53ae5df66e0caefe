/* policy_json.h: the run policy (core/policy.h) as the "policy" object of
 * the result and baseline files (docs/json-format.md), and back. */
#ifndef GATE_POLICY_JSON_H
#define GATE_POLICY_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "core/policy.h"

/* The "policy" object of P, keys in struct order; a new reference, or
 * NULL on no memory. */
json_t *policy_json(const struct run_policy *p);

/* Reads OBJ, a "policy" object, into P (defaults first, RECORDED set):
 * every key of policy_json is required and typed; unknown keys are
 * ignored (a later gate may add some). Returns 0, or -1 with WHY naming
 * the key and what is wrong. */
int policy_json_load(const json_t *obj, struct run_policy *p, char *why, size_t size);

#endif

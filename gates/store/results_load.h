/* results_load.h: reading a whole --json result file back into a
 * run_result (docs/json-format.md, "Result file"), for `gate merge`.
 *
 * The baseline part (schema, platform, context, series with samples) is
 * read by baseline_load with its checks; on top of it every result field is
 * read strictly: a missing required key or a value of the wrong type is an
 * error naming the file and the field, never a guess. */
#ifndef GATE_RESULTS_LOAD_H
#define GATE_RESULTS_LOAD_H

#include <stddef.h>

#include "core/result.h"

/* Parses a verdict name ("pass", ...); 0 and *OUT, or -1 when unknown. */
int results_verdict_parse(const char *name, enum verdict *out);

/* Loads the result file PATH into OUT (zeroed first). Returns 0; -ENOENT
 * when it does not exist; -EINVAL when malformed, with ERR naming the file
 * and the field; -ENOMEM. */
int results_load(const char *path, struct run_result *out, char *err, size_t err_size);

#endif

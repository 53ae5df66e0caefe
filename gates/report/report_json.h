/* report_json.h: the --json result file.
 *
 * The whole run_result as one JSON object (docs/json-format.md): schema,
 * platform, verdict, exit_code, wall_seconds, context, baseline,
 * baseline_note, series (with samples in the baseline layout plus the
 * comparison), expectations and problems. NaN and infinite numbers are
 * written as null. Because every series carries the baseline fields, a
 * result file loads with baseline_load and can serve as a baseline.
 */
#ifndef GATE_REPORT_JSON_H
#define GATE_REPORT_JSON_H

#include <stddef.h>
#include "core/result.h"


/* Writes R to PATH atomically (temporary file, fsync, rename). Returns 0 or
 * a negative errno with ERR naming the file. */
int report_json_write(const char *path, const struct run_result *r, char *err, size_t err_size);

#endif

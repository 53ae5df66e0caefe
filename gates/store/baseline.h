/* baseline.h: stored results, one JSON file per platform key.
 *
 * Format (docs/json-format.md): a top-level object with "schema" (1),
 * "platform", "context" (the fields of struct context) and "series", an
 * array with one object per (kernel, variant, params, metric) holding
 * "kernel", "variant", "params", "metric", "unit", "class", "median" and
 * "samples". Objects are written with a stable key order and one series per
 * line, so a pull request shows a readable diff. The same format carries
 * the series of `--json` results (see report_json.h), so either can be
 * loaded as a baseline.
 */
#ifndef GATE_BASELINE_H
#define GATE_BASELINE_H

#include <stddef.h>
#include "core/result.h"

/* The largest baseline or result file read, in bytes: 64 MiB, some 70
 * times the largest real baseline (baselines/linux-x86_64-glibc.json,
 * 0.95 MB for 2558 series); a larger file is refused unread. */
#define BASELINE_MAX_BYTES (64 << 20)

/* Loads PATH into OUT (zeroed first): context and series with samples.
 * Every series must be comparable: at least one measured (non-null)
 * sample, and one in each of its batches. Returns 0; -ENOENT when the
 * file does not exist; -EFBIG over BASELINE_MAX_BYTES; -EINVAL when it is
 * malformed, with ERR naming the file and the field, line or column, or
 * the series (kernel variant params metric). */
int baseline_load(const char *path, struct run_result *out, char *err, size_t err_size);

/* baseline_load for a --json result (gate merge, gate diff): a series may
 * have no measured sample (a variant whose every sample failed). */
int baseline_load_result(const char *path, struct run_result *out, char *err, size_t err_size);

/* Writes the series and context of R to PATH atomically (temporary file in
 * the same directory, fsync, rename). Series baseline_load would refuse
 * are left out: all samples NaN, or fewer measured than batches. Returns 0 or a negative errno with ERR set. */
int baseline_save(const char *path, const struct run_result *r, char *err, size_t err_size);

/* baseline_load_result of TEXT (LEN bytes; a file's version at another
 * commit), NAME naming it in ERR. */
int baseline_load_text(const char *name, const char *text, size_t len, struct run_result *out,
		       char *err, size_t err_size);

#endif

/* history_dir.h: a history of results as a directory, one file per run
 * (core/result_history.h; docs/json-format.md, "History files").
 *
 * A run's file is named by its start and its commit,
 * "2026-12-07T01-02-03Z-1a2b3c4.json", and written atomically
 * (store/atomic_file.h): a reader sees it whole or not at all. The reader
 * takes every "*.json" of the directory (hidden files left out; a writer's
 * temporary "*.json.tmp.XXXXXX" does not end in .json) and is strict: a
 * missing key or a value of the wrong type is an error naming the file and
 * the key, never a guess.
 */
#ifndef GATE_HISTORY_DIR_H
#define GATE_HISTORY_DIR_H

#include <stddef.h>

#include "core/result_history.h"

/* The largest history file read: 16 MiB (a run of the whole suite, 2,500
 * series, is about 250 KB). */
#define HISTORY_DIR_MAX_BYTES (16 << 20)

/* RUN's file name (above; characters other than letters, digits, '.',
 * '_' and '-' of its commit as '_') into OUT of SIZE; 0, or -1 when it does
 * not fit or RUN has no valid start. */
int history_dir_file_name(const struct history_run *run, char *out, size_t size);

/* Writes RUN into DIR (made when missing, one level) atomically; the
 * file's path into PATH of PATH_SIZE. Returns 0, or a negative errno with
 * ERR naming the file. */
int history_dir_write(const char *dir, const struct history_run *run, char *path,
		      size_t path_size, char *err, size_t err_size);

/* Reads the history file PATH into OUT (zeroed first; its FILE set to
 * PATH). Returns 0; -ENOENT when it does not exist; -EFBIG over
 * HISTORY_DIR_MAX_BYTES; -EINVAL when malformed, with ERR naming the file
 * and the key ("series[3][6]: expected a number"); -ENOMEM. */
int history_dir_load_file(const char *path, struct history_run *out, char *err,
			  size_t err_size);

/* Reads every history file of DIR into OUT (zeroed first), sorted
 * (result_history_sort). Returns 0; -ENOENT or -ENOTDIR when DIR is no
 * directory; the first file's error (history_dir_load_file); ERR says
 * which. */
int history_dir_load(const char *dir, struct result_history *out, char *err, size_t err_size);

#endif

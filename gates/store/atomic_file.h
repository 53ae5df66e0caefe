/* atomic_file.h: replacing a file so that readers see the old or the new
 * contents, never a half-written file.
 *
 * The writer gets a FILE on a temporary file next to PATH
 * ("<path>.tmp.XXXXXX", same directory, hence same file system); commit
 * flushes and syncs it, renames it over PATH and syncs the directory. On
 * any error the temporary file is removed and PATH is left as it was.
 * One implementation file per OS (atomic_file_posix.c here).
 */
#ifndef GATE_ATOMIC_FILE_H
#define GATE_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

struct atomic_file {
	FILE *fp;        /* write the new contents here */
	char *path;      /* the file to replace */
	char *tmp_path;  /* the temporary file, removed unless committed */
};

/* Opens a temporary file for PATH (creating PATH's directory, one level,
 * when missing) and sets AF. Returns 0, or a negative errno with ERR
 * naming the path. */
int atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t err_size);

/* Flushes and syncs what was written, renames it over PATH and syncs the
 * directory; releases AF in every case. Returns 0, or a negative errno with
 * ERR set (then the temporary file is gone and PATH is unchanged). */
int atomic_file_commit(struct atomic_file *af, char *err, size_t err_size);

/* Closes and removes the temporary file, leaving PATH untouched; releases AF. */
void atomic_file_abort(struct atomic_file *af);

/* Removes the temporary file of every writer still open, now, and makes
 * every later atomic_file_open and atomic_file_commit fail with -EINTR:
 * for an interrupted run (core/interrupt.h), which then leaves each file
 * as it was or wholly replaced. Not from a signal handler. */
void atomic_file_remove_open(void);

/* Whether atomic_file_open could later write PATH: its directory exists
 * and is writable, or is missing but its parent is (it will be created).
 * Checked before a long run, so that a typo costs nothing. Returns 0, or a
 * negative errno with ERR naming the path. */
int atomic_file_check(const char *path, char *err, size_t err_size);

/* Removes the temporary files a writer of PATH left when it was killed
 * ("<path>.tmp.XXXXXX"); call it only while holding PATH's writer lock
 * (file_lock.h), when no other writer can be using one. Returns how many
 * were removed, or a negative errno when the directory cannot be read. */
int atomic_file_remove_stale(const char *path);

#endif

/* atomic_file_os.h: what atomic_file.c needs from the OS, one file per OS
 * (atomic_file_posix.c, atomic_file_windows.c). Internal to atomic_file. */
#ifndef GATE_ATOMIC_FILE_OS_H
#define GATE_ATOMIC_FILE_OS_H

#include <stddef.h>
#include "store/atomic_file.h"

/* Suffix of a temporary file; the X's are replaced when it is created. */
#define ATOMIC_FILE_SUFFIX ".tmp.XXXXXX"

/* Creates a new file from the template AF->tmp_path (path + suffix),
 * creating AF->path's directory once when it is missing, and sets AF->fp
 * (binary, write). Returns 0 or a negative errno (no file left behind). */
int atomic_file_os_create(struct atomic_file *af);

/* Pushes what FP holds to the disk (fsync, FlushFileBuffers); 0 or -errno. */
int atomic_file_os_sync(FILE *fp);

/* Renames TMP over PATH durably; returns 0, -errno when the rename failed,
 * or +errno when it happened but could not be made durable (POSIX: the
 * directory's fsync failed). */
int atomic_file_os_replace(const char *tmp, const char *path);

/* The lock of atomic_file.c's list of open temporary files (a mutex;
 * the interrupt thread takes it beside the writer's). */
void atomic_file_os_lock(void);
void atomic_file_os_unlock(void);

/* Shared helpers of atomic_file.c for the OS files. */
int atomic_file_fail(char *err, size_t err_size, int error, const char *fmt, ...);
/* The directory part of PATH ("." when none; '\\' counts on Windows). */
char *atomic_file_directory_of(const char *path);
/* Whether NAME is BASE followed by ".tmp." and six template characters. */
int atomic_file_is_temporary_of(const char *name, const char *base);

#endif

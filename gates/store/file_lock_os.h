/* file_lock_os.h: what the OS files of file_lock.h (file_lock_posix.c,
 * file_lock_windows.c) share, written once in file_lock.c. Internal to
 * file_lock. */
#ifndef GATE_FILE_LOCK_OS_H
#define GATE_FILE_LOCK_OS_H

/* The directory whose lock guards PATH: PATH's directory part ("." when
 * there is none, the root for a file in it), malloc'd; NULL on no memory. */
char *file_lock_directory(const char *path);

#endif

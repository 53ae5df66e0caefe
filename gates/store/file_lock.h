/* file_lock.h: one writer at a time for a stored file.
 *
 * Two `--update-baseline` runs on the same baseline would each read the
 * old file, merge their own series in and rename their result over it: the
 * second rename silently drops the first run's series. The writer takes an
 * exclusive advisory lock first; the lock is on the directory holding the
 * file (flock(2) on the directory itself), so no lock file is left behind,
 * and it is released by the kernel when the process dies, even by SIGKILL.
 * One implementation file per OS (file_lock_posix.c here).
 */
#ifndef GATE_FILE_LOCK_H
#define GATE_FILE_LOCK_H

#include <stddef.h>

struct file_lock {
	int fd;          /* the locked directory; -1 when not held */
};

/* Takes the writer's lock for PATH (creating PATH's directory, one level,
 * when missing), retrying for at most WAIT_MS milliseconds while another
 * process holds it. Returns 0; -EWOULDBLOCK when it was still held after
 * the wait; another negative errno otherwise; ERR names the path. */
int file_lock_acquire(struct file_lock *lock, const char *path, int wait_ms,
		      char *err, size_t err_size);

/* Releases a lock taken by file_lock_acquire (no-op when not held). */
void file_lock_release(struct file_lock *lock);

#endif

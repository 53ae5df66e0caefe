/* file_lock_posix.c: the writer's lock on POSIX systems: flock(2) on the
 * directory holding the file (Linux and macOS both lock directories; the
 * lock belongs to the open file description and dies with the process). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/file_lock.h"
#include "store/file_lock_os.h"

/* How long to sleep between two tries, in milliseconds. */
#define RETRY_MS 20

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Opens DIR (creating it once when missing); descriptor or negative errno. */
static int open_directory(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && (mkdir(dir, 0777) == 0 || errno == EEXIST))
		fd = open(dir, O_RDONLY | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

/* flock with retries for WAIT_MS; 0 or a negative errno. */
static int lock_with_retries(int fd, int wait_ms)
{
	for (int waited = 0;; waited += RETRY_MS) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK || waited >= wait_ms)
			return -errno;
		sleep_ms(RETRY_MS);
	}
}

int file_lock_acquire(struct file_lock *lock, const char *path, int wait_ms,
		      char *err, size_t err_size)
{
	char *dir = file_lock_directory(path);
	int fd, rc;

	lock->fd = -1;
	if (!dir) {
		snprintf(err, err_size, "%s: out of memory", path);
		return -ENOMEM;
	}
	fd = open_directory(dir);
	if (fd < 0) {
		snprintf(err, err_size, "%s: cannot open its directory %s to lock it: %s", path,
			 dir, strerror(-fd));
		free(dir);
		return fd;
	}
	rc = lock_with_retries(fd, wait_ms < 0 ? 0 : wait_ms);
	if (rc == -EWOULDBLOCK)
		snprintf(err, err_size, "%s: another process is writing it (its directory %s is "
			 "locked); still locked after %.1f s", path, dir, wait_ms / 1000.0);
	else if (rc < 0)
		snprintf(err, err_size, "%s: cannot lock its directory %s: %s", path, dir,
			 strerror(-rc));
	free(dir);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	lock->fd = fd;
	return 0;
}

void file_lock_release(struct file_lock *lock)
{
	if (lock->fd >= 0) {
		flock(lock->fd, LOCK_UN);
		close(lock->fd);
	}
	lock->fd = -1;
}

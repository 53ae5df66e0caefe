/* file_lock_windows.c: the writer's lock on Windows: LockFileEx on a lock
 * file "<dir>/.gate-lock" in the directory holding the file (a directory
 * cannot be opened with _open, so unlike file_lock_posix.c a small empty
 * file is left behind). The lock belongs to the handle and is released by
 * the system when the process dies. The header's int fd is a CRT
 * descriptor wrapping the handle (_open_osfhandle).
 *
 * Run under wine 8.0 by tests/test_windows_gate.c (every baseline
 * update takes it); contention is tested on POSIX only.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/file_lock.h"
#include "store/file_lock_os.h"

/* How long to sleep between two tries, in milliseconds. */
#define RETRY_MS 20
#define LOCK_NAME ".gate-lock"

/* Opens (creating) DIR\.gate-lock, creating DIR once when missing.
 * Returns the handle, or INVALID_HANDLE_VALUE with *ERROR an errno. */
static HANDLE open_lock_file(const char *dir, int *error)
{
	char *name = malloc(strlen(dir) + sizeof(LOCK_NAME) + 1);
	HANDLE h = INVALID_HANDLE_VALUE;

	*error = ENOMEM;
	if (!name)
		return h;
	sprintf(name, "%s\\%s", dir, LOCK_NAME);
	for (int attempt = 0; attempt < 2; attempt++) {
		h = CreateFileA(name, GENERIC_READ | GENERIC_WRITE,
				FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
				OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
		if (h != INVALID_HANDLE_VALUE || GetLastError() != ERROR_PATH_NOT_FOUND)
			break;
		if (_mkdir(dir) != 0 && errno != EEXIST)
			break;
	}
	if (h == INVALID_HANDLE_VALUE)
		*error = GetLastError() == ERROR_ACCESS_DENIED ? EACCES : ENOENT;
	free(name);
	return h;
}

/* LockFileEx with retries for WAIT_MS; 0 or a negative errno. */
static int lock_with_retries(HANDLE h, int wait_ms)
{
	for (int waited = 0;; waited += RETRY_MS) {
		OVERLAPPED ov;
		memset(&ov, 0, sizeof ov);
		if (LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ov))
			return 0;
		if (GetLastError() != ERROR_LOCK_VIOLATION && GetLastError() != ERROR_IO_PENDING)
			return -EIO;
		if (waited >= wait_ms)
			return -EWOULDBLOCK;
		Sleep(RETRY_MS);
	}
}

int file_lock_acquire(struct file_lock *lock, const char *path, int wait_ms,
		      char *err, size_t err_size)
{
	char *dir = file_lock_directory(path);
	int error, rc, fd;
	HANDLE h;

	lock->fd = -1;
	if (!dir) {
		snprintf(err, err_size, "%s: out of memory", path);
		return -ENOMEM;
	}
	h = open_lock_file(dir, &error);
	if (h == INVALID_HANDLE_VALUE) {
		snprintf(err, err_size, "%s: cannot open %s\\%s to lock it: %s", path, dir,
			 LOCK_NAME, strerror(error));
		free(dir);
		return -error;
	}
	rc = lock_with_retries(h, wait_ms < 0 ? 0 : wait_ms);
	if (rc == -EWOULDBLOCK)
		snprintf(err, err_size, "%s: another process is writing it (%s\\%s is locked); "
			 "still locked after %.1f s", path, dir, LOCK_NAME, wait_ms / 1000.0);
	else if (rc < 0)
		snprintf(err, err_size, "%s: cannot lock %s\\%s: Windows error %lu", path, dir,
			 LOCK_NAME, (unsigned long)GetLastError());
	free(dir);
	fd = rc < 0 ? -1 : _open_osfhandle((intptr_t)h, _O_RDWR);
	if (rc == 0 && fd < 0) {
		snprintf(err, err_size, "%s: no C runtime descriptor for its lock file", path);
		rc = -EMFILE;
	}
	if (rc < 0) {
		CloseHandle(h);
		return rc;
	}
	lock->fd = fd;
	return 0;
}

void file_lock_release(struct file_lock *lock)
{
	if (lock->fd >= 0) {
		HANDLE h = (HANDLE)_get_osfhandle(lock->fd);
		OVERLAPPED ov;
		memset(&ov, 0, sizeof ov);
		if (h != INVALID_HANDLE_VALUE)
			UnlockFileEx(h, 0, 1, 0, &ov);
		_close(lock->fd);  /* closes the handle too */
	}
	lock->fd = -1;
}

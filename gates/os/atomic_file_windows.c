/* atomic_file_windows.c: atomic file replacement on Windows: a temporary
 * file "<path>.tmp.XXXXXX" in the target's directory (same volume),
 * FlushFileBuffers, then MoveFileExA with MOVEFILE_REPLACE_EXISTING |
 * MOVEFILE_WRITE_THROUGH, which returns only once the move is on disk (the
 * counterpart of syncing the directory on POSIX).
 *
 * Run under wine 8.0 by tests/test_windows_gate.c (baselines written
 * by gate.exe --update-baseline); not yet on native Windows.
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
#include <sys/stat.h>

#include "store/atomic_file_os.h"

#define SUFFIX ATOMIC_FILE_SUFFIX

/* An errno for the thread's last Windows error. */
static int errno_of_last_error(void)
{
	switch (GetLastError()) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
		return EACCES;
	case ERROR_DISK_FULL:
		return ENOSPC;
	case ERROR_NOT_SAME_DEVICE:
		return EXDEV;
	default:
		return EIO;
	}
}

/* Creates AF->tmp_path from its template (new file only); descriptor or
 * a negative errno. */
static int create_from_template(struct atomic_file *af)
{
	size_t n = strlen(af->path);
	for (int attempt = 0; attempt < 100; attempt++) {
		memcpy(af->tmp_path + n, SUFFIX, sizeof(SUFFIX));
		if (_mktemp_s(af->tmp_path, n + sizeof(SUFFIX)) != 0)
			return -EEXIST;
		int fd = _open(af->tmp_path, _O_CREAT | _O_EXCL | _O_WRONLY | _O_BINARY,
			       _S_IREAD | _S_IWRITE);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* create_from_template, creating the directory once when it is missing. */
static int make_temporary(struct atomic_file *af)
{
	int fd = create_from_template(af), error;
	char *dir;

	if (fd != -ENOENT)
		return fd;
	dir = atomic_file_directory_of(af->path);
	if (!dir)
		return -ENOMEM;
	error = _mkdir(dir) < 0 && errno != EEXIST ? errno : 0;
	free(dir);
	return error ? -error : create_from_template(af);
}

static SRWLOCK open_files_lock = SRWLOCK_INIT;

void atomic_file_os_lock(void)
{
	AcquireSRWLockExclusive(&open_files_lock);
}

void atomic_file_os_unlock(void)
{
	ReleaseSRWLockExclusive(&open_files_lock);
}

int atomic_file_os_create(struct atomic_file *af)
{
	int fd = make_temporary(af);

	if (fd < 0)
		return fd;
	af->fp = _fdopen(fd, "wb");
	if (!af->fp) {
		int error = errno;
		_close(fd);
		_unlink(af->tmp_path);
		return -error;
	}
	return 0;
}

int atomic_file_os_sync(FILE *fp)
{
	return FlushFileBuffers((HANDLE)_get_osfhandle(_fileno(fp))) ? 0 : -errno_of_last_error();
}

/* MOVEFILE_WRITE_THROUGH returns once the move is on disk: nothing to sync. */
int atomic_file_os_replace(const char *tmp, const char *path)
{
	if (!MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
		return -errno_of_last_error();
	return 0;
}

int atomic_file_remove_stale(const char *path)
{
	const char *slash = strrchr(path, '/'), *back = strrchr(path, '\\');
	const char *base;
	char *dir = atomic_file_directory_of(path), *pattern;
	WIN32_FIND_DATAA fd;
	HANDLE h;
	int removed = 0;

	if (back && (!slash || back > slash))
		slash = back;
	base = slash ? slash + 1 : path;
	if (!dir)
		return -ENOMEM;
	pattern = malloc(strlen(dir) + strlen(base) + 16);
	if (!pattern) {
		free(dir);
		return -ENOMEM;
	}
	sprintf(pattern, "%s\\%s.tmp.*", dir, base);
	h = FindFirstFileA(pattern, &fd);
	if (h == INVALID_HANDLE_VALUE) {
		int error = GetLastError() == ERROR_FILE_NOT_FOUND ? 0 : errno_of_last_error();
		free(pattern);
		free(dir);
		return -error;
	}
	do {
		if (!atomic_file_is_temporary_of(fd.cFileName, base))
			continue;
		sprintf(pattern, "%s\\%s", dir, fd.cFileName);
		removed += DeleteFileA(pattern) != 0;
	} while (FindNextFileA(h, &fd));
	FindClose(h);
	free(pattern);
	free(dir);
	return removed;
}

/* Whether DIR is an existing directory (1), missing (0) or else (-errno). */
static int directory_state(const char *dir)
{
	DWORD attr = GetFileAttributesA(dir);
	if (attr == INVALID_FILE_ATTRIBUTES)
		return errno_of_last_error() == ENOENT ? 0 : -errno_of_last_error();
	return attr & FILE_ATTRIBUTE_DIRECTORY ? 1 : -ENOTDIR;
}

int atomic_file_check(const char *path, char *err, size_t err_size)
{
	char *dir = atomic_file_directory_of(path), *parent;
	int state, rc = 0;

	if (!dir)
		return atomic_file_fail(err, err_size, ENOMEM, "%s", path);
	state = directory_state(dir);
	if (directory_state(path) == 1) {
		rc = atomic_file_fail(err, err_size, EISDIR, "%s", path);
	} else if (state == 1) {
		/* Windows access checks need ACLs; the open itself will say. */
		if (_access(dir, 2) < 0)
			rc = atomic_file_fail(err, err_size, errno, "%s: cannot write in %s", path, dir);
	} else if (state < 0) {
		rc = atomic_file_fail(err, err_size, -state, "%s: %s", path, dir);
	} else if (!(parent = atomic_file_directory_of(dir))) {
		rc = atomic_file_fail(err, err_size, ENOMEM, "%s", path);
	} else {
		if (directory_state(parent) != 1)
			rc = atomic_file_fail(err, err_size, ENOENT, "%s: its directory %s is missing and "
				  "cannot be created in %s", path, dir, parent);
		free(parent);
	}
	free(dir);
	return rc;
}

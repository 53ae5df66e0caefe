/* atomic_file_windows.c: atomic file replacement on Windows: a temporary
 * file "<path>.tmp.XXXXXX" in the target's directory (same volume),
 * FlushFileBuffers, then MoveFileExA with MOVEFILE_REPLACE_EXISTING |
 * MOVEFILE_WRITE_THROUGH, which returns only once the move is on disk (the
 * counterpart of syncing the directory on POSIX).
 *
 * Cross-compiled with mingw-w64 and compile-checked only.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"

#define SUFFIX ".tmp.XXXXXX"

static int fail(char *err, size_t err_size, int error, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (err && err_size) {
		va_start(ap, fmt);
		vsnprintf(err, err_size, fmt, ap);
		va_end(ap);
		n = strlen(err);
		if (n < err_size)
			snprintf(err + n, err_size - n, ": %s", strerror(error));
	}
	return -error;
}

/* The last '/' or '\\' of PATH, or NULL. */
static const char *last_separator(const char *path)
{
	const char *slash = strrchr(path, '/'), *back = strrchr(path, '\\');
	return back && (!slash || back > slash) ? back : slash;
}

/* The directory part of PATH ("." when there is none); NULL on no memory. */
static char *directory_of(const char *path)
{
	const char *slash = last_separator(path);
	size_t n;
	char *dir;

	if (!slash)
		return _strdup(".");
	n = slash == path ? 1 : (size_t)(slash - path);
	dir = malloc(n + 1);
	if (!dir)
		return NULL;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return dir;
}

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
	dir = directory_of(af->path);
	if (!dir)
		return -ENOMEM;
	error = _mkdir(dir) < 0 && errno != EEXIST ? errno : 0;
	free(dir);
	return error ? -error : create_from_template(af);
}

static void release(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp_path);
	memset(af, 0, sizeof(*af));
}

int atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t err_size)
{
	size_t n = strlen(path);
	int fd;

	memset(af, 0, sizeof(*af));
	af->path = _strdup(path);
	af->tmp_path = malloc(n + sizeof(SUFFIX));
	if (!af->path || !af->tmp_path) {
		release(af);
		return fail(err, err_size, ENOMEM, "%s", path);
	}
	memcpy(af->tmp_path, path, n + 1);
	fd = make_temporary(af);
	if (fd < 0) {
		fail(err, err_size, -fd, "%s: cannot create a temporary file next to it", path);
		release(af);
		return fd;
	}
	af->fp = _fdopen(fd, "wb");
	if (!af->fp) {
		int error = errno;
		_close(fd);
		_unlink(af->tmp_path);
		fail(err, err_size, error, "%s", af->tmp_path);
		release(af);
		return -error;
	}
	return 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fp)
		fclose(af->fp);
	if (af->tmp_path)
		_unlink(af->tmp_path);
	release(af);
}

/* Flushes AF->fp to the disk (FlushFileBuffers) and closes it; 0 or a
 * negative errno. */
static int finish_writing(struct atomic_file *af)
{
	int error = 0;

	if (fflush(af->fp) != 0 || ferror(af->fp))
		error = errno ? errno : EIO;
	else if (!FlushFileBuffers((HANDLE)_get_osfhandle(_fileno(af->fp))))
		error = errno_of_last_error();
	if (fclose(af->fp) != 0 && !error)
		error = errno;
	af->fp = NULL;
	return -error;
}

int atomic_file_commit(struct atomic_file *af, char *err, size_t err_size)
{
	int rc;

	errno = 0;
	rc = finish_writing(af);
	if (rc < 0) {
		fail(err, err_size, -rc, "%s: writing %s", af->path, af->tmp_path);
		atomic_file_abort(af);
		return rc;
	}
	if (!MoveFileExA(af->tmp_path, af->path,
			 MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
		rc = -errno_of_last_error();
		fail(err, err_size, -rc, "%s: cannot replace it with %s", af->path, af->tmp_path);
		atomic_file_abort(af);
		return rc;
	}
	release(af);
	return 0;
}

/* Whether NAME is BASE followed by ".tmp." and six _mktemp characters. */
static int is_temporary_of(const char *name, const char *base)
{
	size_t n = strlen(base);
	return _strnicmp(name, base, n) == 0 && strncmp(name + n, ".tmp.", 5) == 0 &&
	       strlen(name + n + 5) == 6;
}

int atomic_file_remove_stale(const char *path)
{
	const char *slash = last_separator(path), *base = slash ? slash + 1 : path;
	char *dir = directory_of(path), *pattern;
	WIN32_FIND_DATAA fd;
	HANDLE h;
	int removed = 0;

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
		if (!is_temporary_of(fd.cFileName, base))
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
	char *dir = directory_of(path), *parent;
	int state, rc = 0;

	if (!dir)
		return fail(err, err_size, ENOMEM, "%s", path);
	state = directory_state(dir);
	if (directory_state(path) == 1) {
		rc = fail(err, err_size, EISDIR, "%s", path);
	} else if (state == 1) {
		/* Windows access checks need ACLs; the open itself will say. */
		if (_access(dir, 2) < 0)
			rc = fail(err, err_size, errno, "%s: cannot write in %s", path, dir);
	} else if (state < 0) {
		rc = fail(err, err_size, -state, "%s: %s", path, dir);
	} else if (!(parent = directory_of(dir))) {
		rc = fail(err, err_size, ENOMEM, "%s", path);
	} else {
		if (directory_state(parent) != 1)
			rc = fail(err, err_size, ENOENT, "%s: its directory %s is missing and "
				  "cannot be created in %s", path, dir, parent);
		free(parent);
	}
	free(dir);
	return rc;
}

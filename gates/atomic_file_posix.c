/* atomic_file_posix.c: atomic file replacement on POSIX systems (Linux,
 * macOS): mkstemp in the target's directory, fsync, rename(2), then fsync
 * of the directory so that the rename itself survives a crash (see
 * rename(2) and fsync(2): a rename is durable only once its directory is).
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

/* mkstemp creates files 0600; a baseline is shared and committed, so a new
 * file gets 0644 and a replaced file keeps its mode. */
#define NEW_FILE_MODE 0644

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

/* The directory part of PATH ("." when there is none); NULL on no memory. */
static char *directory_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n;
	char *dir;

	if (!slash)
		return strdup(".");
	n = slash == path ? 1 : (size_t)(slash - path);
	dir = malloc(n + 1);
	if (!dir)
		return NULL;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return dir;
}

/* mkstemp on AF->tmp_path, creating the directory once when it is missing.
 * Returns the descriptor or a negative errno. */
static int make_temporary(struct atomic_file *af)
{
	char *dir;
	int fd, error;

	fd = mkstemp(af->tmp_path);
	if (fd >= 0 || errno != ENOENT)
		return fd >= 0 ? fd : -errno;
	dir = directory_of(af->path);
	if (!dir)
		return -ENOMEM;
	error = mkdir(dir, 0777) < 0 && errno != EEXIST ? errno : 0;
	free(dir);
	if (error)
		return -error;
	memcpy(af->tmp_path + strlen(af->path), ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
	fd = mkstemp(af->tmp_path);
	return fd >= 0 ? fd : -errno;
}

static void release(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp_path);
	memset(af, 0, sizeof(*af));
}

int atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t err_size)
{
	static const char suffix[] = ".tmp.XXXXXX";
	size_t n = strlen(path);
	struct stat st;
	int fd;

	memset(af, 0, sizeof(*af));
	af->path = strdup(path);
	af->tmp_path = malloc(n + sizeof(suffix));
	if (!af->path || !af->tmp_path) {
		release(af);
		return fail(err, err_size, ENOMEM, "%s", path);
	}
	memcpy(af->tmp_path, path, n);
	memcpy(af->tmp_path + n, suffix, sizeof(suffix));
	fd = make_temporary(af);
	if (fd < 0) {
		fail(err, err_size, -fd, "%s: cannot create a temporary file next to it", path);
		release(af);
		return fd;
	}
	fchmod(fd, stat(path, &st) == 0 ? (st.st_mode & 07777) : NEW_FILE_MODE);
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int error = errno;
		close(fd);
		unlink(af->tmp_path);
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
		unlink(af->tmp_path);
	release(af);
}

/* Syncs the directory holding PATH; file systems that cannot sync a
 * directory (EINVAL) count as done. Returns 0 or a negative errno. */
static int sync_directory(const char *path)
{
	char *dir = directory_of(path);
	int fd, error = 0;

	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_RDONLY);
	free(dir);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0 && errno != EINVAL)
		error = errno;
	close(fd);
	return -error;
}

/* Flushes, syncs and closes AF->fp; returns 0 or a negative errno. */
static int finish_writing(struct atomic_file *af)
{
	int error = 0;

	if (fflush(af->fp) != 0 || ferror(af->fp))
		error = errno ? errno : EIO;
	else if (fsync(fileno(af->fp)) < 0)
		error = errno;
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
	if (rename(af->tmp_path, af->path) < 0) {
		rc = -errno;
		fail(err, err_size, -rc, "%s: cannot replace it with %s", af->path, af->tmp_path);
		atomic_file_abort(af);
		return rc;
	}
	rc = sync_directory(af->path);
	if (rc < 0)
		fail(err, err_size, -rc, "%s: written, but syncing its directory failed", af->path);
	release(af);
	return rc;
}

/* Whether NAME is BASE followed by ".tmp." and six mkstemp characters. */
static int is_temporary_of(const char *name, const char *base)
{
	size_t n = strlen(base);
	return strncmp(name, base, n) == 0 && strncmp(name + n, ".tmp.", 5) == 0 &&
	       strlen(name + n + 5) == 6 && !strchr(name + n + 5, '/');
}

int atomic_file_remove_stale(const char *path)
{
	char *dir = directory_of(path), *full;
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	struct dirent *e;
	int removed = 0;
	DIR *d;

	if (!dir)
		return -ENOMEM;
	d = opendir(dir);
	if (!d) {
		int error = errno;
		free(dir);
		return -error;
	}
	while ((e = readdir(d)) != NULL) {
		if (!is_temporary_of(e->d_name, base))
			continue;
		full = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (full) {
			sprintf(full, "%s/%s", dir, e->d_name);
			removed += unlink(full) == 0;
			free(full);
		}
	}
	closedir(d);
	free(dir);
	return removed;
}

int atomic_file_check(const char *path, char *err, size_t err_size)
{
	char *dir = directory_of(path), *parent;
	struct stat st;
	int rc = 0;

	if (!dir)
		return fail(err, err_size, ENOMEM, "%s", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		rc = fail(err, err_size, EISDIR, "%s", path);
	} else if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			rc = fail(err, err_size, ENOTDIR, "%s: %s", path, dir);
		else if (access(dir, W_OK | X_OK) < 0)
			rc = fail(err, err_size, errno, "%s: cannot write in %s", path, dir);
	} else if (errno != ENOENT || !(parent = directory_of(dir))) {
		rc = fail(err, err_size, errno ? errno : ENOMEM, "%s: %s", path, dir);
	} else {
		if (access(parent, W_OK | X_OK) < 0)
			rc = fail(err, err_size, errno, "%s: its directory %s is missing and "
				  "cannot be created in %s", path, dir, parent);
		free(parent);
	}
	free(dir);
	return rc;
}

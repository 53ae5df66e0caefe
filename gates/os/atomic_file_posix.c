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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/atomic_file_os.h"

/* mkstemp creates files 0600; a baseline is shared and committed, so a new
 * file gets 0644 and a replaced file keeps its mode. */
#define NEW_FILE_MODE 0644

/* mkstemp on AF->tmp_path, creating the directory once when it is missing.
 * Returns the descriptor or a negative errno. */
static int make_temporary(struct atomic_file *af)
{
	char *dir;
	int fd, error;

	fd = mkstemp(af->tmp_path);
	if (fd >= 0 || errno != ENOENT)
		return fd >= 0 ? fd : -errno;
	dir = atomic_file_directory_of(af->path);
	if (!dir)
		return -ENOMEM;
	error = mkdir(dir, 0777) < 0 && errno != EEXIST ? errno : 0;
	free(dir);
	if (error)
		return -error;
	memcpy(af->tmp_path + strlen(af->path), ATOMIC_FILE_SUFFIX, sizeof(ATOMIC_FILE_SUFFIX));
	fd = mkstemp(af->tmp_path);
	return fd >= 0 ? fd : -errno;
}

int atomic_file_os_create(struct atomic_file *af)
{
	struct stat st;
	int fd = make_temporary(af);

	if (fd < 0)
		return fd;
	fchmod(fd, stat(af->path, &st) == 0 ? (st.st_mode & 07777) : NEW_FILE_MODE);
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int error = errno;
		close(fd);
		unlink(af->tmp_path);
		return -error;
	}
	return 0;
}

static pthread_mutex_t open_files_lock = PTHREAD_MUTEX_INITIALIZER;

void atomic_file_os_lock(void)
{
	pthread_mutex_lock(&open_files_lock);
}

void atomic_file_os_unlock(void)
{
	pthread_mutex_unlock(&open_files_lock);
}

int atomic_file_os_sync(FILE *fp)
{
	return fsync(fileno(fp)) < 0 ? -errno : 0;
}

/* Syncs the directory holding PATH; file systems that cannot sync a
 * directory (EINVAL) count as done. Returns 0 or a negative errno. */
static int sync_directory(const char *path)
{
	char *dir = atomic_file_directory_of(path);
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

int atomic_file_os_replace(const char *tmp, const char *path)
{
	if (rename(tmp, path) < 0)
		return -errno;
	return -sync_directory(path);
}

int atomic_file_remove_stale(const char *path)
{
	char *dir = atomic_file_directory_of(path), *full;
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
		if (!atomic_file_is_temporary_of(e->d_name, base))
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
	char *dir = atomic_file_directory_of(path), *parent;
	struct stat st;
	int rc = 0;

	if (!dir)
		return atomic_file_fail(err, err_size, ENOMEM, "%s", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		rc = atomic_file_fail(err, err_size, EISDIR, "%s", path);
	} else if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			rc = atomic_file_fail(err, err_size, ENOTDIR, "%s: %s", path, dir);
		else if (access(dir, W_OK | X_OK) < 0)
			rc = atomic_file_fail(err, err_size, errno, "%s: cannot write in %s", path, dir);
	} else if (errno != ENOENT || !(parent = atomic_file_directory_of(dir))) {
		rc = atomic_file_fail(err, err_size, errno ? errno : ENOMEM, "%s: %s", path, dir);
	} else {
		if (access(parent, W_OK | X_OK) < 0)
			rc = atomic_file_fail(err, err_size, errno, "%s: its directory %s is missing and "
				  "cannot be created in %s", path, dir, parent);
		free(parent);
	}
	free(dir);
	return rc;
}

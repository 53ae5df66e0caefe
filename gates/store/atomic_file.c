/* atomic_file.c: the OS-independent part of atomic_file.h; the OS part
 * (creating the temporary file, syncing it, the durable rename) is behind
 * atomic_file_os.h in atomic_file_posix.c and atomic_file_windows.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/path_os.h"
#include "store/atomic_file_os.h"

int atomic_file_fail(char *err, size_t err_size, int error, const char *fmt, ...)
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

/* The temporary files of the writers open now, for atomic_file_remove_open
 * (an interrupted run); a writer beyond OPEN_MAX is not listed. */
#define OPEN_MAX 32
static char *open_files[OPEN_MAX];
static int closed;   /* atomic_file_remove_open ran: no new temporary file */

/* Lists or unlists TMP_PATH; under atomic_file_os_lock. */
static void list_open(char *tmp_path, int add)
{
	for (size_t i = 0; i < OPEN_MAX; i++)
		if (add ? !open_files[i] : open_files[i] == tmp_path) {
			open_files[i] = add ? tmp_path : NULL;
			return;
		}
}

void atomic_file_remove_open(void)
{
	atomic_file_os_lock();
	closed = 1;
	for (size_t i = 0; i < OPEN_MAX; i++)
		if (open_files[i]) {
			remove(open_files[i]);
			open_files[i] = NULL;
		}
	atomic_file_os_unlock();
}

static char *copy_of(const char *s, size_t n)
{
	char *c = malloc(n + 1);
	if (c) {
		memcpy(c, s, n);
		c[n] = '\0';
	}
	return c;
}

char *atomic_file_directory_of(const char *path)
{
	const char *slash = path_os_last_separator(path);
	if (!slash)
		return copy_of(".", 1);
	return copy_of(path, slash == path ? 1 : (size_t)(slash - path));
}

int atomic_file_is_temporary_of(const char *name, const char *base)
{
	size_t n = strlen(base);
	if (!path_os_same_prefix(name, base, n))   /* case-insensitive on Windows */
		return 0;
	return strncmp(name + n, ".tmp.", 5) == 0 && strlen(name + n + 5) == 6 &&
	       !strchr(name + n + 5, '/');
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
	int rc;

	memset(af, 0, sizeof(*af));
	af->path = copy_of(path, n);
	af->tmp_path = malloc(n + sizeof(ATOMIC_FILE_SUFFIX));
	if (!af->path || !af->tmp_path) {
		release(af);
		return atomic_file_fail(err, err_size, ENOMEM, "%s", path);
	}
	memcpy(af->tmp_path, path, n);
	memcpy(af->tmp_path + n, ATOMIC_FILE_SUFFIX, sizeof(ATOMIC_FILE_SUFFIX));
	atomic_file_os_lock();
	rc = closed ? -EINTR : atomic_file_os_create(af);
	if (rc == 0)
		list_open(af->tmp_path, 1);
	atomic_file_os_unlock();
	if (rc < 0) {
		atomic_file_fail(err, err_size, -rc, "%s: cannot create a temporary file next to it",
				 path);
		release(af);
	}
	return rc;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fp)
		fclose(af->fp);
	atomic_file_os_lock();
	if (af->tmp_path) {
		list_open(af->tmp_path, 0);
		remove(af->tmp_path);
	}
	atomic_file_os_unlock();
	release(af);
}

/* Flushes, syncs and closes AF->fp; returns 0 or a negative errno. */
static int finish_writing(struct atomic_file *af)
{
	int error = 0;

	if (fflush(af->fp) != 0 || ferror(af->fp))
		error = errno ? errno : EIO;
	else
		error = -atomic_file_os_sync(af->fp);
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
		atomic_file_fail(err, err_size, -rc, "%s: writing %s", af->path, af->tmp_path);
		atomic_file_abort(af);
		return rc;
	}
	/* under the lock: an interrupt removes the temporary file before the
	 * rename or finds it renamed, never half of each */
	atomic_file_os_lock();
	rc = closed ? -EINTR : atomic_file_os_replace(af->tmp_path, af->path);
	if (rc >= 0)
		list_open(af->tmp_path, 0);
	atomic_file_os_unlock();
	if (rc < 0) {
		atomic_file_fail(err, err_size, -rc, "%s: cannot replace it with %s", af->path,
				 af->tmp_path);
		atomic_file_abort(af);
		return rc;
	}
	if (rc > 0)
		rc = atomic_file_fail(err, err_size, rc, "%s: written, but syncing its directory "
				      "failed", af->path);
	release(af);
	return rc;
}

/* file_lock.c: the part of the writer's lock every OS shares
 * (file_lock_os.h); the lock itself is file_lock_<os>.c's. */
#include <stdlib.h>
#include <string.h>

#include "core/path_os.h"
#include "store/file_lock_os.h"

char *file_lock_directory(const char *path)
{
	const char *slash = path_os_last_separator(path);
	const char *from = slash ? path : ".";
	size_t n = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
	char *dir = malloc(n + 1);

	if (dir) {
		memcpy(dir, from, n);
		dir[n] = '\0';
	}
	return dir;
}

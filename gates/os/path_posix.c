/* path_posix.c: path_os.h on Linux and macOS: '/' separates, names are
 * compared byte for byte, the execute bit makes a program. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path_os.h"

const char *path_os_last_separator(const char *path)
{
	return strrchr(path, '/');
}

int path_os_same_prefix(const char *a, const char *b, size_t n)
{
	return strncmp(a, b, n) == 0;
}

int path_os_is_program(const char *path, const char *name)
{
	(void)name;
	return access(path, X_OK) == 0;
}

int path_os_source_root(const char *path, char *out, size_t size)
{
	char *dir = realpath(path, NULL);
	if (!dir)
		return -errno;
	int ret = -ENOENT;
	for (char *cut = strrchr(dir, '/'); cut; cut = strrchr(dir, '/')) {
		*cut = '\0';   /* the parent of what was left: PATH is a file */
		char git[PATH_MAX];
		struct stat st;
		snprintf(git, sizeof git, "%s/.git", *dir ? dir : "");
		if (!stat(git, &st)) {
			ret = snprintf(out, size, "%s", *dir ? dir : "/") < (int)size ? 0 : -ENAMETOOLONG;
			break;
		}
	}
	free(dir);
	return ret;
}

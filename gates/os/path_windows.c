/* path_windows.c: path_os.h on Windows: '\\' separates as well as '/',
 * file names are case-insensitive, and a program is a ".exe". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/path_os.h"

const char *path_os_last_separator(const char *path)
{
	const char *slash = strrchr(path, '/'), *back = strrchr(path, '\\');
	return back && (!slash || back > slash) ? back : slash;
}

int path_os_same_prefix(const char *a, const char *b, size_t n)
{
	return _strnicmp(a, b, n) == 0;
}

int path_os_is_program(const char *path, const char *name)
{
	size_t len = strlen(name);
	(void)path;
	return len > 4 && !strcmp(name + len - 4, ".exe");
}

int path_os_source_root(const char *path, char *out, size_t size)
{
	char dir[_MAX_PATH];
	if (!_fullpath(dir, path, sizeof dir))
		return -ENAMETOOLONG;
	for (char *cut = (char *)path_os_last_separator(dir); cut;
	     cut = (char *)path_os_last_separator(dir)) {
		*cut = '\0';   /* the parent of what was left: PATH is a file */
		char git[_MAX_PATH + 8];
		struct _stat64 st;
		snprintf(git, sizeof git, "%s\\.git", dir);
		if (!_stat64(git, &st))
			return snprintf(out, size, "%s", dir) < (int)size ? 0 : -ENAMETOOLONG;
	}
	return -ENOENT;
}

/* path_windows.c: path_os.h on Windows: '\\' separates as well as '/',
 * file names are case-insensitive, and a program is a ".exe". */
#include <string.h>

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

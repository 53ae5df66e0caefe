/* path_posix.c: path_os.h on Linux and macOS: '/' separates, names are
 * compared byte for byte, the execute bit makes a program. */
#include <string.h>
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

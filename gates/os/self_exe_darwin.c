/* self_exe_darwin.c: path_os_self_executable (core/path_os.h) on macOS:
 * _NSGetExecutablePath (dyld(3)) gives the path the program was started
 * by, possibly through a link; realpath resolves it. */
#include <errno.h>
#include <limits.h>
#include <mach-o/dyld.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/path_os.h"

int path_os_self_executable(char *out, size_t size)
{
	char started[PATH_MAX], resolved[PATH_MAX];
	uint32_t len = sizeof started;
	if (_NSGetExecutablePath(started, &len))
		return -ENAMETOOLONG;
	if (!realpath(started, resolved))
		return -errno;
	int n = snprintf(out, size, "%s", resolved);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

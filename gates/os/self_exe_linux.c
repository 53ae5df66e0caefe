/* self_exe_linux.c: path_os_self_executable (core/path_os.h) on Linux:
 * the link /proc/self/exe, which the kernel resolves (proc(5)). */
#include <errno.h>
#include <unistd.h>

#include "core/path_os.h"

int path_os_self_executable(char *out, size_t size)
{
	if (size < 2)
		return -ENAMETOOLONG;
	ssize_t n = readlink("/proc/self/exe", out, size - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;   /* readlink truncates without saying so */
	out[n] = '\0';
	return 0;
}

/* self_exe_windows.c: path_os_self_executable (core/path_os.h) on
 * Windows: GetModuleFileNameA of the program's own module (NULL). */
#include <errno.h>
#include <windows.h>

#include "core/path_os.h"

int path_os_self_executable(char *out, size_t size)
{
	DWORD n = GetModuleFileNameA(NULL, out, (DWORD)size);
	if (n == 0)
		return -ENOENT;
	if (n >= size)
		return -ENAMETOOLONG;   /* truncated */
	return 0;
}

/* commit_windows.c: git's pipe with _popen (commit_os.h); git for
 * Windows on PATH, as on GitHub's Windows runners. */
#include "core/commit_os.h"

FILE *commit_os_open_describe(void)
{
	return _popen("git describe --always --dirty 2>NUL", "r");
}

int commit_os_close(FILE *pipe)
{
	return _pclose(pipe);
}

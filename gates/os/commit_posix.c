/* commit_posix.c: git's pipe with popen(3) (commit_os.h). */
#include "core/commit_os.h"

FILE *commit_os_open_describe(void)
{
	return popen("git describe --always --dirty 2>/dev/null", "r");
}

int commit_os_close(FILE *pipe)
{
	return pclose(pipe);
}

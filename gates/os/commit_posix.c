/* commit_posix.c: git's pipe with popen(3) (commit_os.h). */
#include "core/commit_os.h"

FILE *commit_os_open_describe(void)
{
	return popen("git describe --always 2>/dev/null", "r");
}

FILE *commit_os_open_changes(void)
{
	return popen("git status --porcelain --untracked-files=no -- \":(top)\" "
		      "\":(top,exclude)baselines\" 2>/dev/null", "r");
}

int commit_os_close(FILE *pipe)
{
	return pclose(pipe);
}

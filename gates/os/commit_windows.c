/* commit_windows.c: git's pipe with _popen (commit_os.h); git for
 * Windows on PATH, as on GitHub's Windows runners. */
#include "core/commit_os.h"

FILE *commit_os_open_describe(void)
{
	return _popen("git describe --always 2>NUL", "r");
}

FILE *commit_os_open_changes(void)
{
	return _popen("git status --porcelain --untracked-files=no -- \":(top)\" "
		      "\":(top,exclude)baselines\" 2>NUL", "r");
}

int commit_os_close(FILE *pipe)
{
	return _pclose(pipe);
}

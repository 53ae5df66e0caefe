/* commit_windows.c: commit_git_describe with _popen (commit.h); git for
 * Windows on PATH, as on GitHub's Windows runners. */
#include <stdio.h>
#include <string.h>

#include "core/commit.h"

int commit_git_describe(char *out, size_t size)
{
	if (!size)
		return -1;
	*out = '\0';
	FILE *p = _popen("git describe --always --dirty 2>NUL", "r");
	if (!p)
		return -1;
	int got = fgets(out, (int)size, p) != NULL;
	int status = _pclose(p);
	out[strcspn(out, "\r\n")] = '\0';
	if (!got || status != 0 || !*out) {
		*out = '\0';
		return -1;
	}
	return 0;
}

/* commit_posix.c: commit_git_describe with popen(3) (commit.h). */
#include <stdio.h>
#include <string.h>

#include "core/commit.h"

int commit_git_describe(char *out, size_t size)
{
	if (!size)
		return -1;
	*out = '\0';
	FILE *p = popen("git describe --always --dirty 2>/dev/null", "r");
	if (!p)
		return -1;
	int got = fgets(out, (int)size, p) != NULL;
	int status = pclose(p);
	out[strcspn(out, "\r\n")] = '\0';
	if (!got || status != 0 || !*out) {
		*out = '\0';
		return -1;
	}
	return 0;
}

/* commit.c: which commit a run measured (commit.h). */
#include "core/commit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int commit_current(char *out, size_t size)
{
	const char *env = getenv("ALLOCGATE_COMMIT");
	if (!env || !*env)
		env = getenv("GITHUB_SHA");
	if (env && *env) {
		snprintf(out, size < 65 ? size : 65, "%s", env);
		return 0;
	}
	if (commit_git_describe(out, size < 65 ? size : 65) == 0 && *out)
		return 0;
	if (size)
		*out = '\0';
	return -1;
}

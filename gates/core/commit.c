/* commit.c: which commit a run measured (commit.h). */
#include "core/commit.h"
#include "core/commit_os.h"

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

int commit_git_describe(char *out, size_t size)
{
	if (!size)
		return -1;
	*out = '\0';
	FILE *p = commit_os_open_describe();
	if (!p)
		return -1;
	int got = fgets(out, (int)size, p) != NULL;
	int status = commit_os_close(p);
	out[strcspn(out, "\r\n")] = '\0';
	if (!got || status != 0 || !*out) {
		*out = '\0';
		return -1;
	}
	/* -dirty as git describe --dirty says it, baselines/ left out */
	FILE *c = commit_os_open_changes();
	if (c) {
		char line[16];
		int changed = fgets(line, (int)sizeof line, c) != NULL;
		if (commit_os_close(c) == 0 && changed && strlen(out) + 7 < size)
			strcat(out, "-dirty");
	}
	return 0;
}

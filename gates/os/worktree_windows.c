/* worktree_windows.c: worktree_os.h on Windows: a directory under the
 * temporary directory (_mktemp_s, _mkdir), of the length it has, and
 * cmd.exe. */
#include <direct.h>
#include <errno.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/worktree_os.h"

int worktree_os_make_dir(const char *top, char *out, size_t size)
{
	const char *tmp = getenv("TEMP") && *getenv("TEMP") ? getenv("TEMP") : ".";
	(void)top;
	if (snprintf(out, size, "%s\\allocgate-bisect-XXXXXX", tmp) >= (int)size)
		return -ENAMETOOLONG;
	if (_mktemp_s(out, strlen(out) + 1) || _mkdir(out))
		return -errno;
	return 1;
}

void worktree_os_shell(const char *dir, const char *command, char **argv)
{
	static char line[8192];
	snprintf(line, sizeof line, "cd /d \"%s\" && %s", dir, command);
	argv[0] = "cmd.exe";
	argv[1] = "/d";
	argv[2] = "/s";
	argv[3] = "/c";
	argv[4] = line;
	argv[5] = NULL;
}

int worktree_os_find_program(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");
	for (const char *p = path ? path : "."; p;) {
		const char *semi = strchr(p, ';');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		int n = snprintf(out, size, "%.*s\\%s.exe", (int)len, len ? p : ".", name);
		if (n > 0 && (size_t)n < size && !_access(out, 0))
			return 0;
		p = semi ? semi + 1 : NULL;
	}
	return -ENOENT;
}

int worktree_os_mkdir(const char *dir)
{
	return _mkdir(dir) && errno != EEXIST ? -errno : 0;
}

/* worktree_posix.c: worktree_os.h on Linux and macOS. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/worktree_os.h"

/* Makes BASE/NAME where NAME fills the path to LEN bytes: "allocgate-"
 * cut or padded with '-', then mkdtemp's six X. 0, or -1 when it does not
 * fit or fails. */
static int make_in(const char *base, size_t len, char *out, size_t size)
{
	char real[4096];
	if (!base || !*base || !realpath(base, real) || access(real, W_OK))
		return -1;
	size_t have = strlen(real) + 1;   /* the base and its '/' */
	if (len < have + 6 || len + 1 > size)
		return -1;
	size_t name = len - have - 6;
	static const char stem[] = "allocgate-bisect-";
	int n = snprintf(out, size, "%s/", real);
	for (size_t i = 0; i < name; i++)
		out[n + i] = i < sizeof stem - 1 ? stem[i] : '-';
	memcpy(out + n + name, "XXXXXX", 7);
	return mkdtemp(out) ? 0 : -1;
}

int worktree_os_make_dir(const char *top, char *out, size_t size)
{
	char parent[4096];
	size_t len = strlen(top);
	snprintf(parent, sizeof parent, "%s", top);
	char *slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	const char *bases[] = { getenv("TMPDIR"), "/tmp", slash && *parent ? parent : NULL };
	for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
		if (!make_in(bases[i], len, out, size))
			return 0;
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	if (snprintf(out, size, "%s/allocgate-bisect-XXXXXX", tmp) >= (int)size)
		return -ENAMETOOLONG;
	return mkdtemp(out) ? 1 : -errno;
}

void worktree_os_shell(const char *dir, const char *command, char **argv)
{
	argv[0] = "/bin/sh";
	argv[1] = "-c";
	argv[2] = "cd \"$1\" && eval \"$2\"";
	argv[3] = "sh";
	argv[4] = (char *)dir;
	argv[5] = (char *)command;
	argv[6] = NULL;
}

int worktree_os_find_program(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");
	for (const char *p = path ? path : "/usr/bin:/bin"; p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		int n = snprintf(out, size, "%.*s/%s", (int)len, len ? p : ".", name);
		if (n > 0 && (size_t)n < size && !access(out, X_OK))
			return 0;
		p = colon ? colon + 1 : NULL;
	}
	return -ENOENT;
}

int worktree_os_mkdir(const char *dir)
{
	return mkdir(dir, 0777) && errno != EEXIST ? -errno : 0;
}

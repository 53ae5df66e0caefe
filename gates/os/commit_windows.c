/* commit_windows.c: git's pipe with _popen (commit_os.h); git for
 * Windows on PATH, as on GitHub's Windows runners. */
#include "core/commit_os.h"

#include <string.h>

FILE *commit_os_open_describe(void)
{
	return _popen("git describe --always 2>NUL", "r");
}

FILE *commit_os_open_changes(void)
{
	return _popen("git status --porcelain --untracked-files=no -- \":(top)\" "
		      "\":(top,exclude)baselines\" 2>NUL", "r");
}

/* cmd.exe quoting: "A" and "B"; a text holding " or % (which cmd expands
 * even inside quotes) is refused: NULL, and nothing is said. */
static FILE *open_quoted(const char *fmt, const char *a, const char *b)
{
	char cmd[8192];

	if (strpbrk(a, "\"%\r\n") || strpbrk(b, "\"%\r\n") ||
	    strlen(a) + strlen(b) + strlen(fmt) >= sizeof cmd)
		return NULL;
	snprintf(cmd, sizeof cmd, fmt, a, b);
	return _popen(cmd, "r");
}

FILE *commit_os_open_merge_base(const char *dir, const char *ref)
{
	return open_quoted("git -C \"%s\" merge-base HEAD \"%s\" 2>NUL", dir, ref);
}

FILE *commit_os_open_show(const char *dir, const char *rev, const char *name)
{
	char spec[4200];

	if (strlen(rev) + strlen(name) + 4 > sizeof spec)
		return NULL;
	snprintf(spec, sizeof spec, "%s:./%s", rev, name);
	return open_quoted("git -C \"%s\" show \"%s\" 2>NUL", dir, spec);
}

FILE *commit_os_open_revision(const char *dir)
{
	/* open_quoted takes two texts: the second is empty */
	return open_quoted("git -C \"%s\" describe --always --dirty --abbrev=7 --exclude=*%s "
			   "2>NUL", dir, "");
}

/* cmd.exe leaves a lone % as it is: no second one follows */
FILE *commit_os_open_log(const char *rev, char what)
{
	return open_quoted(what == 's' ? "git log -1 --format=%%s \"%s\" --%s 2>NUL"
				       : "git log -1 --format=%%ct \"%s\" --%s 2>NUL", rev, "");
}

FILE *commit_os_open_rev_count(const char *a, const char *b)
{
	return open_quoted("git rev-list --first-parent --count \"%s..%s\" -- 2>NUL", a, b);
}

int commit_os_close(FILE *pipe)
{
	return _pclose(pipe);
}

/* commit_posix.c: git's pipe with popen(3) (commit_os.h). */
#include "core/commit_os.h"

#include <stdlib.h>
#include <string.h>

/* "'S'" with each ' as '\'' (sh(1) quoting), in a malloc'd string. */
static char *quote(const char *s)
{
	char *q = malloc(4 * strlen(s) + 3), *o = q;

	if (!q)
		return NULL;
	*o++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *s;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return q;
}

/* popen of FMT with the quoted A (and B when not NULL) put in its %s. */
static FILE *open_quoted(const char *fmt, const char *a, const char *b)
{
	char *qa = quote(a), *qb = b ? quote(b) : NULL, *cmd = NULL;
	FILE *p = NULL;
	size_t size;

	if (!qa || (b && !qb))
		goto out;
	size = strlen(fmt) + strlen(qa) + (qb ? strlen(qb) : 0) + 1;
	if (!(cmd = malloc(size)))
		goto out;
	if (b)
		snprintf(cmd, size, fmt, qa, qb);
	else
		snprintf(cmd, size, fmt, qa);
	p = popen(cmd, "r");
out:
	free(qa);
	free(qb);
	free(cmd);
	return p;
}

FILE *commit_os_open_merge_base(const char *dir, const char *ref)
{
	return open_quoted("git -C %s merge-base HEAD %s 2>/dev/null", dir, ref);
}

FILE *commit_os_open_show(const char *dir, const char *rev, const char *name)
{
	char *spec = malloc(strlen(rev) + strlen(name) + 4);
	FILE *p;

	if (!spec)
		return NULL;
	sprintf(spec, "%s:./%s", rev, name);
	p = open_quoted("git -C %s show %s 2>/dev/null", dir, spec);
	free(spec);
	return p;
}

FILE *commit_os_open_revision(const char *dir)
{
	return open_quoted("git -C %s describe --always --dirty --abbrev=7 '--exclude=*' "
			   "2>/dev/null", dir, NULL);
}

FILE *commit_os_open_describe(void)
{
	return popen("git describe --always 2>/dev/null", "r");
}

FILE *commit_os_open_changes(void)
{
	return popen("git status --porcelain --untracked-files=no -- \":(top)\" "
		      "\":(top,exclude)baselines\" 2>/dev/null", "r");
}

FILE *commit_os_open_log(const char *rev, char what)
{
	return open_quoted(what == 's' ? "git log -1 --format=%%s %s -- 2>/dev/null"
				       : "git log -1 --format=%%ct %s -- 2>/dev/null", rev, NULL);
}

FILE *commit_os_open_rev_count(const char *a, const char *b)
{
	/* 'A'..'B': the shell joins the two quoted words into one argument */
	return open_quoted("git rev-list --first-parent --count %s..%s -- 2>/dev/null", a, b);
}

int commit_os_close(FILE *pipe)
{
	return pclose(pipe);
}

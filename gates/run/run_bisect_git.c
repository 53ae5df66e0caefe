/* run_bisect_git.c: the git commands of `gate bisect` (run_bisect.h):
 * each run as a process of its own (sample/spawn.h), never through a
 * shell, so that a revision's name is never parsed as shell text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_bisect.h"
#include "core/worktree_os.h"
#include "sample/spawn.h"

/* Runs git with ARGS (NULL-terminated, after "git"); its whole stdout into
 * *OUT (freed by the caller; may be NULL: discarded). 0 when git exited 0,
 * else -1 (its first line of stderr into WHY when not NULL). */
int bisect_git(const char *const *args, char **out, char *why, size_t why_size)
{
	char git[4096], *argv[32];
	size_t n = 0;
	struct spawn_output o;
	if (out)
		*out = NULL;
	if (why && why_size)
		snprintf(why, why_size, "git is not installed");
	if (worktree_os_find_program("git", git, sizeof git))
		return -1;
	argv[n++] = git;
	for (size_t i = 0; args[i] && n + 1 < sizeof argv / sizeof argv[0]; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	if (spawn_run(argv, NULL, 600, &o))
		return -1;
	int ok = o.status == SPAWN_EXITED && o.exit_code == 0;
	if (!ok && why && why_size) {
		const char *e = o.err && *o.err ? o.err : "git failed";
		snprintf(why, why_size, "%.*s", (int)strcspn(e, "\n"), e);
	}
	if (ok && out) {
		*out = o.out;
		o.out = NULL;
	}
	spawn_output_free(&o);
	return ok ? 0 : -1;
}

int bisect_git_line(const char *const *args, char *out, size_t size, char *why,
		    size_t why_size)
{
	char *text;
	if (bisect_git(args, &text, why, why_size))
		return -1;
	snprintf(out, size, "%.*s", (int)strcspn(text ? text : "", "\n"), text ? text : "");
	free(text);
	return *out ? 0 : -1;
}

int bisect_git_commits(const char *good, const char *bad, char (**out)[41], size_t *count,
		       char *why, size_t why_size)
{
	char range[200], *text;
	snprintf(range, sizeof range, "%s..%s", good, bad);
	const char *args[] = { "rev-list", "--first-parent", "--reverse", range, NULL };
	*out = NULL;
	*count = 0;
	if (bisect_git(args, &text, why, why_size))
		return -1;
	size_t cap = 0;
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len != 40)
			continue;
		if (*count == cap) {
			cap = cap ? 2 * cap : 64;
			char (*grown)[41] = realloc(*out, cap * sizeof **out);
			if (!grown) {
				free(text);
				return -ENOMEM;
			}
			*out = grown;
		}
		memcpy((*out)[*count], p, 40);
		(*out)[(*count)++][40] = '\0';
	}
	free(text);
	return 0;
}

/* commit_os.h: what commit.c needs from the OS (os/commit_posix.c,
 * os/commit_windows.c): pipes from git in the current directory, its
 * errors discarded. */
#ifndef GATE_COMMIT_OS_H
#define GATE_COMMIT_OS_H

#include <stdio.h>

/* `git describe --always`, or NULL when it cannot be started. */
FILE *commit_os_open_describe(void);

/* `git status --porcelain --untracked-files=no` of the whole work tree
 * but its top-level baselines/ (what --update-baseline writes: a
 * baseline recorded in two tiers is not "dirty" from the first), or NULL. */
FILE *commit_os_open_changes(void);

/* `git -C DIR merge-base HEAD REF`, or NULL. REF: a ref name of the
 * characters commit_base_revision allows (letters, digits, . _ / - ~ ^,
 * not first -); DIR quoted for the shell. */
FILE *commit_os_open_merge_base(const char *dir, const char *ref);

/* `git -C DIR show REV:./NAME` (NAME a file of DIR), or NULL; REV as REF
 * above. */
FILE *commit_os_open_show(const char *dir, const char *rev, const char *name);

/* `git -C DIR describe --always --dirty --abbrev=7 --exclude=*` (the
 * abbreviated commit, never a tag), or NULL; DIR quoted for the shell. */
FILE *commit_os_open_revision(const char *dir);

/* `git log -1 --format=%s REV --` (WHAT 's': the subject) or
 * `--format=%ct` (WHAT 't': the committer time, seconds since 1970) in the
 * current directory, or NULL; REV as REF above. */
FILE *commit_os_open_log(const char *rev, char what);

/* `git rev-list --first-parent --count A..B --` in the current directory, or NULL; A and
 * B as REF above. */
FILE *commit_os_open_rev_count(const char *a, const char *b);

/* Closes it; 0 when git exited 0. */
int commit_os_close(FILE *pipe);

#endif

/* commit.h: the commit a run measured, recorded in its context.
 *
 * ALLOCGATE_COMMIT when set (the override, e.g. a CI system's own id), else
 * GITHUB_SHA (GitHub Actions), else `git describe --always --dirty` of the
 * current directory: the project the user runs the gate in, which is the
 * project whose kernels and baselines these are (not allocgate's own
 * checkout, unless that is where it runs). Starting git is OS code
 * (commit_os.h). */
#ifndef GATE_COMMIT_H
#define GATE_COMMIT_H

#include <stddef.h>

/* The commit into OUT of SIZE (at most 64 characters); 0, or -1 when none
 * is known (no override, not a git checkout, no git): OUT is then "". */
int commit_current(char *out, size_t size);

/* `git describe --always --dirty` of the current directory into OUT (the
 * first line, trailing space removed); 0, or -1 (no git, not a checkout). */
int commit_git_describe(char *out, size_t size);

/* The revision of the git checkout or worktree that holds directory DIR
 * (its source root, path_os_source_root: the nearest directory above it
 * with a `.git`), abbreviated to 7 digits or more, "-dirty" when a tracked
 * file differs from it ("1a2b3c4", "1a2b3c4-dirty"; tags are not used: a
 * revision, not a release, names a pull request's side), into OUT of SIZE.
 * Returns 0, or -1 when DIR lies in no checkout (or does not exist, or git
 * cannot say): OUT is then "". */
int commit_dir_revision(const char *dir, char *out, size_t size);

/* The revision the change under test is measured against, for saying
 * what it did to the file PATH (a baseline), into REV (a commit id or
 * "HEAD"), and how it was chosen into WHY:
 *   ALLOCGATE_BASE_REF set: the merge base of HEAD with it (any CI);
 *   GITHUB_BASE_REF set (a pull request on GitHub Actions): the merge base
 *     of HEAD with origin/<it>, else with <it> (the checkout must hold the
 *     base branch: fetch-depth 0);
 *   else: HEAD when PATH in the work tree differs from HEAD's ("an edit
 *     not committed yet"), HEAD~1 when not ("the last commit's change").
 * git runs in PATH's directory: the checkout holding the file. MAX: the
 * most bytes of PATH read. Returns 0, or -1 when there is none (no git,
 * not a checkout, a ref of other characters than letters, digits,
 * . _ / - ~ ^, no merge base). */
int commit_base_revision(const char *path, size_t max, char *rev, size_t size, char *why,
			 size_t why_size);

/* PATH (git runs in its directory) as it is at REV, at most MAX
 * bytes, into a malloc'd *TEXT of *LEN bytes. Returns 0, or -1 (no git,
 * no such file at REV, longer than MAX, no memory). */
int commit_file_at(const char *rev, const char *path, size_t max, char **text, size_t *len);

/* What the git checkout of the current directory says of commit REV (a
 * revision of the characters commit_base_revision allows), for `gate
 * history`; each returns 0, or -1 (no git, not a checkout, no such commit
 * in it): its subject line into OUT of SIZE; its committer time as
 * "YYYY-MM-DDTHH:MM:SSZ" (UTC) into OUT; the commits reachable from B but
 * not from A along B's first parents (`git rev-list --first-parent --count
 * A..B`: a merged branch's own commits are no gap) into *COUNT. */
int commit_subject(const char *rev, char *out, size_t size);
int commit_time_utc(const char *rev, char *out, size_t size);
int commit_count_range(const char *a, const char *b, long *count);

#endif

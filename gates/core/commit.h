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

#endif

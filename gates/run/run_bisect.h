/* run_bisect.h: the parts of `gate bisect` (run.h's run_bisect) that talk
 * to git (run_bisect_git.c) and measure one revision
 * (run_bisect_measure.c). */
#ifndef GATE_RUN_BISECT_H
#define GATE_RUN_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"
#include "core/result.h"
#include "sample/spawn.h"

/* Runs git with ARGS (NULL-terminated, after "git"), its stdout into *OUT
 * (the caller frees it; OUT may be NULL). 0 when git exited 0, else -1
 * with its first line of stderr in WHY. */
int bisect_git(const char *const *args, char **out, char *why, size_t why_size);

/* bisect_git's first line of output into OUT; -1 when git failed or
 * printed nothing. */
int bisect_git_line(const char *const *args, char *out, size_t size, char *why,
		    size_t why_size);

/* The commits after GOOD up to BAD along BAD's first parents, oldest
 * first (`git rev-list --first-parent --reverse GOOD..BAD`), as full
 * hashes into *OUT (freed by the caller), *COUNT of them. 0, -1 (git
 * failed: WHY) or -ENOMEM. */
int bisect_git_commits(const char *good, const char *bad, char (**out)[41], size_t *count,
		       char *why, size_t why_size);

/* Where a search keeps its results and what it measures: the repository's
 * top and the gate's directory inside it, the cache, the key of P's build
 * and measurement, the kernels and the cost pass to take. */
struct bisect_env {
	const struct bisect_plan *p;
	char top[4096], prefix[4096], cache[4096], key[20], self[4096];
	const char **kernels;          /* the kernels to measure; NULL: P's */
	size_t kernel_count;
	bool no_cost;
};

/* Measures COMMIT: from E's cache when an earlier search did, else built
 * by E->p->build in a worktree of its own and run by `gate run` (two rounds,
 * no warm-up: the counted and cost passes are what decide), the result
 * kept in the cache. 0 with *R loaded and *CACHED set; 1 when COMMIT is to
 * be skipped (WHY says why: its build failed, no kernel); a negative errno. */
int bisect_measure(const struct bisect_env *e, const char *commit, struct run_result *r,
		   bool *cached, char *why, size_t why_size);

/* COMMIT checked out in a new worktree at a path of the checkout's length
 * and built there by E's build command, its path into DIR: 0 (the caller
 * removes it: bisect_worktree_remove), 1 when COMMIT is skipped (WHY: it
 * does not build; nothing is left), or a negative errno. */
int bisect_worktree_build(const struct bisect_env *e, const char *commit, char *dir,
			  size_t dir_size, char *why, size_t why_size);

/* Removes the worktree DIR. */
void bisect_worktree_remove(const struct bisect_env *e, const char *dir);

/* Appends E's tier and --kernel names to ARGV (ROOM entries) from *N on. */
void bisect_gate_args(const struct bisect_env *e, const char **argv, size_t *n, size_t room);

/* Why the gate's process O (WHAT: "gate run", "gate ab") failed, into WHY:
 * its exit status and its last line of stderr. */
void bisect_why_gate(const struct spawn_output *o, const char *what, char *why, size_t size);

/* --timing: COMMIT built and timed by `gate ab` against the kernels in
 * GOOD_KD (the good revision's, built once), in the same rounds, its
 * timing alone gating (--gate timing, no cost pass). 0 when its timing
 * holds, 2 when it regressed (RESULT, when not NULL, gets gate ab's
 * result), 1 when COMMIT is skipped (WHY), or a negative errno. */
int bisect_time(const struct bisect_env *e, const char *good_kd, const char *commit,
		struct run_result *result, char *why, size_t why_size);

#endif

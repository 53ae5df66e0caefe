/* worktree_os.h: what `gate bisect` needs from the OS to build a revision
 * in a git worktree (os/worktree_posix.c, os/worktree_windows.c). */
#ifndef GATE_WORKTREE_OS_H
#define GATE_WORKTREE_OS_H

#include <stddef.h>

/* Makes a new empty directory for a worktree into OUT: its path as many
 * bytes long as TOP's where one fits (under TMPDIR, /tmp or TOP's parent),
 * so that a build with absolute paths (CMake) digests and names sites as
 * the checkout's does (core/digest_elf.h, ci/worktree.sh). Returns 0, 1
 * when only a directory of another length could be made, or a negative
 * errno. */
int worktree_os_make_dir(const char *top, char *out, size_t size);

/* The argument vector that runs shell COMMAND in directory DIR (room for
 * 7 entries, NULL-terminated): `/bin/sh -c 'cd "$1" && eval "$2"' sh DIR
 * COMMAND` on POSIX, `cmd.exe /d /s /c` on Windows. */
void worktree_os_shell(const char *dir, const char *command, char **argv);

/* The program NAME as PATH finds it, into OUT (execve wants a path).
 * Returns 0 or -ENOENT. */
int worktree_os_find_program(const char *name, char *out, size_t size);

/* Makes directory DIR (its parent must exist); 0 when it is there after,
 * or a negative errno. */
int worktree_os_mkdir(const char *dir);

#endif

/* path_os.h: the OS's file name conventions, for the layers that take
 * paths apart (store/atomic_file.c, run/discover.c). One file per OS:
 * os/path_posix.c, os/path_windows.c; and where the running program is:
 * os/self_exe_linux.c, os/self_exe_darwin.c, os/self_exe_windows.c. */
#ifndef GATE_PATH_OS_H
#define GATE_PATH_OS_H

#include <stddef.h>

/* The last directory separator of PATH (its last '/'; on Windows its last
 * '/' or '\\'), or NULL when it has none. */
const char *path_os_last_separator(const char *path);

/* Whether the first N characters of file names A and B name the same
 * thing: byte for byte on POSIX; ignoring case on Windows, whose file
 * names are case-insensitive (_strnicmp). Returns 1 or 0. */
int path_os_same_prefix(const char *a, const char *b, size_t n);

/* Whether PATH, a regular file whose file name is NAME, is a program:
 * executable by this user on POSIX (access X_OK); NAME ends in ".exe" on
 * Windows. Returns 1 or 0. */
int path_os_is_program(const char *path, const char *name);

/* The running program's own file, links resolved, into OUT: what an
 * installed gate finds its interposer and helpers from, however it was
 * started (through PATH, a link, a full path). Linux: /proc/self/exe;
 * macOS: _NSGetExecutablePath then realpath; Windows: GetModuleFileName.
 * Returns 0, or a negative errno (-ENAMETOOLONG when SIZE is too small). */
int path_os_self_executable(char *out, size_t size);

/* The source root of the file PATH, into OUT: the nearest directory at or
 * above PATH's own (links resolved) that holds a `.git` entry, the top of
 * a git checkout or worktree, where a project's own file names start
 * (what GitHub's annotations name files by). A pull request's base built
 * in a worktree and its head in the checkout so name the same source the
 * same way, whatever directory either was built in. Returns 0, -ENOENT
 * when no such directory holds PATH, or another negative errno. */
int path_os_source_root(const char *path, char *out, size_t size);

#endif

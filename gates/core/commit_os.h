/* commit_os.h: what commit.c needs from the OS (os/commit_posix.c,
 * os/commit_windows.c): a pipe from `git describe --always --dirty` of
 * the current directory, its errors discarded. */
#ifndef GATE_COMMIT_OS_H
#define GATE_COMMIT_OS_H

#include <stdio.h>

/* The pipe, or NULL when it cannot be started. */
FILE *commit_os_open_describe(void);

/* Closes it; 0 when git exited 0. */
int commit_os_close(FILE *pipe);

#endif

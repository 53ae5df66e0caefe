/* spawn_reap.h: what spawn_posix.c needs to end the processes a kernel
 * left behind (spawn.h, "Containment"), one file per OS:
 * spawn_reap_linux.c (a child subreaper, prctl(2) PR_SET_CHILD_SUBREAPER,
 * Linux 3.4), spawn_reap_darwin.c (none: macOS has no subreaper). */
#ifndef GATE_SPAWN_REAP_H
#define GATE_SPAWN_REAP_H

#include <stddef.h>
#include <sys/types.h>

/* Makes this process a child subreaper: an orphan among its descendants
 * becomes its child, not init's. Returns 0 or a negative errno (-ENOSYS
 * where the OS has none). */
int spawn_reap_subreaper(void);

/* Kills (SIGKILL) and reaps every child of this process whose pid is not
 * one of KEEP's N, and again the children those leave behind, until none
 * is left. Returns how many it ended. Call it with no other thread
 * starting a child meanwhile (spawn_posix.c holds its lock). */
size_t spawn_reap_adopted(const pid_t *keep, size_t n);

/* A descriptor, close-on-exec, that poll(2) reports readable once child
 * PID has exited (Linux 5.3+: pidfd_open(2)), or -1 where there is none
 * (the caller then polls waitid). */
int spawn_reap_exit_fd(pid_t pid);

#endif

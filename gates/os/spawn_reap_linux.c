/* spawn_reap_linux.c: spawn_reap.h on Linux. The gate is a child
 * subreaper (prctl(2), PR_SET_CHILD_SUBREAPER): when a kernel exits, or is
 * killed, the processes it started are reparented to the gate, a setsid(2)
 * one too, and are found among the gate's children.
 *
 * The children are read from /proc/PID/task/TID/children (each thread's
 * list; the orphans go to one thread of the subreaper), or, on a kernel
 * built without CONFIG_PROC_CHILDREN, from every /proc/N/stat whose parent
 * (field 4) is the gate (proc(5)).
 *
 * A sample ends when its kernel exits, not when its pipes close (a
 * process it left behind may hold them: under valgrind, valgrind's own
 * descriptors above 1024 too): a pidfd (pidfd_open(2)) says when. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sample/spawn_reap.h"

/* The most children one pass ends; the rest are found by the next pass. */
#define REAP_BATCH 256

int spawn_reap_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) ? -errno : 0;
}

static int kept(pid_t pid, const pid_t *keep, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (keep[i] == pid)
			return 1;
	return 0;
}

/* Adds the pids listed in the text of PATH ("12 34 ") to OUT (room for
 * REAP_BATCH), except KEEP's; returns -1 when PATH cannot be read. */
static int read_children(const char *path, const pid_t *keep, size_t n, pid_t *out,
			 size_t *count)
{
	FILE *f = fopen(path, "r");
	long pid;
	if (!f)
		return -1;
	while (*count < REAP_BATCH && fscanf(f, "%ld", &pid) == 1)
		if (!kept((pid_t)pid, keep, n))
			out[(*count)++] = (pid_t)pid;
	fclose(f);
	return 0;
}

/* The parent of process PID from /proc/PID/stat (after the command name,
 * which may hold spaces and parentheses: the last ')'), or -1. */
static pid_t parent_of(const char *pid)
{
	char path[300], buf[512];
	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t len = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[len] = '\0';
	char *end = strrchr(buf, ')');
	long ppid;
	char state;
	if (!end || sscanf(end + 1, " %c %ld", &state, &ppid) != 2)
		return -1;
	return (pid_t)ppid;
}

/* This process's children but KEEP's into OUT; returns how many. */
static size_t children(const pid_t *keep, size_t n, pid_t *out)
{
	size_t count = 0;
	char path[300];
	struct dirent *e;
	int listed = 0;
	DIR *d = opendir("/proc/self/task");
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%s/children", e->d_name);
		listed = read_children(path, keep, n, out, &count) == 0 || listed;
	}
	if (d)
		closedir(d);
	if (listed)
		return count;
	pid_t self = getpid();
	d = opendir("/proc");
	while (d && count < REAP_BATCH && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9' || parent_of(e->d_name) != self)
			continue;
		pid_t pid = (pid_t)atol(e->d_name);
		if (!kept(pid, keep, n))
			out[count++] = pid;
	}
	if (d)
		closedir(d);
	return count;
}

size_t spawn_reap_adopted(const pid_t *keep, size_t n)
{
	pid_t found[REAP_BATCH];
	size_t ended = 0, count;
	/* each pass ends a generation: the children of the killed ones are
	 * reparented to this process when those exit, before waitpid returns */
	while ((count = children(keep, n, found)) > 0) {
		for (size_t i = 0; i < count; i++)
			kill(found[i], SIGKILL);
		for (size_t i = 0; i < count; i++)
			while (waitpid(found[i], NULL, 0) < 0 && errno == EINTR)
				;
		ended += count;
	}
	return ended;
}

int spawn_reap_exit_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
	/* pidfds are close-on-exec (pidfd_open(2)); ENOSYS before Linux 5.3 */
	long fd = syscall(SYS_pidfd_open, pid, 0);
	return fd < 0 ? -1 : (int)fd;
#else
	(void)pid;
	return -1;
#endif
}

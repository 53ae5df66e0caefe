/* spawn_reap_darwin.c: spawn_reap.h on macOS, which has no child
 * subreaper (no PR_SET_CHILD_SUBREAPER, no PROC_REAP_ACQUIRE): an orphan
 * goes to launchd, so only the sample's process group is ended
 * (spawn_posix.c) and a process that left the group escapes it. A
 * sample's exit is seen by polling waitid. */
#include <errno.h>

#include "sample/spawn_reap.h"

int spawn_reap_subreaper(void)
{
	return -ENOSYS;
}

size_t spawn_reap_adopted(const pid_t *keep, size_t n)
{
	(void)keep, (void)n;
	return 0;
}

int spawn_reap_exit_fd(pid_t pid)
{
	(void)pid;
	return -1;
}

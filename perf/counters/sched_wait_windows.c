/* sched_wait_windows.c: sched_wait.h where the OS gives no per-thread
 * run-queue wait: the counter is unavailable (counters_windows.c says why). */
#include <errno.h>

#include "counters/sched_wait.h"

int sched_wait_open(void)
{
	return -ENOSYS;
}

int sched_wait_read(uint64_t *ns)
{
	(void)ns;
	return -1;
}

void sched_wait_thread_done(void)
{
}

void sched_wait_close(void)
{
}

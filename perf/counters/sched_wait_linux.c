/* sched_wait_linux.c: sched_wait.h from /proc/thread-self/schedstat, whose
 * three fields are the time spent on the CPU (ns), the time spent waiting
 * on a run queue (ns) and the number of timeslices run (proc(5)). */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <unistd.h>

#include "counters/sched_wait.h"

static int schedstat_fd = -1;
static _Atomic uint64_t finished_threads_ns;   /* workers that have ended */

/* The second field of the schedstat text read from FD into *NS. */
static int read_wait(int fd, uint64_t *ns)
{
	char buf[96];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *p = buf;
	while (*p && *p != ' ')
		p++;
	if (*p != ' ')
		return -1;
	uint64_t v = 0;
	for (p++; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	*ns = v;
	return 0;
}

int sched_wait_open(void)
{
	uint64_t ns;
	sched_wait_close();
	schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (schedstat_fd < 0)
		return -errno;
	if (read_wait(schedstat_fd, &ns)) {
		sched_wait_close();
		return -EIO;
	}
	return 0;
}

int sched_wait_read(uint64_t *ns)
{
	uint64_t mine;
	if (schedstat_fd < 0 || read_wait(schedstat_fd, &mine))
		return -1;
	*ns = mine + atomic_load(&finished_threads_ns);
	return 0;
}

void sched_wait_thread_done(void)
{
	uint64_t ns;
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (read_wait(fd, &ns) == 0)
		atomic_fetch_add(&finished_threads_ns, ns);
	close(fd);
}

void sched_wait_close(void)
{
	if (schedstat_fd >= 0)
		close(schedstat_fd);
	schedstat_fd = -1;
}

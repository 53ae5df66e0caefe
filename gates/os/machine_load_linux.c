/* machine_load_linux.c: machine_load.h from /proc/stat (proc(5): the
 * "cpu" line sums every CPU's user, nice, system, idle, iowait, irq,
 * softirq and steal time, in USER_HZ ticks) and getrusage. */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "sample/machine_load.h"

static double timeval_ns(struct timeval t)
{
	return (double)t.tv_sec * 1e9 + (double)t.tv_usec * 1e3;
}

int machine_load_read(struct machine_load *m)
{
	unsigned long long v[8] = { 0 };
	struct rusage self, children;
	struct timespec now;
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return -errno;
	int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		       &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 8 || getrusage(RUSAGE_SELF, &self) || getrusage(RUSAGE_CHILDREN, &children) ||
	    clock_gettime(CLOCK_MONOTONIC, &now))
		return -EIO;
	long hz = sysconf(_SC_CLK_TCK);
	double tick = 1e9 / (double)(hz > 0 ? hz : 100);
	/* user nice system idle iowait irq softirq steal: all but idle, iowait */
	m->busy_ns = (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * tick;
	m->own_ns = timeval_ns(self.ru_utime) + timeval_ns(self.ru_stime) +
		    timeval_ns(children.ru_utime) + timeval_ns(children.ru_stime);
	m->wall_ns = (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	m->cpus = cpus > 0 ? (int)cpus : 1;
	return 0;
}

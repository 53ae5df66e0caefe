/* duet_linux.c: duet_cpus_read on Linux: the CPUs of this process's
 * affinity mask (sched_getaffinity(2): taskset, a container's cpuset), and
 * each one's core from sysfs (topology/physical_package_id and core_id,
 * Documentation/admin-guide/cputopology.rst). */
#include <errno.h>
#include <sched.h>
#include <stdio.h>

#include "sample/duet.h"

/* The number in /sys/devices/system/cpu/cpuCPU/topology/NAME, or -1. */
static long topology(int cpu, const char *name)
{
	char path[128];
	long v = -1;
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int duet_cpus_read(struct duet_cpus *out)
{
	cpu_set_t set;
	int cpus[SPAWN_CPUS_MAX];
	long core[SPAWN_CPUS_MAX];
	size_t n = 0;
	out->count = 0;
	if (sched_getaffinity(0, sizeof set, &set))
		return -errno;
	for (int c = 0; c < CPU_SETSIZE && n < SPAWN_CPUS_MAX; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		long package = topology(c, "physical_package_id"), id = topology(c, "core_id");
		cpus[n] = c;
		core[n++] = package >= 0 && id >= 0 ? package * 1000000 + id : -1;
	}
	duet_cpus_order(cpus, core, n, out->cpu);
	out->count = n;
	return 0;
}

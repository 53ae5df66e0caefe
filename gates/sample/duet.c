/* duet.c: the OS-independent part of duet.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sample/duet.h"

void duet_cpus_order(const int *cpus, const long *core, size_t n, int *out)
{
	size_t k = 0;
	unsigned char first[SPAWN_CPUS_MAX] = { 0 };
	for (size_t i = 0; i < n && i < SPAWN_CPUS_MAX; i++) {
		int seen = 0;
		for (size_t j = 0; j < i && core[i] >= 0; j++)
			seen |= core[j] == core[i];
		if (!seen) {
			out[k++] = cpus[i];
			first[i] = 1;
		}
	}
	for (size_t i = 0; i < n && i < SPAWN_CPUS_MAX; i++)
		if (!first[i])
			out[k++] = cpus[i];
}

int duet_unavailable(const struct duet_cpus *cpus, int read, int pin_cpu, const char *backend,
		     char *why, size_t size)
{
	if (pin_cpu >= 0)
		snprintf(why, size, "--pin-cpu %d puts every sample on one CPU", pin_cpu);
	else if (backend)
		snprintf(why, size, "--backend %s wraps each sample in its own tracer", backend);
	else if (read == -ENOSYS)
		snprintf(why, size, "this OS cannot pin a process to a CPU");
	else if (read)
		snprintf(why, size, "the CPUs this process may run on could not be read (%s)",
			 strerror(-read));
	else if (cpus->count < 2)
		snprintf(why, size, "duet needs two CPUs: this process may run on %zu",
			 cpus->count);
	else
		return 0;
	return -1;
}

int duet_fits(const struct duet_cpus *cpus, long threads)
{
	return threads > 0 && (size_t)threads <= cpus->count / 2;
}

void duet_split(const struct duet_cpus *cpus, long threads, int swap, int *x, int *y)
{
	for (long t = 0; t < threads; t++) {
		x[t] = cpus->cpu[2 * t + (swap ? 1 : 0)];
		y[t] = cpus->cpu[2 * t + (swap ? 0 : 1)];
	}
}

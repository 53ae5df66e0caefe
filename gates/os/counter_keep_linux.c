/* counter_keep_linux.c: counter_keep.h on Linux: one disabled software
 * perf event of each kind in perf/counters/counters_linux.c's table, for
 * this process only (pid 0, any CPU, not inherited), and around a counted
 * pass one of the tracepoint its syscall counters are events of. */
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sample/counter_keep.h"

/* The software kinds whose open switches a static key (perf_swevent_init);
 * the task clock has a PMU of its own and no key. */
static const unsigned long long kinds[] = {
	PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_PAGE_FAULTS_MIN,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ,
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int held;

static void open_all(void)
{
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		struct perf_event_attr attr;
		memset(&attr, 0, sizeof attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.size = sizeof attr;
		attr.config = kinds[i];
		attr.disabled = 1;
		attr.inherit = 0;
		long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		held += fd >= 0;
	}
}

int counter_keep_open(void)
{
	pthread_once(&once, open_all);
	return held;
}

static int held_tracepoint = -1;

/* Id of COUNTER_KEEP_TRACEPOINT where tracefs is mounted (the probe
 * mounts it, as root, when it is not), or -1. */
static long long tracepoint_id(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++) {
		char path[160];
		unsigned long long id;
		snprintf(path, sizeof path, "%s/events/%s/id", roots[i], COUNTER_KEEP_TRACEPOINT);
		FILE *f = fopen(path, "r");
		int ok = f && fscanf(f, "%llu", &id) == 1;
		if (f)
			fclose(f);
		if (ok)
			return (long long)id;
	}
	return -1;
}

int counter_keep_tracepoints_hold(void)
{
	if (held_tracepoint >= 0)
		return 1;
	long long id = tracepoint_id();
	if (id < 0)
		return 0;
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof attr;
	attr.config = (uint64_t)id;
	attr.disabled = 1;
	long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	held_tracepoint = fd >= 0 ? (int)fd : -1;
	return held_tracepoint >= 0;
}

void counter_keep_tracepoints_release(void)
{
	if (held_tracepoint >= 0)
		close(held_tracepoint);
	held_tracepoint = -1;
}

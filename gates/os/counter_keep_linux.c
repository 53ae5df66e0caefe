/* counter_keep_linux.c: counter_keep.h on Linux: one disabled software
 * perf event of each kind in perf/counters/counters_linux.c's table, for
 * this process only (pid 0, any CPU, not inherited), and around a counted
 * pass one of each syscall tracepoint of that table. */
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

/* The probe's tracepoint group, perf/counters/syscall_tracepoints.h, which
 * the gate's layers may not include: tests/test_counter_keep_linux.c holds
 * them here and checks that every one the probe names is held. */
static const char *const tracepoints[] = {
	"sys_enter_mmap", "sys_enter_munmap", "sys_enter_brk",
	"sys_enter_mremap", "sys_enter_madvise", "sys_enter_futex",
};
#define TRACEPOINTS (sizeof tracepoints / sizeof *tracepoints)

static int held_tracepoints[TRACEPOINTS];
static size_t held_tracepoint_count;

/* Id of syscalls:NAME where tracefs is mounted (the probe mounts it, as
 * root, when it is not), or -1. */
static long long tracepoint_id(const char *name)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++) {
		char path[160];
		unsigned long long id;
		snprintf(path, sizeof path, "%s/events/syscalls/%s/id", roots[i], name);
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
	for (size_t i = 0; i < TRACEPOINTS && held_tracepoint_count < TRACEPOINTS; i++) {
		long long id = tracepoint_id(tracepoints[i]);
		if (id < 0)
			continue;
		struct perf_event_attr attr;
		memset(&attr, 0, sizeof attr);
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.size = sizeof attr;
		attr.config = (uint64_t)id;
		attr.disabled = 1;
		long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			held_tracepoints[held_tracepoint_count++] = (int)fd;
	}
	return (int)held_tracepoint_count;
}

void counter_keep_tracepoints_release(void)
{
	for (size_t i = 0; i < held_tracepoint_count; i++)
		close(held_tracepoints[i]);
	held_tracepoint_count = 0;
}

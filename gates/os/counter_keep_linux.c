/* counter_keep_linux.c: counter_keep.h on Linux: one disabled software
 * perf event of each kind in perf/counters/counters_linux.c's table, for
 * this process only (pid 0, any CPU, not inherited). */
#include <linux/perf_event.h>
#include <pthread.h>
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

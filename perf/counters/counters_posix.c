/* counters_posix.c: the POSIX counter backend (clock_gettime, getrusage).
 *
 * Used by counters_linux.c when perf_event_open is refused, and meant for
 * macOS. getrusage(RUSAGE_SELF) covers every thread of the process, live
 * or joined (man getrusage), so threaded kernels are counted whole. Its
 * times have microsecond resolution (struct timeval); Linux derives them
 * from the scheduler's precise runtime, other systems may sample ticks.
 */
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#include "counters/counters.h"

/* Word layout of a snapshot written by posix_counters_read. */
enum { POSIX_CPU_NS, POSIX_PAGE_FAULTS, POSIX_CTX_SWITCHES, POSIX_WORDS };

static const uint32_t posix_mask =
	COUNTER_BIT(COUNTER_CPU_NS) | COUNTER_BIT(COUNTER_PAGE_FAULTS) |
	COUNTER_BIT(COUNTER_CTX_SWITCHES);

uint32_t posix_counters_offered(void)
{
	return COUNTER_BIT(COUNTER_WALL_NS) | posix_mask;
}

static uint64_t timeval_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

void posix_counters_read(struct counters_snapshot *s)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0) {
		s->failed |= posix_mask;
		return;
	}
	s->words[POSIX_CPU_NS] = timeval_ns(ru.ru_utime) + timeval_ns(ru.ru_stime);
	/* minor: served without I/O; major: needed I/O (man getrusage) */
	s->words[POSIX_PAGE_FAULTS] = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
	s->words[POSIX_CTX_SWITCHES] = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

void posix_counters_decode(const struct counters_snapshot *s,
			   struct counter_raw *raw)
{
	raw[COUNTER_CPU_NS].value = s->words[POSIX_CPU_NS];
	raw[COUNTER_PAGE_FAULTS].value = s->words[POSIX_PAGE_FAULTS];
	raw[COUNTER_CTX_SWITCHES].value = s->words[POSIX_CTX_SWITCHES];
}

uint64_t posix_counters_now_ns(void)
{
	struct timespec ts;
	/* CLOCK_MONOTONIC never fails with a valid pointer (man clock_gettime) */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int posix_counters_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n >= 1 ? (int)n : 1;
}

void counters_stdout_binary(void)
{
	/* POSIX stdio never translates newlines */
}

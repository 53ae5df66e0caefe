/* counters_darwin.c: the counter front on macOS.
 *
 *   wall_ns                  clock_gettime_nsec_np(CLOCK_UPTIME_RAW): the
 *                            monotonic clock that, like Linux's, does not
 *                            advance while the machine sleeps
 *   cpu_ns, page_faults,     getrusage(RUSAGE_SELF), every thread of the
 *   ctx_switches             process (counters_posix.c, shared with Linux)
 *   instructions, cycles     proc_pid_rusage(RUSAGE_INFO_V4): ri_instructions
 *                            and ri_cycles of the whole task
 *
 * ri_instructions and ri_cycles read 0 where the kernel does not expose
 * the PMU to rusage (seen on Intel Macs and in virtual machines): counters_open runs
 * 5 ms of known busy work once and asks sanity_reject() (perf/counters/sanity.h),
 * so a counter stuck at 0 is reported unavailable, never as zero cost.
 *
 * Not compiled here (no macOS SDK on the Linux build machine): written
 * against <libproc.h>, <sys/resource.h> and clock_gettime_nsec_np(3).
 */
#ifndef _DARWIN_C_SOURCE
#define _DARWIN_C_SOURCE  /* clock_gettime_nsec_np under -std=c11 */
#endif
#include <libproc.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "counters/counters.h"
#include "counters/counters_snapshot.h"
#include "counters/sanity.h"

/* Snapshot words after the 3 POSIX ones (posix_counters_read). */
enum { DARWIN_INSTRUCTIONS = 3, DARWIN_CYCLES = 4 };

#define DARWIN_PMU (COUNTER_BIT(COUNTER_INSTRUCTIONS) | COUNTER_BIT(COUNTER_CYCLES))
#define DARWIN_WORK_NS 5000000u

static struct {
	struct counter_setup setup;
	uint32_t want;
	char reason[COUNTER_COUNT][SANITY_REASON_SIZE];
} mac = { .setup = { .open = COUNTER_BIT(COUNTER_WALL_NS) } };

static uint64_t darwin_now_ns(void)
{
	return clock_gettime_nsec_np(CLOCK_UPTIME_RAW);
}

static void darwin_read(struct counters_snapshot *s)
{
	struct rusage_info_v4 ri;
	posix_counters_read(s);
	if (proc_pid_rusage(getpid(), RUSAGE_INFO_V4, (rusage_info_t *)&ri) != 0) {
		s->failed |= DARWIN_PMU;
		return;
	}
	s->words[DARWIN_INSTRUCTIONS] = ri.ri_instructions;
	s->words[DARWIN_CYCLES] = ri.ri_cycles;
}

static void darwin_decode(const struct counters_snapshot *s, struct counter_raw *raw)
{
	memset(raw, 0, sizeof *raw * COUNTER_COUNT);
	raw[COUNTER_WALL_NS].value = s->wall_ns;
	posix_counters_decode(s, raw);
	raw[COUNTER_INSTRUCTIONS].value = s->words[DARWIN_INSTRUCTIONS];
	raw[COUNTER_CYCLES].value = s->words[DARWIN_CYCLES];
}

static const struct counters_reader reader = { darwin_read, darwin_decode, darwin_now_ns,
					       &mac.setup };

void counters_begin(struct counters_snapshot *s)
{
	counters_reader_begin(&reader, s);
}

void counters_end(struct counters_snapshot *s)
{
	counters_reader_end(&reader, s);
}

void counters_add(struct counter_totals *totals,
		  const struct counters_snapshot *begin,
		  const struct counters_snapshot *end)
{
	counters_reader_add(&reader, totals, begin, end);
}

/* Reads the PMU counters over DARWIN_WORK_NS of busy work; returns the
 * ones sanity_reject() refuses, with their reasons in mac.reason. */
static uint32_t darwin_sanity(void)
{
	struct counters_snapshot a, b;
	struct sanity_work w = { 0 };
	unsigned x = 1;

	counters_begin(&a);
	while (darwin_now_ns() - a.wall_ns < DARWIN_WORK_NS) {
		for (int i = 0; i < 1000; i++)
			x = x * 1103515245u + 12345u;
	}
	counters_end(&b);
	gate_consume(&x);
	if ((a.failed | b.failed) & DARWIN_PMU) {
		strcpy(mac.reason[COUNTER_INSTRUCTIONS], "proc_pid_rusage(RUSAGE_INFO_V4) failed");
		strcpy(mac.reason[COUNTER_CYCLES], "proc_pid_rusage(RUSAGE_INFO_V4) failed");
		return DARWIN_PMU;
	}
	w.read = DARWIN_PMU;
	w.wall_ns = b.wall_ns - a.wall_ns;
	w.instructions = b.words[DARWIN_INSTRUCTIONS] - a.words[DARWIN_INSTRUCTIONS];
	w.cycles = b.words[DARWIN_CYCLES] - a.words[DARWIN_CYCLES];
	return sanity_reject_all(&w, mac.reason);
}

int counters_open(uint32_t want)
{
	uint32_t open = (posix_counters_offered() | DARWIN_PMU) & want;
	memset(mac.reason, 0, sizeof mac.reason);
	if (want & DARWIN_PMU)
		open &= ~darwin_sanity();
	mac.want = want;
	counter_setup_init(&mac.setup, open | COUNTER_BIT(COUNTER_WALL_NS), 0);
	counters_reader_calibrate(&reader);
	return 0;
}

bool counters_has(enum counter_id id)
{
	return counters_reader_has(&reader, id);
}

const char *counters_unavailable(enum counter_id id)
{
	if (counters_has(id) || !(mac.want & COUNTER_BIT(id)) || mac.reason[id][0] == '\0')
		return NULL;
	return mac.reason[id];
}

const char *counters_backend(void)
{
	return "clock_gettime_nsec_np + getrusage + proc_pid_rusage(RUSAGE_INFO_V4)";
}

uint64_t counters_now_ns(void)
{
	return posix_counters_now_ns();
}

int counters_cpu_count(void)
{
	return posix_counters_cpu_count();
}

void counters_close(void)
{
	mac.setup.open = 0;
}

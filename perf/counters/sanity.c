/* sanity.c: rejecting counters that do not follow known work (sanity.h). */
#include <inttypes.h>
#include <stdio.h>

#include "counters/sanity.h"

static double sanity_ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* Whether counter ID of W is implausible by itself; writes what was seen
 * into OUT when it is. */
static bool sanity_cycles(const struct sanity_work *w, char *out, size_t size)
{
	/* cycles / ns in tenths of GHz: cycles * 10 / ns */
	double tenths = w->wall_ns ? (double)w->cycles * 10.0 / (double)w->wall_ns : 0.0;
	if (w->cycles == 0) {
		snprintf(out, size, "cycle counter did not advance over %.1f ms of work",
			 sanity_ms(w->wall_ns));
		return true;
	}
	if (tenths < SANITY_MIN_GHZ_TENTHS || tenths > SANITY_MAX_GHZ_TENTHS) {
		snprintf(out, size, "cycle counter read %" PRIu64 " over %.1f ms of busy "
			 "work (%.2f GHz, outside 0.1..10)", w->cycles,
			 sanity_ms(w->wall_ns), tenths / 10.0);
		return true;
	}
	return false;
}

static bool sanity_problem(enum counter_id id, const struct sanity_work *w,
			   char *out, size_t size)
{
	switch (id) {
	case COUNTER_CYCLES:
		return sanity_cycles(w, out, size);
	case COUNTER_INSTRUCTIONS:
		if (w->instructions != 0)
			return false;
		snprintf(out, size, "instruction counter did not advance over %.1f ms "
			 "of work", sanity_ms(w->wall_ns));
		return true;
	case COUNTER_PAGE_FAULTS:
		/* every fresh page faults once at first touch; allow fault-around */
		if (w->pages_touched == 0 || w->page_faults >= w->pages_touched / 4)
			return false;
		snprintf(out, size, "page faults counted %" PRIu64 " over %" PRIu64
			 " fresh pages touched", w->page_faults, w->pages_touched);
		return true;
	case COUNTER_CPU_NS:
		/* one busy thread: CPU time cannot run ahead of the wall clock
		 * by more than the CPU clock's resolution */
		if (w->cpu_ns <= w->wall_ns + 2 * w->cpu_tick_ns)
			return false;
		snprintf(out, size, "CPU time %.1f ms ran ahead of %.1f ms of wall time "
			 "of one thread", sanity_ms(w->cpu_ns), sanity_ms(w->wall_ns));
		return true;
	default:
		return false;
	}
}

/* Counters an emulator gives no real value for, plausible or not. */
static bool sanity_emulated(enum counter_id id)
{
	return id == COUNTER_CYCLES || id == COUNTER_INSTRUCTIONS ||
	       id == COUNTER_PAGE_FAULTS;
}

bool sanity_reject(enum counter_id id, const struct sanity_work *w,
		   char *out, size_t size)
{
	char seen[SANITY_REASON_SIZE];
	bool bad;

	if (!(w->read & COUNTER_BIT(id)))
		return false;
	bad = sanity_problem(id, w, seen, sizeof seen);
	if (w->emulator && sanity_emulated(id)) {
		if (!bad)
			snprintf(seen, sizeof seen, "%s read %" PRIu64 " over %.1f ms of "
				 "work, not the CPU's count", counter_name(id),
				 id == COUNTER_CYCLES ? w->cycles :
				 id == COUNTER_INSTRUCTIONS ? w->instructions : w->page_faults,
				 sanity_ms(w->wall_ns));
		snprintf(out, size, "untrustworthy under %s: %s", w->emulator, seen);
		return true;
	}
	if (bad)
		snprintf(out, size, "%s", seen);
	return bad;
}

uint32_t sanity_reject_all(const struct sanity_work *w,
			   char reasons[][SANITY_REASON_SIZE])
{
	uint32_t rejected = 0;
	for (int i = 0; i < COUNTER_COUNT; i++) {
		if (sanity_reject((enum counter_id)i, w, reasons[i], SANITY_REASON_SIZE))
			rejected |= COUNTER_BIT(i);
	}
	return rejected;
}

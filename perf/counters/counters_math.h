/* counters_math.h: the arithmetic of counter readings, free of any OS.
 *
 * Every backend (counters_linux.c, counters_posix.c, ...) turns what it
 * read into struct counter_raw values; everything after that happens here:
 * begin/end deltas, scaling for multiplexing, rounding, subtracting the
 * measured overhead of an empty region, and rejecting garbage readings.
 * Pure functions of their arguments, so tests/test_counters.c checks them
 * with hand-computed cases on any machine, PMU or not.
 *
 * Names: counter_* speaks of one counter, counter_set_* / counter_totals_*
 * of all counters of one reading (arrays indexed by enum counter_id).
 */
#ifndef GATE_COUNTERS_MATH_H
#define GATE_COUNTERS_MATH_H

#include <stdbool.h>
#include <stdint.h>

#include "allocgate/probe.h"

/* Every counter any backend can give, in the order a sample reports them. */
enum counter_id {
	COUNTER_WALL_NS,        /* CLOCK_MONOTONIC around the region, ns */
	COUNTER_TASK_CLOCK_NS,  /* perf task-clock: CPU time of all threads, ns */
	COUNTER_CPU_NS,         /* getrusage user + system time, ns (POSIX fallback) */
	COUNTER_PAGE_FAULTS,    /* minor + major page faults */
	COUNTER_CTX_SWITCHES,   /* voluntary + involuntary context switches */
	COUNTER_CPU_MIGRATIONS, /* moves of a thread to another CPU */
	COUNTER_CYCLES,         /* PMU: CPU cycles, user + kernel */
	COUNTER_INSTRUCTIONS,   /* PMU: retired instructions, user + kernel */
	COUNTER_CACHE_MISSES,   /* PMU: last-level cache misses */
	COUNTER_BRANCH_MISSES,  /* PMU: mispredicted branches */
	COUNTER_MINOR_FAULTS,   /* page faults served without I/O */
	COUNTER_MAJOR_FAULTS,   /* page faults that waited for I/O */
	COUNTER_SYS_MMAP,       /* calls of mmap: tracepoint raw_syscalls:sys_enter,
				 * "id == SYS_mmap" (syscall_tracepoints.h) */
	COUNTER_SYS_MUNMAP,     /* calls of munmap, the same way */
	COUNTER_SYS_BRK,        /* calls of brk */
	COUNTER_SYS_MREMAP,     /* calls of mremap */
	COUNTER_SYS_MADVISE,    /* calls of madvise */
	COUNTER_SYS_FUTEX,      /* calls of futex */
	COUNTER_SCHED_WAIT_NS,  /* ns the region's threads waited on a run queue
				 * (sched_wait.h): interference, never gated */
	COUNTER_COUNT
};

/* Bit of counter ID in a counter mask (uint32_t). */
#define COUNTER_BIT(id) (UINT32_C(1) << (id))
#define COUNTER_ALL (COUNTER_BIT(COUNTER_COUNT) - 1)

/* Why a reading was rejected; COUNTER_OK when it was not. */
enum counter_fault {
	COUNTER_OK,
	COUNTER_BACKWARDS,      /* the value decreased between begin and end */
	COUNTER_TIME_BACKWARDS, /* time_enabled or time_running decreased */
	COUNTER_NOT_RUNNING,    /* time_running did not advance: never counted */
	COUNTER_TOO_LARGE,      /* the scaled value does not fit in 64 bits */
	COUNTER_READ_FAILED,    /* the backend could not read the counter */
};

/* One raw reading of one counter. For multiplexed counters (perf_event,
 * man perf_event_open: PERF_FORMAT_TOTAL_TIME_ENABLED/RUNNING) the ns the
 * event was enabled and actually running; 0 for counters never multiplexed. */
struct counter_raw {
	uint64_t value;
	uint64_t enabled_ns;
	uint64_t running_ns;
};

/* What the arithmetic needs to know of the open counters: which are open,
 * which are scaled for multiplexing, and the overhead of an empty region
 * to subtract from each (in the counter's unit). */
struct counter_setup {
	uint32_t open;
	uint32_t scaled;
	uint64_t overhead[COUNTER_COUNT];
};

/* Corrected totals of one region over all its entries. A counter whose
 * fault is not COUNTER_OK in any entry must not be reported: its value
 * is garbage. entries counts begin/end pairs. */
struct counter_totals {
	uint64_t value[COUNTER_COUNT];
	enum counter_fault fault[COUNTER_COUNT];
	uint32_t entries;
};

/* Name of counter ID as reported ("wall_ns", "page_faults", ...). */
const char *counter_name(enum counter_id id);

/* Metric class of counter ID (docs/counters.md, "Every counter of a sample"). */
enum gate_metric_class counter_class(enum counter_id id);

/* Unit of counter ID: "ns" or "count". */
const char *counter_unit(enum counter_id id);

/* Counter whose name is NAME; returns 0 and sets *ID, or -1 when none is. */
int counter_lookup(const char *name, enum counter_id *id);

/* One-line reason for a rejected reading, for the unavailable line. */
const char *counter_fault_reason(enum counter_fault fault);

/* Scales VALUE counted while running RUNNING_NS of ENABLED_NS to the whole
 * enabled time (value * enabled / running, rounded to nearest, halves up).
 * RUNNING_NS >= ENABLED_NS means not multiplexed: VALUE unchanged. Returns
 * COUNTER_OK and sets *OUT, COUNTER_NOT_RUNNING when RUNNING_NS is 0, or
 * COUNTER_TOO_LARGE. */
enum counter_fault counter_scale(uint64_t value, uint64_t enabled_ns,
				 uint64_t running_ns, uint64_t *out);

/* Difference END - BEGIN of one counter, scaled when SCALED. Returns
 * COUNTER_OK and sets *OUT, or the fault that makes it garbage. */
enum counter_fault counter_delta(const struct counter_raw *begin,
				 const struct counter_raw *end, bool scaled,
				 uint64_t *out);

/* VALUE minus OVERHEAD, clamped at 0 (a region cheaper than the empty
 * one measured at open is noise, not a negative cost). */
uint64_t counter_subtract_overhead(uint64_t value, uint64_t overhead);

/* Starts SETUP for the counters in mask OPEN, those in SCALED being
 * multiplexed; overheads start unknown (see counter_setup_overhead). */
void counter_setup_init(struct counter_setup *setup, uint32_t open,
			uint32_t scaled);

/* Takes one empty region BEGIN..END (arrays of COUNTER_COUNT) into the
 * overhead estimate: the minimum delta of each open counter so far.
 * Faulty readings and the counters in mask FAILED are ignored. */
void counter_setup_overhead(struct counter_setup *setup,
			    const struct counter_raw *begin,
			    const struct counter_raw *end, uint32_t failed);

/* Ends the overhead estimate: a counter with no usable empty region
 * gets overhead 0. */
void counter_setup_finish(struct counter_setup *setup);

/* Adds one region entry BEGIN..END (arrays of COUNTER_COUNT) to TOTALS:
 * for each open counter the delta, scaled, minus the overhead, clamped;
 * a faulty delta marks the counter (the first fault stays), and so does
 * a counter in mask FAILED (its read failed: COUNTER_READ_FAILED). */
void counter_totals_add(struct counter_totals *totals,
			const struct counter_setup *setup,
			const struct counter_raw *begin,
			const struct counter_raw *end, uint32_t failed);

#endif

/* counters.h: the portable counter front the probe measures regions with.
 *
 * Exactly one file per OS implements the counters_* functions, chosen by
 * configure.py from its name: counters_linux.c (perf_event_open, and the
 * POSIX backend when perf_event_open is refused); macOS and Windows get
 * their own counters_<os>.c. The POSIX backend (counters_posix.c, the
 * posix_counters_* functions at the end) is shared: any backend falls
 * back to it.
 *
 * Use, once per process:
 *
 *     counters_open(COUNTER_ALL);          before the variant runs
 *     counters_begin(&a);  ... work ...  counters_end(&b);
 *     counters_add(&totals, &a, &b);       after the region, adds the
 *                                          corrected difference
 *     counters_has(id) / counters_unavailable(id)   when reporting
 *
 * counters_begin() and counters_end() only read (one read(2) per perf
 * group, one clock_gettime): they never allocate, print or fail; a failed
 * read is recorded in the snapshot and shows up as a rejected counter in
 * counters_add(). begin reads the clock last and end reads it first, so
 * wall_ns covers the least of the reading itself.
 */
#ifndef GATE_COUNTERS_H
#define GATE_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "counters/counters_math.h"

/* Raw words a snapshot holds (backend-specific layout): three perf groups
 * of 6, 4 and 6 events (41 words), or 16 single events of 3 words each, fit. */
#define COUNTERS_SNAPSHOT_WORDS 64

/* What one read of all counters returned, decoded only in counters_add()
 * so that the measured region pays for the read alone. */
struct counters_snapshot {
	uint64_t wall_ns;                          /* CLOCK_MONOTONIC, ns */
	uint32_t failed;                           /* counters whose read failed */
	uint64_t words[COUNTERS_SNAPSHOT_WORDS];   /* backend's raw data */
};

/* Opens the counters in mask WANT (COUNTER_ALL for every one this OS has)
 * and measures the overhead of an empty region (minimum over
 * COUNTERS_CALIBRATION_ROUNDS empty begin/end pairs). Counters that
 * cannot be opened get a reason (counters_unavailable). Returns 0; wall_ns
 * always works, so there is no failure a caller could act on. */
int counters_open(uint32_t want);

/* Empty regions measured by counters_open to estimate the overhead. */
#define COUNTERS_CALIBRATION_ROUNDS 100

/* Reads every open counter into S at the start of a region. */
void counters_begin(struct counters_snapshot *s);

/* Reads every open counter into S at the end of a region. */
void counters_end(struct counters_snapshot *s);

/* Adds region entry BEGIN..END to TOTALS: deltas, scaled for multiplexing,
 * minus the empty-region overhead, clamped at 0; garbage is marked as a
 * fault per counter (see counter_totals_add). */
void counters_add(struct counter_totals *totals,
		  const struct counters_snapshot *begin,
		  const struct counters_snapshot *end);

/* Whether counter ID is open and read by begin/end. */
bool counters_has(enum counter_id id);

/* One-line reason why counter ID, wanted but not open, is unavailable;
 * NULL when it is open or this backend never offers it. */
const char *counters_unavailable(enum counter_id id);

/* One line naming the backend in use, e.g. "perf_event group (inherit)". */
const char *counters_backend(void);

/* Number of online CPUs of this machine, at least 1. */
int counters_cpu_count(void);

/* The clock wall_ns is read from, in ns, alone: a few ns a call where
 * counters_end reads every counter. */
uint64_t counters_now_ns(void);

/* Closes what counters_open opened. */
void counters_close(void);

/* Makes stdout write "\n" as is (Windows text mode would write "\r\n",
 * which the record parser rejects); nothing to do on POSIX. */
void counters_stdout_binary(void);

/* POSIX backend: clock_gettime + getrusage(RUSAGE_SELF), every thread of
 * the process; gives wall_ns, cpu_ns, page_faults, ctx_switches. */

/* Counters (mask) the POSIX backend gives. */
uint32_t posix_counters_offered(void);

/* Reads the rusage counters into S->words (3 words); marks S->failed on
 * error. Does not read the clock. */
void posix_counters_read(struct counters_snapshot *s);

/* Decodes the words of S written by posix_counters_read into RAW (an
 * array of COUNTER_COUNT). */
void posix_counters_decode(const struct counters_snapshot *s,
			   struct counter_raw *raw);

/* CLOCK_MONOTONIC now, in ns. */
uint64_t posix_counters_now_ns(void);

/* Online CPUs (sysconf), at least 1. */
int posix_counters_cpu_count(void);

#endif

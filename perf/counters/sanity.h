/* sanity.h: whether a counter read over known work can be believed.
 *
 * Some backends return numbers that look like counters but are not: wine
 * answers QueryProcessCycleTime and PageFaultCount with values that do not
 * follow the work, and macOS reads ri_instructions/ri_cycles as 0 where
 * the PMU is not exposed. A backend that cannot trust its counters by
 * construction runs a piece of known work once when it opens them (busy
 * single-threaded work of a few ms, touching fresh pages), reads every
 * counter around it, and asks sanity_reject() per counter. A rejected
 * counter is reported unavailable with the reason, never gated on.
 *
 * Pure functions of their arguments: tests/test_sanity.c covers them.
 */
#ifndef GATE_SANITY_H
#define GATE_SANITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters/counters_math.h"

/* Lowest and highest believable cycles per ns of one busy thread. */
#define SANITY_MIN_GHZ_TENTHS 1    /* 0.1 GHz */
#define SANITY_MAX_GHZ_TENTHS 100  /* 10 GHz */

/* What was read over the known work: deltas of each counter (only those
 * in mask READ are meaningful), the fresh pages the work touched, the
 * resolution of the CPU-time clock, and the emulator the process runs
 * under ("wine 9.0"; NULL on a real OS). */
struct sanity_work {
	uint32_t read;
	uint64_t wall_ns;
	uint64_t cpu_ns;
	uint64_t cycles;
	uint64_t instructions;
	uint64_t page_faults;
	uint64_t pages_touched;
	uint64_t cpu_tick_ns;
	const char *emulator;
};

/* Whether counter ID, read over work W, must be rejected; when it must,
 * writes a one-line reason into OUT (size SIZE), e.g. "untrustworthy under
 * wine 9.0: cycle counter did not advance over 5.0 ms of work". Counters
 * not in W->read and counters without a rule are never rejected. */
bool sanity_reject(enum counter_id id, const struct sanity_work *w,
		   char *out, size_t size);

/* Size of one reason of sanity_reject_all(). */
#define SANITY_REASON_SIZE 192

/* The counters (a mask) sanity_reject() rejects for W, their reasons
 * written into REASONS[id]. */
uint32_t sanity_reject_all(const struct sanity_work *w,
			   char reasons[][SANITY_REASON_SIZE]);

#endif

/* counters_snapshot.h: the front of a counter source that reads the whole
 * process's figures at both ends of a region (counters_darwin.c,
 * counters_windows.c): the one contract of counters.h's begin, end, add,
 * calibration and has, written once over the source's own three calls.
 * The functions are static inline, and each source hands them a constant
 * reader, so that the compiler folds the calls in and begin and end stay
 * reads only (counters.h). */
#ifndef GATE_COUNTERS_SNAPSHOT_H
#define GATE_COUNTERS_SNAPSHOT_H

#include <stdint.h>

#include "counters/counters.h"

/* A source's own calls and its setup. */
struct counters_reader {
	/* Its figures into S->words; a failure marks S->failed. */
	void (*read)(struct counters_snapshot *s);
	/* The words of S (and S->wall_ns) into RAW, COUNTER_COUNT entries. */
	void (*decode)(const struct counters_snapshot *s, struct counter_raw *raw);
	/* The monotonic clock, in ns. */
	uint64_t (*now_ns)(void);
	struct counter_setup *setup;
};

/* counters_begin: the figures first, the clock last. */
static inline void counters_reader_begin(const struct counters_reader *r,
					 struct counters_snapshot *s)
{
	s->failed = 0;
	r->read(s);
	s->wall_ns = r->now_ns();
}

/* counters_end: the clock first, the figures last. */
static inline void counters_reader_end(const struct counters_reader *r,
				       struct counters_snapshot *s)
{
	s->wall_ns = r->now_ns();
	s->failed = 0;
	r->read(s);
}

/* counters_add: the corrected difference of END and BEGIN into TOTALS. */
static inline void counters_reader_add(const struct counters_reader *r,
				       struct counter_totals *totals,
				       const struct counters_snapshot *begin,
				       const struct counters_snapshot *end)
{
	struct counter_raw b[COUNTER_COUNT], e[COUNTER_COUNT];
	r->decode(begin, b);
	r->decode(end, e);
	counter_totals_add(totals, r->setup, b, e, begin->failed | end->failed);
}

/* The overhead of an empty region, COUNTERS_CALIBRATION_ROUNDS times, into
 * the setup (counters_math.h). */
static inline void counters_reader_calibrate(const struct counters_reader *r)
{
	struct counters_snapshot a, b;
	struct counter_raw ra[COUNTER_COUNT], rb[COUNTER_COUNT];
	for (int i = 0; i < COUNTERS_CALIBRATION_ROUNDS; i++) {
		counters_reader_begin(r, &a);
		counters_reader_end(r, &b);
		r->decode(&a, ra);
		r->decode(&b, rb);
		counter_setup_overhead(r->setup, ra, rb, a.failed | b.failed);
	}
	counter_setup_finish(r->setup);
}

/* counters_has: whether the setup opened ID. */
static inline bool counters_reader_has(const struct counters_reader *r, enum counter_id id)
{
	return (r->setup->open & COUNTER_BIT(id)) != 0;
}

#endif

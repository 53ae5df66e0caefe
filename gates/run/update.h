/* update.h: `--update-baseline`, and the context's counter summary. */
#ifndef GATE_UPDATE_H
#define GATE_UPDATE_H

#include "core/result.h"
#include "decide/comparable.h"

/* Stores R as the baseline at PATH, keeping the series of OLD (may be
 * NULL) that R did not measure (another tier or kernel). AGAINST_OLD is
 * what the run decided of R's context against OLD's (compare_baseline;
 * NULL: none), used for the drift history unless the file was replaced
 * meanwhile (then it is decided against the file read under the lock). Refuses when
 * SAMPLE_FAILURES > 0. Prints what changed. Returns GATE_EXIT_OK,
 * GATE_EXIT_UNCHECKED when refused, GATE_EXIT_USAGE when the file could not
 * be written (the old one is left whole); exit_decide_after_update makes it
 * the run's exit status.
 * Waits up to UPDATE_LOCK_WAIT_MS for another updater (below). */
enum gate_exit update_baseline(const struct run_result *r, const struct run_result *old,
			       const struct comparability *against_old, const char *path,
			       int sample_failures);

/* How long a second updater of the same baseline waits for the first. */
#define UPDATE_LOCK_WAIT_MS 30000

/* update_baseline waiting at most WAIT_MS for another writer of PATH (one
 * at a time: a lock on PATH's directory, file_lock.h); under the lock it
 * removes temporary files left by a killed writer and re-reads PATH so that
 * series written meanwhile are kept. Returns GATE_EXIT_OK,
 * GATE_EXIT_UNCHECKED when refused, GATE_EXIT_USAGE when the lock was not
 * had in time or PATH could not be read or written. */
enum gate_exit update_baseline_wait(const struct run_result *r, const struct run_result *old,
				    const struct comparability *against_old, const char *path,
				    int sample_failures, int wait_ms);

/* Sets r->ctx.counters to "available: ...; unavailable: ..." from the
 * counters the run saw. */
void update_counters_note(struct run_result *r);

#endif

/* result_history.h: a history of results on one branch (`gate history`),
 * one summary per run: the commit it measured, when, on which platform and
 * CPU, and per series what change point detection needs (the median; for
 * timing the sample count and the spread). store/history_dir.h keeps one
 * file per run (docs/json-format.md, "History files");
 * decide/change_scan.h finds the change points in it (core/change_points.h).
 *
 * Not the drift history of decide/history.h, which is the batch medians a
 * baseline keeps of its own earlier recordings.
 */
#ifndef GATE_RESULT_HISTORY_H
#define GATE_RESULT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"

/* The version of a history file's format; readers reject another. */
#define RESULT_HISTORY_SCHEMA 1

/* The CPU a run measured on: struct context's identity fields (copies);
 * NULL strings and a COUNT of 0 where the run did not say. */
struct history_cpu {
	char *model, *vendor, *family, *model_number, *stepping;
	int count;                /* logical CPUs */
};

/* One series of one run. */
struct history_value {
	char *kernel, *variant, *params, *metric, *unit;
	enum metric_class cls;
	double median;            /* the run's median, in UNIT */
	size_t n;                 /* timing: the measured samples it is the median of; 0 otherwise */
	double mad;               /* timing: the median absolute deviation of those samples
				   * from the median (unscaled, in UNIT); NaN otherwise */
};

/* One run. */
struct history_run {
	char *file;               /* the file it was read from; NULL before it is written */
	char *commit;             /* as the run recorded it (context.commit): a hash,
				   * `git describe` output, or the CI's id */
	char *time;               /* "YYYY-MM-DDTHH:MM:SSZ" (UTC): the commit's committer
				   * time when TIME_IS_COMMIT, else the run's start */
	bool time_is_commit;
	char *run_at;             /* the run's start, "YYYY-MM-DDTHH:MM:SSZ" */
	char *platform;           /* the platform key */
	struct history_cpu cpu;
	struct history_value *values;
	size_t count;
};

struct result_history {
	struct history_run *runs;
	size_t count;
};

/* Appends a zeroed run to H; returns it, or NULL on no memory. */
struct history_run *result_history_add_run(struct result_history *h);

/* Appends a series to RUN (strings copied); 0 or -ENOMEM. */
int result_history_add_value(struct history_run *run, const struct history_value *v);

/* Sorts H's runs by time, then commit, then run start, then file: the
 * order of the branch as far as the files say it. */
void result_history_sort(struct result_history *h);

/* Frees what RUN owns and zeroes it. */
void result_history_run_free(struct history_run *run);

/* Frees every run of H and zeroes it. */
void result_history_free(struct result_history *h);

/* The revision git knows COMMIT by into OUT of SIZE: "-dirty" removed,
 * `git describe`'s "TAG-N-gHEX" as HEX, anything else as it is. */
void result_history_rev(const char *commit, char *out, size_t size);

/* COMMIT for a person: the first 7 digits of a hexadecimal revision, else
 * the revision (result_history_rev) as it is; into OUT of SIZE. */
void result_history_short(const char *commit, char *out, size_t size);

/* Whether A and B name the same commit: their revisions are equal, or one
 * hexadecimal revision of at least 7 digits begins the other. */
bool result_history_same_commit(const char *a, const char *b);

/* Whether A and B describe the same CPU (every field equal). */
bool result_history_cpu_same(const struct history_cpu *a, const struct history_cpu *b);

/* CPU for a person: "AMD EPYC 7763 (AuthenticAMD family 0x19 model 0x01
 * stepping 1, 4 CPUs)", "unknown CPU" when it says nothing; into BUF. */
void result_history_cpu_describe(const struct history_cpu *cpu, char *buf, size_t size);

/* Whether S is a time as a history file writes it: "YYYY-MM-DDTHH:MM:SSZ". */
bool result_history_time_valid(const char *s);

#endif

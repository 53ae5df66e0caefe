/* change_points.h: what `gate history` found in a history of results
 * (core/result_history.h): per series its level over the commits and the
 * commits where the level moved. Built by decide/change_scan.c with the
 * methods of decide/changepoint.h; the run adds what git says (subjects,
 * commits between two results); rendered by report/history_report.h
 * (text, SVG, JSON). Strings of tracks and commits point into the history
 * they were found in, which outlives them; subjects are owned.
 */
#ifndef GATE_CHANGE_POINTS_H
#define GATE_CHANGE_POINTS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result_history.h"

/* Schema of the --json file of `gate history` (docs/json-format.md). */
#define CHANGE_POINTS_SCHEMA 1

/* How a series' change points are found (decide/changepoint.h). */
enum change_method {
	CHANGE_STEP,       /* exact series: every commit whose value leaves the level
			    * by more than a relative tolerance (0: any difference) */
	CHANGE_EDIVISIVE,  /* timing and near-exact series: E-divisive means with a
			    * permutation test and a minimum effect */
};

/* The settings of the detection, recorded with what it found. */
struct change_settings {
	double alpha;          /* E-divisive: significance of each split */
	size_t permutations;   /* E-divisive: permutations per test */
	size_t min_segment;    /* E-divisive: fewest points on each side of a split */
	double min_effect;     /* E-divisive: smallest relative change of level kept */
	unsigned long long seed; /* of the permutations (core/rng.h), the same for every series */
};

/* One change of level. */
struct change_point {
	size_t at;             /* the track's first point of the new level (>= 1) */
	double before, after;  /* the level before and after: the step rule's values,
				* E-divisive's medians of the neighbouring segments */
	double change;         /* after / before - 1; +inf from 0 */
	double p_value;        /* E-divisive: the permutation test's; NaN for the step rule */
	long between;          /* commits of the branch between the point before and this
				* one that the history lacks (git rev-list); -1 unknown */
};

/* One series over the commits that measured it. */
struct change_track {
	const char *platform, *kernel, *variant, *params, *metric, *unit;
	enum metric_class cls;     /* the last run's */
	enum change_method method;
	double tolerance;          /* the step rule's relative tolerance; E-divisive's
				    * minimum effect */
	size_t count;              /* points: one per commit, in the history's order */
	size_t *commit;            /* per point: the index of its commit in the findings */
	double *value;             /* per point: the median of its runs' medians */
	double *spread;            /* per point: the median of their MADs (NaN: none) */
	const struct history_cpu **cpu; /* per point: its first run's CPU */
	struct change_point *points;
	size_t point_count;
};

/* One commit of the history. */
struct change_commit {
	const char *commit;        /* as its first run recorded it */
	const char *time;          /* that run's time (result_history.h) */
	char rev[96];              /* what git knows it by (result_history_rev) */
	char short_id[16];         /* for a person (result_history_short) */
	size_t runs;               /* the history's runs of it */
	char *subject;             /* its subject line (git log), NULL when unknown */
	bool asked;                /* git was asked for it (the run's) */
};

struct change_findings {
	struct change_settings settings;
	struct change_commit *commits;
	size_t commit_count;
	struct change_track *tracks;   /* the series asked for that have points */
	size_t track_count;
	size_t change_count;           /* change points over every track */
	size_t platform_count;         /* distinct platforms among the tracks */
};

/* The change point's commit: TRACK's point AT's. */
const struct change_commit *change_points_commit(const struct change_findings *f,
						 const struct change_track *t,
						 const struct change_point *p);

/* The commit of the point before it (the last result of the old level). */
const struct change_commit *change_points_previous(const struct change_findings *f,
						   const struct change_track *t,
						   const struct change_point *p);

/* "exact", "e-divisive". */
const char *change_points_method_name(enum change_method m);

/* Frees what F owns and zeroes it. */
void change_points_free(struct change_findings *f);

#endif

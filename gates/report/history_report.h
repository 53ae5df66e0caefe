/* history_report.h: the renderers of `gate history`'s findings
 * (core/change_points.h): the text, one paragraph per commit that moved a
 * series (history_text.c); one SVG of the series over the commits with
 * their change points marked (history_svg.c); the JSON file
 * (history_json.c, docs/json-format.md "The change points file"). Nothing
 * here computes a statistic, and text of the files (names, commits,
 * subjects) passes report/escape.h's rule of each. */
#ifndef GATE_HISTORY_REPORT_H
#define GATE_HISTORY_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/change_points.h"

/* The most series one SVG draws; the rest are named as left out. */
#define HISTORY_SVG_MAX 24

/* One change point and where it lies: its commit's index and the index of
 * the commit of the point before it. */
struct history_item {
	const struct change_track *track;
	const struct change_point *point;
	size_t commit, previous;
};

/* Every change point of F into a malloc'd *OUT (NULL when none), sorted by
 * commit, then the commit before, then series; their number into *N.
 * Returns 0 or -ENOMEM. */
int history_items(const struct change_findings *f, struct history_item **out, size_t *n);

/* What a history of RUNS runs in DIR holds and every change point of F,
 * one paragraph per commit: its short id, time and subject; one line per
 * series (the level before and after, the change, "exact" or "p = ..."); a
 * CPU that differs from the result before; and, where the branch has
 * commits between the two results that the history lacks, the `gate
 * bisect` command that finds the one. Then one summary line. */
void history_text_print(FILE *f, const struct change_findings *fx, const char *dir,
			size_t runs);

/* The SVG of F's series into F: with CHOSEN (the series were asked for by
 * name), every track; otherwise those with change points. Each is a panel
 * of its value per commit (timing: the spread as a bar), a vertical line
 * at each change point. At most HISTORY_SVG_MAX panels. */
void history_svg_print(FILE *f, const struct change_findings *fx, bool chosen);

/* history_svg_print into PATH atomically; 0, or a negative errno with ERR
 * naming PATH (unchanged). */
int history_svg_write(const char *path, const struct change_findings *fx, bool chosen,
		      char *err, size_t err_size);

/* The change points file into PATH atomically: DIR and RUNS as the text
 * says them, EXIT_CODE the process's status. 0, or a negative errno with
 * ERR naming PATH (unchanged). */
int history_json_write(const char *path, const struct change_findings *fx, const char *dir,
		       size_t runs, int exit_code, char *err, size_t err_size);

#endif

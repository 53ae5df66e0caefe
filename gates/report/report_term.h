/* report_term.h: the terminal report, rendered from the run result only. */
#ifndef GATE_REPORT_TERM_H
#define GATE_REPORT_TERM_H

#include <stdbool.h>
#include <stdio.h>

#include "core/result.h"

/* How the terminal report is printed (not what it says: that is all in
 * the result). */
struct report_term_options {
	bool no_color;   /* --no-color: plain text even on a terminal */
	bool details;    /* --details, -v: every series, not the compact rows */
};

/* Prints R for a person: header, per kernel and parameter set the key
 * metrics of each variant with their change against the baseline, the
 * expectations with estimates and intervals, problems, the method (from
 * R's policy) and a one-line summary last. Colour only when F is a
 * terminal and NO_COLOR is unset. */
void report_term_print(FILE *f, const struct run_result *r, const struct report_term_options *o,
		       const struct run_result *base);

#endif

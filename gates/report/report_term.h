/* report_term.h: the terminal report, rendered from the run result only. */
#ifndef GATE_REPORT_TERM_H
#define GATE_REPORT_TERM_H

#include <stdio.h>
#include "cli/run_options.h"
#include "core/result.h"

/* Prints R for a person: header, per kernel and parameter set the key
 * metrics of each variant with their change against the baseline, the
 * expectations with estimates and intervals, problems, and a one-line
 * summary last. Colour only when F is a terminal and NO_COLOR is unset. */
void report_term_print(FILE *f, const struct run_result *r, const struct run_options *o,
		       const struct run_result *base);

/* Formats VALUE of UNIT for a person ("1.23 ms", "4.0 MiB", "12"). */
void report_term_value(double value, const char *unit, char *buf, size_t size);

#endif

/* report_junit.h: the --junit report, JUnit XML rendered from the run
 * result only, in the dialect the common CI report tools read
 * (<testsuites>/<testsuite>/<testcase> with <failure>, <error>, <skipped>).
 *
 * One <testsuite> per kernel; in it one <testcase> per evaluated
 * expectation (name "expect PARAMS: EXPR") and per series that was compared
 * against the baseline (name "VARIANT/PARAMS METRIC"), with file and line
 * attributes pointing at the GATE_EXPECT / GATE_VARIANT line. Failures
 * carry the numbers in message and body; series that were not compared
 * (new, skipped) are not test cases.
 */
#ifndef GATE_REPORT_JUNIT_H
#define GATE_REPORT_JUNIT_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/* Prints R as JUnit XML to F (ARG unused: the report_file.h signature). */
void report_junit_print(FILE *f, const struct run_result *r, const void *arg);

/* Writes the JUnit XML of R to PATH atomically; 0 or a negative errno
 * with ERR naming PATH. */
int report_junit_write(const char *path, const struct run_result *r, char *err, size_t err_size);

#endif

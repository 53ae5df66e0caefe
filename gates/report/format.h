/* format.h: the one-line descriptions of a verdict shared by the
 * JUnit, markdown and GitHub reporters, formatted from the run result only. */
#ifndef GATE_FORMAT_H
#define GATE_FORMAT_H

#include <stddef.h>

#include "core/result.h"

/* "regression toy/single/small wall_ns: 1.01 ms -> 3.02 ms (+199.0%); NOTE"
 * (the first word is the verdict's: regression, improvement, inconclusive,
 * ...) into BUF of SIZE. */
void report_text_series(const struct series *s, char *buf, size_t size);

/* "expectation violated on small: EXPR (estimate 1.497, interval [1.476,
 * 1.52], 15 rounds); NOTE" (or "holds", "inconclusive", ...) into BUF. */
void report_text_expect(const struct expect_result *e, char *buf, size_t size);

/* Counts of R's series and expectations by verdict (arrays of
 * VERDICT_ERROR + 1) and its problems that concern a kernel. */
void report_text_counts(const struct run_result *r, size_t *series, size_t *expects,
			size_t *problems);

/* "PASS", "FAIL", "UNMEASURED" or "ERROR" for the run's exit code. */
const char *report_text_word(int exit_code);

#endif

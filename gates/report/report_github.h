/* report_github.h: GitHub Actions workflow commands, printed to stdout when
 * GITHUB_ACTIONS=true, rendered from the run result only:
 *   ::error file=F,line=N,title=T::MESSAGE
 * for a violated expectation (at its GATE_EXPECT line), a regressed series
 * (at its GATE_VARIANT line), an expectation that could not be checked and
 * a kernel problem; ::warning for an inconclusive expectation. Values are
 * escaped as the runner requires: % \r \n in messages, and also : and , in
 * properties. */
#ifndef GATE_REPORT_GITHUB_H
#define GATE_REPORT_GITHUB_H

#include <stddef.h>
#include <stdio.h>

#include "core/result.h"

/* Writes S escaped into BUF of SIZE (truncated, always terminated); with
 * PROPERTY also : and , (for file= and title=). */
void report_github_escape(const char *s, int property, char *buf, size_t size);

/* Prints the annotations of R to F; returns how many. */
size_t report_github_print(FILE *f, const struct run_result *r);

/* Whether the environment says this is a GitHub Actions job. */
int report_github_enabled(void);

#endif

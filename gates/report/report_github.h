/* report_github.h: GitHub Actions workflow commands, printed to stdout when
 * GITHUB_ACTIONS=true, rendered from the run result only:
 *   ::error file=F,line=N,title=T::MESSAGE
 * for a violated expectation (at its GATE_EXPECT line), a regressed
 * (kernel, variant, params) with every metric that moved under it (at its
 * GATE_VARIANT line), a changed allocation site (at its line), an expectation that could not be checked and
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

/* GitHub shows this many annotations of a level per step (and drops the
 * rest): a run prints at most this many, the last one naming how many
 * more the step summary lists. */
#define REPORT_GITHUB_MAX 10

/* The most places told per regressed group. */
#define REPORT_GITHUB_SHIFTS 8

/* Prints the annotations of R to F, at most REPORT_GITHUB_MAX; returns how
 * many it printed. */
size_t report_github_print(FILE *f, const struct run_result *r);

/* Whether the environment says this is a GitHub Actions job. */
int report_github_enabled(void);

#endif

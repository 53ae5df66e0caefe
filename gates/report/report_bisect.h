/* report_bisect.h: what `gate bisect` found, for a person (the terminal)
 * and for a program (--json FILE, docs/json-format.md "The outcome of `gate bisect`"), both
 * from one struct bisect_outcome (decide/bisect.h). */
#ifndef GATE_REPORT_BISECT_H
#define GATE_REPORT_BISECT_H

#include <stdbool.h>
#include <stdio.h>

#include "decide/bisect.h"
#include "store/jsonout.h"

/* The version of the --json file's layout. */
#define REPORT_BISECT_VERSION 1

/* O as text into F: the range, each probe, one paragraph for the culprit
 * (its commit and subject, the series that changed there with both values,
 * the places whose allocation calls changed), the builds it took. */
void report_bisect_text(FILE *f, const struct bisect_outcome *o);

/* O as a JSON object (store/jsonout.h writes it); NULL on no memory. */
json_t *report_bisect_json(const struct bisect_outcome *o);

#endif

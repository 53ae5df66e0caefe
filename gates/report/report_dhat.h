/* report_dhat.h: a run's allocation call stacks (core/result.h, struct
 * stacks) as a file that DHAT's viewer opens (valgrind's dh_view.html,
 * "Load…"; valgrind manual, "DHAT: a dynamic heap analysis tool", its
 * file format version 2, as dh_view.js reads it).
 *
 * DHAT's file is a list of program points, each a call stack with a total
 * ("tb", in the file's unit "bu"/"bsu") and a count ("tbk", in "bksu"),
 * frames innermost first in a frame table whose entry 0 is "[root]". The
 * cost pass measures calls and the instructions inside them, not block
 * lifetimes or accesses, so the file says it has neither ("bklt" and
 * "bkacc" false, the fields that need them absent) and a point's total is
 * its instructions inside the allocator ("bsu": "instructions"), its count
 * its calls ("bksu": "calls"): the viewer's "Total: 39,704 instructions in
 * 1,000 calls, avg size 39.7 instructions" of a point is the instructions
 * a call cost there. "te", what the viewer's per-Minstr rates are of, is
 * the instructions of the measured regions the stacks were taken in (the
 * variants' top-level `[REGION.]cost_instructions`): a point's calls per
 * million instructions of the measured code; without such series, the
 * points' own instructions, named so ("tu": "allocator instrs").
 *
 * One program point per stack of this run (gate ab: side B's), its frames
 * innermost first: the entry point and where its caller called it
 * ("malloc at src/value.c:522"), the stack's functions from the caller to
 * the root, "(deeper)" under a truncated stack, "region NAME" in a variant
 * of named regions, and outermost the variant ("kernel/variant/params"),
 * so that one file holds the whole run and the viewer's tree starts at the
 * allocation points, as DHAT's own does. A rest is one point
 * ("(other stacks) of malloc"). Stacks with neither calls nor
 * instructions are left out. */
#ifndef GATE_REPORT_DHAT_H
#define GATE_REPORT_DHAT_H

#include <stddef.h>

#include "core/result.h"

/* The file's version, the one dh_view.js expects. */
#define REPORT_DHAT_FILE_VERSION 2

/* Writes R's stacks to PATH atomically. Where R has none recorded (the
 * cost pass did not run: --no-cost, no valgrind, Windows, macOS) the file
 * has no program point and its command line ("cmd", which the viewer
 * shows) says so, so that a pipeline asking for it on every platform gets
 * a file that opens. Returns 0 or a negative errno with ERR naming PATH. */
int report_dhat_write(const char *path, const struct run_result *r, char *err,
		      size_t err_size);

#endif

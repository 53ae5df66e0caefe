/* cost_pass.h: the cost pass (docs/counters.md, "The cost pass"): one
 * sample per (variant, parameter set) under callgrind, whose per-region
 * counts of every thread (instructions, cache misses of a fixed simulated
 * cache, estimated cycles, calls and inclusive instructions of each
 * allocator entry point) do not depend on the CPU model or the machine's
 * load.
 *
 * One implementation per OS: cost_pass_posix.c (valgrind, where it is
 * installed; Linux), cost_pass_windows.c (none: says so).
 */
#ifndef GATE_COST_PASS_H
#define GATE_COST_PASS_H

#include <stddef.h>

#include "core/result.h"
#include "sample/record.h"

/* One cost sample to take. */
struct cost_job {
	char *const *argv;           /* the kernel's command line, NULL-terminated */
	char *const *env;            /* extra environment, may be NULL */
	double timeout_seconds;      /* for the whole valgrind process */
	struct record rec;           /* out: the cost metrics, "[REGION.]cost_*" */
	char why[512];               /* out: why it failed */
	int ret;                     /* out: 0, or a negative errno: -ENODATA when the
				      * kernel has no cost markers (built without
				      * <valgrind/callgrind.h>, or before the cost pass) */
};

/* Why the cost pass cannot run here (no valgrind, a sanitizer build, an
 * OS without valgrind), or NULL when it can. */
const char *cost_pass_unavailable(void);

/* Fills CTX's cost fields: valgrind's version and the CPU that valgrind
 * presents to programs with the kernels' extra environment ENV, as glibc's
 * ifunc selection sees it (ld.so --list-diagnostics under valgrind: its
 * digest and a summary). Returns 0 or -ENOMEM; when the pass is
 * unavailable the fields say why. */
int cost_pass_context(struct context *ctx, char *const *env);

/* Takes JOBS[0..N), up to PARALLEL at once (0: one per online CPU; cost
 * samples are not timed, so they may share the machine). Each job's ret, rec and why are set. */
void cost_pass_run(struct cost_job *jobs, size_t n, int parallel);

#endif

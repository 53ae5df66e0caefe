/* cost_pass.h: the cost pass (docs/cost.md, "How it runs"): one
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
	struct stacks stacks;        /* out: the allocation call stacks (cost_stacks.h),
				      * kernel, variant and params "", not bounded */
	char why[512];               /* out: why it failed */
	char *ifuncs;                /* out: glibc's ifunc variants it ran, sorted and
				      * comma-separated (core/cost_key.h), or NULL */
	int ret;                     /* out: 0, or a negative errno: -ENODATA when the
				      * kernel has no cost markers (built without
				      * <valgrind/callgrind.h>, or before the cost pass) */
};

/* The glibc tunables every cost sample runs with, before the user's own
 * GLIBC_TUNABLES (which win where they name the same tunable): the cache
 * sizes and copy thresholds glibc derives from the CPU, fixed at the
 * values valgrind's synthetic CPU gives them on an AVX2 host (pinning them
 * there changes no count: docs/measurements.md#the-cost-key-what-the-pins-change), so that a valgrind or host that
 * presents other cache leaves cannot move a copy across rep movsb or
 * non-temporal stores unseen (NOTES: rep movsb counts an instruction per
 * iteration). The ifunc variants are not pinned: the cost key names the
 * ones that ran (core/cost_key.h). Tunables: glibc manual, "Hardware
 * Capability Tunables". */
#define COST_TUNABLES                                                                   \
	"glibc.cpu.x86_data_cache_size=32768:glibc.cpu.x86_shared_cache_size=8388608:" \
	"glibc.cpu.x86_non_temporal_threshold=2097152:"                                \
	"glibc.cpu.x86_rep_movsb_threshold=8192:glibc.cpu.x86_rep_stosb_threshold=2048"

/* The environment of a cost sample into OUT (room for N entries, the last
 * NULL), a fixed one (spawn.h's SPAWN_ENV_CLEAR: nothing of the gate's own
 * environment): ENV's assignments but GLIBC_TUNABLES, then GLIBC_TUNABLES
 * set to COST_TUNABLES followed by the user's (ENV's, or else the gate's
 * own environment's). TUNABLES (TUNABLES_SIZE bytes) holds that
 * assignment. */
void cost_pass_env(char *const *env, char **out, size_t n, char *tunables, size_t tunables_size);

/* The length of the kernel's path as a cost sample sees it (argv[0] and
 * AT_EXECFN lie on its stack): a link to the kernel whose path is padded to
 * this length, so that the checkout's location moves nothing. */
#define COST_ARGV0_LENGTH 200

/* Why the cost pass cannot run here (no valgrind, a sanitizer build, an
 * OS without valgrind), or NULL when it can. */
const char *cost_pass_unavailable(void);

/* Fills CTX's cost fields: valgrind's version, the libc and loader builds,
 * the pinned tunables, and the CPU that valgrind presents to programs with
 * the kernels' extra environment ENV, as glibc's ifunc selection sees it
 * (ld.so --list-diagnostics under valgrind: its CPU lines whole and the
 * key lines' digest). The ifunc variants that ran are added by the pass
 * itself. Returns 0 or -ENOMEM; when the pass is unavailable the fields
 * say why. */
int cost_pass_context(struct context *ctx, char *const *env);

/* Takes JOBS[0..N), up to PARALLEL at once (0: one per online CPU; cost
 * samples are not timed, so they may share the machine). Each job's ret, rec and why are set. */
void cost_pass_run(struct cost_job *jobs, size_t n, int parallel);

/* Removes the temporary directories of the cost samples running now
 * (valgrind's dumps) and makes later samples fail: for an interrupted run
 * (core/interrupt.h), after spawn_end_all. Not from a signal handler. */
void cost_pass_remove_temporary(void);

#endif

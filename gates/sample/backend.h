/* backend.h: how a kernel sample is wrapped (--backend, docs/counters.md).
 * In gates/ a backend is always this wrapper; the probe's own counter
 * sources (perf/counters/counters_<os>.c) are another thing, never chosen here.
 *
 *   perf       the default: no wrapper, the kernel runs as is (and its
 *              probe reads perf_event counters or the POSIX clocks)
 *   bpf        the kernel runs under build/gate-bpf, which adds the BPF
 *              allocator counts (bpf.*) to its record
 * Timings under a wrapping backend are its own (uprobes cost about a
 * microsecond per call), so such a run has its own baseline key:
 * <platform>-bpf. (Instructions under callgrind are the cost pass,
 * cost_pass.h, which every run takes beside its timed samples.)
 *
 * Implementations: backend_posix.c (fork/exec platforms),
 * backend_windows.c (perf only).
 */
#ifndef GATE_BACKEND_H
#define GATE_BACKEND_H

#include <stddef.h>

#include "core/result.h"

#define BACKEND_MAX_ARGS 64

/* One wrapped sample: the command line to spawn. A wrapping backend adds
 * its figures to the record the sample prints (gate-bpf prints the
 * kernel's record with the bpf.* counts added), so the gate reads that
 * record as any other and nothing is left to read or remove after it. */
struct backend_run {
	char *argv[BACKEND_MAX_ARGS];
	char tool[4096];          /* gate-bpf */
	char libs[4096];          /* LD_PRELOAD entries, NUL-separated, for gate-bpf */
};

/* Whether NAME is a backend --backend accepts. */
int backend_known(const char *name);

/* Fills B->argv: KERNEL_ARGV (NULL-terminated) under backend NAME (NULL or
 * "perf": unchanged), ENV being the kernel's extra environment (its
 * LD_PRELOAD names the allocator gate-bpf must probe too). Creates no
 * file and starts nothing. Returns 0, or a negative errno with WHY. */
int backend_prepare(struct backend_run *b, const char *name, char *const *kernel_argv,
		    char *const *env, char *why, size_t why_size);

/* Appends "-NAME" to CTX's platform key for a wrapping backend NAME (its
 * baselines are its own). Returns 0 or -ENOMEM. */
int backend_context(struct context *ctx, const char *name);

#endif

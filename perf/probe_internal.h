/* probe_internal.h: what the probe's own files share and kernels do not
 * call. */
#ifndef GATE_PROBE_INTERNAL_H
#define GATE_PROBE_INTERNAL_H

/* gate_parallel_region ran THREADS threads: the sample reports the most
 * as its metric "threads" (docs/protocol.md). */
void probe_threads_used(int threads);

#endif

/* probe_internal.h: what the probe's own files share and kernels do not
 * call. */
#ifndef GATE_PROBE_INTERNAL_H
#define GATE_PROBE_INTERNAL_H

/* gate_parallel_region ran THREADS threads: the sample reports the most
 * as its metric "threads" (docs/protocol.md). */
void probe_threads_used(int threads);

/* Under the cost pass, the calling thread's instructions from
 * probe_cost_wait_begin() to probe_cost_wait_end() are not counted (a
 * thread waiting for others: its count would follow the schedule). Outside
 * valgrind each is one RUNNING_ON_VALGRIND request. */
void probe_cost_wait_begin(void);
void probe_cost_wait_end(void);

/* Whether the kernel runs under valgrind (the cost pass): 0 outside it. */
int probe_cost_pass_running(void);

#endif

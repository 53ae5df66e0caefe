/* probe_cost.h: the probe's hooks for the cost pass (docs/cost.md,
 * "How it counts"): the kernel runs under valgrind --tool=callgrind
 * --instr-atstart=no. Callgrind instruments while any region is open, in
 * every thread, and each time the set of open regions changes the probe
 * dumps the cost since the last change under a label naming that set
 * (probe_region.c, probe_cost_mark), so that the runner adds every
 * interval to every region that was open during it. Outside valgrind each
 * mark is one RUNNING_ON_VALGRIND request, a few instructions; without the
 * header (configure.py says so) none: PROBE_COST is defined when the
 * header is there. */
#ifndef GATE_PROBE_COST_H
#define GATE_PROBE_COST_H

#if defined(GATE_HAVE_CALLGRIND) && defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define PROBE_COST 1
#endif
#endif

/* Under the cost pass, the calling thread's instructions from
 * probe_cost_wait_begin() to probe_cost_wait_end() are not counted (a
 * thread waiting for others: its count would follow the schedule). Outside
 * valgrind each is one RUNNING_ON_VALGRIND request. */
void probe_cost_wait_begin(void);

/* Counts the calling thread's instructions again (probe_cost_wait_begin). */
void probe_cost_wait_end(void);

/* Whether the kernel runs under valgrind (the cost pass): 0 outside it. */
int probe_cost_pass_running(void);

#endif

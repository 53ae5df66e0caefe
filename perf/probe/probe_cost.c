/* probe_cost.c: the cost pass's hooks the threads of gate_parallel_region
 * call (probe_cost.h); the marks at region boundaries are probe_region.c's. */
#include "probe/probe_cost.h"

/* probe_cost.h. Callgrind's collection state is the calling
 * thread's own: toggling it leaves the other threads counted. */
static void probe_cost_toggle_collect(void)
{
#ifdef PROBE_COST
	if (RUNNING_ON_VALGRIND)
		CALLGRIND_TOGGLE_COLLECT;
#endif
}

void probe_cost_wait_begin(void)
{
	probe_cost_toggle_collect();
}

void probe_cost_wait_end(void)
{
	probe_cost_toggle_collect();
}

int probe_cost_pass_running(void)
{
#ifdef PROBE_COST
	return RUNNING_ON_VALGRIND ? 1 : 0;
#else
	return 0;
#endif
}

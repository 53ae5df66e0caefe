/* counter_keep_windows.c: counter_keep.h where no counter open costs a code
 * patch that a held one would save: nothing is held. */
#include "sample/counter_keep.h"

int counter_keep_open(void)
{
	return 0;
}

int counter_keep_tracepoints_hold(void)
{
	return 0;
}

void counter_keep_tracepoints_release(void)
{
}

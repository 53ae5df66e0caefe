/* machine_load_windows.c: machine_load.h where the gate reads no machine-wide
 * CPU time: no round is marked as disturbed by other processes. */
#include <errno.h>

#include "sample/machine_load.h"

int machine_load_read(struct machine_load *m)
{
	(void)m;
	return -ENOSYS;
}

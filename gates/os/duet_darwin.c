/* duet_darwin.c: duet_cpus_read on macOS: no process affinity there (its
 * thread affinity tags are hints to keep threads together, not CPUs), so
 * `gate ab` stays interleaved. */
#include <errno.h>

#include "sample/duet.h"

int duet_cpus_read(struct duet_cpus *out)
{
	out->count = 0;
	return -ENOSYS;
}

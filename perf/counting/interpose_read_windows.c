/* interpose_read_windows.c: no allocation interposer on this OS yet
 * (docs/counters.md): never present, so no proc_* metric is reported. */
#include "counting/interpose_read.h"

bool interpose_present(void)
{
	return false;
}

void interpose_read(uint64_t *out)
{
	(void)out;
}

const char *interpose_live_off(void)
{
	return NULL;
}

void interpose_counting(int on)
{
	(void)on;
}

size_t interpose_libraries(struct interpose_library *out, size_t max, uint64_t *unattributed)
{
	(void)out;
	(void)max;
	*unattributed = 0;
	return 0;
}

/* metric_name.c: what a metric's name says (metric_name.h). */
#include <string.h>

#include "core/metric_name.h"

int metric_is_cost(const char *name)
{
	const char *base = strrchr(name, '.');
	base = base ? base + 1 : name;
	return strncmp(base, "cost_", 5) == 0;
}

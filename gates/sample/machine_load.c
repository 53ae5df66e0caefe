/* machine_load.c: the portable arithmetic of machine_load.h. */
#include "sample/machine_load.h"

unsigned machine_load_others_permille(const struct machine_load *a, const struct machine_load *b)
{
	double wall = b->wall_ns - a->wall_ns, cpus = b->cpus > 0 ? b->cpus : 1;
	double others = (b->busy_ns - a->busy_ns) - (b->own_ns - a->own_ns) -
			cpus * MACHINE_LOAD_TICK_NS;
	if (!(wall > 0) || !(others > 0))
		return 0;
	double permille = 1000 * others / (wall * cpus);
	return permille > 1000 ? 1000 : (unsigned)permille;
}

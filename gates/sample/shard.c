/* shard.c: which (kernel, params) groups a shard runs (see shard.h). */
#include "sample/shard.h"

int shard_has(size_t g, int index, int count)
{
	if (count <= 1)
		return 1;
	return (int)(g % (size_t)count) + 1 == index;
}

size_t shard_apply(struct kernel_info *k, size_t n, unsigned tier, int index, int count)
{
	size_t g = 0, kept = 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t p = 0; p < k[i].paramset_count; p++) {
			struct kernel_paramset *ps = &k[i].paramsets[p];
			if (!(ps->tiers & tier))
				continue;
			if (shard_has(g++, index, count))
				kept++;
			else
				ps->tiers &= ~tier;
		}
	}
	return kept;
}

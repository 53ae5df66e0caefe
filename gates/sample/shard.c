/* shard.c: which (kernel, params) groups a shard runs (see shard.h). */
#include "sample/shard.h"

#include "sample/groups.h"

int shard_has(size_t g, int index, int count)
{
	if (count <= 1)
		return 1;
	return (int)(g % (size_t)count) + 1 == index;
}

size_t shard_apply(struct kernel_info *k, size_t n, unsigned tier, int index, int count)
{
	struct group_iter it;
	struct group g;
	size_t kept = 0;
	groups_begin(&it, k, n, tier);
	while (groups_next(&it, &g)) {
		if (shard_has(g.index, index, count))
			kept++;
		else   /* the iterator has passed it: taking it out of the tier is safe */
			k[g.kernel_index].paramsets[g.params_index].tiers &= ~tier;
	}
	return kept;
}

/* groups.c: the iterator over a tier's groups (groups.h). */
#include "sample/groups.h"

void groups_begin(struct group_iter *it, const struct kernel_info *kernels, size_t count,
		  unsigned tier)
{
	it->kernels = kernels;
	it->count = count;
	it->tier = tier;
	it->k = it->p = it->index = 0;
}

bool groups_next(struct group_iter *it, struct group *g)
{
	for (; it->k < it->count; it->k++, it->p = 0) {
		const struct kernel_info *ki = &it->kernels[it->k];
		while (it->p < ki->paramset_count) {
			size_t p = it->p++;
			if (!(ki->paramsets[p].tiers & it->tier))
				continue;
			g->kernel = ki;
			g->params = &ki->paramsets[p];
			g->kernel_index = it->k;
			g->params_index = p;
			g->index = it->index++;
			return true;
		}
	}
	return false;
}

size_t groups_count(const struct kernel_info *kernels, size_t count, unsigned tier)
{
	struct group_iter it;
	struct group g;
	size_t n = 0;
	groups_begin(&it, kernels, count, tier);
	while (groups_next(&it, &g))
		n++;
	return n;
}

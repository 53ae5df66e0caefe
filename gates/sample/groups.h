/* groups.h: the (kernel, parameter set) groups of a tier, in the one
 * order the gate runs, shards, confirms and counts them: kernels in their
 * listed order (discover.c sorts them by name), parameter sets in the order
 * the kernel declares them, those not in the tier left out. */
#ifndef GATE_GROUPS_H
#define GATE_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "sample/kernel_info.h"

struct group {
	const struct kernel_info *kernel;
	const struct kernel_paramset *params;
	size_t kernel_index, params_index;  /* where they are in the arrays */
	size_t index;                       /* 0-based among the tier's groups */
};

struct group_iter {
	const struct kernel_info *kernels;
	size_t count;
	unsigned tier;
	size_t k, p, index;
};

/* Starts IT over the COUNT kernels of KERNELS and the tier bit TIER. */
void groups_begin(struct group_iter *it, const struct kernel_info *kernels, size_t count,
		  unsigned tier);

/* The next group into *G: true, or false after the last. */
bool groups_next(struct group_iter *it, struct group *g);

/* How many groups TIER has among the COUNT KERNELS. */
size_t groups_count(const struct kernel_info *kernels, size_t count, unsigned tier);

#endif

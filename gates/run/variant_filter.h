/* variant_filter.h: `--variant NAME`: which of a kernel's variants a run
 * measures, and which of its expectations can then be checked. */
#ifndef GATE_VARIANT_FILTER_H
#define GATE_VARIANT_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "sample/kernel_info.h"

/* Keeps of K's variants those NAMES names (COUNT names; none: every
 * variant) and sets the left_out of each expectation that names a declared
 * variant no longer kept (its first such variant): it is skipped, not
 * checked. SEEN[i] is set for each NAMES[i] that K declares (SEEN may be
 * NULL). Returns the number of variants kept, or -ENOMEM (K unchanged but
 * for the left_out of expectations already marked). */
int variant_filter_apply(struct kernel_info *k, const char *const *names, size_t count,
			 bool *seen);

#endif

/* cost_regions.h: the per-region sums of one cost sample's callgrind
 * dumps (cost_dump.h) and the "[REGION.]cost_*" metrics made from them:
 * the portable half of the cost pass. The OS half, which runs valgrind and
 * reads the dump files, is os/cost_pass_<os>.c (cost_pass.h).
 *
 * Each dump holds the cost of one interval in which the set of open
 * regions stayed the same; its label names those regions
 * ("allocgate/outer/inner"), so a region's cost is the sum of every dump
 * whose label names it: a dump labelled "allocgate/outer/inner" adds to
 * both outer and inner. */
#ifndef GATE_COST_REGIONS_H
#define GATE_COST_REGIONS_H

#include <stddef.h>

#include "sample/cost_dump.h"
#include "sample/record.h"

/* The most regions one sample may name (more is an error). */
#define COST_MAX_REGIONS 16

/* The summed dumps of one region. */
struct cost_region {
	char name[128];          /* "" for the unnamed region */
	struct cost_dump sum;    /* label unused */
};

/* The regions of one sample, in the order their first dump named them;
 * start from all zeroes. */
struct cost_regions {
	struct cost_region r[COST_MAX_REGIONS];
	size_t n;
	int dumps;               /* dumps added (those whose label is the probe's) */
	int overflow;            /* a dump named a region past COST_MAX_REGIONS */
};

/* Parses TEXT, one dump file (cost_parse_dump), adds the ifunc variants it
 * ran to the set *IFUNCS (cost_dump_ifuncs), and adds its costs to every
 * region its label names; a dump whose label is not the probe's adds to no
 * region. Returns 0, -EINVAL with ERR saying what the dump lacks, or
 * -ENOMEM. */
int cost_regions_add_dump(struct cost_regions *rs, const char *text, char **ifuncs, char *err,
			  size_t err_size);

/* Appends every region's metrics to REC, "[REGION.]cost_instructions",
 * "cost_l1_misses", "cost_ll_misses", "cost_est_cycles" and each entry
 * point's "cost_E_calls" and "cost_E_instructions", all METRIC_EXACT.
 * Returns 0; -EINVAL with ERR when the dumps named more than
 * COST_MAX_REGIONS regions; -ENODATA with ERR naming KERNEL when no dump
 * was the probe's (a kernel built without the cost markers); -ENOMEM. */
int cost_regions_metrics(const struct cost_regions *rs, const char *kernel, struct record *rec,
			 char *err, size_t err_size);

#endif

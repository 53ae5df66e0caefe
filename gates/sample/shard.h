/* shard.h: --shard I/N, a deterministic share of the (kernel, params)
 * groups, so that CI can spread one gate run over several machines and
 * join the results with `gate merge`.
 *
 * The groups of the tier are numbered in the order the gate runs them:
 * kernels sorted by name (discover.c sorts them), parameter sets in the
 * order the kernel declares them. Group g (0-based) belongs to shard
 * (g mod N) + 1. Every shard sees the same list, so the shards are
 * disjoint and together cover every group exactly once.
 */
#ifndef GATE_SHARD_H
#define GATE_SHARD_H

#include <stddef.h>

#include "sample/kernel_info.h"

/* Whether group G (0-based) belongs to shard INDEX (1-based) of COUNT;
 * always true when COUNT is 0 or 1. */
int shard_has(size_t g, int index, int count);

/* Removes TIER from the parameter sets of the N kernels K that are not in
 * shard INDEX of COUNT, so that nothing else runs them; returns how many
 * groups stay in the shard. */
size_t shard_apply(struct kernel_info *k, size_t n, unsigned tier, int index, int count);

#endif

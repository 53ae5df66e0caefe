/* runner_load.c: the machine's load beside a group's samples
 * (others_cpu_permille, sample/machine_load.h), filed as a sample of each
 * measured item (runner_internal.h). */
#include <math.h>
#include <string.h>

#include "sample/machine_load.h"
#include "sample/runner_internal.h"

/* Puts the share of the machine's CPU time that other processes took
 * during the round that began at BEFORE (machine_load.h) as a sample of
 * each item of the round that was measured (its WALL finite): the decision
 * layer leaves the timing of a busy round out (decide/interference.h). */
void runner_put_round_load(struct runner_items *g, const struct machine_load *before,
			   size_t round)
{
	struct machine_load after;
	if (machine_load_read(&after))
		return;
	struct record_metric m = { "others_cpu_permille", "permille", METRIC_TIMING,
				   machine_load_others_permille(before, &after) };
	for (size_t i = 0; i < g->n; i++) {
		const struct runner_side *sd = &g->sides[g->item_side[i]];
		if (isfinite(g->wall[i]))
			runner_put_sample(sd->r, &g->load_hint[i], sd->k, g->item_variant[i],
					  sd->p->name, &m, round);
	}
}

/* The share other processes took over all the group's measured rounds,
 * from BEFORE (taken as round 0 began) to now, raised into each of its
 * samples' others_cpu_permille: a round shorter than /proc/stat's
 * resolution cannot see a neighbour by itself (free_cost n_1k's rounds
 * last about 20 ms; a loop on one core of two went unseen there), the
 * group's rounds together can. */
void runner_put_group_load(const struct runner_side *sides, const size_t *item_side,
			   const size_t *item_variant, size_t n, const struct machine_load *before,
			   size_t first_round, size_t rounds)
{
	struct machine_load after;
	if (machine_load_read(&after))
		return;
	double permille = machine_load_others_permille(before, &after);
	for (size_t i = 0; i < n; i++) {
		const struct runner_side *sd = &sides[item_side[i]];
		struct series *s = (struct series *)result_find_series(
			sd->r, sd->k->name, sd->k->variants[item_variant[i]], sd->p->name,
			"others_cpu_permille");
		for (size_t r = first_round; s && r < first_round + rounds && r < s->sample_count; r++)
			if (isfinite(s->samples[r]) && s->samples[r] < permille)
				s->samples[r] = permille;
	}
}

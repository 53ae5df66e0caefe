/* runner_duet.c: one round of a duet group (runner_internal.h, duet.h):
 * the sample of a variant on side A and of the same variant on side B
 * start at the same instant from two threads, each process on its own
 * CPUs, A on set X and B on set Y in even rounds and the other way round
 * in odd ones; what only one side has, or what only one side may still
 * run, is sampled alone. Both records are filed by this thread once both
 * processes have ended. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sample/duet.h"
#include "sample/runner_internal.h"

/* One side's sample of a pair, taken on a thread of its own. */
struct duet_job {
	const struct runner_side *sd;
	const char *variant;
	int cpus[SPAWN_CPUS_MAX];
	size_t cpu_count;
	struct record rec;
	char why[512];
	int taken;          /* runner_sample_once's return */
	double started;     /* runner_now() as its process was started */
};

long runner_duet_threads(const struct runner_side *sides)
{
	long ta = kernel_info_param(sides[0].p, "threads", 1);
	long tb = kernel_info_param(sides[1].p, "threads", 1);
	return ta == 0 || tb == 0 ? 0 : ta > tb ? ta : tb;
}

static void job_main(void *p)
{
	struct duet_job *j = p;
	spawn_pin_thread(j->cpus, j->cpu_count);
	j->started = runner_now();
	j->taken = runner_sample_once(j->sd->k, j->variant, j->sd->p, j->sd->o, &j->rec, j->why,
				      sizeof j->why);
	spawn_pin_thread(NULL, 0);
}

/* The item of side 0 (A) with the variant of item IT (of side 1), or N. */
static size_t partner(const struct runner_items *g, size_t it)
{
	const char *name = g->sides[1].k->variants[g->item_variant[it]];
	for (size_t i = 0; i < g->n; i++)
		if (g->item_side[i] == 0 &&
		    !strcmp(g->sides[0].k->variants[g->item_variant[i]], name))
			return i;
	return g->n;
}

static void record_skew(struct runner_duet *d, double skew_ns)
{
	if (d->skew_count < RUNNER_DUET_SKEWS)
		d->skew_ns[d->skew_count++] = skew_ns;
	if (skew_ns > d->skew_max_ns)
		d->skew_max_ns = skew_ns;
}

/* Takes items IA (side A) and IB (side B) of ROUND as a pair. */
static void run_pair(struct runner_items *g, size_t ia, size_t ib, long round,
		     struct runner_duet *d)
{
	struct duet_job *ja = calloc(2, sizeof *ja), *jb = ja + 1;
	if (!ja) {   /* no memory for the pair: one after the other */
		runner_item_run(g, ia, round);
		runner_item_run(g, ib, round);
		return;
	}
	long threads = runner_duet_threads(g->sides);
	ja->sd = &g->sides[0];
	jb->sd = &g->sides[1];
	ja->variant = ja->sd->k->variants[g->item_variant[ia]];
	jb->variant = jb->sd->k->variants[g->item_variant[ib]];
	ja->cpu_count = jb->cpu_count = (size_t)threads;
	duet_split(&d->cpus, threads, round % 2 != 0, ja->cpus, jb->cpus);
	if (duet_run_pair(job_main, ja, jb)) {   /* no thread: one after the other */
		job_main(ja);
		job_main(jb);
	} else if (round >= 0 && !ja->taken && !jb->taken) {
		d->pairs++;
		record_skew(d, fabs(ja->started - jb->started) * 1e9);
	}
	runner_item_file(g, ia, round, ja->taken, &ja->rec, ja->why);
	runner_item_file(g, ib, round, jb->taken, &jb->rec, jb->why);
	free(ja);
}

void runner_duet_round(struct runner_items *g, long round, struct rng *rng,
		       struct runner_duet *d)
{
	/* the units of the round: every item of B (with its partner of A when
	 * A has that variant) and the items of A that B lacks */
	size_t *unit = calloc(g->n + 1, sizeof *unit), units = 0;
	if (!unit) {
		for (size_t i = 0; i < g->n; i++)
			if (runner_item_may_run(g, i))
				runner_item_run(g, i, round);
		return;
	}
	for (size_t i = 0; i < g->n; i++) {
		int paired_a = 0;
		for (size_t j = 0; g->item_side[i] == 0 && j < g->n; j++)
			paired_a |= g->item_side[j] == 1 && partner(g, j) == i;
		if (!paired_a)
			unit[units++] = i;
	}
	rng_shuffle(rng, unit, units);
	for (size_t u = 0; u < units; u++) {
		/* IT: an item of B (its partner MATE of A, or none) or an item
		 * only A has */
		size_t it = unit[u], mate = g->item_side[it] == 1 ? partner(g, it) : g->n;
		int may_it = runner_item_may_run(g, it);
		int may_mate = mate < g->n && runner_item_may_run(g, mate);
		if (may_it && may_mate) {
			run_pair(g, mate, it, round, d);
			continue;
		}
		if (may_mate)
			runner_item_run(g, mate, round);
		if (may_it)
			runner_item_run(g, it, round);
		d->alone += round >= 0 ? (size_t)(may_it + may_mate) : 0;
	}
	free(unit);
}

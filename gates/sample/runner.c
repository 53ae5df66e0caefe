/* runner.c: the rounds of a group: warm-up, shuffled rounds of every
 * variant of every side, then the group's counted and cost passes
 * (runner_counted.c, runner_cost.c); one sample is runner_sample.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/group_key.h"
#include "core/path_os.h"
#include "sample/machine_load.h"
#include "sample/runner.h"
#include "sample/backend.h"
#include "sample/cost_pass.h"
#include "sample/duet.h"
#include "sample/record.h"
#include "sample/runner_internal.h"
#include "sample/spawn.h"

/* Names INFO's files from its source root: the checkout or worktree that
 * holds the executable at PATH, else the current directory (the project
 * the gate runs in). 0 or -ENOMEM. */
static int runner_source_root(const char *path, struct kernel_info *info)
{
	char root[4096];
	if (path_os_source_root(path, root, sizeof root) && !getcwd(root, sizeof root))
		return 0;
	return kernel_info_set_source_root(info, root);
}

int runner_list_kernel(const char *path, double timeout_seconds, struct kernel_info *info,
		       char *err, size_t err_size)
{
	char *argv[] = { (char *)path, "--list", NULL };
	struct spawn_output out;
	char how[128], tail[256];
	int ret = spawn_run(argv, NULL, timeout_seconds, &out);
	if (ret) {
		snprintf(err, err_size, "%s --list: %s", path, strerror(-ret));
		return -EINVAL;
	}
	if (out.status == SPAWN_EXITED && (!out.out || strncmp(out.out, "allocgate-list ", 15))) {
		/* it ran and said nothing of the protocol: another program that
		 * shares the directory (a script, a test binary), not a kernel */
		snprintf(err, err_size, "%s: not a kernel (its --list printed no 'allocgate-list' "
			 "line); skipped", path);
		ret = RUNNER_NOT_A_KERNEL;
	} else if (out.status != SPAWN_EXITED || out.exit_code != 0) {
		spawn_describe(&out, how, sizeof how);
		runner_stderr_tail(&out, tail, sizeof tail);
		snprintf(err, err_size, "%s --list: %s%s", path, how, tail);
		ret = -EINVAL;
	} else {
		ret = kernel_info_parse(path, out.out, info, err, err_size);
		if (!ret && runner_source_root(path, info)) {
			snprintf(err, err_size, "%s: out of memory", path);
			ret = -ENOMEM;
		}
		/* No digest (unreadable executable): no drift history, nothing worse. */
		if (!ret)
			digest_executable(path, info->source_root, info->digest,
					  sizeof info->digest);
	}
	spawn_output_free(&out);
	return ret;
}

double runner_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether a problem of R names (KERNEL, VARIANT, PARAMS)'s failed timed or
 * counted sample ("sample N", "warm-up sample", "counted sample"; not a
 * cost sample, whose failure under valgrind says nothing of a native run). */
static int item_failed(const struct run_result *r, const char *kernel, const char *variant,
		       const char *params)
{
	for (size_t i = 0; i < r->problem_count; i++) {
		const struct problem *p = &r->problems[i];
		if (group_key_same(GROUP_KEY(p), GROUP_KEY_OF(kernel, variant, params),
				   GROUP_SCOPE_VARIANT) &&
		    (!strncmp(p->what, "sample", 6) || !strcmp(p->what, "warm-up sample") ||
		     !strcmp(p->what, "counted sample")))
			return 1;
	}
	return 0;
}

/* Counts one more sample of problem (KERNEL, VARIANT, PARAMS, WHAT) not
 * taken: its reason is "N FORMAT" with N counted here. */
static void count_not_taken(struct run_result *r, const char *kernel, const char *variant,
			    const char *params, const char *what, const char *format)
{
	char reason[300];
	for (size_t i = 0; i < r->problem_count; i++) {
		struct problem *p = &r->problems[i];
		if (!group_key_same(GROUP_KEY(p), GROUP_KEY_OF(kernel, variant, params),
				    GROUP_SCOPE_VARIANT) || strcmp(p->what, what))
			continue;
		unsigned long n = strtoul(p->reason, NULL, 10) + 1;
		snprintf(reason, sizeof reason, "%lu %s", n, format);
		char *copy = strdup(reason);
		if (copy) {
			free(p->reason);
			p->reason = copy;
		}
		return;
	}
	snprintf(reason, sizeof reason, "1 %s", format);
	result_add_problem(r, kernel, variant, params, what, reason);
}

void runner_item_file(struct runner_items *g, size_t it, long round, int taken,
		      struct record *rec, const char *why)
{
	const struct runner_side *sd = &g->sides[g->item_side[it]];
	const struct kernel_info *k = sd->k;
	size_t v = g->item_variant[it];
	const char *variant = k->variants[v], *params = sd->p->name;
	g->wall[it] = NAN;
	if (taken) {
		char what[64];
		snprintf(what, sizeof what, round < 0 ? "warm-up sample" : "sample %ld", round + 1);
		result_add_problem(sd->r, k->name, variant, params, what, why);
		if (sd->o->verbose)
			fprintf(stderr, "  %s/%s/%s %s: %s\n", k->name, variant, params, what, why);
		g->failures[it]++;
		g->failed++;
		return;
	}
	g->wall[it] = runner_record_wall_ns(rec);
	if (sd->o->verbose && round < 0)
		fprintf(stderr, "  %s/%s/%s warm-up: wall %.0f ns\n", k->name, variant, params,
			g->wall[it]);
	else if (sd->o->verbose)
		fprintf(stderr, "  %s/%s/%s round %ld: %zu metrics\n", k->name, variant, params,
			round + 1, rec->metric_count);
	for (size_t i = 0; i < rec->unavailable_count; i++)
		runner_note_unavailable(sd->r, &rec->unavailable[i]);
	size_t hint = g->series_hint[it];
	for (size_t i = 0; round >= 0 && i < rec->metric_count; i++) {
		runner_put_sample(sd->r, &hint, k, v, params, &rec->metrics[i],
				  g->first_round + (size_t)round);
		if (i == 0)
			g->series_hint[it] = hint;
	}
	record_free(rec);
}

int runner_item_may_run(struct runner_items *g, size_t it)
{
	const struct runner_side *sd = &g->sides[g->item_side[it]];
	const char *variant = sd->k->variants[g->item_variant[it]];
	g->wall[it] = NAN;
	if (g->stopped[it])
		return 0;
	if (g->failures[it] >= RUNNER_MAX_FAILURES) {
		count_not_taken(sd->r, sd->k->name, variant, sd->p->name, "skipped",
				"later samples not taken: the variant failed once (above)");
		return 0;
	}
	if (runner_deadline_passed(sd->o)) {
		char why[160];
		snprintf(why, sizeof why, "samples not taken: the run reached its deadline of "
			 "%.0f s (--deadline)", sd->o->deadline_seconds);
		count_not_taken(sd->r, sd->k->name, NULL, sd->p->name, "deadline", why);
		g->failed += !g->late;
		g->late = 1;
		return 0;
	}
	return 1;
}

void runner_item_run(struct runner_items *g, size_t it, long round)
{
	const struct runner_side *sd = &g->sides[g->item_side[it]];
	struct record rec;
	char why[512];
	int taken = runner_sample_once(sd->k, sd->k->variants[g->item_variant[it]], sd->p, sd->o,
				       &rec, why, sizeof why);
	runner_item_file(g, it, round, taken, &rec, why);
}

int runner_warmup_stable(const double *prev, const double *cur, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(prev[i] > 0 && cur[i] > 0 &&
		      fabs(cur[i] / prev[i] - 1) <= RUNNER_WARMUP_TOLERANCE))
			return 0;
	return 1;
}

/* Gives every series of side S's group exactly ROUNDS samples from FIRST_ROUND on. */
static void pad_group(const struct runner_side *s, size_t first_round)
{
	struct run_result *r = s->r;
	for (size_t i = 0; i < r->series_count; i++) {
		struct series *x = &r->series[i];
		if (!group_key_in(GROUP_KEY(x), GROUP_KEY_OF(s->k->name, NULL, s->p->name)))
			continue;
		while (x->sample_count < first_round + (size_t)s->o->rounds)
			if (result_series_append(x, NAN))
				break;
	}
}

/* Whether the group of SIDES runs duet (sample/duet.h): two sides, a duet
 * plan, and variants whose threads fit twice on its CPUs; a group that
 * does not fit is named in the plan's note. */
static int group_runs_duet(const struct runner_side *sides, size_t side_count)
{
	struct runner_duet *d = sides[0].o->duet;
	if (!d || side_count != 2)
		return 0;
	if (duet_fits(&d->cpus, runner_duet_threads(sides)))
		return 1;
	/* named once: a confirmation batch runs the group again */
	char group[300];
	size_t used = strlen(d->interleaved);
	snprintf(group, sizeof group, "%s/%s", sides[1].k->name, sides[1].p->name);
	for (const char *at = d->interleaved; (at = strstr(at, group)) != NULL; at++)
		if ((at == d->interleaved || at[-1] == ' ') && (!at[strlen(group)] ||
							       at[strlen(group)] == ','))
			return 0;
	if (used + strlen(group) + 3 < sizeof d->interleaved)
		snprintf(d->interleaved + used, sizeof d->interleaved - used, "%s%s",
			 used ? ", " : "", group);
	d->interleaved_count++;
	return 0;
}

/* The plan's look after measured round ROUND (0-based), or NULL when
 * there is none then. */
static const struct runner_looks *look_after(const struct runner_side *sides, long round)
{
	const struct runner_looks *l = sides[0].o->looks;
	for (size_t i = 0; l && l->settled && i < l->count; i++)
		if (l->at[i] == (size_t)round + 1)
			return l;
	return NULL;
}

/* At a look after ROUNDS rounds: marks stopped each item of G whose
 * variant L settles (asked once a variant name, for all SIDE_COUNT sides);
 * returns whether every item has stopped. */
static bool stop_settled(struct runner_items *g, size_t side_count,
			 const struct runner_looks *l, size_t rounds)
{
	bool all = true;
	for (size_t i = 0; i < g->n; i++) {
		if (g->stopped[i])
			continue;
		const char *name = g->sides[g->item_side[i]].k->variants[g->item_variant[i]];
		bool asked = false;
		for (size_t j = 0; j < i && !asked; j++)
			asked = !strcmp(g->sides[g->item_side[j]].k->variants[g->item_variant[j]],
					name);
		if (asked) {   /* the same variant of an earlier side, not settled */
			all = false;
			continue;
		}
		if (!l->settled(l->ctx, g->sides, side_count, g->first_round, rounds, name)) {
			all = false;
			continue;
		}
		for (size_t j = i; j < g->n; j++)
			if (!strcmp(g->sides[g->item_side[j]].k->variants[g->item_variant[j]], name))
				g->stopped[j] = true;
	}
	return all;
}

/* SIDES with plans that say ROUNDS rounds (those taken), for what files
 * samples into every round: the counted and cost passes, the padding.
 * NULL on no memory; free *PLANS and the return. */
static struct runner_side *taken_sides(const struct runner_side *sides, size_t side_count,
				       size_t rounds, struct runner_plan **plans)
{
	struct runner_side *t = calloc(side_count + 1, sizeof *t);
	*plans = calloc(side_count + 1, sizeof **plans);
	if (!t || !*plans) {
		free(t);
		free(*plans);
		*plans = NULL;
		return NULL;
	}
	for (size_t s = 0; s < side_count; s++) {
		t[s] = sides[s];
		(*plans)[s] = *sides[s].o;
		(*plans)[s].rounds = (int)rounds;
		t[s].o = &(*plans)[s];
	}
	return t;
}

/* A group's items and what its rounds keep besides (runner_run_sides). */
struct group_run {
	struct runner_items g;
	size_t *order;                 /* a round's items, shuffled */
	double *prev_wall;             /* each item's wall time the round before */
	size_t samples_taken;          /* measured samples (an item's round each) */
	struct machine_load load_before; /* the machine's load when round 0 began */
	int load_ok;                   /* whether it was read */
};

/* The items of SIDES (every variant of every side, item i: side
 * item_side[i], variant item_variant[i]) into GR; an item that failed in
 * an earlier batch of the run stays out. Returns 0, or -1 on no memory
 * (GR holds what group_run_free frees). */
static int group_run_init(struct group_run *gr, const struct runner_side *sides,
			  size_t side_count, size_t first_round)
{
	struct runner_items *g = &gr->g;
	size_t n = 0;
	for (size_t s = 0; s < side_count; s++)
		n += sides[s].k->variant_count;
	memset(gr, 0, sizeof *gr);
	*g = (struct runner_items){ .sides = sides, .n = n, .first_round = first_round };
	gr->order = calloc(n + 1, sizeof *gr->order);
	g->item_side = calloc(n + 1, sizeof(size_t));
	g->item_variant = calloc(n + 1, sizeof(size_t));
	g->failures = calloc(n + 1, sizeof *g->failures);
	g->wall = calloc(n + 1, sizeof *g->wall);
	g->series_hint = calloc(n + 1, sizeof *g->series_hint);
	g->load_hint = calloc(n + 1, sizeof *g->load_hint);
	g->stopped = calloc(n + 1, sizeof *g->stopped);
	gr->prev_wall = calloc(n + 1, sizeof *gr->prev_wall);
	if (!gr->order || !g->item_side || !g->item_variant || !g->failures || !g->wall ||
	    !g->series_hint || !g->load_hint || !g->stopped || !gr->prev_wall)
		return -1;
	for (size_t s = 0, i = 0; s < side_count; s++)
		for (size_t v = 0; v < sides[s].k->variant_count; v++, i++) {
			g->item_side[i] = s;
			g->item_variant[i] = v;
		}
	for (size_t i = 0; i < n; i++) {
		const struct runner_side *sd = &sides[g->item_side[i]];
		if (item_failed(sd->r, sd->k->name, sd->k->variants[g->item_variant[i]], sd->p->name))
			g->failures[i] = RUNNER_MAX_FAILURES;
	}
	return 0;
}

static void group_run_free(struct group_run *gr)
{
	free(gr->order);
	free(gr->g.item_side);
	free(gr->g.item_variant);
	free(gr->g.failures);
	free(gr->g.wall);
	free(gr->g.series_hint);
	free(gr->g.load_hint);
	free(gr->g.stopped);
	free(gr->prev_wall);
}

/* One round of GR's items (ROUND < 0: warm-up), in a shuffled order or as
 * duet pairs, the machine's load during it filed. */
static void take_round(struct group_run *gr, long round, int duet, struct rng *rng)
{
	struct runner_items *g = &gr->g;
	const struct runner_plan *o = g->sides[0].o;
	struct machine_load load_before;
	int load_ok = round >= 0 && machine_load_read(&load_before) == 0;
	if (round == 0)
		gr->load_ok = machine_load_read(&gr->load_before) == 0;
	for (size_t i = 0; round >= 0 && i < g->n; i++)
		gr->samples_taken += !g->stopped[i];
	if (duet) {
		runner_duet_round(g, round, rng, o->duet);
	} else {
		for (size_t i = 0; i < g->n; i++)
			gr->order[i] = i;
		rng_shuffle(rng, gr->order, g->n);
		for (size_t i = 0; i < g->n; i++)
			if (runner_item_may_run(g, gr->order[i]))
				runner_item_run(g, gr->order[i], round);
	}
	if (load_ok)
		runner_put_round_load(g, &load_before, g->first_round + (size_t)round);
	if (round >= 0 && o->after_round)
		o->after_round(o->after_round_ctx);
}

/* The warm-up and the rounds of GR's SIDE_COUNT sides; returns the rounds
 * taken: the plan's, or fewer when every variant settled at a look. */
static size_t take_rounds(struct group_run *gr, size_t side_count, struct rng *rng)
{
	struct runner_items *g = &gr->g;
	const struct runner_plan *o = g->sides[0].o;
	int duet = group_runs_duet(g->sides, side_count);
	int auto_warmup = o->warmup == RUNNER_WARMUP_AUTO;
	long warmup = auto_warmup ? RUNNER_WARMUP_MAX : o->warmup;
	for (long round = -warmup; round < o->rounds; round++) {
		take_round(gr, round, duet, rng);
		/* --warmup auto: measure once two warm-up rounds in a row agree */
		if (auto_warmup && round < -1 && round > -warmup &&
		    runner_warmup_stable(gr->prev_wall, g->wall, g->n))
			round = -1;
		memcpy(gr->prev_wall, g->wall, g->n * sizeof *g->wall);
		const struct runner_looks *look = round >= 0 ? look_after(g->sides, round) : NULL;
		if (look && stop_settled(g, side_count, look, (size_t)round + 1))
			return (size_t)round + 1;
	}
	return o->rounds > 0 ? (size_t)o->rounds : 0;
}

/* After TAKEN rounds of GR's SIDE_COUNT sides: the group's load, its
 * counted and cost passes (as the plan asks: a confirmation batch takes
 * neither), every series padded to the rounds taken. */
static void finish_group(struct group_run *gr, size_t side_count, size_t taken)
{
	struct runner_items *g = &gr->g;
	const struct runner_plan *o = g->sides[0].o;
	struct runner_plan *plans = NULL;
	struct runner_side *done = taken_sides(g->sides, side_count, taken, &plans);
	if (!done) {
		g->failed++;
		return;
	}
	if (gr->load_ok)
		runner_put_group_load(done, g->item_side, g->item_variant, g->n, &gr->load_before,
				      g->first_round, taken);
	if (!o->skip_counted_pass)
		runner_counted_pass(done, side_count, g->item_side, g->item_variant, g->failures,
				    g->n, g->first_round);
	if (o->cost && !cost_pass_unavailable() && !runner_deadline_passed(o))
		runner_cost_pass(done, g->item_side, g->item_variant, g->failures, g->n,
				 g->first_round);
	for (size_t s = 0; s < side_count; s++)
		pad_group(&done[s], g->first_round);
	free(done);
	free(plans);
}

int runner_run_sides(const struct runner_side *sides, size_t side_count,
		     struct rng *rng, size_t first_round, size_t *rounds_taken,
		     size_t *samples)
{
	const struct runner_plan *o = sides[0].o;
	size_t taken = o->rounds > 0 ? (size_t)o->rounds : 0;
	struct group_run gr;
	if (group_run_init(&gr, sides, side_count, first_round) == 0) {
		taken = take_rounds(&gr, side_count, rng);
		finish_group(&gr, side_count, taken);
	} else {
		for (size_t s = 0; s < side_count; s++)
			result_add_problem(sides[s].r, sides[s].k->name, NULL, sides[s].p->name,
					   "sample", "runner: out of memory");
		gr.g.failed = (int)gr.g.n;
	}
	if (rounds_taken)
		*rounds_taken = taken;
	if (samples) {
		samples[0] = gr.samples_taken;
		samples[1] = gr.g.n * (o->rounds > 0 ? (size_t)o->rounds : 0);
	}
	group_run_free(&gr);
	return gr.g.failed;
}

int runner_run_params(const struct kernel_info *k, const struct kernel_paramset *p,
		      const struct runner_plan *o, struct rng *rng,
		      struct run_result *r, size_t first_round)
{
	struct runner_side side = { k, p, o, r };
	return runner_run_sides(&side, 1, rng, first_round, NULL, NULL);
}

/* runner.c: the rounds of a group: warm-up, shuffled rounds of every
 * variant of every side, then the group's counted and cost passes
 * (runner_counted.c, runner_cost.c); one sample is runner_sample.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sample/machine_load.h"
#include "sample/runner.h"
#include "sample/backend.h"
#include "sample/cost_pass.h"
#include "sample/record.h"
#include "sample/runner_internal.h"
#include "sample/spawn.h"

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
		/* No digest (unreadable executable): no drift history, nothing worse. */
		if (!ret)
			digest_executable(path, info->digest, sizeof info->digest);
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
		if (p->kernel && p->variant && p->params && !strcmp(p->kernel, kernel) &&
		    !strcmp(p->variant, variant) && !strcmp(p->params, params) &&
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
		if (!p->kernel || strcmp(p->kernel, kernel) || strcmp(p->what, what) ||
		    strcmp(p->params ? p->params : "", params) ||
		    strcmp(p->variant ? p->variant : "", variant ? variant : ""))
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

/* Runs one sample and files it (warm-up samples, ROUND < 0, are only
 * timed into *WALL_NS); returns 0 or -1 when the sample failed. */
static int run_sample(const struct kernel_info *k, size_t v, const struct kernel_paramset *p,
		      const struct runner_plan *o, struct run_result *r, long round,
		      size_t first_round, double *wall_ns)
{
	struct record rec;
	char why[512];
	const char *variant = k->variants[v];
	*wall_ns = NAN;
	if (runner_sample_once(k, variant, p, o, &rec, why, sizeof why)) {
		char what[64];
		snprintf(what, sizeof what, round < 0 ? "warm-up sample" : "sample %ld", round + 1);
		result_add_problem(r, k->name, variant, p->name, what, why);
		if (o->verbose)
			fprintf(stderr, "  %s/%s/%s %s: %s\n", k->name, variant, p->name, what, why);
		return -1;
	}
	*wall_ns = runner_record_wall_ns(&rec);
	if (o->verbose && round < 0)
		fprintf(stderr, "  %s/%s/%s warm-up: wall %.0f ns\n", k->name, variant, p->name,
			*wall_ns);
	else if (o->verbose)
		fprintf(stderr, "  %s/%s/%s round %ld: %zu metrics\n", k->name, variant, p->name,
			round + 1, rec.metric_count);
	for (size_t i = 0; i < rec.unavailable_count; i++)
		runner_note_unavailable(r, &rec.unavailable[i]);
	for (size_t i = 0; round >= 0 && i < rec.metric_count; i++)
		runner_put_sample(r, k, v, p->name, &rec.metrics[i], first_round + (size_t)round);
	record_free(&rec);
	return 0;
}

/* Puts the share of the machine's CPU time that other processes took
 * during the round that began at BEFORE (machine_load.h) as a sample of
 * each item of the round that was measured (its WALL finite): the decision
 * layer leaves the timing of a busy round out (decide/interference.h). */
static void put_round_load(const struct runner_side *sides, const size_t *item_side,
			   const size_t *item_variant, const double *wall, size_t n,
			   const struct machine_load *before, size_t round)
{
	struct machine_load after;
	if (machine_load_read(&after))
		return;
	struct record_metric m = { "others_cpu_permille", "permille", METRIC_TIMING,
				   machine_load_others_permille(before, &after) };
	for (size_t i = 0; i < n; i++) {
		const struct runner_side *sd = &sides[item_side[i]];
		if (isfinite(wall[i]))
			runner_put_sample(sd->r, sd->k, item_variant[i], sd->p->name, &m, round);
	}
}

/* The share other processes took over all the group's measured rounds,
 * from BEFORE (taken as round 0 began) to now, raised into each of its
 * samples' others_cpu_permille: a round shorter than /proc/stat's
 * resolution cannot see a neighbour by itself (free_cost n_1k's rounds
 * last about 20 ms; a loop on one core of two went unseen there), the
 * group's rounds together can. */
static void put_group_load(const struct runner_side *sides, const size_t *item_side,
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
		if (strcmp(x->kernel, s->k->name) || strcmp(x->params, s->p->name))
			continue;
		while (x->sample_count < first_round + (size_t)s->o->rounds)
			if (result_series_append(x, NAN))
				break;
	}
}

int runner_run_sides(const struct runner_side *sides, size_t side_count,
		     struct rng *rng, size_t first_round)
{
	const struct runner_plan *o = sides[0].o;
	size_t n = 0;
	for (size_t s = 0; s < side_count; s++)
		n += sides[s].k->variant_count;
	/* item i: side item_side[i], variant item_variant[i] */
	size_t *order = calloc(n + 1, sizeof *order), *item_side = calloc(n + 1, sizeof(size_t));
	size_t *item_variant = calloc(n + 1, sizeof(size_t));
	int *failures = calloc(n + 1, sizeof *failures), failed = 0;
	double *wall = calloc(n + 1, sizeof *wall), *prev_wall = calloc(n + 1, sizeof *wall);
	if (!order || !item_side || !item_variant || !failures || !wall || !prev_wall) {
		for (size_t s = 0; s < side_count; s++)
			result_add_problem(sides[s].r, sides[s].k->name, NULL, sides[s].p->name,
					   "sample", "runner: out of memory");
		failed = (int)n;
		goto out;
	}
	for (size_t s = 0, i = 0; s < side_count; s++)
		for (size_t v = 0; v < sides[s].k->variant_count; v++, i++) {
			item_side[i] = s;
			item_variant[i] = v;
		}
	/* an item that failed in an earlier batch of the run stays out */
	for (size_t i = 0; i < n; i++) {
		const struct runner_side *sd = &sides[item_side[i]];
		if (item_failed(sd->r, sd->k->name, sd->k->variants[item_variant[i]], sd->p->name))
			failures[i] = RUNNER_MAX_FAILURES;
	}
	int auto_warmup = o->warmup == RUNNER_WARMUP_AUTO, late = 0, group_load_ok = 0;
	struct machine_load group_before;
	long warmup = auto_warmup ? RUNNER_WARMUP_MAX : o->warmup;
	for (long round = -warmup; round < o->rounds; round++) {
		struct machine_load load_before;
		int load_ok = round >= 0 && machine_load_read(&load_before) == 0;
		if (round == 0)
			group_load_ok = machine_load_read(&group_before) == 0;
		for (size_t i = 0; i < n; i++)
			order[i] = i;
		rng_shuffle(rng, order, n);
		for (size_t i = 0; i < n; i++) {
			size_t it = order[i];
			const struct runner_side *sd = &sides[item_side[it]];
			const char *variant = sd->k->variants[item_variant[it]];
			wall[it] = NAN;
			if (failures[it] >= RUNNER_MAX_FAILURES) {
				count_not_taken(sd->r, sd->k->name, variant, sd->p->name,
						"skipped", "later samples not taken: the variant "
						"failed once (above)");
			} else if (runner_deadline_passed(o)) {
				char why[160];
				snprintf(why, sizeof why, "samples not taken: the run reached its "
					 "deadline of %.0f s (--deadline)", o->deadline_seconds);
				count_not_taken(sd->r, sd->k->name, NULL, sd->p->name, "deadline", why);
				failed += !late;
				late = 1;
			} else if (run_sample(sd->k, item_variant[it], sd->p, sd->o, sd->r, round,
					      first_round, &wall[it])) {
				failures[it]++;
				failed++;
			}
		}
		if (load_ok)
			put_round_load(sides, item_side, item_variant, wall, n, &load_before,
				       first_round + (size_t)round);
		/* --warmup auto: measure once two warm-up rounds in a row agree */
		if (auto_warmup && round < -1 && round > -warmup &&
		    runner_warmup_stable(prev_wall, wall, n))
			round = -1;
		memcpy(prev_wall, wall, n * sizeof *wall);
	}
	if (group_load_ok)
		put_group_load(sides, item_side, item_variant, n, &group_before, first_round,
			       (size_t)o->rounds);
	runner_counted_pass(sides, side_count, item_side, item_variant, failures, n, first_round);
	if (o->cost && !cost_pass_unavailable() && !runner_deadline_passed(o))
		runner_cost_pass(sides, item_side, item_variant, failures, n, first_round);
	for (size_t s = 0; s < side_count; s++)
		pad_group(&sides[s], first_round);
out:
	free(order);
	free(item_side);
	free(item_variant);
	free(failures);
	free(wall);
	free(prev_wall);
	return failed;
}

int runner_run_params(const struct kernel_info *k, const struct kernel_paramset *p,
		      const struct runner_plan *o, struct rng *rng,
		      struct run_result *r, size_t first_round)
{
	struct runner_side side = { k, p, o, r };
	return runner_run_sides(&side, 1, rng, first_round);
}

/* runner_cost.c: the cost pass of a group: every variant under callgrind,
 * in parallel after the timed rounds (cost_pass.h, runner_internal.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cost_key.h"
#include "core/group_key.h"
#include "sample/backend.h"
#include "sample/cost_pass.h"
#include "sample/record.h"
#include "sample/runner.h"
#include "sample/runner_internal.h"
#include "sample/spawn.h"

/* The cost pass's command line of variant V of K on P (argv has room for
 * 10 entries; SEED and BEST_OF are its storage). */
static void cost_argv(const struct kernel_info *k, size_t v, const struct kernel_paramset *p,
		      const struct runner_plan *o, char **argv, char *seed, size_t seed_size)
{
	size_t n = 0;
	snprintf(seed, seed_size, "%llu", (unsigned long long)o->seed);
	argv[n++] = k->path;
	argv[n++] = "--variant";
	argv[n++] = (char *)k->variants[v];
	argv[n++] = "--params";
	argv[n++] = p->name;
	argv[n++] = "--seed";
	argv[n++] = seed;
	/* one repetition: the dumps would add up over best_of repetitions */
	if (o->best_of > 0 || kernel_info_best_of(p) > 1) {
		argv[n++] = "--best-of";
		argv[n++] = "1";
	}
	argv[n] = NULL;
}

/* Whether R has a site of the counted build at FILE:LINE of KIND for
 * (KERNEL, VARIANT, PARAMS): the cost pass's site there is the same call,
 * whose bytes the counted one knows. */
static int counted_site_at(const struct run_result *r, const char *kernel, const char *variant,
			   const char *params, const char *file, int line, const char *kind)
{
	for (size_t i = 0; i < r->site_count; i++) {
		const struct site *s = &r->sites[i];
		if (!s->cost && s->line == line && !strcmp(s->file, file) && !strcmp(s->kind, kind) &&
		    group_key_same(GROUP_KEY(s), GROUP_KEY_OF(kernel, variant, params),
				   GROUP_SCOPE_VARIANT))
			return 1;
	}
	return 0;
}

/* Whether R has sites of the cost pass for (KERNEL, VARIANT, PARAMS). */
static int has_cost_sites(const struct run_result *r, const char *kernel, const char *variant,
			  const char *params)
{
	for (size_t i = 0; i < r->site_count; i++) {
		const struct site *s = &r->sites[i];
		if (s->cost && group_key_same(GROUP_KEY(s), GROUP_KEY_OF(kernel, variant, params),
					      GROUP_SCOPE_VARIANT))
			return 1;
	}
	return 0;
}

/* The allocation sites of REC (one cost sample of variant V of K on
 * PARAMS, sample/cost_sites.h), once per group, but where the counted
 * build named the same call. Returns 0 or -ENOMEM. */
static int take_cost_sites(struct run_result *r, const struct kernel_info *k, size_t v,
			   const char *params, const struct record *rec)
{
	const char *variant = k->variants[v];
	r->sites_recorded = true;
	if (has_cost_sites(r, k->name, variant, params))
		return 0;
	for (size_t i = 0; i < rec->site_count; i++) {
		const struct record_site *st = &rec->sites[i];
		const char *file = kernel_info_source_file(k, st->file);
		if (counted_site_at(r, k->name, variant, params, file, st->line, st->kind))
			continue;
		struct site *s = result_add_site(r, k->name, variant, params, file, st->function,
						 st->kind, st->line, st->calls, st->bytes);
		/* "FILE:LINE FUNCTION", its file named as the site's is */
		if (!s || (st->via && !(s->via = strdup(kernel_info_source_file(k, st->via)))))
			return -ENOMEM;
		s->cost = true;
	}
	return 0;
}

/* Whether R has call stacks of (KERNEL, VARIANT, PARAMS). */
static int has_stacks(const struct run_result *r, const char *kernel, const char *variant,
		      const char *params)
{
	for (size_t i = 0; i < r->stacks.count; i++) {
		const struct stack *s = &r->stacks.items[i];
		if (group_key_same(GROUP_KEY(s), GROUP_KEY_OF(kernel, variant, params),
				   GROUP_SCOPE_VARIANT))
			return 1;
	}
	return 0;
}

/* The allocation call stacks of one cost sample of variant V of K on
 * PARAMS (sample/cost_stacks.h), once per group as the sites, their files
 * named as the sites' are; the run bounds them (decide/stacks.h). Returns
 * 0 or -ENOMEM. */
static int take_cost_stacks(struct run_result *r, const struct kernel_info *k, size_t v,
			    const char *params, const struct stacks *sample)
{
	const char *variant = k->variants[v];
	r->stacks.recorded = true;
	if (has_stacks(r, k->name, variant, params))
		return 0;
	for (size_t i = 0; i < sample->count; i++) {
		const struct stack *st = &sample->items[i];
		struct stack *s = result_add_stack(&r->stacks, k->name, variant, params, st->region,
						   st->kind, (const char *const *)st->frames,
						   st->frame_count);
		if (!s || (st->file && !(s->file = strdup(kernel_info_source_file(k, st->file)))))
			return -ENOMEM;
		s->line = st->line;
		s->calls = st->calls;
		s->instructions = st->instructions;
		s->truncated = st->truncated;
	}
	return 0;
}

/* The allocation sites and call stacks of JOB, the first cost sample of
 * variant V of K on PARAMS; a problem where memory ran out. */
static void take_call_graph(struct run_result *r, const struct kernel_info *k, size_t v,
			    const char *params, const struct cost_job *job)
{
	if (take_cost_sites(r, k, v, params, &job->rec))
		result_add_problem(r, k->name, k->variants[v], params, "allocation sites",
				   "out of memory");
	if (take_cost_stacks(r, k, v, params, &job->stacks))
		result_add_problem(r, k->name, k->variants[v], params, "allocation call stacks",
				   "out of memory");
}

/* The cost pass of one group (cost_pass.h): COST_RUNS samples of every
 * item that did not fail, taken in parallel after the timed rounds; round
 * r of the batch gets the cost of sample r mod COST_RUNS, so the
 * baseline's samples show how much the cost varied. */
void runner_cost_pass(const struct runner_side *sides, const size_t *item_side,
		     const size_t *item_variant, const int *failures, size_t n,
		     size_t first_round)
{
	const struct runner_plan *o = sides[0].o;
	int runs = o->cost_runs > 0 ? o->cost_runs : 1;
	size_t count = 0;
	struct cost_job *jobs = calloc(n * (size_t)runs + 1, sizeof *jobs);
	char **argvs = calloc((n * (size_t)runs + 1) * 10, sizeof *argvs);
	char (*seeds)[32] = calloc(n * (size_t)runs + 1, sizeof *seeds);
	if (!jobs || !argvs || !seeds)
		goto out;
	for (size_t i = 0; i < n; i++)
		for (int rep = 0; failures[i] < RUNNER_MAX_FAILURES && rep < runs; rep++) {
			const struct runner_side *sd = &sides[item_side[i]];
			cost_argv(sd->k, item_variant[i], sd->p, sd->o, argvs + count * 10,
				  seeds[count], sizeof seeds[count]);
			jobs[count].argv = argvs + count * 10;
			jobs[count].env = (char *const *)sd->o->env;
			/* valgrind runs 20-100x slower than the timed samples */
			jobs[count].timeout_seconds = runner_sample_timeout(o, 5 * sd->o->timeout_seconds);
			count++;
		}
	cost_pass_run(jobs, count, 0);
	for (size_t i = 0, j = 0; i < n; i++) {
		if (failures[i] >= RUNNER_MAX_FAILURES)
			continue;
		const struct runner_side *sd = &sides[item_side[i]];
		const struct cost_job *mine = &jobs[j];
		j += (size_t)runs;
		int failed = 0;
		for (int rep = 0; rep < runs && !failed; rep++) {
			failed = mine[rep].ret != 0;
			/* the variants that ran, for the cost key (core/cost_key.h) */
			for (const char *f = mine[rep].ifuncs; !failed && f && *f;) {
				size_t len = strcspn(f, ",");
				if (cost_key_set_add(&sd->r->ctx.cost_ifuncs, f, len))
					failed = 1;
				f += len + (f[len] == ',');
			}
			/* a kernel without the markers (an old build, gate ab's side A):
			 * no cost series, said once, not a failed sample */
			if (mine[rep].ret == -ENODATA)
				runner_note_once(sd->r, "cost pass", mine[rep].why);
			else if (failed)
				result_add_problem(sd->r, sd->k->name, sd->k->variants[item_variant[i]],
						   sd->p->name, "cost sample", mine[rep].why);
		}
		if (!failed)
			take_call_graph(sd->r, sd->k, item_variant[i], sd->p->name, &mine[0]);
		size_t hint = 0;
		for (int round = 0; !failed && round < o->rounds; round++) {
			const struct record *rec = &mine[round % runs].rec;
			for (size_t m = 0; m < rec->metric_count; m++)
				runner_put_sample(sd->r, &hint, sd->k, item_variant[i], sd->p->name,
						  &rec->metrics[m], first_round + (size_t)round);
		}
	}
out:
	for (size_t i = 0; jobs && i < count; i++) {
		record_free(&jobs[i].rec);
		result_stacks_free(&jobs[i].stacks);
		free(jobs[i].ifuncs);
	}
	free(jobs);
	free(argvs);
	free(seeds);
}

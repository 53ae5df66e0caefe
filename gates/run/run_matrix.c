/* run_matrix.c: `gate matrix` (run.h): every kernel under every installed
 * allocator (glibc's own and each --allocator that resolves), all
 * allocators' samples of a group in the same shuffled rounds (as gate ab
 * takes its two sides), every declared claim evaluated under each, and
 * one claims x allocators table (core/matrix.h) printed and written as
 * markdown, JSON and an SVG heat map. It gates nothing: `gate run
 * --allocator NAME` does, with that allocator's baseline. No baseline is
 * read or written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/reports.h"
#include "run/run.h"
#include "run/run_skeleton.h"
#include "run/session.h"
#include "core/matrix.h"
#include "core/message.h"
#include "decide/exit_decide.h"
#include "decide/expect_eval.h"
#include "decide/matrix_table.h"
#include "report/matrix_report.h"
#include "sample/allocator.h"
#include "sample/groups.h"
#include "sample/runner.h"

/* The allocators measured when --allocators is not given: the C library's
 * own and the three that Debian packages (allocator.h). */
static const char *const default_allocators = "glibc,jemalloc,mimalloc,tcmalloc";

#define MATRIX_MAX 16

struct matrix_side {
	char name[256];
	char preload[4200];          /* LD_PRELOAD=..., "" for the C library's own */
	struct run_options o;        /* the shared options + the preload */
	struct runner_plan plan;
	struct run_result r;
};

struct matrix_state {
	struct session s;            /* the first allocator's: context, kernels, options */
	const char *allocators;      /* --allocators LIST, or the default list */
	bool allocators_given;
	struct matrix_side sides[MATRIX_MAX];
	size_t side_count;
	struct matrix m;
	char progress[64];           /* " under N allocators" */
};

/* Records allocator NAME (resolved to PRELOAD, or MISSING) in the matrix. */
static int add_allocator(struct matrix *m, const char *name, const char *library,
			 const char *missing)
{
	struct matrix_allocator *a = realloc(m->allocators,
					     (m->allocator_count + 1) * sizeof *a);
	if (!a)
		return -1;
	m->allocators = a;
	a += m->allocator_count++;
	a->name = strdup(name);
	a->library = library ? strdup(library) : NULL;
	a->missing = missing ? strdup(missing) : NULL;
	return a->name && (a->library || !library) && (a->missing || !missing) ? 0 : -1;
}

/* Resolves --allocators into sides (measured) and M's allocators (all,
 * the missing ones with why). Returns GATE_EXIT_OK, or GATE_EXIT_USAGE after
 * a message. */
static int resolve(struct matrix_state *st)
{
	char *list = strdup(st->allocators), *save = NULL;
	int ret = list ? GATE_EXIT_OK : GATE_EXIT_USAGE;
	for (char *v = list ? strtok_r(list, ",", &save) : NULL; v && !ret;
	     v = strtok_r(NULL, ",", &save)) {
		char name[256], path[4096], why[1024];
		int is_default = allocator_is_default(v);
		const char *libc = st->s.result.ctx.libc ? st->s.result.ctx.libc : "glibc";
		allocator_key_name(is_default ? libc : v, name, sizeof name);
		if (matrix_allocator_index(&st->m, name) >= 0) {
			message_error("--allocators: %s named twice", name);
			ret = GATE_EXIT_USAGE;
			break;
		}
		int bad = !is_default && (allocator_resolve(v, path, sizeof path, why, sizeof why));
		if (bad && st->allocators_given) {
			message_error("--allocators: %s: %s", v, why);
			ret = GATE_EXIT_USAGE;
			break;
		}
		if (bad) {
			if (add_allocator(&st->m, name, NULL, why))
				ret = GATE_EXIT_USAGE;
			message_note("%s not measured: %s", name, why);
			continue;
		}
		if (st->side_count == MATRIX_MAX) {
			message_error("--allocators: at most %d", MATRIX_MAX);
			ret = GATE_EXIT_USAGE;
			break;
		}
		struct matrix_side *side = &st->sides[st->side_count++];
		snprintf(side->name, sizeof side->name, "%s", name);
		if (!is_default && allocator_preload_env(path, side->preload, sizeof side->preload)) {
			message_error("--allocators: %s: path too long", v);
			ret = GATE_EXIT_USAGE;
			break;
		}
		if (add_allocator(&st->m, name, is_default ? NULL : path, NULL))
			ret = GATE_EXIT_USAGE;
	}
	free(list);
	if (!ret && !st->side_count) {
		message_error("--allocators: none of %s is installed", st->allocators);
		ret = GATE_EXIT_USAGE;
	}
	return ret;
}

/* Side I's options and plan: the shared ones plus its preload. */
static int side_plan(struct matrix_state *st, struct matrix_side *side)
{
	const struct run_options *o = &st->s.options;
	side->o = *o;
	side->o.env = calloc(o->env_count + 2, sizeof *side->o.env);
	if (!side->o.env)
		return -1;
	for (size_t i = 0; i < o->env_count; i++)
		side->o.env[i] = o->env[i];
	side->o.env_count = o->env_count;
	if (side->preload[0])
		side->o.env[side->o.env_count++] = side->preload;
	run_options_plan(&side->o, &side->plan);
	side->plan.interposer = st->s.plan.interposer;
	return 0;
}

static int setup(struct matrix_state *st, const char *self_dir)
{
	struct session *s = &st->s;
	int ret = session_context(s, self_dir);
	if (!ret)
		ret = resolve(st);
	if (ret)
		return ret;
	/* the tier's deadline for each allocator measured */
	run_skeleton_deadline(&s->options, s->started, (double)st->side_count);
	for (size_t i = 0; i < st->side_count; i++)
		if (side_plan(st, &st->sides[i])) {
			message_error("out of memory");
			return GATE_EXIT_USAGE;
		}
	return session_list_kernels(s, s->kernel_dir, &s->result, &s->kernels, &s->kernel_count);
}

/* Group G under every allocator, in the same rounds (run_skeleton.h). */
static int sample_group(void *ctx, const struct group *g, struct rng *rng, size_t batch)
{
	struct matrix_state *st = ctx;
	struct runner_side sides[MATRIX_MAX];
	(void)batch;   /* gate matrix takes one */
	for (size_t i = 0; i < st->side_count; i++)
		sides[i] = (struct runner_side){ g->kernel, g->params, &st->sides[i].plan,
						 &st->sides[i].r };
	return runner_run_sides(sides, st->side_count, rng, 0, NULL, NULL);
}

/* After the samples: every allocator's claims, evaluated on its own
 * samples. Nothing is confirmed: the matrix gates nothing. */
static bool check_claims(void *ctx)
{
	struct matrix_state *st = ctx;
	struct session *s = &st->s;
	for (size_t i = 0; i < st->side_count; i++) {
		struct condition_target t = { s->result.ctx.os, st->sides[i].name,
					      s->result.ctx.cpu_count };
		expect_check_kernels(s->kernels, s->kernel_count, s->options.tier, &t,
				     &st->sides[i].r);
	}
	return false;
}

/* The runs in M's allocator order (an empty run for a missing one). */
static int build(struct matrix_state *st)
{
	struct matrix *m = &st->m;
	struct run_result *ordered = calloc(m->allocator_count + 1, sizeof *ordered);
	if (!ordered)
		return -1;
	for (size_t a = 0; a < m->allocator_count; a++)
		for (size_t i = 0; i < st->side_count; i++)
			if (!strcmp(st->sides[i].name, m->allocators[a].name))
				ordered[a] = st->sides[i].r;   /* borrowed, not owned */
	int ret = matrix_table_build(m, ordered);
	free(ordered);
	ret |= matrix_take_problems(m, NULL, &st->s.result);
	for (size_t i = 0; i < st->side_count; i++)
		ret |= matrix_take_problems(m, st->sides[i].name, &st->sides[i].r);
	return ret;
}

/* The plan every allocator runs by: P's options, its list of allocators
 * or the default one. */
static void plan(struct matrix_state *st, const struct matrix_plan *p)
{
	st->s.options = p->options;   /* its lists are the session's now (session_free) */
	st->allocators = p->allocators ? p->allocators : default_allocators;
	st->allocators_given = p->allocators_given;
}

/* The run prepared (run_skeleton.h): setup, and the progress line's
 * count of allocators. */
static int prepare(void *ctx, const char *self_dir)
{
	struct matrix_state *st = ctx;
	int ret = setup(st, self_dir);
	snprintf(st->progress, sizeof st->progress, " under %zu allocators", st->side_count);
	return ret;
}

/* After the samples and the claims: the table built, the exit status,
 * the reports. */
static int finish(void *ctx)
{
	struct matrix_state *st = ctx;
	struct session *s = &st->s;
	if (build(st)) {
		message_error("out of memory");
		return GATE_EXIT_USAGE;
	}
	struct matrix *m = &st->m;
	m->ctx = s->result.ctx;                      /* moved: the session no longer owns it */
	memset(&s->result.ctx, 0, sizeof s->result.ctx);
	m->rounds = (size_t)s->options.rounds;
	m->sample_failures = (size_t)s->sample_failures;
	m->wall_seconds = runner_now() - s->started;
	m->exit_code = exit_decide_matrix(m->speed_count, m->sample_failures);
	struct matrix_outputs out = { s->options.json_path, s->options.markdown_path,
				      s->options.svg_dir, s->options.no_color,
				      s->options.details || s->options.verbose };
	return reports_write_matrix(m, &out);
}

int run_matrix(struct matrix_plan *p, const char *self_dir)
{
	struct matrix_state *st = calloc(1, sizeof *st);
	if (!st) {
		run_options_free(&p->options);
		message_error("out of memory");
		return GATE_EXIT_USAGE;
	}
	plan(st, p);
	struct run_skeleton sk = { &st->s, st, p->options.json_path, false, st->progress,
				   prepare, sample_group, check_claims, NULL, finish };
	int ret = run_skeleton_drive(&sk, self_dir);
	for (size_t i = 0; i < st->side_count; i++) {
		free(st->sides[i].o.env);
		result_free(&st->sides[i].r);
	}
	matrix_free(&st->m);
	session_free(&st->s);
	free(st);
	return ret;
}

/* run_cmd.c: `gate run`: load the baseline, take the samples, check the
 * expectations, compare, report, and maybe store the new baseline. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/baseline_notes.h"
#include "cli/commands.h"
#include "cli/session.h"
#include "cli/update.h"
#include "core/message.h"
#include "core/platform.h"
#include "decide/compare.h"
#include "decide/confirm.h"
#include "decide/interference.h"
#include "decide/sites.h"
#include "sample/cost_dump.h"
#include "sample/runner.h"
#include "sample/shard.h"
#include "store/atomic_file.h"
#include "store/baseline.h"

struct run_state {
	struct session s;
	struct run_result base;
	int have_base;
	char baseline_path[4096];
};

/* Loads this platform's baseline; returns 0, or 2 (bad input). */
static int load_baseline(struct run_state *st)
{
	struct session *s = &st->s;
	char err[1024];
	snprintf(st->baseline_path, sizeof st->baseline_path, "%s/%s.json", s->o.baseline_dir,
		 s->r.ctx.platform_key);
	if (s->o.update_baseline && atomic_file_check(st->baseline_path, err, sizeof err)) {
		message_error("--update-baseline: %s; nothing was run", err);
		return 2;
	}
	int ret = baseline_load(st->baseline_path, &st->base, err, sizeof err);
	if (ret == -ENOENT) {
		if (s->o.require_baseline) {
			message_error("no baseline for platform %s: %s does not exist "
				"(--require-baseline); create it: rerun with --update-baseline",
				s->r.ctx.platform_key, st->baseline_path);
			return 2;
		}
		return 0;
	}
	if (ret) {
		message_error("malformed baseline: %s", err);
		return 2;
	}
	if (st->base.ctx.platform_key && strcmp(st->base.ctx.platform_key, s->r.ctx.platform_key)) {
		message_error("baseline %s: platform: \"%s\", not this machine's \"%s\" "
			"(a file of another platform?); nothing was run", st->baseline_path,
			st->base.ctx.platform_key, s->r.ctx.platform_key);
		return 2;
	}
	st->have_base = 1;
	s->r.baseline_path = strdup(st->baseline_path);
	return 0;
}

/* Whether the finite samples of S are not all the same. */
static int series_varies(const struct series *s)
{
	double first = NAN;
	for (size_t i = 0; i < s->sample_count; i++) {
		if (isnan(s->samples[i]))
			continue;
		if (isnan(first))
			first = s->samples[i];
		else if (s->samples[i] != first)
			return 1;
	}
	return 0;
}

/* Batch-major: every (kernel, params) once per batch, so that the batches
 * of one group are minutes apart and their spread shows the machine's drift. */
static void take_samples(struct session *s)
{
	struct rng rng;
	rng_seed(&rng, s->o.seed);
	size_t groups = groups_count(s->kernels, s->kernel_count, s->o.tier);
	size_t total = groups * (size_t)s->o.runs, done = 0;
	for (int b = 0; b < s->o.runs; b++) {
		struct group_iter it;
		struct group g;
		groups_begin(&it, s->kernels, s->kernel_count, s->o.tier);
		while (groups_next(&it, &g)) {
			message_progress("[%zu/%zu] %s %s", ++done, total, g.kernel->name,
				g.params->name);
			s->sample_failures += runner_run_params(g.kernel, g.params, &s->plan, &rng, &s->r,
								(size_t)b * (size_t)s->o.rounds);
		}
	}
	for (size_t i = 0; i < s->r.series_count; i++) {
		struct series *x = &s->r.series[i];
		x->batches = (size_t)s->o.runs;
		/* a cost count whose samples differ is near-exact: the baseline
		 * records the determinism measured (compare.c gates by it) */
		if (cost_metric(x->metric) && series_varies(x))
			x->cls = METRIC_NEAR;
	}
}

/* One suspected group measured again, timing only (the cost pass is
 * not taken again), compared like the first batch and settled. */
static int confirm_group(const struct group *g, struct rng *rng, void *ctx)
{
	struct run_state *st = ctx;
	struct session *s = &st->s;
	struct runner_plan timed_only = s->plan;
	struct run_result again;
	timed_only.cost = false;
	memset(&again, 0, sizeof again);
	int failures = runner_run_params(g->kernel, g->params, &timed_only, rng, &again, 0);
	compare_run(&again, &st->base, &s->r.policy, true);
	confirm_settle(&s->r, &again, g->kernel->name, g->params->name);
	result_free(&again);
	return failures;
}

/* What the report says about the baseline file itself (baseline_notes.h):
 * what an older file lacked, what the change under test did to it. */
static void add_baseline_notes(struct run_state *st)
{
	char *lenient = baseline_notes_leniency(&st->base);
	char *changed = baseline_notes_change(st->baseline_path);

	if (lenient)
		baseline_notes_add(&st->s.r.baseline_note, lenient);
	if (changed)
		baseline_notes_add(&st->s.r.baseline_note, changed);
	free(lenient);
	free(changed);
}

static void compare(struct run_state *st)
{
	struct session *s = &st->s;
	struct comparability c;
	memset(&c, 0, sizeof c);
	c.same_hardware = true;
	if (st->have_base) {
		comparable_decide(&st->base.ctx, &s->r.ctx, &c);
		s->r.baseline_note = comparable_note(&c, s->r.sites_recorded &&
						    !st->base.sites_recorded);
		add_baseline_notes(st);
	}
	compare_run_with(&s->r, st->have_base ? &st->base : NULL, &s->r.policy, &c);
	if (st->have_base && sites_compare(&s->r, &st->base))
		message_error("comparing allocation sites: out of memory");
	if (st->have_base && c.same_hardware)
		s->sample_failures += confirm_suspects(s->kernels, s->kernel_count, s->o.tier,
						       s->o.seed, &s->r, confirm_group, st);
}

/* After the options are parsed: the files, the deadline, the context and
 * the baseline. Returns 0 or an exit status after a message. */
static int setup(struct run_state *st, const char *self_dir)
{
	struct session *s = &st->s;
	int ret;
	char err[1024];
	if (s->o.json_path && atomic_file_check(s->o.json_path, err, sizeof err)) {
		message_error("--json: %s; nothing was run", err);
		return 2;
	}
	if (s->o.runs == 0)
		s->o.runs = s->o.update_baseline ? 3 : 1;
	/* a baseline's cost series record at least three cost samples, so that
	 * their spread says whether they are exact (compare.c) */
	if (s->o.update_baseline && s->o.cost_runs == 0)
		s->o.cost_runs = (3 + s->o.runs - 1) / s->o.runs;
	s->o.deadline_seconds = run_options_deadline(&s->o);
	s->o.deadline_at = s->started + s->o.deadline_seconds;
	ret = session_context(s, self_dir);
	return ret ? ret : load_baseline(st);
}

int run_main(int argc, char **argv, const char *self_dir)
{
	message_set_program("gate");
	struct run_state st;
	memset(&st, 0, sizeof st);
	struct session *s = &st.s;
	s->started = session_now();
	run_options_defaults(&s->o);
	enum cli_parse parsed = run_options_parse(&s->o, argc, argv);
	int ret = cli_parse_exit(parsed);
	if (parsed != CLI_PARSED)
		goto out;
	ret = setup(&st, self_dir);
	if (ret == 0)
		ret = session_list_kernels(s, s->kernel_dir, &s->r, &s->kernels, &s->kernel_count);
	if (ret)
		goto out;
	shard_apply(s->kernels, s->kernel_count, s->o.tier, s->o.shard_index, s->o.shard_count);
	take_samples(s);
	session_check_expectations(s);
	compare(&st);
	ret = session_report(s, st.have_base ? &st.base : NULL);
	if (s->o.update_baseline) {
		size_t forgotten = interference_forget(&s->r);
		if (forgotten)
			printf("gate: %zu disturbed timing samples left out of the baseline "
			       "(docs/counters.md, \"Interference\")\n", forgotten);
		int u = update_baseline(&s->r, st.have_base ? &st.base : NULL, st.baseline_path,
					s->sample_failures);
		if (u)
			ret = u;
	}
out:
	session_free(s);
	result_free(&st.base);
	return ret;
}

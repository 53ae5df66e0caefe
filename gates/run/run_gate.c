/* run_gate.c: `gate run` (run.h): load the baseline, take the samples,
 * settle the metric classes, check the expectations, compare (and
 * confirm), conclude, maybe store the new baseline, and report with the
 * final exit status. Every decision is decide/'s; this file asks for them
 * in that order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/baseline_notes.h"
#include "run/run.h"
#include "run/run_skeleton.h"
#include "run/session.h"
#include "run/update.h"
#include "core/message.h"
#include "decide/compare.h"
#include "decide/confirm.h"
#include "decide/exit_decide.h"
#include "decide/metric_class.h"
#include "decide/reference.h"
#include "decide/stacks.h"
#include "sample/reference.h"
#include "sample/runner.h"
#include "sample/shard.h"
#include "store/atomic_file.h"
#include "store/baseline.h"

/* The reference workload's samples through the run (sample/reference.h),
 * until memory or pages are refused: after a group's rounds and at its
 * end, whenever reference_due says, so that the machine's pace is read at
 * as many moments as the kernels' (a group's rounds take seconds to a
 * minute) and at least once a group. */
struct reference_pace {
	struct reference *ref;
	bool measure;
	double last;               /* runner_now() after the last sample */
	size_t taken, group_from;  /* samples taken; how many when the group began */
};

struct run_state {
	struct session s;
	struct run_result base;
	int have_base;
	char baseline_path[4096];
	struct comparability comparable;   /* of the baseline, decided once */
	bool reference;                    /* the reference workload is sampled */
	struct reference_pace pace;
	struct runner_plan sampling;       /* the session's plan, with the reference's pace */
};

/* Loads this platform's baseline; returns GATE_EXIT_OK, or GATE_EXIT_USAGE
 * after a message. */
static int load_baseline(struct run_state *st)
{
	struct session *s = &st->s;
	char err[1024];
	snprintf(st->baseline_path, sizeof st->baseline_path, "%s/%s.json", s->options.baseline_dir,
		 s->result.ctx.platform_key);
	if (s->options.update_baseline && atomic_file_check(st->baseline_path, err, sizeof err)) {
		message_error("--update-baseline: %s; nothing was run", err);
		return GATE_EXIT_USAGE;
	}
	int ret = baseline_load(st->baseline_path, &st->base, err, sizeof err);
	if (ret == -ENOENT) {
		if (s->options.require_baseline) {
			message_error("no baseline for platform %s: %s does not exist "
				"(--require-baseline); create it: rerun with --update-baseline",
				s->result.ctx.platform_key, st->baseline_path);
			return GATE_EXIT_USAGE;
		}
		return GATE_EXIT_OK;
	}
	if (ret) {
		message_error("malformed baseline: %s", err);
		return GATE_EXIT_USAGE;
	}
	if (st->base.ctx.platform_key &&
	    strcmp(st->base.ctx.platform_key, s->result.ctx.platform_key)) {
		message_error("baseline %s: platform: \"%s\", not this machine's \"%s\" "
			"(a file of another platform?); nothing was run", st->baseline_path,
			st->base.ctx.platform_key, s->result.ctx.platform_key);
		return GATE_EXIT_USAGE;
	}
	st->have_base = 1;
	s->result.baseline_path = strdup(st->baseline_path);
	return GATE_EXIT_OK;
}

static void reference_take_if_due(struct reference_pace *pace, bool group_end)
{
	if (!pace->measure ||
	    !reference_due(runner_now() - pace->last, group_end, pace->taken > pace->group_from))
		return;
	if (reference_sample(pace->ref)) {
		pace->measure = false;
		message_note("the reference workload: memory or pages refused; "
			     "the machine's move is read from the kernels instead");
	}
	pace->taken++;
	pace->last = runner_now();
}

static void reference_between_rounds(void *ctx)
{
	reference_take_if_due(ctx, false);
}

/* With REFERENCE, the reference workload's samples across the minutes
 * the groups' samples take (struct reference_pace). */
static void start_samples(struct run_state *st, bool reference)
{
	struct session *s = &st->s;
	st->reference = reference;
	st->pace = (struct reference_pace){ &s->result.reference, reference, runner_now(), 0, 0 };
	st->sampling = s->plan;
	if (reference) {
		st->sampling.after_round = reference_between_rounds;
		st->sampling.after_round_ctx = &st->pace;
	}
}

/* Batch-major (run_skeleton.h): every (kernel, params) once per batch, so
 * that the batches of one group are minutes apart and their spread shows
 * the machine's drift. */
static int sample_group(void *ctx, const struct group *g, struct rng *rng, size_t b)
{
	struct run_state *st = ctx;
	struct session *s = &st->s;
	st->pace.group_from = st->pace.taken;
	int failures = runner_run_params(g->kernel, g->params, &st->sampling, rng, &s->result,
					 b * (size_t)s->options.rounds);
	reference_take_if_due(&st->pace, true);
	return failures;
}

/* The samples' end: the reference released, each series' batches. */
static void end_samples(struct run_state *st)
{
	struct session *s = &st->s;
	if (st->reference)
		reference_release();
	for (size_t i = 0; i < s->result.series_count; i++)
		s->result.series[i].batches = (size_t)s->options.runs;
}

/* One suspected group measured again, timing only (neither the cost nor
 * the counted pass is taken again: confirm.h), compared like the first
 * batch and settled. */
static int confirm_group(void *ctx, const struct group *g, struct rng *rng)
{
	struct run_state *st = ctx;
	struct session *s = &st->s;
	struct runner_plan timed_only = s->plan;
	struct run_result again;
	timed_only.cost = confirm_takes_cost_pass();
	timed_only.skip_counted_pass = !confirm_takes_counted_pass();
	memset(&again, 0, sizeof again);
	int failures = runner_run_params(g->kernel, g->params, &timed_only, rng, &again, 0);
	compare_run_with(&again, &st->base, &s->result.policy, &st->comparable);
	confirm_settle(&s->result, &again, g->kernel->name, g->params->name);
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
		result_note_append(&st->s.result.baseline_note, lenient);
	if (changed)
		result_note_append(&st->s.result.baseline_note, changed);
	free(lenient);
	free(changed);
}

/* After the samples: the metric classes, the expectations, the run
 * against its baseline (compare_baseline). Its timing regressions are
 * confirmed in fresh batches where the hardware is the same: returns
 * whether. */
static bool settle(void *ctx)
{
	struct run_state *st = ctx;
	struct session *s = &st->s;
	end_samples(st);
	if (stacks_settle(&s->result.stacks, &s->result))
		message_error("allocation call stacks: out of memory");
	metric_class_settle(&s->result);
	session_check_expectations(s);
	if (compare_baseline(&s->result, st->have_base ? &st->base : NULL, &st->comparable))
		message_error("comparing with the baseline: out of memory");
	/* the baseline's stacks: the differential flame graphs' other side */
	if (st->have_base && stacks_take_before(&s->result, &st->base.stacks))
		message_error("the baseline's allocation call stacks: out of memory");
	if (st->have_base)
		add_baseline_notes(st);
	return confirm_against_baseline(st->have_base, &st->comparable);
}

/* --update-baseline: the run stored as the baseline, or refused; its
 * answer decides the exit status before any report says it. */
static void update(struct run_state *st)
{
	struct session *s = &st->s;
	enum gate_exit u = update_baseline(&s->result, st->have_base ? &st->base : NULL,
					   st->have_base ? &st->comparable : NULL,
					   st->baseline_path, s->sample_failures);
	s->result.exit_code = exit_decide_after_update(s->result.exit_code, u);
	if (u == GATE_EXIT_OK)   /* the reports say what the run wrote */
		s->result.baseline_written = strdup(st->baseline_path);
}

/* After the options are parsed: the batches, the deadline, the context
 * and the baseline. Returns GATE_EXIT_OK or an exit status after a
 * message. */
static int setup(struct run_state *st, const char *self_dir)
{
	struct session *s = &st->s;
	int ret;
	s->options.runs = policy_runs(s->options.runs, s->options.update_baseline);
	s->options.cost_runs = policy_cost_runs(s->options.cost_runs, s->options.runs,
						s->options.update_baseline);
	run_skeleton_deadline(&s->options, s->started, 1);
	ret = session_context(s, self_dir);
	return ret ? ret : load_baseline(st);
}

/* The run prepared (run_skeleton.h): setup, the kernels, the shard. */
static int prepare(void *ctx, const char *self_dir)
{
	struct run_state *st = ctx;
	struct session *s = &st->s;
	int ret = setup(st, self_dir);
	if (ret == 0)
		ret = session_list_kernels(s, s->kernel_dir, &s->result, &s->kernels,
					   &s->kernel_count);
	if (ret)
		return ret;
	shard_apply(s->kernels, s->kernel_count, s->options.tier, s->options.shard_index,
		    s->options.shard_count);
	/* the reference is compared with a baseline or stored in one; without
	 * either its samples (and its 64 MiB cycle, 0.2 s to fault in) are waste */
	start_samples(st, st->have_base || s->options.update_baseline);
	return GATE_EXIT_OK;
}

/* After the confirmation: a slowdown of every kernel while the reference
 * workload held settled as the code's (decide/reference.h), the
 * conclusion, the baseline updated, the reports. */
static int finish(void *ctx)
{
	struct run_state *st = ctx;
	struct session *s = &st->s;
	reference_settle_uniform(&s->result, &s->result.policy);
	session_conclude(s);
	if (s->options.update_baseline)
		update(st);
	return session_report(s, st->have_base ? &st->base : NULL);
}

int run_gate(struct run_options *o, const char *self_dir)
{
	struct run_state st;
	memset(&st, 0, sizeof st);
	struct session *s = &st.s;
	s->options = *o;   /* its lists are the session's now (session_free) */
	struct run_skeleton sk = { s, &st, s->options.json_path, true, NULL, prepare,
				   sample_group, settle, confirm_group, finish };
	int ret = run_skeleton_drive(&sk, self_dir);
	session_free(s);
	result_free(&st.base);
	return ret;
}

/* test_run_skeleton.c: gates/run/run_skeleton.c, the steps of a measuring
 * run: their order, what a refusal skips, the passes over the groups, the
 * confirmation only where settle asks for it and a hook exists, and the
 * deadline. The hooks record what they were called with. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <string.h>

#include "run/run_skeleton.h"
#include "core/exit_status.h"
#include "allocgate/probe.h"

struct calls {
	char order[64];          /* one letter a step: p(repare) s(ample) S(ettle) f(inish) */
	size_t batches[16];      /* each sample's batch */
	const char *groups[16];  /* each sample's kernel/params name */
	size_t samples;
	int prepare_ret, finish_ret;
	bool settle_ret;
};

static void step(struct calls *c, char letter)
{
	size_t n = strlen(c->order);
	if (n + 1 < sizeof c->order)
		c->order[n] = letter;
}

static int prepare(void *ctx, const char *self_dir)
{
	struct calls *c = ctx;
	cr_expect_str_eq(self_dir, "/self");
	step(c, 'p');
	return c->prepare_ret;
}

static int sample(void *ctx, const struct group *g, struct rng *rng, size_t batch)
{
	struct calls *c = ctx;
	(void)rng;
	step(c, 's');
	if (c->samples < 16) {
		c->batches[c->samples] = batch;
		c->groups[c->samples] = g->params->name;
	}
	c->samples++;
	return 1;   /* one failed sample each */
}

static bool settle(void *ctx)
{
	struct calls *c = ctx;
	step(c, 'S');
	return c->settle_ret;
}

static int finish(void *ctx)
{
	struct calls *c = ctx;
	step(c, 'f');
	return c->finish_ret;
}

/* Two kernels: "a" with parameter sets a1 (default tier) and a2 (full
 * only), "b" with b1 (default tier). */
static struct kernel_paramset a_sets[] = { { "a1", GATE_TIER_DEFAULT, NULL },
					   { "a2", GATE_TIER_FULL, NULL } };
static struct kernel_paramset b_sets[] = { { "b1", GATE_TIER_DEFAULT, NULL } };

static void make_session(struct session *s, struct kernel_info *k, int runs)
{
	memset(s, 0, sizeof *s);
	memset(k, 0, 2 * sizeof *k);
	k[0].name = "a";
	k[0].paramsets = a_sets;
	k[0].paramset_count = 2;
	k[1].name = "b";
	k[1].paramsets = b_sets;
	k[1].paramset_count = 1;
	s->kernels = k;
	s->kernel_count = 2;
	s->options.tier = GATE_TIER_DEFAULT;
	s->options.runs = runs;
	s->options.seed = 1;
}

Test(run_skeleton, steps_run_in_order_batch_major, .init = cr_redirect_stderr)
{
	struct session s;
	struct kernel_info k[2];
	struct calls c = { .finish_ret = 7 };
	make_session(&s, k, 3);
	struct run_skeleton sk = { &s, &c, NULL, true, NULL, prepare, sample, settle, NULL,
				   finish };
	cr_expect_eq(run_skeleton_drive(&sk, "/self"), 7);
	cr_expect_str_eq(c.order, "pssssssSf");
	size_t want[] = { 0, 0, 1, 1, 2, 2 };
	const char *names[] = { "a1", "b1", "a1", "b1", "a1", "b1" };
	for (size_t i = 0; i < 6; i++) {
		cr_expect_eq(c.batches[i], want[i], "sample %zu: batch %zu", i, c.batches[i]);
		cr_expect_str_eq(c.groups[i], names[i]);
	}
	cr_expect_eq(s.sample_failures, 6);
	cr_expect_gt(s.started, 0);
}

Test(run_skeleton, one_pass_unless_batch_major, .init = cr_redirect_stderr)
{
	struct session s;
	struct kernel_info k[2];
	struct calls c = { 0 };
	make_session(&s, k, 3);
	struct run_skeleton sk = { &s, &c, NULL, false, " under 2 allocators", prepare, sample,
				   settle, NULL, finish };
	cr_expect_eq(run_skeleton_drive(&sk, "/self"), 0);
	cr_expect_str_eq(c.order, "pssSf");
	cr_expect_eq(c.batches[1], 0);
}

Test(run_skeleton, a_refused_preparation_ends_the_run)
{
	struct session s;
	struct kernel_info k[2];
	struct calls c = { .prepare_ret = GATE_EXIT_USAGE };
	make_session(&s, k, 1);
	struct run_skeleton sk = { &s, &c, NULL, false, NULL, prepare, sample, settle, NULL,
				   finish };
	cr_expect_eq(run_skeleton_drive(&sk, "/self"), GATE_EXIT_USAGE);
	cr_expect_str_eq(c.order, "p");
}

Test(run_skeleton, an_unwritable_json_runs_nothing, .init = cr_redirect_stderr)
{
	struct session s;
	struct kernel_info k[2];
	struct calls c = { 0 };
	make_session(&s, k, 1);
	struct run_skeleton sk = { &s, &c, "/proc/no/such/run.json", false, NULL, prepare,
				   sample, settle, NULL, finish };
	cr_expect_eq(run_skeleton_drive(&sk, "/self"), GATE_EXIT_USAGE);
	cr_expect_str_empty(c.order);
}

static int confirmations;

static int confirm(void *ctx, const struct group *g, struct rng *rng)
{
	(void)ctx, (void)g, (void)rng;
	confirmations++;
	return 0;
}

/* With no timing regression in the result, settle's asking confirms no
 * group; without a confirm hook, settle's answer is not acted on. */
Test(run_skeleton, nothing_suspected_nothing_confirmed, .init = cr_redirect_stderr)
{
	struct session s;
	struct kernel_info k[2];
	struct calls c = { .settle_ret = true };
	make_session(&s, k, 1);
	confirmations = 0;
	struct run_skeleton sk = { &s, &c, NULL, false, NULL, prepare, sample, settle, confirm,
				   finish };
	cr_expect_eq(run_skeleton_drive(&sk, "/self"), 0);
	cr_expect_eq(confirmations, 0);
	cr_expect_str_eq(c.order, "pssSf");
	sk.confirm = NULL;
	memset(c.order, 0, sizeof c.order);
	cr_expect_eq(run_skeleton_drive(&sk, "/self"), 0);
	cr_expect_str_eq(c.order, "pssSf");
}

Test(run_skeleton, the_deadline)
{
	struct run_options o;
	memset(&o, 0, sizeof o);
	o.tier = GATE_TIER_DEFAULT;
	o.runs = 1;
	double one = run_options_deadline(&o);
	run_skeleton_deadline(&o, 100, 3);
	cr_expect_eq(o.deadline_seconds, one * 3);
	cr_expect_eq(o.deadline_at, 100 + one * 3);
	o.deadline_seconds = 60;   /* --deadline 60: as given, whatever the sides */
	run_skeleton_deadline(&o, 100, 3);
	cr_expect_eq(o.deadline_seconds, 60);
	cr_expect_eq(o.deadline_at, 160);
}

/* Each group's progress line: its count, its name, the command's suffix. */
Test(run_skeleton, the_progress_lines, .init = cr_redirect_stderr)
{
	struct session s;
	struct kernel_info k[2];
	struct calls c = { 0 };
	make_session(&s, k, 2);
	struct run_skeleton sk = { &s, &c, NULL, false, " under 2 allocators", prepare, sample,
				   settle, NULL, finish };
	run_skeleton_drive(&sk, "/self");
	fflush(stderr);
	cr_expect_stderr_eq_str("gate: [1/2] a a1 under 2 allocators\n"
				"gate: [2/2] b b1 under 2 allocators\n");
}

/* test_runner.c: gates/sample/runner.c: when --warmup auto stops warming
 * up (two consecutive rounds agree within 10%), and how gate ab's looks
 * stop a variant, then a group, on the test kernel toy (GATE_BUILD_DIR,
 * default build), and that gate run's hook runs after each measured
 * round. The rest of the rounds is covered end to end
 * (tests/test_e2e*.c). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "sample/runner.h"

Test(runner, warmup_rounds_agree_within_ten_percent)
{
	double prev[] = { 1000, 2000, 5e6 };
	double near[] = { 1099, 1801, 4.6e6 };   /* +9.9%, -9.95%, -8% */
	double far[] = { 1000, 2000, 5.6e6 };    /* the last one +12% */
	cr_expect(runner_warmup_stable(prev, near, 3));
	cr_expect_not(runner_warmup_stable(prev, far, 3));
	cr_expect(runner_warmup_stable(prev, prev, 3));
}

Test(runner, warmup_failed_or_missing_samples_never_agree)
{
	double prev[] = { 1000, 2000 }, nan[] = { 1000, NAN }, zero[] = { 0, 2000 };
	cr_expect_not(runner_warmup_stable(prev, nan, 2));
	cr_expect_not(runner_warmup_stable(nan, prev, 2));
	cr_expect_not(runner_warmup_stable(zero, zero, 2));
	cr_expect(runner_warmup_stable(prev, prev, 0), "no item: nothing to wait for");
}

/* ---- the looks: a variant stops on every side, then its group ---- */

struct look_calls {
	const char *settles;   /* the variant settled at every look; NULL: all of them */
	size_t from;           /* ... from this look's round on */
	int single, twice;     /* how often each was asked */
};

static bool settles(void *ctx, const struct runner_side *sides, size_t side_count,
		    size_t first_round, size_t rounds, const char *variant)
{
	struct look_calls *c = ctx;
	(void)sides, (void)first_round;
	cr_expect_eq(side_count, 2);
	c->single += !strcmp(variant, "single");
	c->twice += !strcmp(variant, "twice");
	return rounds >= c->from && (!c->settles || !strcmp(variant, c->settles));
}

/* The finite samples of VARIANT's wall_ns in R, and whether they are its
 * first rounds (none after a NaN). */
static size_t finite_rounds(const struct run_result *r, const char *variant, size_t *count)
{
	const struct series *s = result_find_series(r, "toy", variant, "small", "wall_ns");
	size_t n = 0, last = 0;
	cr_assert(s, "no wall_ns series of %s", variant);
	*count = s->sample_count;
	for (size_t i = 0; i < s->sample_count; i++)
		if (isfinite(s->samples[i]))
			n++, last = i + 1;
	cr_expect_eq(last, n, "%s: a sample after a stop", variant);
	return n;
}

/* The toy kernel (GATE_BUILD_DIR, default build) listed into K, and its
 * parameter set "small". */
static const struct kernel_paramset *toy_small(struct kernel_info *k)
{
	const char *bd = getenv("GATE_BUILD_DIR");
	char path[512], err[512];
	snprintf(path, sizeof path, "%s/tests/kernels/toy", bd ? bd : "build");
	memset(k, 0, sizeof *k);
	cr_assert_eq(runner_list_kernel(path, 30, k, err, sizeof err), 0, "%s", err);
	for (size_t i = 0; i < k->paramset_count; i++)
		if (!strcmp(k->paramsets[i].name, "small"))
			return &k->paramsets[i];
	cr_assert_fail("the toy has no parameter set small");
	return NULL;
}

/* Two sides of the toy's group "small", 8 rounds, looks after 3 and 5. */
static void run_looks(struct look_calls *calls, struct run_result *a, struct run_result *b,
		      size_t *taken, size_t *samples)
{
	static const char *env[] = { NULL };
	static struct kernel_info k;
	const struct kernel_paramset *p = toy_small(&k);
	struct runner_looks looks = { { 3, 5 }, 2, settles, calls };
	struct runner_plan plan = { .env = env, .rounds = 8, .warmup = 0, .timeout_seconds = 30,
				    .looks = &looks };
	struct runner_side sides[2] = { { &k, p, &plan, a }, { &k, p, &plan, b } };
	struct rng rng;
	rng_seed(&rng, 1);
	cr_assert_eq(runner_run_sides(sides, 2, &rng, 0, taken, samples), 0);
	kernel_info_free(&k);
}

Test(runner, a_settled_variant_takes_no_more_samples_on_either_side, .timeout = 120)
{
	struct look_calls calls = { "single", 0, 0, 0 };
	struct run_result a, b;
	size_t taken, samples[2], count;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	run_looks(&calls, &a, &b, &taken, samples);
	cr_expect_eq(taken, 8, "twice never settles: the group takes its 8 rounds");
	cr_expect_eq(finite_rounds(&a, "single", &count), 3);
	cr_expect_eq(count, 8, "padded to the group's rounds");
	cr_expect_eq(finite_rounds(&b, "single", &count), 3);
	cr_expect_eq(finite_rounds(&a, "twice", &count), 8);
	cr_expect_eq(finite_rounds(&b, "twice", &count), 8);
	cr_expect_eq(calls.single, 1, "single asked once, at the look it settled");
	cr_expect_eq(calls.twice, 2);
	cr_expect_eq(samples[0], 2 * 3 + 2 * 8, "samples taken");
	cr_expect_eq(samples[1], 4 * 8, "samples budgeted");
	result_free(&a);
	result_free(&b);
}

Test(runner, a_group_stops_once_every_variant_has, .timeout = 120)
{
	struct look_calls calls = { NULL, 5, 0, 0 };
	struct run_result a, b;
	size_t taken, samples[2], count;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	run_looks(&calls, &a, &b, &taken, samples);
	cr_expect_eq(taken, 5);
	cr_expect_eq(finite_rounds(&a, "single", &count), 5);
	cr_expect_eq(count, 5);
	cr_expect_eq(finite_rounds(&b, "twice", &count), 5);
	cr_expect_eq(samples[0], 4 * 5);
	cr_expect_eq(samples[1], 4 * 8);
	result_free(&a);
	result_free(&b);
}

/* ---- gate run's hook between rounds (the reference workload) ---- */

struct round_calls {
	struct run_result *r;
	size_t calls, samples_seen[8];   /* the toy's wall_ns samples at each call */
};

static void count_round(void *ctx)
{
	struct round_calls *c = ctx;
	const struct series *s = result_find_series(c->r, "toy", "single", "small", "wall_ns");
	if (c->calls < 8)
		c->samples_seen[c->calls] = s ? s->sample_count : 0;
	c->calls++;
}

Test(runner, the_hook_runs_after_each_measured_round_not_the_warm_up, .timeout = 120)
{
	static const char *env[] = { NULL };
	struct kernel_info k;
	struct run_result r;
	memset(&r, 0, sizeof r);
	const struct kernel_paramset *p = toy_small(&k);
	struct round_calls calls = { .r = &r };
	struct runner_plan plan = { .env = env, .rounds = 4, .warmup = 2, .timeout_seconds = 30,
				    .after_round = count_round, .after_round_ctx = &calls };
	struct rng rng;
	rng_seed(&rng, 1);
	cr_assert_eq(runner_run_params(&k, p, &plan, &rng, &r, 0), 0);
	cr_expect_eq(calls.calls, 4, "4 measured rounds, 2 warm-up rounds: %zu calls",
		     calls.calls);
	for (size_t i = 0; i < 4; i++)
		cr_expect_eq(calls.samples_seen[i], i + 1, "call %zu: after round %zu's samples",
			     i + 1, i + 1);
	result_free(&r);
	kernel_info_free(&k);
}

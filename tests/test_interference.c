/* test_interference.c: gates/decide/interference.c, timing samples that
 * other tasks disturbed, and how compare.c and expect_eval.c leave them out
 * (interference.h). Every figure is worked out by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "decide/compare.h"
#include "decide/compare_ab.h"
#include "decide/expect_eval.h"
#include "decide/interference.h"

#define ROUNDS 9

static struct run_result cur, base;
static struct run_policy pol;

static void setup(void)
{
	memset(&cur, 0, sizeof cur);
	memset(&base, 0, sizeof base);
	policy_defaults(&pol);
	cur.ctx.cpu_count = base.ctx.cpu_count = 2;
}

static void teardown(void)
{
	result_free(&cur);
	result_free(&base);
}

TestSuite(interference, .init = setup, .fini = teardown);

Test(interference, own_threads_explain_their_wait)
{
	/* one thread on two cores: every wait is another task's */
	cr_expect_eq(interference_excess_ns(120e3, 1e6, 1, 2), 120e3);
	/* eight threads on two cores ran 2 ms of CPU: up to 6 x 2 / 2 = 6 ms of
	 * wait is their own */
	cr_expect_eq(interference_excess_ns(6e6, 2e6, 8, 2), 0);
	cr_expect_eq(interference_excess_ns(14e6, 2e6, 8, 2), 8e6);
	cr_expect_eq(interference_excess_ns(0, 1e6, 1, 0), 0);
}

Test(interference, too_few_to_decide)
{
	cr_expect(!interference_too_few(9, 0));
	cr_expect(!interference_too_few(5, 4));
	cr_expect(interference_too_few(4, 5));
	cr_expect(interference_too_few(2, 1), "fewer than 3 left");
	cr_expect(!interference_too_few(1, 0), "nothing was left out");
}

static void add(struct run_result *r, const char *variant, const char *metric,
		const double *values, double factor)
{
	struct series *s = result_add_series(r, "k", variant, "p", metric, "ns", METRIC_TIMING);
	cr_assert_not_null(s);
	for (size_t i = 0; i < ROUNDS; i++)
		cr_assert_eq(result_series_append(s, values[i] * factor), 0);
}

static const double wall[ROUNDS] = { 1e6, 1.02e6, 0.98e6, 1.01e6, 0.99e6, 1.03e6, 0.97e6,
				     1e6, 1.01e6 };

/* Variant V with wall times WALL x FACTOR, its CPU time the same and the
 * run-queue waits WAIT (ns). */
static void variant(struct run_result *r, const char *v, double factor, const double *wait)
{
	add(r, v, "wall_ns", wall, factor);
	add(r, v, "task_clock_ns", wall, factor);
	if (wait)
		add(r, v, "sched_wait_ns", wait, 1);
}

Test(interference, marks_the_disturbed_rounds)
{
	/* walls of about 2 ms: 40 us (under the 50 us floor), 80 us (under 5%
	 * of 2 ms), 2 ms */
	const double wait[ROUNDS] = { 0, 40e3, 80e3, 2e6, 0, 0, 0, 0, 2e6 };
	variant(&cur, "a", 2, wait);
	cr_assert_eq(interference_mark(&cur), 0);
	const struct series *s = result_find_series(&cur, "k", "a", "p", "wall_ns");
	cr_assert_eq(s->disturbed_count, 2);
	for (size_t i = 0; i < ROUNDS; i++)
		cr_expect_eq(interference_sample_disturbed(s, i), i == 3 || i == 8, "round %zu", i);
	/* 2 ms taken from 2.02 ms twice: the median share */
	cr_expect(fabs(s->disturbed_share - 2e6 / 2.02e6) < 1e-9, "%g", s->disturbed_share);
	/* counts and machines without the figure are never marked */
	const struct series *w = result_find_series(&cur, "k", "a", "p", "sched_wait_ns");
	cr_expect_eq(w->disturbed_count, 2, "the wait itself is timing too");
}

Test(interference, no_wait_figure_no_marks)
{
	variant(&cur, "a", 1, NULL);
	cr_assert_eq(interference_mark(&cur), 0);
	cr_expect_null(result_find_series(&cur, "k", "a", "p", "wall_ns")->disturbed);
}

Test(interference, a_busy_machine_is_inconclusive_not_a_regression)
{
	const double busy[ROUNDS] = { 3e6, 3e6, 3e6, 3e6, 3e6, 0, 0, 0, 0 };
	variant(&base, "a", 1, NULL);
	/* twice as slow in every round: a regression if it were measured quietly */
	variant(&cur, "a", 2, busy);
	compare_run(&cur, &base, &pol, true);
	const struct series *s = result_find_series(&cur, "k", "a", "p", "wall_ns");
	cr_expect_eq(s->verdict, VERDICT_INCONCLUSIVE);
	cr_assert_not_null(s->note);
	cr_expect(strstr(s->note, "disturbed: 5 of 9 samples lost a median"), "%s", s->note);
}

Test(interference, undisturbed_rounds_still_decide)
{
	const double some[ROUNDS] = { 3e6, 3e6, 0, 0, 0, 0, 0, 0, 0 };
	variant(&base, "a", 1, NULL);
	variant(&cur, "a", 2, some);
	compare_run(&cur, &base, &pol, true);
	const struct series *s = result_find_series(&cur, "k", "a", "p", "wall_ns");
	cr_expect_eq(s->verdict, VERDICT_FAIL, "seven quiet rounds, all twice as slow");
}

Test(interference, a_claim_on_disturbed_rounds_is_inconclusive)
{
	const double busy[ROUNDS] = { 0, 3e6, 3e6, 3e6, 3e6, 3e6, 0, 0, 0 };
	struct kernel_info k = { .name = "k" };
	struct kernel_expect e = { .file = "kernels/k.c", .line = 7,
				   .expr = "a.wall_ns < 0.5 * b.wall_ns" };
	variant(&cur, "a", 1, busy);
	variant(&cur, "b", 1, NULL);
	cr_assert_eq(interference_mark(&cur), 0);
	cr_assert_eq(expect_evaluate(&k, &e, "p", 0.95, &cur), 0);
	const struct expect_result *x = &cur.expects[0];
	cr_expect_eq(x->verdict, VERDICT_INCONCLUSIVE, "a = b would fail it");
	cr_assert_not_null(x->note);
	cr_expect(strstr(x->note, "disturbed: 5 of 9 rounds had a timing sample"), "%s", x->note);
}

Test(interference, beyond_reach_of_the_rounds_left)
{
	cr_expect(!interference_beyond_reach(10, 2, 0), "decidable now");
	cr_expect(interference_beyond_reach(2, 10, 2), "4 usable against 10 at best");
	cr_expect(!interference_beyond_reach(2, 10, 28), "17% usable: 28 quiet rounds decide it");
	cr_expect(interference_beyond_reach(1, 10, 50), "91% disturbed in 11 rounds");
	cr_expect(interference_beyond_reach(0, 11, 50));
	cr_expect(!interference_beyond_reach(0, 8, 50), "fewer than 9 rounds seen");
	cr_expect(!interference_beyond_reach(2, 17, 42), "89% disturbed: the rounds left may");
}

/* gate ab's looks: a claim undecided for its disturbed rounds holds the
 * group only while the rounds left could still make it decidable. */
Test(interference, a_claim_too_disturbed_for_the_rounds_left_does_not_hold_a_look)
{
	const double busy[ROUNDS] = { 0, 3e6, 3e6, 3e6, 3e6, 3e6, 0, 0, 0 };
	struct kernel_expect e = { .file = "kernels/k.c", .line = 7,
				   .expr = "a.wall_ns < 0.5 * b.wall_ns", .params = "p" };
	const char *variants[] = { "a", "b" };
	struct kernel_info k = { .name = "k", .expects = &e, .expect_count = 1,
				 .variants = (char **)variants, .variant_count = 2 };
	struct condition_target t = { "linux", "glibc", 2 };
	variant(&cur, "a", 1, busy);
	variant(&cur, "b", 1, NULL);
	/* 4 usable rounds against 5 disturbed: 0 more rounds leave it
	 * "disturbed", 1 more (5 against 5) could decide it */
	cr_expect(expect_group_decided(&k, "p", NULL, &t, 0.95, 0, &cur));
	cr_expect(!expect_group_decided(&k, "p", NULL, &t, 0.95, 1, &cur));
	/* one variant's look: the claim names a and b, so it holds them, not c */
	cr_expect(!expect_group_decided(&k, "p", "a", &t, 0.95, 1, &cur));
	cr_expect(!expect_group_decided(&k, "p", "b", &t, 0.95, 1, &cur));
	cr_expect(expect_group_decided(&k, "p", "c", &t, 0.95, 1, &cur),
		  "a claim that does not name the variant holds it back");
	cr_expect_eq(cur.expect_count, 0, "the looks leave no verdict behind");
}

Test(interference, a_baseline_forgets_disturbed_samples)
{
	const double some[ROUNDS] = { 3e6, 0, 0, 0, 0, 0, 0, 3e6, 0 };
	const double most[ROUNDS] = { 3e6, 3e6, 3e6, 3e6, 3e6, 3e6, 3e6, 0, 0 };
	variant(&cur, "a", 1, some);
	variant(&cur, "b", 1, most);
	cr_assert_eq(interference_mark(&cur), 0);
	/* a's wall and task clock lose two samples each; b would keep two, so
	 * it keeps all; the waits themselves are timing series too */
	cr_expect_eq(interference_forget(&cur), 6);
	const struct series *a = result_find_series(&cur, "k", "a", "p", "wall_ns");
	cr_expect(isnan(a->samples[0]) && isnan(a->samples[7]) && isfinite(a->samples[1]));
	const struct series *b = result_find_series(&cur, "k", "b", "p", "wall_ns");
	cr_expect(isfinite(b->samples[0]));
}

Test(interference, gate_ab_leaves_out_rounds_disturbed_on_either_side)
{
	const double a_busy[ROUNDS] = { 3e6, 3e6, 3e6, 0, 0, 0, 0, 0, 0 };
	const double b_busy[ROUNDS] = { 0, 0, 0, 3e6, 3e6, 0, 0, 0, 0 };
	/* base plays A, cur plays B, twice as slow */
	variant(&base, "a", 1, a_busy);
	variant(&cur, "a", 2, b_busy);
	cr_assert_eq(interference_mark(&base), 0);
	cr_assert_eq(interference_mark(&cur), 0);
	compare_ab_run(&cur, &base, &pol);
	const struct series *s = result_find_series(&cur, "k", "a", "p", "wall_ns");
	cr_expect_eq(s->verdict, VERDICT_INCONCLUSIVE);
	cr_assert_not_null(s->note);
	cr_expect(strstr(s->note, "disturbed: 5 of 9 rounds disturbed"), "%s", s->note);
}

Test(interference, a_machine_that_slowed_as_a_whole_fails_only_the_outliers)
{
	char name[16];
	pol.min_effect = 0.25;
	/* eleven kernels 35% slower (the machine), one 60%, one 2x */
	for (int v = 0; v < 13; v++) {
		snprintf(name, sizeof name, "v%d", v);
		add(&base, name, "wall_ns", wall, 1);
		add(&cur, name, "wall_ns", wall, v == 11 ? 1.6 : v == 12 ? 2.0 : 1.35);
	}
	compare_run(&cur, &base, &pol, true);
	size_t n;
	double shift = result_timing_shift(&cur, &n);
	cr_expect_eq(n, 13);
	cr_expect(fabs(shift - 0.35) < 1e-9, "%g", shift);
	const struct series *same = result_find_series(&cur, "k", "v0", "p", "wall_ns");
	const struct series *more = result_find_series(&cur, "k", "v11", "p", "wall_ns");
	const struct series *twice = result_find_series(&cur, "k", "v12", "p", "wall_ns");
	cr_expect_eq(same->verdict, VERDICT_INCONCLUSIVE);
	cr_assert_not_null(same->note);
	cr_expect(strstr(same->note, "the machine moved: the 13 compared timing series slowed by "
				     "a median of +35.0%"), "%s", same->note);
	/* 1.6 / 1.35 = 1.19: within the 25% tolerance of the machine's move */
	cr_expect_eq(more->verdict, VERDICT_INCONCLUSIVE);
	/* 2.0 / 1.35 = 1.48: a regression beyond the machine's */
	cr_expect_eq(twice->verdict, VERDICT_FAIL);
}

Test(interference, a_round_in_which_others_took_the_machine_is_disturbed)
{
	/* 150 per mille is below the 20% mark, 500 above */
	const double permille[ROUNDS] = { 0, 150, 500, 0, 0, 500, 0, 0, 0 };
	variant(&cur, "a", 1, NULL);
	add(&cur, "a", "others_cpu_permille", permille, 1);
	cr_assert_eq(interference_mark(&cur), 0);
	const struct series *s = result_find_series(&cur, "k", "a", "p", "wall_ns");
	cr_expect_eq(s->disturbed_count, 2);
	cr_expect(interference_sample_disturbed(s, 2) && interference_sample_disturbed(s, 5));
	cr_expect(!interference_sample_disturbed(s, 1));
	cr_expect(fabs(s->disturbed_share - 0.5) < 1e-12, "%g", s->disturbed_share);
}

Test(interference, more_threads_than_cores_are_shown_not_tested)
{
	const double four[ROUNDS] = { 4, 4, 4, 4, 4, 4, 4, 4, 4 };
	variant(&base, "a", 1, NULL);
	variant(&cur, "a", 2, NULL);
	add(&cur, "a", "threads", four, 1);
	compare_run(&cur, &base, &pol, true);
	const struct series *s = result_find_series(&cur, "k", "a", "p", "wall_ns");
	cr_expect_eq(s->verdict, VERDICT_SKIPPED, "twice as slow, but placed by the scheduler");
	cr_assert_not_null(s->note);
	cr_expect(strstr(s->note, "4 threads on 2 cores"), "%s", s->note);
	/* on a machine with the cores for them, compared */
	cur.ctx.cpu_count = 4;
	compare_run(&cur, &base, &pol, true);
	cr_expect_eq(s->verdict, VERDICT_FAIL);
}

Test(interference, gate_ab_leaves_the_machine_share_out)
{
	/* a gate ab round's A and B met the same load (at the same time, or
	 * in one shuffled order): only a sample's own wait to run marks it
	 * (interference_mark_as) */
	const double permille[ROUNDS] = { 0, 500, 500, 0, 0, 500, 0, 0, 0 };
	const double wait[ROUNDS] = { 0, 0, 0, 0, 300e3, 0, 0, 0, 0 };
	variant(&cur, "a", 1, wait);
	add(&cur, "a", "others_cpu_permille", permille, 1);
	cr_assert_eq(interference_mark_as(&cur, false), 0);
	const struct series *s = result_find_series(&cur, "k", "a", "p", "wall_ns");
	cr_expect_eq(s->disturbed_count, 1, "%zu", s->disturbed_count);
	cr_expect(interference_sample_disturbed(s, 4), "its own wait: 300 us of a 1 ms region");
	cr_expect(!interference_sample_disturbed(s, 1) && !interference_sample_disturbed(s, 5));
	/* the same series under the full rule: the busy rounds too */
	cr_assert_eq(interference_mark(&cur), 0);
	cr_expect_eq(s->disturbed_count, 4, "%zu", s->disturbed_count);
}

Test(interference, gate_ab_marks_both_sides_by_their_own_wait)
{
	/* the rule gate ab decides by (compare_ab_mark_interference): on B and
	 * on A, a busy machine's rounds stay, a sample's own wait leaves */
	const double permille[ROUNDS] = { 0, 500, 500, 0, 0, 500, 0, 0, 0 };
	const double wait_b[ROUNDS] = { 0, 0, 0, 0, 300e3, 0, 0, 0, 0 };
	const double wait_a[ROUNDS] = { 0, 0, 300e3, 0, 0, 0, 0, 0, 0 };
	variant(&cur, "a", 1, wait_b);
	add(&cur, "a", "others_cpu_permille", permille, 1);
	variant(&base, "a", 1, wait_a);
	add(&base, "a", "others_cpu_permille", permille, 1);
	cr_assert_eq(compare_ab_mark_interference(&cur, &base), 0);
	const struct series *b = result_find_series(&cur, "k", "a", "p", "wall_ns");
	const struct series *a = result_find_series(&base, "k", "a", "p", "wall_ns");
	cr_expect_eq(b->disturbed_count, 1, "%zu", b->disturbed_count);
	cr_expect(interference_sample_disturbed(b, 4));
	cr_expect_eq(a->disturbed_count, 1, "%zu", a->disturbed_count);
	cr_expect(interference_sample_disturbed(a, 2));
	cr_expect(!interference_sample_disturbed(a, 1) && !interference_sample_disturbed(a, 5));
}

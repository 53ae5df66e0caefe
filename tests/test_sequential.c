/* test_sequential.c: gate ab's looks and futility rule (decide/sequential.h):
 * the schedule of looks, hand cases of the rule, and a seeded simulation of
 * 10,000 null series and 10,000 with a real change, decided as gate ab
 * decides one timing series (compare_ab.h: a median ratio of at least
 * 1 + minimum effect and a one-sided signed-rank p below alpha). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

#include "core/rng.h"
#include "decide/compare_ab.h"
#include "decide/sequential.h"

Test(sequential, looks_at_11_of_61_and_every_5_after)
{
	size_t at[SEQ_LOOKS];
	cr_assert_eq(seq_looks(61, at), 10);
	for (size_t i = 0; i < 10; i++)
		cr_expect_eq(at[i], 11 + 5 * i, "look %zu at %zu", i, at[i]);
}

Test(sequential, fewer_rounds_keep_the_looks_that_have_enough)
{
	size_t at[SEQ_LOOKS];
	const size_t want[] = { 10, 11, 13, 14, 16, 17 };
	/* 19 rounds (the other tiers): the fractions' first four (3 to 8
	 * rounds) are too few */
	cr_assert_eq(seq_looks(19, at), 6);
	for (size_t i = 0; i < 6; i++)
		cr_expect_eq(at[i], want[i], "look %zu at %zu", i, at[i]);
	cr_expect_eq(seq_looks(9, at), 0, "no look below SEQ_MIN_ROUNDS or at the last round");
	cr_expect_eq(seq_looks(0, at), 0);
}

Test(sequential, the_looks_spend_the_claims_alpha_evenly)
{
	cr_expect_float_eq(seq_claim_level(3), 0.9875, 1e-12);
	cr_expect_float_eq(seq_claim_level(10), 0.99625, 1e-12);
	cr_expect_float_eq(10 * (1 - seq_claim_level(10)), SEQ_CLAIM_LOOKS_ALPHA, 1e-12);
}

static const double ones[21] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };

Test(sequential, a_tight_series_inside_the_minimum_effect_is_settled)
{
	double b[21];
	for (int i = 0; i < 21; i++)
		b[i] = 1 + 0.005 * ((i % 5) - 2) / 2;   /* within +-0.5% */
	cr_expect(seq_within_min_effect(b, ones, 21, 0.02));
	cr_expect(!seq_within_min_effect(b, ones, 21, 0.002), "the interval reaches 0.25%");
}

Test(sequential, a_series_that_could_still_move_by_the_minimum_effect_is_not)
{
	double b[21];
	for (int i = 0; i < 21; i++)
		b[i] = i < 8 ? 1.03 : 1.0;   /* 8 of 21 rounds +3%: the 90% interval reaches it */
	cr_expect(!seq_within_min_effect(b, ones, 21, 0.02));
	for (int i = 0; i < 21; i++)
		b[i] = i < 8 ? 0.97 : 1.0;   /* and the other way: an improvement still possible */
	cr_expect(!seq_within_min_effect(b, ones, 21, 0.02));
}

Test(sequential, rounds_left_out_do_not_count)
{
	double b[21];
	for (int i = 0; i < 21; i++)
		b[i] = i < 13 ? NAN : 1.0;   /* 8 usable: fewer than SEQ_MIN_ROUNDS */
	cr_expect(!seq_within_min_effect(b, ones, 21, 0.02));
	b[0] = 1.0;   /* 9 usable, all 1: settled */
	cr_expect(seq_within_min_effect(b, ones, 21, 0.02));
}

/* ---- simulation ---- */

#define SERIES 10000
#define ROUNDS 61
#define ALPHA 0.05

static double uniform(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;   /* (0, 1) */
}

static double normal(struct rng *r)
{
	return sqrt(-2 * log(uniform(r))) * cos(2 * M_PI * uniform(r));
}

/* One series' rounds: B = A x exp(shift + noise), the noise normal with
 * SIGMA and, in one round of 12, a disturbance of 5 SIGMA on either side. */
static void series(struct rng *r, double shift, double sigma, double *b, double *a)
{
	for (int i = 0; i < ROUNDS; i++) {
		double e = sigma * normal(r);
		if (rng_below(r, 12) == 0)
			e += (rng_below(r, 2) ? 5 : -5) * sigma;
		a[i] = 1e6;
		b[i] = 1e6 * exp(shift + e);
	}
}

/* gate ab's verdict on the first N rounds: regressed or not. */
static bool regressed(const double *b, const double *a, size_t n, double min_effect)
{
	struct ab_paired pr;
	return compare_ab_paired(b, a, n, &pr) == 0 && pr.ratio >= 1 + min_effect &&
	       pr.p_greater < ALPHA;
}

struct tally {
	int fixed, sequential, stopped, stopped_then_fixed_only;
	int efficacy;              /* stopped as decided beyond doubt */
	int efficacy_not_fixed;    /* of those, regressed though the fixed test is not */
	long rounds;
};

/* SERIES series of true shift SHIFT, half with noise SIGMA_LOW (they can
 * settle early), half SIGMA_HIGH, each decided after every round (fixed)
 * and with the looks (sequential). */
static struct tally simulate(uint64_t seed, double shift, double sigma_low, double sigma_high,
			     double min_effect)
{
	struct rng r;
	struct tally t = { 0 };
	double b[ROUNDS], a[ROUNDS];
	size_t at[SEQ_LOOKS], looks = seq_looks(ROUNDS, at);
	struct run_policy pol;
	policy_defaults(&pol);
	pol.min_effect = min_effect;
	pol.alpha = ALPHA;
	rng_seed(&r, seed);
	for (int s = 0; s < SERIES; s++) {
		series(&r, shift, s % 2 ? sigma_high : sigma_low, b, a);
		size_t taken = ROUNDS;
		bool efficacy = false;
		/* compare_ab_group_settled's rule on one series */
		for (size_t k = 0; k < looks; k++) {
			efficacy = seq_efficacious(b, a, at[k], ROUNDS, min_effect);
			if (efficacy || (!compare_ab_decided_now(b, a, at[k], &pol) &&
					 seq_settled(b, a, at[k], ROUNDS, min_effect, ALPHA))) {
				taken = at[k];
				break;
			}
		}
		bool fixed = regressed(b, a, ROUNDS, min_effect);
		bool seq = regressed(b, a, taken, min_effect);
		t.fixed += fixed;
		t.sequential += seq;
		t.stopped += taken < ROUNDS;
		t.efficacy += efficacy;
		t.efficacy_not_fixed += efficacy && seq && !fixed;
		t.stopped_then_fixed_only += fixed && !seq && taken < ROUNDS;
		t.rounds += (long)taken;
		/* a series stopped as futile can never be a regression: its
		 * median lay below 1 + minimum effect or its p above alpha; one
		 * stopped as decided beyond doubt reads as the final test would */
		cr_assert(!(seq && taken < ROUNDS && !efficacy),
			  "series %d regressed after stopping as futile at %zu", s, taken);
		cr_assert(!efficacy || seq || shift <= 0, "series %d stopped as regressed at %zu "
			  "but does not read regressed", s, taken);
	}
	cr_log_info("shift %g, noise %g and %g, minimum effect %g: fixed %d, sequential %d, "
		    "stopped %d (%d decided, %d of them not by the fixed test), %.1f rounds a "
		    "series", shift, sigma_low, sigma_high, min_effect, t.fixed, t.sequential,
		    t.stopped, t.efficacy, t.efficacy_not_fixed, (double)t.rounds / SERIES);
	return t;
}

/* At most how many of SERIES null series the efficacy looks may turn into
 * false alarms the fixed test does not raise: SEQ_EFFICACY_ALPHA of them,
 * 3 binomial deviations of slack. */
static int efficacy_bound(void)
{
	return (int)(SERIES * SEQ_EFFICACY_ALPHA +
		     3 * sqrt(SERIES * SEQ_EFFICACY_ALPHA * (1 - SEQ_EFFICACY_ALPHA)));
}

Test(sequential, null_series_keep_the_false_alarm_rate, .timeout = 120)
{
	/* minimum effect 0.5%: the noisy half (3%) reaches it by chance, so
	 * its false-alarm rate is near alpha and the bound below is not
	 * vacuous; the quiet half (0.3%) settles early */
	struct tally t = simulate(20261205, 0, 0.003, 0.03, 0.005);
	double bound = ALPHA + SEQ_EFFICACY_ALPHA + 3 * sqrt(ALPHA * (1 - ALPHA) / SERIES);
	/* the efficacy looks may add false alarms, SEQ_EFFICACY_ALPHA of the
	 * series at most (3 binomial deviations of slack) */
	cr_expect_leq(t.efficacy_not_fixed, efficacy_bound(), "the efficacy looks added %d "
		      "false alarms", t.efficacy_not_fixed);
	cr_expect_leq(t.sequential, bound * SERIES, "%d of %d false alarms, bound %.0f",
		      t.sequential, SERIES, bound * SERIES);
	/* the noisy half alone, at alpha: between a tenth of it and the bound */
	cr_expect_geq(t.sequential, (int)(0.1 * ALPHA * SERIES / 2), "only %d false alarms: the "
		      "simulation does not reach the test's level", t.sequential);
	cr_expect_geq(t.stopped, SERIES / 2 * 9 / 10, "%d of %d stopped early", t.stopped, SERIES);
	cr_expect_lt(t.rounds, (long)SERIES * ROUNDS * 3 / 4, "%ld rounds of %ld", t.rounds,
		     (long)SERIES * ROUNDS);
}

Test(sequential, a_real_change_is_found_as_often_as_with_every_round, .timeout = 120)
{
	/* +3% against a 2% minimum effect, noise 1% and 3%: at most 1% of
	 * the series the fixed test finds are given up */
	struct tally t = simulate(7, log(1.03), 0.01, 0.03, 0.02);
	cr_expect_geq(t.fixed, SERIES * 9 / 10, "the fixed test found %d of %d", t.fixed, SERIES);
	cr_expect_leq(t.stopped_then_fixed_only, SERIES / 100, "%d of %d found by the fixed "
		      "test only", t.stopped_then_fixed_only, SERIES);
	/* a change of exactly the minimum effect, the futility rule's worst
	 * case: the misses may grow by 1 / (1 - SEQ_FUTILITY_POWER) at most
	 * (Lan, Simon & Halperin; sequential.h), 3 binomial deviations of
	 * slack for the simulation */
	t = simulate(8, log(1.02), 0.01, 0.03, 0.02);
	double misses = (SERIES - t.fixed) / (1 - SEQ_FUTILITY_POWER);
	cr_expect_geq(t.sequential, SERIES - misses - 3 * sqrt(SERIES * 0.25), "%d of %d found, "
		      "the fixed test %d", t.sequential, SERIES, t.fixed);
	cr_expect_geq(t.sequential, SERIES / 4, "%d of %d found", t.sequential, SERIES);
}

Test(sequential, no_change_far_below_the_minimum_effect_settles_at_the_first_looks,
     .timeout = 120)
{
	/* the common pull request: nothing moved, noise 1% and 2% against 2% */
	struct tally t = simulate(11, 0, 0.01, 0.02, 0.02);
	cr_expect_eq(t.fixed, 0);
	cr_expect_leq(t.sequential, efficacy_bound(), "%d false alarms", t.sequential);
	cr_expect_lt(t.rounds, (long)SERIES * ROUNDS / 2, "%ld rounds of %ld: %.1f a series",
		     t.rounds, (long)SERIES * ROUNDS, (double)t.rounds / SERIES);
}

Test(sequential, noisy_null_series_stop_when_the_rounds_left_cannot_make_a_regression,
     .timeout = 120)
{
	/* noise 5% and 10% a round against a 2% minimum effect: the interval
	 * never gets inside 2% in 61 rounds, the conditional power falls below
	 * 10% at a later look */
	struct tally t = simulate(12, 0, 0.05, 0.10, 0.02);
	double bound = ALPHA + SEQ_EFFICACY_ALPHA + 3 * sqrt(ALPHA * (1 - ALPHA) / SERIES);
	cr_expect_leq(t.efficacy_not_fixed, efficacy_bound(), "the efficacy looks added %d "
		      "false alarms", t.efficacy_not_fixed);
	cr_expect_leq(t.sequential, bound * SERIES, "%d of %d false alarms", t.sequential, SERIES);
	cr_expect_geq(t.stopped, SERIES / 2, "%d of %d stopped early", t.stopped, SERIES);
	cr_expect_lt(t.rounds, (long)SERIES * ROUNDS * 8 / 10, "%ld rounds of %ld: %.1f a series",
		     t.rounds, (long)SERIES * ROUNDS, (double)t.rounds / SERIES);
}

Test(sequential, a_large_change_in_a_noisy_series_is_not_given_up, .timeout = 120)
{
	/* +10% in noise of 5% and 10%: the fixed test finds most; the rule
	 * gives up at most a tenth of what it finds (Lan, Simon & Halperin's
	 * bound at the minimum effect is 1/0.9 of the misses; far less here) */
	struct tally t = simulate(13, log(1.10), 0.05, 0.10, 0.02);
	cr_expect_geq(t.fixed, SERIES * 3 / 4, "the fixed test found %d of %d", t.fixed, SERIES);
	cr_expect_leq(t.stopped_then_fixed_only, t.fixed / 100, "%d of %d found by the fixed "
		      "test only", t.stopped_then_fixed_only, t.fixed);
}

Test(sequential, conditional_power_by_hand)
{
	/* no spread: the final median is the weighted mean, exactly */
	double flat[11], noisy[21];
	for (int i = 0; i < 11; i++)
		flat[i] = 0;
	cr_expect_eq(seq_conditional_power(flat, 11, 50, 0.02, 0.05), 0,
		     "11 rounds at 0 and 50 at 2%: the final median is below 2%");
	cr_expect_eq(seq_conditional_power(flat, 11, 0, 0.02, 0.05), 0, "no round left");
	for (int i = 0; i < 11; i++)
		flat[i] = log(1.03);
	cr_expect_eq(seq_conditional_power(flat, 11, 50, 0.02, 0.05), 1);
	/* log ratios +-0.1 about 0 (spread 0.14826 x 0.1 / 0.1... MAD 0.1):
	 * s = 0.14826; with 40 rounds left of 61 the bar is 1.645 s / sqrt(61)
	 * = 0.0312, the mean 40 x 0.0198 / 61 = 0.0130, the spread 1.2533 s
	 * sqrt(40) / 61 = 0.0193: z = 0.942, power 0.173 */
	for (int i = 0; i < 21; i++)
		noisy[i] = i % 2 ? 0.1 : -0.1;
	noisy[20] = 0;
	double cp = seq_conditional_power(noisy, 21, 40, 0.02, 0.05);
	cr_expect(cp > 0.15 && cp < 0.20, "conditional power %g", cp);
	cr_expect_eq(seq_conditional_power(noisy, 0, 40, 0.02, 0.05), 1, "nothing to go on");
}

Test(sequential, a_clear_change_stops_at_the_first_looks, .timeout = 120)
{
	/* +6% against a 2% minimum effect, noise 1% and 2% (the toy's +3% of
	 * work beside a quiet machine): found as often as with every round,
	 * after a fraction of the rounds */
	struct tally t = simulate(14, log(1.06), 0.01, 0.02, 0.02);
	cr_expect_geq(t.sequential, t.fixed, "%d found, the fixed test %d", t.sequential, t.fixed);
	cr_expect_geq(t.efficacy, SERIES * 95 / 100, "%d of %d decided early", t.efficacy, SERIES);
	cr_expect_lt(t.rounds, (long)SERIES * 20, "%.1f rounds a series",
		     (double)t.rounds / SERIES);
}

Test(sequential, efficacy_by_hand)
{
	double b[21], a[21];
	for (int i = 0; i < 21; i++) {
		a[i] = 1;
		b[i] = 1.05 + 0.001 * i;   /* every round +5% or more */
	}
	/* 61 rounds' 10 looks: a look's level 0.0005; 11 rounds all above
	 * give 2^-11, 10 rounds 2^-10 */
	cr_expect(seq_efficacious(b, a, 11, 61, 0.02));
	cr_expect(!seq_efficacious(b, a, 10, 61, 0.02), "2^-10 is above 0.0005");
	cr_expect(!seq_efficacious(b, a, 21, 61, 0.08), "the median below the minimum effect");
	b[3] = 0.9;   /* one round against, the largest in size: too many at 11
		       * rounds (p = P(W >= 55) of 11), not at 21 */
	cr_expect(!seq_efficacious(b, a, 11, 61, 0.02));
	cr_expect(seq_efficacious(b, a, 21, 61, 0.02));
	for (int i = 0; i < 21; i++)
		b[i] = 1 / (1.05 + 0.001 * i);   /* an improvement, the mirror image */
	cr_expect(seq_efficacious(b, a, 11, 61, 0.02));
	cr_expect(!seq_efficacious(b, a, 11, 5, 0.02), "a budget with no look");
}

Test(sequential, confirmed_by_hand)
{
	double b[21], a[21];
	for (int i = 0; i < 21; i++) {
		a[i] = 1;
		b[i] = 1.05 + 0.001 * i;
	}
	b[0] = 0.9995;   /* the smallest move, against: p = P(W >= 65) of 11 = 2/2048 */
	cr_expect(!seq_efficacious(b, a, 11, 61, 0.02), "0.00098 is above the first batch's "
		  "0.0005");
	cr_expect(seq_confirmed(b, a, 11, 61, 0.02), "0.00098 is below the confirmation's 0.005");
	cr_expect(!seq_confirmed(b, a, 8, 61, 0.02), "fewer than SEQ_MIN_ROUNDS");
	cr_expect(!seq_confirmed(b, a, 21, 61, 0.08), "the median below the minimum effect");
	for (int i = 0; i < 21; i++)
		b[i] = 1 / (1.05 + 0.001 * i);
	cr_expect(!seq_confirmed(b, a, 21, 61, 0.02), "an improvement confirms no regression");
	cr_expect(!seq_confirmed(b, a, 11, 5, 0.02), "a budget with no look");
}

/* Fresh batches of no change: the share a confirmation batch's looks stop
 * as confirmed stays below SEQ_CONFIRM_ALPHA (Bonferroni over the looks),
 * with a minimum effect of 0 so that the median half the time passes it
 * and only the p-values keep the rate down (the bound is not vacuous: the
 * looks confirm some). */
Test(sequential, null_confirmation_batches_stop_as_confirmed_below_their_alpha, .timeout = 120)
{
	struct rng r;
	double b[ROUNDS], a[ROUNDS];
	size_t at[SEQ_LOOKS], looks = seq_looks(ROUNDS, at);
	int confirmed = 0;
	rng_seed(&r, 20261207);
	for (int s = 0; s < SERIES; s++) {
		series(&r, 0, 0.02, b, a);
		for (size_t k = 0; k < looks; k++)
			if (seq_confirmed(b, a, at[k], ROUNDS, 0)) {
				confirmed++;
				break;
			}
	}
	double bound = SERIES * SEQ_CONFIRM_ALPHA +
		       3 * sqrt(SERIES * SEQ_CONFIRM_ALPHA * (1 - SEQ_CONFIRM_ALPHA));
	cr_log_info("null confirmation batches stopped as confirmed: %d of %d", confirmed,
		    SERIES);
	cr_expect_leq(confirmed, bound, "%d of %d confirmed, bound %.0f", confirmed, SERIES,
		      bound);
	cr_expect_geq(confirmed, SERIES * SEQ_CONFIRM_ALPHA / 10, "only %d: the looks confirm "
		      "nothing, the bound says nothing", confirmed);
}

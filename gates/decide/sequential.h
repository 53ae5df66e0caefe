/* sequential.h: when `gate ab` may stop measuring a group before its round
 * budget (docs/noise.md, "Stopping early").
 *
 * The group is looked at after 11 of its 61 rounds and every 5 after (the
 * same fractions of another budget). A variant stops (on both sides) when
 * every timing series of it that the final test would decide is settled
 * and every claim naming it is decided, and the group when all its
 * variants have. A series is settled when it is decided beyond doubt
 * (efficacy, below), or futile to go on with: the final test on the
 * rounds so far would read it neither regressed nor improved, and either the 90% binomial interval
 * of its median per-round ratio B/A lies inside (1 / (1 + minimum effect),
 * 1 + minimum effect) (neither a regression nor an improvement of the
 * minimum effect is possible any more) or, for a series too noisy for
 * that, its conditional power is below 10% (the rounds left, were the
 * change from now on the minimum effect, would make it a regression less
 * than one time in ten: seq_conditional_power). That is a non-binding
 * futility rule (a series is rejected only by the final test, on the
 * rounds taken): a series stopped as futile can never read "regressed",
 * since its signed-rank p was at least alpha before the adjustment over
 * the run, or its median below 1 + minimum effect, so futility only removes
 * false alarms of the fixed-round test (Jennison & Turnbull, Group Sequential Methods with Applications to
 * Clinical Trials, 2000, sec. 4.2 and 7.2 on non-binding futility, ch. 10
 * on stochastic curtailment). tests/test_sequential.c checks it on seeded
 * simulations of 10,000 series (docs/noise.md, "Stopping early"): what
 * the rule costs is power near the minimum effect, what it saves is rounds
 * (measured:
 * docs/measurements.md#stopping-early-the-simulation-and-the-number-of-looks).
 *
 * A series also stops when it is decided beyond doubt (efficacy): at a
 * look, its median per-round ratio at least 1 + minimum effect and its
 * one-sided signed-rank p below SEQ_EFFICACY_ALPHA / looks (or the mirror
 * image for an improvement). The looks together spend SEQ_EFFICACY_ALPHA
 * (Bonferroni over the looks, the simplest alpha-spending function:
 * Jennison & Turnbull sec. 7.2), so a series with no change reads
 * regressed in the first batch at most alpha + SEQ_EFFICACY_ALPHA of the
 * time, and a regression still fails only when a fresh batch confirms it
 * (confirm.h), which stops at its own looks: as futile the same way, as
 * confirmed at a level of its own (SEQ_CONFIRM_ALPHA, seq_confirmed). What
 * it saves is the rest of the budget exactly where the answer is already
 * clear. */
#ifndef GATE_SEQUENTIAL_H
#define GATE_SEQUENTIAL_H

#include <stdbool.h>
#include <stddef.h>

/* The looks: after 11 of 61 rounds, then every 5 (16, 21, ..., 56), the
 * same fractions of another budget (seq_looks). Looks spend no alpha on
 * timing (the rule only stops what cannot fail), so they may be many;
 * what each one costs is a chance for a claim (below). */
#define SEQ_LOOKS 10
#define SEQ_FIRST_LOOK 11.0
#define SEQ_LOOK_STEP 5.0
#define SEQ_LEVEL 0.90
/* A variant also waits for the claims that name it (expect_eval.h): each decided
 * at a look at seq_claim_level, the looks together spending
 * SEQ_CLAIM_LOOKS_ALPHA (Bonferroni), so that a claim's chance of a wrong
 * verdict is at most that plus the final decision's 5% however many
 * looks there are. */
#define SEQ_CLAIM_LOOKS_ALPHA 0.0375
/* A series whose conditional power (seq_conditional_power) is below this
 * is futile: stopping it there multiplies the chance of missing a change
 * of the minimum effect by at most 1 / (1 - SEQ_FUTILITY_POWER) (Lan, Simon
 * & Halperin, Stochastically curtailed tests in long-term
 * clinical trials, Sequential Analysis 1, 1982: the type II error becomes
 * at most beta / gamma when a trial stops for acceptance once the
 * conditional chance of accepting under the alternative reaches gamma). */
#define SEQ_FUTILITY_POWER 0.10
/* No look before this many rounds (with fewer, an interval of the median
 * is little narrower than the sample's range). */
#define SEQ_MIN_ROUNDS 9

/* The alpha the efficacy looks spend together (above): a tenth of the
 * final test's 0.05. With 10 looks a look's level is 0.0005, which an
 * exact signed-rank test first reaches at 11 rounds all on one side
 * (2^-11 = 0.00049). */
#define SEQ_EFFICACY_ALPHA 0.005

/* The rounds after which a group of ROUNDS rounds is looked at, ascending,
 * each at least SEQ_MIN_ROUNDS and below ROUNDS, into LOOKS (room for
 * SEQ_LOOKS); returns how many. */
size_t seq_looks(size_t rounds, size_t *looks);

/* The level a claim is decided at, at each of LOOKS looks: 1 -
 * SEQ_CLAIM_LOOKS_ALPHA / LOOKS (0.99625 at 10 looks). */
double seq_claim_level(size_t looks);

/* Whether the rounds of B and A (N each; a NaN, zero or negative value
 * leaves a round out) settle their series for MIN_EFFECT: at least
 * SEQ_MIN_ROUNDS usable rounds and the SEQ_LEVEL binomial interval of the
 * median of b_i / a_i inside (1 / (1 + MIN_EFFECT), 1 + MIN_EFFECT). False
 * when memory ran out. */
bool seq_within_min_effect(const double *b, const double *a, size_t n, double min_effect);

/* The conditional power of a series at a look: the chance that the final
 * test, after FUTURE more rounds, reads a regression, were the change from
 * now on exactly MIN_EFFECT, given these M rounds' log ratios LOGS (their
 * median and their spread, 1.4826 x the median absolute deviation).
 * Normal approximation, made generous (the final test's bar is set at
 * most as high as its own, so the power read is at least its own): the
 * final median must reach both log(1 + MIN_EFFECT) and the one-sided
 * ALPHA quantile of s / sqrt(M + FUTURE). 1 when LOGS is empty. */
double seq_conditional_power(const double *logs, size_t m, size_t future, double min_effect,
			     double alpha);

/* Whether a series of N rounds taken of BUDGET (B's and A's rounds, as
 * seq_within_min_effect's) is settled at a look: at least SEQ_MIN_ROUNDS
 * usable rounds, and either its SEQ_LEVEL interval inside (1 / (1 +
 * MIN_EFFECT), 1 + MIN_EFFECT) (seq_within_min_effect) or its conditional
 * power at the minimum effect, the final test's one-sided level ALPHA,
 * below SEQ_FUTILITY_POWER (stochastic curtailment: the rounds left could
 * not make it a regression; its median may then be beyond the effect).
 * The caller also asks that the final test on the rounds taken would not
 * read it regressed or improved (compare_ab_decided_now), so that a
 * stopped series never fails. False when memory ran out. */
bool seq_settled(const double *b, const double *a, size_t n, size_t budget, double min_effect,
		 double alpha);

/* Whether a series of N rounds taken of BUDGET (as seq_within_min_effect's)
 * is decided beyond doubt at a look: at least SEQ_MIN_ROUNDS usable
 * rounds, its median ratio B/A at least 1 + MIN_EFFECT and its one-sided
 * signed-rank p of B > A below SEQ_EFFICACY_ALPHA over the looks of BUDGET
 * (seq_looks), or its median at most 1 / (1 + MIN_EFFECT) and the p of
 * B < A below that. False when memory ran out or BUDGET has no look. */
bool seq_efficacious(const double *b, const double *a, size_t n, size_t budget,
		     double min_effect);

/* The alpha a confirmation batch's looks spend together to stop as
 * confirmed (seq_confirmed), ten times SEQ_EFFICACY_ALPHA since the batch
 * is the second of two: under no change a fresh batch stops so at most
 * this often (a look's level 0.005 at 10 looks), and it runs only after
 * its first batch read the series regressed (at most alpha +
 * SEQ_EFFICACY_ALPHA of the time under no change), so the looks confirm
 * a series with no change at most 0.055 x 0.05 of the time, beside what
 * the final rule lets through (docs/noise.md, "Stopping early"). */
#define SEQ_CONFIRM_ALPHA 0.05

/* Whether a confirmation batch of a suspected regression (B's and A's
 * rounds, N of BUDGET, as seq_efficacious's) is confirmed beyond doubt at a
 * look: at least SEQ_MIN_ROUNDS usable rounds, its median ratio B/A at
 * least 1 + MIN_EFFECT and its one-sided signed-rank p of B > A below
 * SEQ_CONFIRM_ALPHA over the looks of BUDGET. The batch may stop there;
 * the confirmation itself is still decided by its final rule, on the
 * rounds taken (compare_ab_settle). */
bool seq_confirmed(const double *b, const double *a, size_t n, size_t budget,
		   double min_effect);

#endif

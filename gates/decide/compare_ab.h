/* compare_ab.h: side B of a `gate ab` run against side A, round by round.
 *
 * Round i of A and round i of B ran in the same shuffled round, seconds
 * apart, so the machine's drift hits both: timing is compared on the
 * per-round ratios b_i / a_i (their median, the binomial 95% interval of
 * the median, and the one-sided Wilcoxon signed-rank test of the log
 * ratios, Holm over every timing comparison of the run). A regression is a
 * median ratio >= 1 + minimum effect that is significant after Holm, and is
 * confirmed in a fresh batch of both sides before it fails; an improvement
 * is a median ratio <= 1 / (1 + minimum effect) whose interval lies below
 * 1 and whose one-sided p the other way is significant after Holm too.
 * Exact and near-exact counts are compared as against a baseline
 * (compare.h).
 */
#ifndef GATE_COMPARE_AB_H
#define GATE_COMPARE_AB_H

#include <stdbool.h>
#include <stddef.h>

#include "core/policy.h"
#include "core/result.h"

/* Marks the disturbed samples of B and of A (interference.h) by gate ab's
 * rule: A's and B's samples of a round met the machine's load alike (duet:
 * at the same time; interleaved: in one shuffled order, so a neighbour's
 * burst falls on either side by chance), so only a sample's own wait to
 * run leaves its round out, never the machine's share taken by others.
 * Returns 0 or -ENOMEM. */
int compare_ab_mark_interference(struct run_result *b, struct run_result *a);

/* A declared expectation (a claim) is evaluated on each side alone
 * (expect_eval.h: the per-round values of that side's own variants), and
 * the two verdicts make the decision: holds on both, pass; holds on A and
 * fails on B, fail (the change broke it); fails on A and holds on B,
 * improved; fails on both, fail_both ("fails before and after": false on
 * this machine whatever the change, reported with both estimates, not a
 * failure of the change); inconclusive on either side, inconclusive. */

/* Fewer usable rounds than this and a timing series is not compared. */
#define COMPARE_AB_MIN_PAIRS 5

/* The paired estimate of B / A over N rounds (NaN, zero and negative
 * values skip a round). */
struct ab_paired {
	size_t pairs;               /* rounds used */
	double ratio;               /* median of b_i / a_i */
	double low, high;           /* binomial order-statistic interval, >= 95% */
	double p_greater;           /* signed-rank one-sided p that B > A */
	double p_less;              /* and that B < A */
};

/* Fills OUT from the N rounds of B and A; returns 0, or -1 when fewer than
 * COMPARE_AB_MIN_PAIRS rounds are usable or memory ran out. */
int compare_ab_paired(const double *b, const double *a, size_t n, struct ab_paired *out);

/* Whether gate ab's final test would read the N rounds of B and A (NaN
 * where left out) regressed or improved, on the raw signed-rank p under
 * POL's alpha (the adjustment over the run only raises it): a series the
 * looks stop must not, so that stopping never adds a failure. */
bool compare_ab_decided_now(const double *b, const double *a, size_t n,
			    const struct run_policy *pol);

/* Whether VARIANT of group (KERNEL, PARAMS) (NULL: all its variants) may
 * stop after ROUNDS of its BUDGET rounds from FIRST_ROUND
 * (decide/sequential.h): every timing series of it in B
 * that the final test would decide against A's, over its undisturbed
 * rounds (marked here, as compare_ab_mark_interference would), is settled:
 * decided beyond doubt (seq_efficacious), or not decided now
 * (compare_ab_decided_now) and futile to go on with (seq_settled: its
 * SEQ_LEVEL interval within the minimum effect both ways or its
 * conditional power at the minimum effect below SEQ_FUTILITY_POWER). Series that are
 * never tested (counted, the machine's load, scheduler events, too few
 * events) do not hold it back, nor one with so many rounds disturbed that
 * the rest of the budget is not expected to make them few enough
 * (interference_beyond_reach: it will read inconclusive, never failing). */
bool compare_ab_group_settled(struct run_result *b, struct run_result *a, const char *kernel,
			      const char *params, const char *variant, size_t first_round,
			      size_t rounds, size_t budget, const struct run_policy *pol);

/* compare_ab_group_settled for a confirmation batch (B, A) of the first
 * batch FIRST (its B, decided): only the series FIRST read regressed hold
 * it back, and one of them is settled when confirmed beyond doubt
 * (seq_confirmed) or, as in the first batch, not decided now and futile to
 * go on with. */
bool compare_ab_confirm_settled(struct run_result *b, struct run_result *a,
				const struct run_result *first, const char *kernel,
				const char *params, const char *variant, size_t first_round,
				size_t rounds, size_t budget, const struct run_policy *pol);

/* Compares every series of B with the same series of A and sets B's
 * comparison fields and verdicts (the A median goes to baseline_median).
 * Series of A that B lacks, for a (kernel, params) both ran, become
 * problems of B. */
void compare_ab_run(struct run_result *b, const struct run_result *a,
		    const struct run_policy *pol);

/* Settles the timing regressions of (KERNEL, PARAMS) in B with a
 * confirmation batch B2 / A2: confirmed when that batch's own median ratio
 * is >= 1 + tolerance and both batches pooled still give a ratio >= 1 +
 * tolerance with signed-rank p < alpha; otherwise the verdict becomes
 * inconclusive. Both batches leave out their disturbed rounds as the first
 * comparison does; a confirmation batch with too few undisturbed rounds
 * confirms nothing and says so. */
void compare_ab_settle(struct run_result *b, const struct run_result *a,
		       const struct run_result *b2, const struct run_result *a2,
		       const char *kernel, const char *params, const struct run_policy *pol);

/* The decision on one claim from its verdict on side A and on side B (the
 * table above). A verdict other than pass, fail or inconclusive on B
 * (error, skipped) is B's; on A it leaves B's verdict as it is. */
enum verdict compare_ab_claim(enum verdict a, enum verdict b);

/* Decides every gated expectation of B that A evaluated too (same kernel,
 * params, expression and conditions): records A's figures in its side A,
 * B's own verdict in b_verdict, and the decision in verdict. An
 * expectation only B declares keeps B's verdict. */
void compare_ab_expectations(struct run_result *b, const struct run_result *a);

#endif

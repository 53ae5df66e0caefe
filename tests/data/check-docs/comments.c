/* comments.c: comments that break ci/check-docs.py's rules on purpose
 * (tests/test_docs.c). */
#include "core/policy.h"

/* measured on the 2-core VM at 14:05 UTC on 2026-12-02: a run's figures */
static double floor_ab(void)
{
	/* 3% is the smallest change worth a failure. */
	return POLICY_MIN_EFFECT_AB;
}

/* The family-wise error rate is 10% (POLICY_ALPHA). */
static double alpha(void)
{
	/* 2% is the smallest change worth a failure. */
	return POLICY_MIN_EFFECT_AB + POLICY_ALPHA + floor_ab() * 0;
}

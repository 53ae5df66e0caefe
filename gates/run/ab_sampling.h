/* ab_sampling.h: how `gate ab` takes its samples (sample/duet.h,
 * docs/noise.md "Duet"): duet or interleaved (core/policy.h,
 * POLICY_AB_SAMPLING_DEFAULT). */
#ifndef GATE_AB_SAMPLING_H
#define GATE_AB_SAMPLING_H

#include <stddef.h>

#include "run/ab_plan.h"
#include "core/result.h"
#include "sample/runner.h"

/* Decides the mode for CHOICE, --pin-cpu PIN_CPU (-1: none) and --backend
 * BACKEND (NULL: none) into SC (the result's schedule); for duet allocates
 * *DUET (its CPUs; free it). Writes the comparison's clause into HOW and,
 * where duet was asked and cannot run, one note saying why.
 * Returns 0, or -1 when memory ran out. */
int ab_sampling_choose(enum ab_mode_choice choice, int pin_cpu, const char *backend,
		       struct ab_schedule *sc, struct runner_duet **duet, char *how, size_t size);

/* The figures of duet sampling D into SC (pairs, starts, groups run
 * interleaved), with a note naming those groups. */
void ab_sampling_figures(const struct runner_duet *d, struct ab_schedule *sc);

#endif

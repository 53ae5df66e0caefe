/* ab_sampling.c: gate ab's sampling mode (ab_sampling.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/ab_sampling.h"
#include "core/message.h"
#include "core/policy.h"
#include "decide/stats.h"
#include "sample/duet.h"

int ab_sampling_choose(enum ab_mode_choice choice, int pin_cpu, const char *backend,
		       struct ab_schedule *sc, struct runner_duet **duet, char *how, size_t size)
{
	*duet = NULL;
	sc->mode = AB_MODE_INTERLEAVED;
	enum policy_ab_sampling want = choice == AB_CHOICE_DUET ? POLICY_AB_DUET
				     : choice == AB_CHOICE_INTERLEAVED ? POLICY_AB_INTERLEAVED
				     : POLICY_AB_SAMPLING_DEFAULT;
	const char *rest = "every sample alone, A's and B's in the same shuffled rounds";
	snprintf(how, size, "interleaved: %s", rest);
	if (want == POLICY_AB_INTERLEAVED)
		return 0;
	struct duet_cpus cpus;
	int read = duet_cpus_read(&cpus);
	sc->duet_asked = true;
	if (duet_unavailable(&cpus, read, pin_cpu, backend, sc->why, sizeof sc->why)) {
		message_note("interleaved (not duet): %s", sc->why);
		snprintf(how, size, "interleaved (not duet: %s): %s", sc->why, rest);
		return 0;
	}
	if (!(*duet = calloc(1, sizeof **duet)))
		return -1;
	(*duet)->cpus = cpus;
	sc->mode = AB_MODE_DUET;
	for (size_t i = 0; i < cpus.count && i < AB_SCHEDULE_CPUS; i++)
		sc->cpus[sc->cpu_count++] = cpus.cpu[i];
	snprintf(how, size, "duet: each round's samples of a variant on A and on B started "
		 "together, on CPUs %d and %d, swapped every round", cpus.cpu[0], cpus.cpu[1]);
	return 0;
}

void ab_sampling_figures(const struct runner_duet *d, struct ab_schedule *sc)
{
	if (!d)
		return;
	sc->pairs = d->pairs;
	sc->alone = d->alone;
	sc->interleaved_groups = d->interleaved_count;
	if (d->skew_count) {
		sc->skew_median_us = stats_median(d->skew_ns, d->skew_count) / 1e3;
		sc->skew_max_us = d->skew_max_ns / 1e3;
	}
	if (d->interleaved_count)
		message_note("%zu group%s ran interleaved, not duet: their threads need more than "
			     "half the CPUs (%s)", d->interleaved_count,
			     d->interleaved_count == 1 ? "" : "s", d->interleaved);
}

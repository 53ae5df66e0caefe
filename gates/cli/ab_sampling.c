/* ab_sampling.c: gate ab's sampling mode (ab_sampling.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ab_sampling.h"
#include "core/message.h"
#include "core/policy.h"
#include "decide/stats.h"
#include "sample/duet.h"
#include "sample/machine_load.h"

/* POLICY_AB_AUTO: whether the machine is busy enough for duet, by a look
 * before the run into SC; otherwise SC->why says why not. */
static int busy_enough(struct ab_schedule *sc)
{
	unsigned permille;
	if (machine_load_look(POLICY_AB_AUTO_LOOK_SECONDS, &permille)) {
		snprintf(sc->why, sizeof sc->why, "this OS gives no figure of the machine's load");
		return 0;
	}
	sc->look_permille = permille;
	if (permille >= 1000 * POLICY_AB_AUTO_BUSY_SHARE)
		return 1;
	snprintf(sc->why, sizeof sc->why, "the machine was quiet: others took %.1f%% of it in "
		 "%.1f s before the run, duet from %.0f%%", permille / 10.0,
		 POLICY_AB_AUTO_LOOK_SECONDS, 100 * POLICY_AB_AUTO_BUSY_SHARE);
	return 0;
}

int ab_sampling_choose(enum ab_mode_choice choice, int pin_cpu, const char *backend,
		       struct ab_schedule *sc, struct runner_duet **duet, char *how, size_t size)
{
	*duet = NULL;
	sc->mode = AB_MODE_INTERLEAVED;
	sc->look_permille = NAN;
	enum policy_ab_sampling want = choice == AB_CHOICE_DUET ? POLICY_AB_DUET
				     : choice == AB_CHOICE_INTERLEAVED ? POLICY_AB_INTERLEAVED
				     : choice == AB_CHOICE_AUTO ? POLICY_AB_AUTO
				     : POLICY_AB_SAMPLING_DEFAULT;
	sc->automatic = want == POLICY_AB_AUTO;
	const char *rest = "every sample alone, A's and B's in the same shuffled rounds";
	snprintf(how, size, "interleaved: %s", rest);
	if (want == POLICY_AB_INTERLEAVED)
		return 0;
	struct duet_cpus cpus;
	int read = duet_cpus_read(&cpus);
	if (duet_unavailable(&cpus, read, pin_cpu, backend, sc->why, sizeof sc->why) ||
	    (want == POLICY_AB_AUTO && !busy_enough(sc))) {
		const char *by = sc->automatic ? "automatic, " : "";
		sc->duet_asked = want == POLICY_AB_DUET;
		message_note("interleaved (%snot duet): %s", by, sc->why);
		snprintf(how, size, "interleaved (%snot duet: %s): %s", by, sc->why, rest);
		return 0;
	}
	sc->duet_asked = true;
	if (!(*duet = calloc(1, sizeof **duet)))
		return -1;
	(*duet)->cpus = cpus;
	sc->mode = AB_MODE_DUET;
	for (size_t i = 0; i < cpus.count && i < AB_SCHEDULE_CPUS; i++)
		sc->cpus[sc->cpu_count++] = cpus.cpu[i];
	char busy[120] = "";
	if (sc->automatic)
		snprintf(busy, sizeof busy, " (automatic: others took %.1f%% of the machine "
			 "before the run)", sc->look_permille / 10.0);
	if (sc->automatic)
		message_note("duet%s", busy);
	snprintf(how, size, "duet%s: each round's samples of a variant on A and on B started "
		 "together, on CPUs %d and %d, swapped every round", busy, cpus.cpu[0],
		 cpus.cpu[1]);
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

/* probe_sample.c: one sample: the counters opened once (before the
 * variant, outside any region), the variant run (best_of repetitions
 * folded into one), and only after it returned the record printed. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe_state.h"

/* Folds repetition probe.repetition into the sample and clears it for the
 * next: the first repetition gives every value; later ones can only lower
 * a timing-class value (the sample is the fastest repetition), must repeat
 * an exact kernel metric, and leave near counts (page faults) as the first
 * one, the fresh process, found them. A region or metric that one
 * repetition has and another lacks, or an exact metric that changes, means
 * the variant is not repeatable: a bug of the kernel file (or of the
 * best_of it was given), named like any other. */
static void probe_fold_repetition(void)
{
	unsigned rep = probe.repetition;
	for (size_t i = 0; i < probe.region_count; i++) {
		struct probe_region *r = &probe.regions[i];
		if (r->first_repetition != 0)
			probe_bug("region '%s' entered in repetition %u but not in the first: "
				  "the variant is not repeatable (best_of)", r->name, rep + 1);
		if (rep > 0 && r->totals.entries == 0)
			probe_bug("region '%s' entered in the first repetition but not in "
				  "repetition %u: the variant is not repeatable (best_of)",
				  r->name, rep + 1);
		for (int c = 0; c < COUNTER_COUNT; c++) {
			bool ok = r->totals.fault[c] == COUNTER_OK;
			if (rep == 0 || (counter_class((enum counter_id)c) == GATE_TIMING && ok &&
					 (r->best.fault[c] != COUNTER_OK ||
					  r->totals.value[c] < r->best.value[c]))) {
				r->best.value[c] = r->totals.value[c];
				r->best.fault[c] = r->totals.fault[c];
			}
		}
		if (rep == 0)
			r->best.entries = r->totals.entries;
		memset(&r->totals, 0, sizeof r->totals);
	}
	for (size_t i = 0; i < probe.metric_count; i++) {
		struct probe_metric *m = &probe.metrics[i];
		if (m->first_repetition != 0)
			probe_bug("metric '%s' reported in repetition %u but not in the first: "
				  "the variant is not repeatable (best_of)", m->name, rep + 1);
		if (!m->reported)
			probe_bug("metric '%s' reported in the first repetition but not in "
				  "repetition %u: the variant is not repeatable (best_of)",
				  m->name, rep + 1);
		if (rep > 0 && m->cls == GATE_EXACT && m->value != m->best)
			probe_bug("exact metric '%s' is %" PRIu64 " in repetition %u and %"
				  PRIu64 " in the first: the variant is not repeatable "
				  "(best_of)", m->name, m->value, rep + 1, m->best);
		if (rep == 0 || (m->cls == GATE_TIMING && m->value < m->best))
			m->best = m->value;
		m->value = 0;
		m->reported = false;
	}
	probe.last = NULL;
}

/* probe_state.h */
int probe_run_sample(const struct gate_variant *variant)
{
	/* Syscall tracepoints only in the counted build's pass (exact counts):
	 * closing a tracepoint event costs the process about 40 ms at exit
	 * (seen on Linux 6.18: six of them made every timed sample 250 ms). */
	uint32_t syscalls = COUNTER_BIT(COUNTER_SYS_MMAP) | COUNTER_BIT(COUNTER_SYS_MUNMAP) |
			    COUNTER_BIT(COUNTER_SYS_BRK) | COUNTER_BIT(COUNTER_SYS_MREMAP) |
			    COUNTER_BIT(COUNTER_SYS_MADVISE) | COUNTER_BIT(COUNTER_SYS_FUTEX);
	/* best_of: --best-of, else the parameter set's best_of key, else 1. The
	 * counted build's pass reports the counts of the first run only. */
	unsigned repetitions = probe.best_of ? probe.best_of
			     : (unsigned)gate_param_or(&probe.params, "best_of", 1);
	if (alloc_count_active() || interpose_present())
		repetitions = 1;
	counters_open(alloc_count_active() ? COUNTER_ALL : COUNTER_ALL & ~syscalls);
	for (probe.repetition = 0; probe.repetition < repetitions; probe.repetition++) {
		probe.running = true;
		variant->run(&probe.params);
		probe.running = false;
		if (probe.depth)
			probe_bug("returned with region '%s' still open",
				  probe.stack[probe.depth - 1].region->name);
		probe_fold_repetition();
	}
	if (probe.region_count == 0)
		fprintf(stderr, "%s: variant %s: measured no region (put "
			"gate_region_begin/gate_region_end around the work)\n",
			probe.kernel->name, variant->name);
	probe_print_sample();
	counters_close();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: writing the sample record: %s\n", probe.kernel->name,
			strerror(errno));
		return 1;
	}
	return 0;
}

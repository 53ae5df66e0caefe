/* comparable.h: what of a run can be compared with a baseline, decided
 * once from the two contexts (docs/cost.md, "The cost key").
 *
 * Timing: only on the same hardware: the CPU's name, its identity
 * (vendor, family, model, stepping: core/cpu_identity.h) where both
 * record one, and the core count.
 * Cost: whenever what ran is the same: valgrind, libc and its version,
 * the libc and loader builds, the allocator, the pinned tunables, the key
 * lines of the CPU valgrind presents (core/cost_key.h) and the ifunc
 * variants that ran; whatever the CPU model. A difference outside the key
 * (a CPUID word a host passes through) is a note, and cost is compared.
 * A baseline of an older version, whose cost samples ran in the gate's
 * own environment with lazy binding inside the regions, is not compared
 * (the note says so). */
#ifndef GATE_COMPARABLE_H
#define GATE_COMPARABLE_H

#include <stdbool.h>
#include "core/result.h"

struct comparability {
	bool same_hardware;
	bool cost_comparable;    /* false also when this run took no cost pass */
	bool identity_unknown;   /* the baseline records no CPU identity (older
				  * version): compared by name and cores alone */
	char hardware_why[512];  /* what differs in the hardware ("AMD EPYC family 0x19
				  * model 0x11 -> family 0x1a model 0x02; cores 2 -> 4") */
	char identity_now[256];  /* this machine's, when identity_unknown */
	char cost_why[1024];     /* what in the cost key differs */
	char cost_notes[1024];   /* compared, but: what differs outside the key, or
				  * what the baseline does not record */
	int software_changed;    /* how many software fields differ */
	char software_why[1200]; /* what in the software differs (platform_software_diff) */
};

/* Decides what of CUR can be compared with BASE's contexts into C. */
void comparable_decide(const struct context *base, const struct context *cur,
		       struct comparability *c);

/* The baseline note a person reads above the report, made from C and from
 * whether the baseline lacks allocation sites that this run recorded
 * (SITES_MISSING): one line per fact, or NULL when there is none. */
char *comparable_note(const struct comparability *c, bool sites_missing);

#endif

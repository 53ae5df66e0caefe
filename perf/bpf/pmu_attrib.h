/* pmu_attrib.h: per-call attribution of user-mode hardware counts to an
 * allocator entry point (seed 001: what does malloc cost against free?).
 *
 * The BPF backend reads the user-mode instruction and cycle counters of
 * the current CPU when malloc or free is entered and when it returns
 * (perf/bpf/bpf_alloc.bpf.c); the difference is what that one call cost in
 * user mode, without the uprobe's own kernel-side cost (the counters
 * exclude the kernel). These functions are the whole arithmetic. They are
 * static inline and use plain C types only, so that the BPF program and
 * the unit tests (tests/test_pmu_attrib.c) run the same code.
 */
#ifndef GATE_PMU_ATTRIB_H
#define GATE_PMU_ATTRIB_H

/* Allocator entry points a call can be attributed to. */
enum pmu_fn { PMU_FN_MALLOC, PMU_FN_FREE, PMU_FN_COUNT };

/* Counters read at one instant on one CPU. */
struct pmu_reading {
	unsigned long long instructions, cycles;
	unsigned int cpu;
};

/* What the calls of one entry point cost, summed. */
struct pmu_fn_totals {
	unsigned long long calls;         /* calls attributed */
	unsigned long long instructions;  /* user-mode instructions in them */
	unsigned long long cycles;        /* user-mode cycles in them */
	unsigned long long dropped;       /* calls whose readings could not be used */
};

/* Attributes the call read at ENTRY and at RET to T. A call that moved to
 * another CPU (per-CPU counters are not comparable) or whose counters went
 * backwards is counted as dropped, never attributed. Returns 0, or -1 when
 * dropped. */
static inline int pmu_attrib_call(struct pmu_fn_totals *t, const struct pmu_reading *entry,
				  const struct pmu_reading *ret)
{
	if (entry->cpu != ret->cpu || ret->instructions < entry->instructions ||
	    ret->cycles < entry->cycles) {
		t->dropped++;
		return -1;
	}
	t->calls++;
	t->instructions += ret->instructions - entry->instructions;
	t->cycles += ret->cycles - entry->cycles;
	return 0;
}

/* Adds the totals B (for example another CPU's) into A. */
static inline void pmu_attrib_merge(struct pmu_fn_totals *a, const struct pmu_fn_totals *b)
{
	a->calls += b->calls;
	a->instructions += b->instructions;
	a->cycles += b->cycles;
	a->dropped += b->dropped;
}

/* Mean instructions per attributed call, in hundredths (so that the
 * record stays integral); 0 when no call was attributed. */
static inline unsigned long long pmu_attrib_per_call_x100(unsigned long long total,
							  unsigned long long calls)
{
	return calls ? (total * 100 + calls / 2) / calls : 0;
}

#endif

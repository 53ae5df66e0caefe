/* probe_region.c: measured regions. gate_region_begin/end only read
 * counters into fixed storage: no allocation, no printing, no system call
 * but the reads. Each boundary also marks itself for the BPF backend
 * (gate_region_mark_*) and, under the cost pass, for callgrind
 * (probe_cost_mark). The cost mark is a static function of this file so
 * that the compiler inlines its RUNNING_ON_VALGRIND check into the region
 * boundaries: the probe's own instructions inside a counted interval are
 * few, and the same in every build of the same code. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_cost.h"
#include "probe/probe_state.h"

/* Region markers for the BPF backend (perf/bpf/bpf_alloc.bpf.c attaches
 * uprobes to them by name): called when the outermost region opens and
 * after it closed. Exported, never inlined, and with a body the compiler
 * cannot drop, so the symbol exists in every kernel executable. */
__attribute__((noinline)) void gate_region_mark_begin(void);
__attribute__((noinline)) void gate_region_mark_end(void);

__attribute__((noinline)) void gate_region_mark_begin(void)
{
	__asm__ __volatile__("" : : : "memory");
}

__attribute__((noinline)) void gate_region_mark_end(void)
{
	__asm__ __volatile__("" : : : "memory");
}

#ifdef PROBE_COST
/* Copies NAME into LABEL at N; returns the new length. A byte loop, not
 * strcpy: this runs inside a counted interval, and glibc's vector strcpy
 * takes another number of instructions when the strings lie at other
 * addresses (measured: docs/measurements.md#the-cost-key-what-the-pins-change),
 * which a change of the probe's data layout would move. */
static size_t probe_cost_append(char *label, size_t n, const char *name)
{
	while (*name)
		label[n++] = *name++;
	return n;
}

/* The label of a cost dump: "allocgate" then "/NAME" for each of the
 * first DEPTH open regions, outermost first (the unnamed region's NAME is
 * empty). Fixed storage: no allocation inside a region. */
static const char *probe_cost_label(size_t depth)
{
	static char label[16 + PROBE_MAX_DEPTH * PROBE_NAME_SIZE];
	size_t n = probe_cost_append(label, 0, "allocgate");
	for (size_t i = 0; i < depth; i++) {
		label[n++] = '/';
		n = probe_cost_append(label, n, probe.stack[i].region->name);
	}
	label[n] = '\0';
	return label;
}
#endif

/* The set of open regions changed from the first DEPTH_BEFORE frames of
 * the stack to the first probe.depth: under the cost pass, dump the cost
 * of the interval that ends (if any region was open during it), then start
 * instrumenting when the first region opened, stop when the last closed.
 * START_INSTRUMENTATION also empties the simulated caches, so every
 * outermost region starts cold: deterministic, and documented. */
static void probe_cost_mark(size_t depth_before)
{
#ifdef PROBE_COST
	if (!RUNNING_ON_VALGRIND)
		return;
	if (depth_before > 0)
		CALLGRIND_DUMP_STATS_AT(probe_cost_label(depth_before));
	if (depth_before == 0) {
		CALLGRIND_START_INSTRUMENTATION;
		CALLGRIND_ZERO_STATS;
	} else if (probe.depth == 0) {
		CALLGRIND_STOP_INSTRUMENTATION;
	}
#else
	(void)depth_before;
#endif
}

/* Region NAME ("" for the unnamed one), added on first use. */
static struct probe_region *probe_region_get(const char *name)
{
	for (size_t i = 0; i < probe.region_count; i++) {
		if (strcmp(probe.regions[i].name, name) == 0)
			return &probe.regions[i];
	}
	if (name[0] && !probe_is_identifier(name, false, PROBE_NAME_SIZE))
		probe_bug("bad region name '%s' (expected [A-Za-z0-9_]+, at most %d "
			  "characters)", name, PROBE_NAME_SIZE - 1);
	if (probe.region_count == PROBE_MAX_REGIONS)
		probe_bug("more than %d regions (region '%s')", PROBE_MAX_REGIONS, name);
	struct probe_region *r = &probe.regions[probe.region_count++];
	memset(r, 0, sizeof *r);
	strcpy(r->name, name);
	r->first_repetition = probe.repetition;
	return r;
}

void gate_region_begin(const char *name)
{
	if (!probe.running)
		probe_bug("gate_region_begin() outside a variant run");
	struct probe_region *r = probe_region_get(name ? name : "");
	for (size_t i = 0; i < probe.depth; i++) {
		if (probe.stack[i].region == r)
			probe_bug("region '%s' begun again before it ended", r->name);
	}
	if (probe.depth == PROBE_MAX_DEPTH)
		probe_bug("regions nested deeper than %d", PROBE_MAX_DEPTH);
	struct probe_frame *f = &probe.stack[probe.depth++];
	f->region = r;
	alloc_count_begin(&f->heap_start);
	interpose_read(f->proc_start);
	if (probe.depth == 1) {
		interpose_counting(1);
		gate_region_mark_begin();
	}
	counters_begin(&f->start);
	probe_cost_mark(probe.depth - 1);
}

/* ALLOCGATE_SLOWDOWN_PERCENT=N (0 < N <= 1000): the gate's own detection
 * benchmark (ci/machinebench.py; docs/noise.md, "The reference
 * workload"): every outermost region of every kernel takes N% longer, of
 * wall and CPU time alike, by a busy loop after the region's code and before its end is
 * read. Never under the cost pass, whose counts it must not move. Read
 * once; any other value is no slowdown. */
static double slowdown_fraction(void)
{
	static int read;
	static double fraction;
	if (!read) {
		const char *v = getenv("ALLOCGATE_SLOWDOWN_PERCENT");
		double percent = v ? strtod(v, NULL) : 0;
		fraction = percent > 0 && percent <= 1000 && !probe_cost_pass_running()
			   ? percent / 100 : 0;
		read = 1;
	}
	return fraction;
}

/* Spins for FRACTION of what the region begun at BEGIN had taken at *STOP,
 * then reads *STOP again. */
static void slow_down(const struct counters_snapshot *begin, struct counters_snapshot *stop,
		      double fraction)
{
	uint64_t extra = (uint64_t)((double)(stop->wall_ns - begin->wall_ns) * fraction);
	uint64_t start = counters_now_ns();
	volatile uint64_t h = start;
	while (counters_now_ns() - start < extra)
		for (int i = 0; i < 64; i++)
			h = (h ^ (h >> 29)) * 0xff51afd7ed558ccdull;
	counters_end(stop);
}

void gate_region_end(void)
{
	struct counters_snapshot stop;
	if (probe.depth == 0)
		probe_bug("gate_region_end() without gate_region_begin()");
	probe.depth--;
	probe_cost_mark(probe.depth + 1);
	counters_end(&stop);
	if (probe.depth == 0 && slowdown_fraction() > 0)
		slow_down(&probe.stack[0].start, &stop, slowdown_fraction());
	if (probe.depth == 0) {
		gate_region_mark_end();
		interpose_counting(0);
	}
	struct probe_frame *f = &probe.stack[probe.depth];
	counters_add(&f->region->totals, &f->start, &stop);
	alloc_count_end(&f->heap_start, &f->region->heap);
	if (interpose_present()) {
		uint64_t now[INTERPOSE_IDS];
		interpose_read(now);
		for (int i = 0; i < INTERPOSE_IDS; i++)
			f->region->proc[i] += now[i] - f->proc_start[i];
	}
	probe.last = f->region;
}

/* counters_math.c: deltas, multiplexing scale, overhead and garbage
 * detection of counter readings (see counters_math.h). No OS calls. */
#include <string.h>

#include "counters/counters_math.h"

static const struct {
	const char *name;
	enum gate_metric_class cls;
	const char *unit;
} counter_info[COUNTER_COUNT] = {
	[COUNTER_WALL_NS] = { "wall_ns", GATE_TIMING, "ns" },
	[COUNTER_TASK_CLOCK_NS] = { "task_clock_ns", GATE_TIMING, "ns" },
	[COUNTER_CPU_NS] = { "cpu_ns", GATE_TIMING, "ns" },
	[COUNTER_PAGE_FAULTS] = { "page_faults", GATE_NEAR, "count" },
	[COUNTER_CTX_SWITCHES] = { "ctx_switches", GATE_TIMING, "count" },
	[COUNTER_CPU_MIGRATIONS] = { "cpu_migrations", GATE_TIMING, "count" },
	[COUNTER_CYCLES] = { "cycles", GATE_TIMING, "count" },
	[COUNTER_INSTRUCTIONS] = { "instructions", GATE_NEAR, "count" },
	[COUNTER_CACHE_MISSES] = { "cache_misses", GATE_TIMING, "count" },
	[COUNTER_BRANCH_MISSES] = { "branch_misses", GATE_TIMING, "count" },
	[COUNTER_MINOR_FAULTS] = { "minor_faults", GATE_NEAR, "count" },
	[COUNTER_MAJOR_FAULTS] = { "major_faults", GATE_NEAR, "count" },
	/* what the allocator asks of the kernel: nearly exact for a given
	 * allocator; futex depends on contention, so it is timing-class */
	[COUNTER_SYS_MMAP] = { "sys_mmap", GATE_NEAR, "count" },
	[COUNTER_SYS_MUNMAP] = { "sys_munmap", GATE_NEAR, "count" },
	[COUNTER_SYS_BRK] = { "sys_brk", GATE_NEAR, "count" },
	[COUNTER_SYS_MREMAP] = { "sys_mremap", GATE_NEAR, "count" },
	[COUNTER_SYS_MADVISE] = { "sys_madvise", GATE_NEAR, "count" },
	[COUNTER_SYS_FUTEX] = { "sys_futex", GATE_TIMING, "count" },
	/* what other tasks took from the region: the gate decides with it
	 * whether a timing sample was disturbed (gates/decide/interference.h) */
	[COUNTER_SCHED_WAIT_NS] = { "sched_wait_ns", GATE_TIMING, "ns" },
};

/* Overhead not measured yet; never a real minimum of an empty region. */
#define OVERHEAD_UNKNOWN UINT64_MAX

const char *counter_name(enum counter_id id)
{
	return counter_info[id].name;
}

enum gate_metric_class counter_class(enum counter_id id)
{
	return counter_info[id].cls;
}

const char *counter_unit(enum counter_id id)
{
	return counter_info[id].unit;
}

int counter_lookup(const char *name, enum counter_id *id)
{
	for (int i = 0; i < COUNTER_COUNT; i++) {
		if (strcmp(counter_info[i].name, name) == 0) {
			*id = (enum counter_id)i;
			return 0;
		}
	}
	return -1;
}

const char *counter_fault_reason(enum counter_fault fault)
{
	switch (fault) {
	case COUNTER_OK:
		return "ok";
	case COUNTER_BACKWARDS:
		return "garbage reading: the counter went backwards during the region";
	case COUNTER_TIME_BACKWARDS:
		return "garbage reading: time_enabled or time_running went backwards";
	case COUNTER_NOT_RUNNING:
		return "never counted during the region (time_running 0: the PMU could "
		       "not schedule the event group)";
	case COUNTER_TOO_LARGE:
		return "garbage reading: the scaled value does not fit in 64 bits";
	case COUNTER_READ_FAILED:
		return "reading the counter failed during the region";
	}
	return "unknown fault";
}

enum counter_fault counter_scale(uint64_t value, uint64_t enabled_ns,
				 uint64_t running_ns, uint64_t *out)
{
	if (running_ns == 0)
		return COUNTER_NOT_RUNNING;
	if (running_ns >= enabled_ns || value == 0) {
		*out = value;
		return COUNTER_OK;
	}
	/* long double keeps all 64 bits of VALUE on x86; elsewhere it is a
	 * double, exact to 2^53, far beyond what a region counts. */
	long double scaled = (long double)value * (long double)enabled_ns /
			     (long double)running_ns + 0.5L;
	if (scaled >= 18446744073709551616.0L) /* 2^64 */
		return COUNTER_TOO_LARGE;
	*out = (uint64_t)scaled; /* truncation of a positive value: floor */
	return COUNTER_OK;
}

enum counter_fault counter_delta(const struct counter_raw *begin,
				 const struct counter_raw *end, bool scaled,
				 uint64_t *out)
{
	if (end->value < begin->value)
		return COUNTER_BACKWARDS;
	uint64_t value = end->value - begin->value;
	if (!scaled) {
		*out = value;
		return COUNTER_OK;
	}
	if (end->enabled_ns < begin->enabled_ns ||
	    end->running_ns < begin->running_ns)
		return COUNTER_TIME_BACKWARDS;
	return counter_scale(value, end->enabled_ns - begin->enabled_ns,
			     end->running_ns - begin->running_ns, out);
}

uint64_t counter_subtract_overhead(uint64_t value, uint64_t overhead)
{
	return value > overhead ? value - overhead : 0;
}

void counter_setup_init(struct counter_setup *setup, uint32_t open,
			uint32_t scaled)
{
	setup->open = open & COUNTER_ALL;
	setup->scaled = scaled & setup->open;
	for (int i = 0; i < COUNTER_COUNT; i++)
		setup->overhead[i] = OVERHEAD_UNKNOWN;
}

void counter_setup_overhead(struct counter_setup *setup,
			    const struct counter_raw *begin,
			    const struct counter_raw *end, uint32_t failed)
{
	for (int i = 0; i < COUNTER_COUNT; i++) {
		uint64_t delta;
		if (!(setup->open & COUNTER_BIT(i)) || (failed & COUNTER_BIT(i)))
			continue;
		if (counter_delta(&begin[i], &end[i],
				  setup->scaled & COUNTER_BIT(i), &delta) != COUNTER_OK)
			continue;
		if (delta < setup->overhead[i])
			setup->overhead[i] = delta;
	}
}

void counter_setup_finish(struct counter_setup *setup)
{
	for (int i = 0; i < COUNTER_COUNT; i++) {
		if (setup->overhead[i] == OVERHEAD_UNKNOWN)
			setup->overhead[i] = 0;
	}
}

void counter_totals_add(struct counter_totals *totals,
			const struct counter_setup *setup,
			const struct counter_raw *begin,
			const struct counter_raw *end, uint32_t failed)
{
	totals->entries++;
	for (int i = 0; i < COUNTER_COUNT; i++) {
		uint64_t delta = 0;
		enum counter_fault fault = COUNTER_READ_FAILED;
		if (!(setup->open & COUNTER_BIT(i)) || totals->fault[i] != COUNTER_OK)
			continue;
		if (!(failed & COUNTER_BIT(i)))
			fault = counter_delta(&begin[i], &end[i],
					      setup->scaled & COUNTER_BIT(i), &delta);
		if (fault == COUNTER_OK) {
			uint64_t overhead = setup->overhead[i];
			if (overhead == OVERHEAD_UNKNOWN)
				overhead = 0;
			delta = counter_subtract_overhead(delta, overhead);
			if (totals->value[i] > UINT64_MAX - delta)
				fault = COUNTER_TOO_LARGE;
		}
		if (fault != COUNTER_OK)
			totals->fault[i] = fault;
		else
			totals->value[i] += delta;
	}
}

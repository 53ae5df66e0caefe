/* probe_params.c: what a variant asks of the probe while it runs: its
 * parameters (gate_param, gate_param_or, gate_param_size), the seed, the
 * threads and cores, and gate_consume. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe_state.h"

long long gate_param(const struct gate_params *params, const char *key)
{
	long long value;
	if (params_find(params, key, &value) < 0)
		probe_bug("parameter set %s has no key '%s' (add it to the set or use "
			  "gate_param_or)", params->name, key);
	return value;
}

long long gate_param_or(const struct gate_params *params, const char *key,
			long long default_value)
{
	long long value;
	return params_find(params, key, &value) == 0 ? value : default_value;
}

size_t gate_param_size(const struct gate_params *params, const char *key, size_t min,
		       size_t max)
{
	long long value = gate_param(params, key);
	if (value < 0 || (unsigned long long)value < min || (unsigned long long)value > max)
		probe_bug("parameter set %s: %s=%lld is out of range (expected %zu to %zu)",
			  params->name, key, value, min, max);
	return (size_t)value;
}

const char *gate_params_name(const struct gate_params *params)
{
	return params->name;
}

uint64_t gate_seed(void)
{
	return probe.seed;
}

int gate_threads(int default_value)
{
	return probe.threads > 0 ? probe.threads : default_value;
}

int gate_cpu_count(void)
{
	/* reported as the metric cpu_count: the sample's counts follow the
	 * machine, and the gate compares them only on the same core count */
	probe.cpu_count_used = counters_cpu_count();
	return probe.cpu_count_used;
}

void probe_threads_used(int threads)
{
	if (threads > probe.threads_used)
		probe.threads_used = threads;
}

/* gate_consume: the call is opaque to the kernel's translation unit (the
 * probe is a separate object), so what P points to must exist; the empty
 * asm with a memory clobber tells the compiler here that P escapes. No
 * store: a shared global written from every thread would bounce a cache
 * line between cores and skew threaded kernels (and is a data race). */
void gate_consume(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
	__asm__ __volatile__("" : : "r"(p) : "memory");
#else
	static _Thread_local const void *volatile sink;
	sink = p;
#endif
}

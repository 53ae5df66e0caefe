/* probe_metric.c: the kernel's own metrics (gate_metric), checked and
 * added to the sample's. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "probe/probe_state.h"

/* The region a metric reported now belongs to: the innermost open region,
 * else the one that ended last; NULL when that is the unnamed region or
 * there is none. */
static const struct probe_region *probe_metric_region(void)
{
	const struct probe_region *r =
		probe.depth ? probe.stack[probe.depth - 1].region : probe.last;
	return r && r->name[0] ? r : NULL;
}

static void probe_metric_check(const char *name, const char *unit,
			       enum gate_metric_class cls)
{
	enum counter_id id;
	if (!name || !probe_is_identifier(name, false, PROBE_NAME_SIZE))
		probe_bug("gate_metric: bad name '%s' (expected [A-Za-z0-9_]+, at most "
			  "%d characters)", name ? name : "(null)", PROBE_NAME_SIZE - 1);
	if (counter_lookup(name, &id) == 0 || !strcmp(name, "cpu_count") ||
	    !strcmp(name, "threads"))
		probe_bug("gate_metric: '%s' is a %s the probe reports itself", name,
			  counter_lookup(name, &id) == 0 ? "counter"
			  : name[0] == 'c' ? "metric (gate_cpu_count)"
					   : "metric (gate_parallel_region)");
	if (!unit || !probe_is_identifier(unit, false, PROBE_UNIT_SIZE))
		probe_bug("gate_metric %s: bad unit '%s' (expected [A-Za-z0-9_]+, e.g. "
			  "count, bytes)", name, unit ? unit : "(null)");
	if ((unsigned)cls > GATE_TIMING)
		probe_bug("gate_metric %s: bad class %d", name, (int)cls);
}

void gate_metric(const char *name, const char *unit,
		 enum gate_metric_class cls, uint64_t value)
{
	probe_metric_check(name, unit, cls);
	const struct probe_region *r = probe_metric_region();
	struct probe_metric *m = NULL;
	for (size_t i = 0; i < probe.metric_count && !m; i++) {
		if (probe.metrics[i].region == r && strcmp(probe.metrics[i].name, name) == 0)
			m = &probe.metrics[i];
	}
	if (!m) {
		if (probe.metric_count == PROBE_MAX_METRICS)
			probe_bug("more than %d metrics (metric '%s')", PROBE_MAX_METRICS, name);
		m = &probe.metrics[probe.metric_count++];
		*m = (struct probe_metric){ .region = r, .cls = cls,
					    .first_repetition = probe.repetition };
		strcpy(m->name, name);
		strcpy(m->unit, unit);
	} else if (m->cls != cls || strcmp(m->unit, unit) != 0) {
		probe_bug("gate_metric %s: reported with class %s unit %s, earlier %s %s",
			  name, probe_class_names[cls], unit, probe_class_names[m->cls], m->unit);
	}
	m->value = value > UINT64_MAX - m->value ? UINT64_MAX : m->value + value;
	m->reported = true;
}

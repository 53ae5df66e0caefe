/* cost_regions.c: a cost sample's dumps summed per region, and the
 * region's metrics (cost_regions.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/cost_regions.h"

/* What cost_label_regions passes to add_to_region. */
struct adding {
	struct cost_regions *rs;
	const struct cost_dump *dump;
};

static void add_to_region(const char *name, void *arg)
{
	struct adding *a = arg;
	struct cost_regions *rs = a->rs;
	struct cost_region *r = NULL;
	for (size_t i = 0; i < rs->n && !r; i++)
		if (!strcmp(rs->r[i].name, name))
			r = &rs->r[i];
	if (!r && rs->n == COST_MAX_REGIONS) {
		rs->overflow = 1;
		return;
	}
	if (!r) {
		r = &rs->r[rs->n++];
		memset(r, 0, sizeof *r);
		snprintf(r->name, sizeof r->name, "%s", name);
	}
	for (int e = 0; e < COST_EVENTS; e++)
		r->sum.events[e] += a->dump->events[e];
	for (int e = 0; e < COST_ENTRIES; e++) {
		r->sum.calls[e] += a->dump->calls[e];
		r->sum.entry_ir[e] += a->dump->entry_ir[e];
	}
}

int cost_regions_add_dump(struct cost_regions *rs, const char *text, char **ifuncs, char *err,
			  size_t err_size)
{
	struct cost_dump d;
	int ret = cost_parse_dump(text, &d, err, err_size);
	ret = ret ? ret : cost_dump_ifuncs(text, ifuncs);
	if (!ret && cost_label_has(d.label, "") >= 0) {
		struct adding a = { rs, &d };
		cost_label_regions(d.label, add_to_region, &a);
		rs->dumps++;
	}
	return ret;
}

static int add_metric(struct record *rec, const char *region, const char *name,
		      const char *unit, uint64_t value)
{
	char full[256];
	struct record_metric *m = realloc(rec->metrics, (rec->metric_count + 1) * sizeof *m);
	if (!m)
		return -ENOMEM;
	rec->metrics = m;
	snprintf(full, sizeof full, "%s%s%s", region, *region ? "." : "", name);
	m += rec->metric_count;
	*m = (struct record_metric){ strdup(full), strdup(unit), METRIC_EXACT, value };
	if (!m->name || !m->unit) {
		free(m->name);
		free(m->unit);
		return -ENOMEM;
	}
	rec->metric_count++;
	return 0;
}

/* The metrics of one region into REC. */
static int region_metrics(struct record *rec, const struct cost_region *r)
{
	const uint64_t *e = r->sum.events;
	char name[64];
	int ret = add_metric(rec, r->name, "cost_instructions", "instructions", e[COST_IR]);
	ret = ret ? ret : add_metric(rec, r->name, "cost_l1_misses", "count",
				     e[COST_I1MR] + e[COST_D1MR] + e[COST_D1MW]);
	ret = ret ? ret : add_metric(rec, r->name, "cost_ll_misses", "count",
				     e[COST_ILMR] + e[COST_DLMR] + e[COST_DLMW]);
	ret = ret ? ret : add_metric(rec, r->name, "cost_est_cycles", "cycles",
				     cost_estimated_cycles(e));
	for (int i = 0; !ret && i < COST_ENTRIES; i++) {
		snprintf(name, sizeof name, "cost_%s_calls", cost_entry_name((enum cost_entry)i));
		ret = add_metric(rec, r->name, name, "count", r->sum.calls[i]);
		snprintf(name, sizeof name, "cost_%s_instructions",
			 cost_entry_name((enum cost_entry)i));
		ret = ret ? ret : add_metric(rec, r->name, name, "instructions",
					     r->sum.entry_ir[i]);
	}
	return ret;
}

int cost_regions_metrics(const struct cost_regions *rs, const char *kernel, struct record *rec,
			 char *err, size_t err_size)
{
	int ret = 0;
	if (rs->overflow) {
		snprintf(err, err_size, "more than %d regions", COST_MAX_REGIONS);
		return -EINVAL;
	}
	if (!rs->dumps) {
		snprintf(err, err_size, "%s was built without the cost markers (no region was "
			 "dumped; rebuild it with <valgrind/callgrind.h> installed)", kernel);
		return -ENODATA;
	}
	for (size_t i = 0; !ret && i < rs->n; i++)
		ret = region_metrics(rec, &rs->r[i]);
	return ret;
}

/* probe_record.c: the sample record (docs/protocol.md). It lists, region
 * by region in the order first entered, every open counter ("metric
 * [REGION.]NAME ..."), or "unavailable [REGION.]NAME REASON" when that
 * region's reading was garbage (see counter_fault_reason); then the
 * kernel's own metrics (gate_metric); then the allocation sites; then
 * once per counter this machine cannot give, without a region prefix,
 * "unavailable NAME REASON" (no PMU, not permitted, ...). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "counting/alloc_sites.h"
#include "probe/probe_state.h"

static void probe_print_region(const struct probe_region *r)
{
	const char *dot = r->name[0] ? "." : "";
	for (int i = 0; i < COUNTER_COUNT; i++) {
		enum counter_id id = (enum counter_id)i;
		if (!counters_has(id))
			continue;
		if (r->best.fault[id] != COUNTER_OK)
			printf("unavailable %s%s%s %s\n", r->name, dot, counter_name(id),
			       counter_fault_reason(r->best.fault[id]));
		else
			printf("metric %s%s%s %s %s %" PRIu64 "\n", r->name, dot,
			       counter_name(id), probe_class_names[counter_class(id)],
			       counter_unit(id), r->best.value[id]);
	}
	for (int i = 0; alloc_count_active() && i < ALLOC_COUNT_IDS; i++)
		printf("metric %s%s%s %s %s %" PRIu64 "\n", r->name, dot,
		       alloc_count_name((enum alloc_count_id)i),
		       alloc_count_class((enum alloc_count_id)i),
		       alloc_count_unit((enum alloc_count_id)i), r->heap.value[i]);
	/* every allocation call of the process, libraries included; the live
	 * totals are the region's net change, negative when it freed blocks
	 * made before it: reported as 0 then */
	for (int i = 0; interpose_present() && i < INTERPOSE_IDS; i++) {
		enum interpose_id id = (enum interpose_id)i;
		uint64_t v = r->proc[i];
		if (interpose_is_level(id) && interpose_live_off())
			continue;
		if (interpose_is_level(id))
			v = (int64_t)v > 0 ? v : 0;
		printf("metric %s%s%s exact %s %" PRIu64 "\n", r->name, dot, interpose_name(id),
		       interpose_unit(id), v);
	}
}

/* One `site` record (docs/protocol.md, "Allocation sites"): the file is
 * the last field, so it may hold spaces; never a line break. */
static void probe_print_site(const struct alloc_site_view *v, void *arg)
{
	(void)arg;
	if (strpbrk(v->file, "\r\n") || strpbrk(v->function, " \t\r\n"))
		return;
	printf("site %s %d %" PRIu64 " %" PRIu64 " %s %s\n", v->kind, v->line, v->calls, v->bytes,
	       v->function, v->file);
}

/* With the interposer: the calls made inside the regions by each shared
 * library (no source line: docs/protocol.md, `lib-site`). */
static void probe_print_library_sites(void)
{
	static const char *const kinds[INTERPOSE_IDS] = {
		[INTERPOSE_MALLOC] = "malloc", [INTERPOSE_CALLOC] = "calloc",
		[INTERPOSE_REALLOC] = "realloc", [INTERPOSE_FREE] = "free",
		[INTERPOSE_ALIGNED] = "aligned_alloc",
	};
	struct interpose_library libs[INTERPOSE_LIBRARIES];
	uint64_t unattributed;
	size_t n = interpose_libraries(libs, INTERPOSE_LIBRARIES, &unattributed);
	for (size_t i = 0; i < n; i++) {
		if (strpbrk(libs[i].name, "\r\n"))
			continue;
		for (int k = 0; k < INTERPOSE_IDS; k++)
			if (kinds[k] && libs[i].calls[k])
				printf("lib-site %s %" PRIu64 " %" PRIu64 " %s\n", kinds[k],
				       libs[i].calls[k], libs[i].bytes[k], libs[i].name);
	}
	if (unattributed)
		printf("sites-dropped %" PRIu64 "\n", unattributed);
}

/* probe_state.h */
void probe_print_sample(void)
{
	printf("allocgate-sample 1\n");
	for (size_t i = 0; i < probe.region_count; i++)
		probe_print_region(&probe.regions[i]);
	for (size_t i = 0; i < probe.metric_count; i++) {
		const struct probe_metric *m = &probe.metrics[i];
		printf("metric %s%s%s %s %s %" PRIu64 "\n", m->region ? m->region->name : "",
		       m->region ? "." : "", m->name, probe_class_names[m->cls], m->unit,
		       m->best);
	}
	if (probe.cpu_count_used)
		printf("metric cpu_count exact count %d\n", probe.cpu_count_used);
	/* a threaded sample says so: its cost counts move with the threads'
	 * interleaving, and the gate allows for it (gates/decide/compare.c) */
	if (probe.threads_used)
		printf("metric threads exact count %d\n", probe.threads_used);
	/* a counted build: each call site of its sources inside the regions */
	if (alloc_count_active()) {
		alloc_sites_each(probe_print_site, NULL);
		if (alloc_sites_dropped())
			printf("sites-dropped %" PRIu64 "\n", alloc_sites_dropped());
	}
	probe_print_library_sites();
	/* once per counter, not per region: the machine cannot give it */
	for (int i = 0; i < COUNTER_COUNT; i++) {
		const char *why = counters_unavailable((enum counter_id)i);
		if (why)
			printf("unavailable %s %s\n", counter_name((enum counter_id)i), why);
	}
	const char *live_off = interpose_live_off();
	if (live_off && !strpbrk(live_off, "\r\n")) {
		printf("unavailable %s %s\n", interpose_name(INTERPOSE_LIVE_BYTES), live_off);
		printf("unavailable %s %s\n", interpose_name(INTERPOSE_LIVE_BLOCKS), live_off);
	}
	printf("end\n");
}

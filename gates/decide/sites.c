/* sites.c: allocation site verdicts (sites.h). */
#include <errno.h>
#include <string.h>

#include "decide/sites.h"
#include "core/metric_name.h"

static int counted(const struct run_result *r, const char *kernel, const char *variant,
		   const char *params)
{
	return result_find_series(r, kernel, variant, params, "heap_calls") != NULL;
}

static const struct site *find(const struct run_result *r, const struct site *s)
{
	for (size_t i = 0; i < r->site_count; i++) {
		const struct site *o = &r->sites[i];
		if (o->line == s->line && !strcmp(o->file, s->file) && !strcmp(o->kind, s->kind) &&
		    !strcmp(o->function, s->function) && !strcmp(o->kernel, s->kernel) &&
		    !strcmp(o->variant, s->variant) && !strcmp(o->params, s->params))
			return o;
	}
	return NULL;
}

/* A site of the other side at another line of the same file and function,
 * of the same kind and counts, that the exact match left alone: the same
 * call moved by lines added or removed above it, not a change. */
static const struct site *moved(const struct run_result *other, const struct run_result *self,
				const struct site *s)
{
	for (size_t i = 0; i < other->site_count; i++) {
		const struct site *o = &other->sites[i];
		if (o->line != s->line && o->calls == s->calls && o->bytes == s->bytes &&
		    !strcmp(o->file, s->file) && !strcmp(o->kind, s->kind) &&
		    !strcmp(o->function, s->function) && !strcmp(o->kernel, s->kernel) &&
		    !strcmp(o->variant, s->variant) && !strcmp(o->params, s->params) &&
		    !find(self, o))
			return o;
	}
	return NULL;
}

/* Whether R has sites of the cost pass for S's (kernel, variant, params). */
static int has_cost_sites(const struct run_result *r, const struct site *s)
{
	for (size_t i = 0; i < r->site_count; i++) {
		const struct site *o = &r->sites[i];
		if (o->cost && !strcmp(o->kernel, s->kernel) && !strcmp(o->variant, s->variant) &&
		    !strcmp(o->params, s->params))
			return 1;
	}
	return 0;
}

/* Whether S can be compared: its variant's counted pass ran on both sides
 * and, for a site of the cost pass, its cost pass did too (a baseline
 * taken with --no-cost, or before the cost pass named sites, has none:
 * not every call is new). */
static int both_counted(const struct run_result *r, const struct run_result *before,
			const struct site *s)
{
	return counted(r, s->kernel, s->variant, s->params) &&
	       counted(before, s->kernel, s->variant, s->params) &&
	       (!s->cost || (has_cost_sites(r, s) && has_cost_sites(before, s)));
}

int sites_compare(struct run_result *r, const struct run_result *before)
{
	if (!r->sites_recorded || !before->sites_recorded)
		return 0;
	for (size_t i = 0; i < r->site_count; i++) {
		const struct site *now = &r->sites[i], *was = find(before, now);
		if (!both_counted(r, before, now) ||
		    (was && was->calls == now->calls && was->bytes == now->bytes) ||
		    (!was && moved(before, r, now)))
			continue;
		struct site_change *c = result_add_site_change(r, now);
		if (!c)
			return -ENOMEM;
		c->after = true;
		c->calls_after = now->calls;
		c->bytes_after = now->bytes;
		if (was) {
			c->before = true;
			c->calls_before = was->calls;
			c->bytes_before = was->bytes;
		}
	}
	for (size_t i = 0; i < before->site_count; i++) {
		const struct site *was = &before->sites[i];
		if (find(r, was) || !both_counted(r, before, was) || moved(r, before, was))
			continue;
		struct site_change *c = result_add_site_change(r, was);
		if (!c)
			return -ENOMEM;
		c->before = true;
		c->calls_before = was->calls;
		c->bytes_before = was->bytes;
	}
	result_sites_sort(r);
	return 0;
}

/* Whether NAME is a cost pass's count of allocator calls,
 * "[REGION.]cost_E_calls" (sample/cost_dump.h): the calls the cost pass's
 * sites explain. */
static int cost_calls(const char *name)
{
	size_t len = strlen(name);
	return metric_is_cost(name) && len > 6 && !strcmp(name + len - 6, "_calls");
}

int sites_explain_failure(const struct run_result *r, const char *kernel, const char *variant,
			  const char *params)
{
	for (size_t i = 0; i < r->series_count; i++) {
		const struct series *s = &r->series[i];
		if (s->verdict == VERDICT_FAIL && s->gated &&
		    (result_metric_is_allocation_count(s->metric) || cost_calls(s->metric)) &&
		    !strcmp(s->kernel, kernel) && !strcmp(s->variant, variant) &&
		    !strcmp(s->params, params))
			return 1;
	}
	return 0;
}

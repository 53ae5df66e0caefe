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

/* C's wrappers: WAS's (or none) before, NOW's (or none) after. 0 or -ENOMEM. */
static int set_via(struct site_change *c, const struct site *was, const struct site *now)
{
	if (was && was->via && !(c->via_before = strdup(was->via)))
		return -ENOMEM;
	if (now && now->via && !(c->via_after = strdup(now->via)))
		return -ENOMEM;
	return 0;
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
		if (set_via(c, was, now))
			return -ENOMEM;
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
		if (set_via(c, was, NULL))
			return -ENOMEM;
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

static const char *const kind_names[SITES_KINDS] = {
	"malloc", "calloc", "realloc", "free", "strdup", "strndup", "aligned_alloc",
	"posix_memalign",
};

const char *sites_kind_name(int k)
{
	return k >= 0 && k < SITES_KINDS ? kind_names[k] : "?";
}

static int kind_index(const char *kind)
{
	for (int k = 0; k < SITES_KINDS; k++)
		if (!strcmp(kind_names[k], kind))
			return k;
	return -1;
}

static int in_group(const struct site_change *c, const char *kernel, const char *variant,
		    const char *params)
{
	return !strcmp(c->kernel, kernel) && !strcmp(c->variant, variant) &&
	       !strcmp(c->params, params);
}

/* Whether change C belongs to the place SH ends with (LAST: its last
 * change): the same file, and the same function or lines close by. */
static int same_place(const struct site_change *last, const struct site_change *c)
{
	return last && !strcmp(last->file, c->file) && (last->line > 0) == (c->line > 0) &&
	       (!strcmp(last->function, c->function) || c->line - last->line <= SITES_SHIFT_SPAN);
}

/* Adds change C to SH: its calls by kind, its line, function and wrappers. */
static void shift_add(struct site_shift *sh, const struct site_change *c)
{
	int k = kind_index(c->kind);
	if (k < 0)
		return;
	sh->before[k] += c->before ? c->calls_before : 0;
	sh->after[k] += c->after ? c->calls_after : 0;
	/* B's first line names the place; A's where B has none */
	if (c->after ? !sh->named_by_b || c->line < sh->line
		     : !sh->named_by_b && (!sh->function || c->line < sh->line)) {
		sh->line = c->line;
		sh->function = c->function;
		sh->named_by_b = c->after;
	}
	if (c->via_before && !sh->via_before)
		sh->via_before = c->via_before;
	if (c->via_after && !sh->via_after)
		sh->via_after = c->via_after;
}

bool sites_first_of_group(const struct run_result *r, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (in_group(&r->site_changes[j], r->site_changes[i].kernel,
			     r->site_changes[i].variant, r->site_changes[i].params))
			return false;
	return true;
}

size_t sites_shifts(const struct run_result *r, const char *kernel, const char *variant,
		    const char *params, struct site_shift *out, size_t max)
{
	size_t n = 0;
	int lines = 0;
	const struct site_change *last = NULL;
	for (size_t i = 0; i < r->site_change_count; i++)
		lines |= in_group(&r->site_changes[i], kernel, variant, params) &&
			 r->site_changes[i].line > 0;
	for (size_t i = 0; i < r->site_change_count; i++) {
		const struct site_change *c = &r->site_changes[i];
		if (!in_group(c, kernel, variant, params) || (lines && c->line <= 0))
			continue;
		if (!same_place(last, c)) {
			if (n == max)
				break;
			memset(&out[n], 0, sizeof out[n]);
			out[n].file = c->file;
			n++;
		}
		shift_add(&out[n - 1], c);
		last = c;
	}
	return n;
}

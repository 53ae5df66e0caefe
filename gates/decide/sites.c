/* sites.c: allocation site verdicts (sites.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "decide/sites.h"
#include "core/group_key.h"
#include "core/metric_name.h"

static int counted(const struct run_result *r, const char *kernel, const char *variant,
		   const char *params)
{
	return result_find_series(r, kernel, variant, params, "heap_calls") != NULL;
}

/* One side's sites as compared: its result's, a wrapper unfolded where the
 * other side found it no wrapper (unfold_wrappers). */
struct side {
	const struct run_result *r;
	struct site *sites;
	size_t count;
	char **owned;          /* the names unfolding made, freed with the side */
	size_t owned_count;
};

/* Whether sites A and B are of one (kernel, variant, params). */
static bool same_variant(const struct site *a, const struct site *b)
{
	return group_key_same(GROUP_KEY(a), GROUP_KEY(b), GROUP_SCOPE_VARIANT);
}

static const struct site *find(const struct side *x, const struct site *s)
{
	for (size_t i = 0; i < x->count; i++) {
		const struct site *o = &x->sites[i];
		if (o->line == s->line && !strcmp(o->file, s->file) && !strcmp(o->kind, s->kind) &&
		    !strcmp(o->function, s->function) && same_variant(o, s))
			return o;
	}
	return NULL;
}

/* A site of the other side at another line of the same file and function,
 * of the same kind and counts, that the exact match left alone: the same
 * call moved by lines added or removed above it, not a change. */
static const struct site *moved(const struct side *other, const struct side *self,
				const struct site *s)
{
	for (size_t i = 0; i < other->count; i++) {
		const struct site *o = &other->sites[i];
		if (o->line != s->line && o->calls == s->calls && o->bytes == s->bytes &&
		    !strcmp(o->file, s->file) && !strcmp(o->kind, s->kind) &&
		    !strcmp(o->function, s->function) && same_variant(o, s) && !find(self, o))
			return o;
	}
	return NULL;
}

/* Whether X has sites of the cost pass for S's (kernel, variant, params). */
static int has_cost_sites(const struct side *x, const struct site *s)
{
	for (size_t i = 0; i < x->count; i++)
		if (x->sites[i].cost && same_variant(&x->sites[i], s))
			return 1;
	return 0;
}

/* Whether S can be compared: its variant's counted pass ran on both sides
 * and, for a site of the cost pass, its cost pass did too (a baseline
 * taken with --no-cost, or before the cost pass named sites, has none:
 * not every call is new). */
static int both_counted(const struct side *now, const struct side *before, const struct site *s)
{
	return counted(now->r, s->kernel, s->variant, s->params) &&
	       counted(before->r, s->kernel, s->variant, s->params) &&
	       (!s->cost || (has_cost_sites(now, s) && has_cost_sites(before, s)));
}

/* Splits a site's wrapper VIA, "FILE:LINE FUNCTION", into its parts (FILE
 * and FUNCTION newly allocated, NULL on no memory) at its first ":LINE ";
 * -1 when VIA is not of that form. */
static int via_parts(const char *via, char **file, int *line, char **function)
{
	for (const char *colon = strchr(via, ':'); colon; colon = strchr(colon + 1, ':')) {
		char *end;
		if (colon == via || colon[1] < '0' || colon[1] > '9')
			continue;
		long n = strtol(colon + 1, &end, 10);
		if (*end != ' ' || !end[1] || n <= 0 || n > INT_MAX)
			continue;
		*line = (int)n;
		*function = strdup(end + 1);
		if ((*file = malloc((size_t)(colon - via) + 1))) {
			memcpy(*file, via, (size_t)(colon - via));
			(*file)[colon - via] = '\0';
		}
		return 0;
	}
	return -1;
}

/* Whether OTHER has a site of the cost pass in S's group made inside
 * FUNCTION of FILE: there, FUNCTION is no wrapper. */
static int makes_calls(const struct side *other, const struct site *s, const char *file,
		       const char *function)
{
	for (size_t i = 0; i < other->count; i++) {
		const struct site *o = &other->sites[i];
		if (o->cost && !strcmp(o->function, function) && !strcmp(o->file, file) &&
		    same_variant(o, s))
			return 1;
	}
	return 0;
}

/* Keeps NAME (freed with X). 0 or -ENOMEM (NAME freed). */
static int own(struct side *x, char *name)
{
	char **o = name ? realloc(x->owned, (x->owned_count + 1) * sizeof *o) : NULL;
	if (!o) {
		free(name);
		return -ENOMEM;
	}
	x->owned = o;
	o[x->owned_count++] = name;
	return 0;
}

/* The cost pass tells a wrapper by what it did in the run (cost_sites.h):
 * a function whose one path calls realloc and whose other calls malloc +
 * free is a wrapper on the side where only the realloc path ran. Where the
 * other side has calls made inside that function, X's calls through it are
 * put back at the function's own line: both sides then name the place
 * alike, and both passes (the counted one names that line too). 0 or
 * -ENOMEM. */
static int unfold_wrappers(struct side *x, const struct side *other)
{
	for (size_t i = 0; i < x->count; i++) {
		struct site *s = &x->sites[i];
		char *file = NULL, *function = NULL;
		int line;
		if (!s->cost || !s->via || via_parts(s->via, &file, &line, &function))
			continue;
		if (!file || !function || !makes_calls(other, s, file, function)) {
			int ret = file && function ? 0 : -ENOMEM;
			free(file);
			free(function);
			if (ret)
				return ret;
			continue;
		}
		int ret = own(x, file);
		if (ret || (ret = own(x, function))) {
			if (!ret)
				free(function);
			return -ENOMEM;
		}
		s->file = file;
		s->function = function;
		s->line = line;
		s->via = NULL;
	}
	return 0;
}

static int side_make(struct side *x, const struct run_result *r)
{
	memset(x, 0, sizeof *x);
	x->r = r;
	if (!r->site_count)
		return 0;
	if (!(x->sites = malloc(r->site_count * sizeof *x->sites)))
		return -ENOMEM;
	memcpy(x->sites, r->sites, r->site_count * sizeof *x->sites);
	x->count = r->site_count;
	return 0;
}

static void side_free(struct side *x)
{
	for (size_t i = 0; i < x->owned_count; i++)
		free(x->owned[i]);
	free(x->owned);
	free(x->sites);
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

/* Adds the site changes of NOW against BEFORE to R. 0 or -ENOMEM. */
static int compare_sides(struct run_result *r, const struct side *now, const struct side *before)
{
	for (size_t i = 0; i < now->count; i++) {
		const struct site *s = &now->sites[i], *was = find(before, s);
		if (!both_counted(now, before, s) ||
		    (was && was->calls == s->calls && was->bytes == s->bytes) ||
		    (!was && moved(before, now, s)))
			continue;
		struct site_change *c = result_add_site_change(r, s);
		if (!c)
			return -ENOMEM;
		c->after = true;
		c->calls_after = s->calls;
		c->bytes_after = s->bytes;
		if (was) {
			c->before = true;
			c->calls_before = was->calls;
			c->bytes_before = was->bytes;
		}
		if (set_via(c, was, s))
			return -ENOMEM;
	}
	for (size_t i = 0; i < before->count; i++) {
		const struct site *was = &before->sites[i];
		if (find(now, was) || !both_counted(now, before, was) || moved(now, before, was))
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
	return 0;
}

int sites_compare(struct run_result *r, const struct run_result *before)
{
	struct side now, was;
	if (!r->sites_recorded || !before->sites_recorded)
		return 0;
	memset(&was, 0, sizeof was);
	int ret = side_make(&now, r);
	if (!ret)
		ret = side_make(&was, before);
	if (!ret)
		ret = unfold_wrappers(&now, &was);
	if (!ret)
		ret = unfold_wrappers(&was, &now);
	if (!ret)
		ret = compare_sides(r, &now, &was);
	side_free(&now);
	side_free(&was);
	if (!ret)
		result_sites_sort(r);
	return ret;
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
		    group_key_same(GROUP_KEY(s), GROUP_KEY_OF(kernel, variant, params),
				   GROUP_SCOPE_VARIANT))
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
	sh->file_same = c->file_same;   /* one file: every change of the place alike */
	if (c->via_before && !sh->via_before)
		sh->via_before = c->via_before;
	if (c->via_after && !sh->via_after)
		sh->via_after = c->via_after;
}

bool sites_first_of_group(const struct run_result *r, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (group_key_same(GROUP_KEY(&r->site_changes[j]), GROUP_KEY(&r->site_changes[i]),
				   GROUP_SCOPE_VARIANT))
			return false;
	return true;
}

size_t sites_shifts(const struct run_result *r, const char *kernel, const char *variant,
		    const char *params, struct site_shift *out, size_t max)
{
	size_t n = 0;
	int lines = 0;
	const struct site_change *last = NULL;
	const struct group_key key = GROUP_KEY_OF(kernel, variant, params);
	for (size_t i = 0; i < r->site_change_count; i++)
		lines |= group_key_same(GROUP_KEY(&r->site_changes[i]), key, GROUP_SCOPE_VARIANT) &&
			 r->site_changes[i].line > 0;
	for (size_t i = 0; i < r->site_change_count; i++) {
		const struct site_change *c = &r->site_changes[i];
		if (!group_key_same(GROUP_KEY(c), key, GROUP_SCOPE_VARIANT) ||
		    (lines && c->line <= 0))
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

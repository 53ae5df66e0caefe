/* result_sites.c: the allocation sites of a run result and their changes
 * (result.h): adding, sorting, freeing. */
#include <stdlib.h>
#include <string.h>

#include "core/group_key.h"
#include "core/result.h"

int result_site_kind_known(const char *kind)
{
	static const char *const kinds[] = { "malloc", "calloc", "realloc", "free", "strdup",
		"strndup", "aligned_alloc", "posix_memalign", NULL };
	for (const char *const *k = kinds; kind && *k; k++)
		if (!strcmp(*k, kind))
			return 1;
	return 0;
}

struct site *result_add_site(struct run_result *r, const char *kernel, const char *variant,
			     const char *params, const char *file, const char *function,
			     const char *kind, int line, uint64_t calls, uint64_t bytes)
{
	struct site *s = realloc(r->sites, (r->site_count + 1) * sizeof *s);
	if (!s)
		return NULL;
	r->sites = s;
	s += r->site_count;
	memset(s, 0, sizeof *s);
	s->kernel = strdup(kernel);
	s->variant = strdup(variant);
	s->params = strdup(params);
	s->file = strdup(file);
	s->function = strdup(function);
	s->kind = strdup(kind);
	s->line = line;
	s->calls = calls;
	s->bytes = bytes;
	r->site_count++;
	return s->kernel && s->variant && s->params && s->file && s->function && s->kind ? s
														: NULL;
}

int result_has_sites(const struct run_result *r, const char *kernel, const char *variant,
		     const char *params)
{
	for (size_t i = 0; i < r->site_count; i++)
		if (group_key_same(GROUP_KEY(&r->sites[i]), GROUP_KEY_OF(kernel, variant, params),
				   GROUP_SCOPE_VARIANT))
			return 1;
	return 0;
}

struct site_change *result_add_site_change(struct run_result *r, const struct site *s)
{
	struct site_change *c = realloc(r->site_changes,
					(r->site_change_count + 1) * sizeof *c);
	if (!c)
		return NULL;
	r->site_changes = c;
	c += r->site_change_count;
	memset(c, 0, sizeof *c);
	c->kernel = result_dup_or_null(s->kernel);
	c->variant = result_dup_or_null(s->variant);
	c->params = result_dup_or_null(s->params);
	c->file = result_dup_or_null(s->file);
	c->function = result_dup_or_null(s->function);
	c->kind = result_dup_or_null(s->kind);
	c->line = s->line;
	r->site_change_count++;
	return c->kernel && c->variant && c->params && c->file && c->function && c->kind ? c
														: NULL;
}

int result_site_order(const struct site *a, const struct site *b)
{
	int c = group_key_cmp(GROUP_KEY(a), GROUP_KEY(b));
	if (!c)
		c = strcmp(a->file, b->file);
	if (!c)
		c = (a->line > b->line) - (a->line < b->line);
	if (!c)
		c = strcmp(a->kind, b->kind);
	return c ? c : strcmp(a->function, b->function);
}

static int site_cmp(const void *a, const void *b)
{
	return result_site_order(a, b);
}

static int change_cmp(const void *pa, const void *pb)
{
	const struct site_change *a = pa, *b = pb;
	struct site x = { a->kernel, a->variant, a->params, a->file, a->function, a->kind,
			  a->line, 0, 0, false, NULL };
	struct site y = { b->kernel, b->variant, b->params, b->file, b->function, b->kind,
			  b->line, 0, 0, false, NULL };
	return result_site_order(&x, &y);
}

void result_sites_sort(struct run_result *r)
{
	if (r->site_count > 1)
		qsort(r->sites, r->site_count, sizeof *r->sites, site_cmp);
	if (r->site_change_count > 1)
		qsort(r->site_changes, r->site_change_count, sizeof *r->site_changes, change_cmp);
}

void result_sites_free(struct run_result *r)
{
	for (size_t i = 0; i < r->site_count; i++) {
		struct site *s = &r->sites[i];
		free(s->kernel);
		free(s->variant);
		free(s->params);
		free(s->file);
		free(s->function);
		free(s->kind);
		free(s->via);
	}
	for (size_t i = 0; i < r->site_change_count; i++) {
		struct site_change *c = &r->site_changes[i];
		free(c->kernel);
		free(c->variant);
		free(c->params);
		free(c->file);
		free(c->function);
		free(c->kind);
		free(c->via_before);
		free(c->via_after);
	}
	free(r->sites);
	free(r->site_changes);
	r->sites = NULL;
	r->site_changes = NULL;
	r->site_count = r->site_change_count = 0;
}

/* sites_json.c: allocation sites in the JSON files (sites_json.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/jsonout.h"
#include "store/sites_json.h"

static int put_place(json_t *o, const char *kernel, const char *variant, const char *params,
		     const char *file, int line, const char *function, const char *kind)
{
	return json_object_set_new(o, "kernel", jsonout_string(kernel)) |
	       json_object_set_new(o, "variant", jsonout_string(variant)) |
	       json_object_set_new(o, "params", jsonout_string(params)) |
	       json_object_set_new(o, "file", jsonout_string(file)) |
	       json_object_set_new(o, "line", json_integer(line)) |
	       json_object_set_new(o, "function", jsonout_string(function)) |
	       json_object_set_new(o, "kind", jsonout_string(kind));
}

static int site_ptr_order(const void *a, const void *b)
{
	return result_site_order(*(const struct site *const *)a, *(const struct site *const *)b);
}

json_t *sites_json(const struct run_result *r)
{
	/* in result_site_order whatever R's order (a merged baseline's is not) */
	const struct site **order = malloc((r->site_count + 1) * sizeof *order);
	json_t *a = order ? json_array() : NULL;
	for (size_t i = 0; order && i < r->site_count; i++)
		order[i] = &r->sites[i];
	if (order && r->site_count > 1)
		qsort(order, r->site_count, sizeof *order, site_ptr_order);
	for (size_t i = 0; a && i < r->site_count; i++) {
		const struct site *s = order[i];
		json_t *o = json_object();
		if (!o || put_place(o, s->kernel, s->variant, s->params, s->file, s->line,
				    s->function, s->kind) ||
		    json_object_set_new(o, "calls", json_integer((json_int_t)s->calls)) ||
		    json_object_set_new(o, "bytes", json_integer((json_int_t)s->bytes)) ||
		    (s->cost && json_object_set_new(o, "source", json_string("cost"))) ||
		    (s->via && json_object_set_new(o, "via", jsonout_string(s->via))) ||
		    json_array_append_new(a, o)) {
			json_decref(a);
			a = NULL;
		}
	}
	free(order);
	return a;
}

static json_t *count_or_null(bool present, uint64_t v)
{
	return present ? json_integer((json_int_t)v) : json_null();
}

json_t *site_changes_json(const struct run_result *r)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < r->site_change_count; i++) {
		const struct site_change *c = &r->site_changes[i];
		json_t *o = json_object();
		if (!o || put_place(o, c->kernel, c->variant, c->params, c->file, c->line,
				    c->function, c->kind) ||
		    json_object_set_new(o, "calls_before", count_or_null(c->before, c->calls_before)) ||
		    json_object_set_new(o, "calls_after", count_or_null(c->after, c->calls_after)) ||
		    json_object_set_new(o, "bytes_before", count_or_null(c->before, c->bytes_before)) ||
		    json_object_set_new(o, "bytes_after", count_or_null(c->after, c->bytes_after)) ||
		    (c->via_before &&
		     json_object_set_new(o, "via_before", jsonout_string(c->via_before))) ||
		    (c->via_after && json_object_set_new(o, "via_after", jsonout_string(c->via_after))) ||
		    json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The place fields of entry I of KEY into the out pointers (borrowed). */
static int get_place(const json_t *o, const char *key, size_t i, const char **kernel,
		     const char **variant, const char **params, const char **file, int *line,
		     const char **function, const char **kind, char *err, size_t err_size)
{
	static const char *const names[] = { "kernel", "variant", "params", "file", "function",
					     "kind" };
	const char **out[] = { kernel, variant, params, file, function, kind };
	if (!json_is_object(o)) {
		snprintf(err, err_size, "%s[%zu]: expected an object", key, i);
		return -1;
	}
	for (size_t k = 0; k < 6; k++) {
		const json_t *v = json_object_get(o, names[k]);
		if (!json_is_string(v) || !*json_string_value(v)) {
			snprintf(err, err_size, "%s[%zu].%s: %s", key, i, names[k],
				 v ? "expected a non-empty string" : "missing");
			return -1;
		}
		*out[k] = json_string_value(v);
	}
	if (!result_site_kind_known(*kind)) {
		snprintf(err, err_size, "%s[%zu].kind: '%s' is not an allocation call", key, i,
			 *kind);
		return -1;
	}
	const json_t *l = json_object_get(o, "line");
	/* 0: calls made inside a shared library (no source line) */
	if (!json_is_integer(l) || json_integer_value(l) < 0 ||
	    json_integer_value(l) > 10000000) {
		snprintf(err, err_size, "%s[%zu].line: expected an integer from 0 to 10000000", key, i);
		return -1;
	}
	*line = (int)json_integer_value(l);
	return 0;
}

/* A count: a non-negative integer, or null where NULLABLE. */
static int get_count(const json_t *o, const char *key, size_t i, const char *name,
		     bool nullable, bool *present, uint64_t *out, char *err, size_t err_size)
{
	const json_t *v = json_object_get(o, name);
	if (nullable && json_is_null(v)) {
		*present = false;
		*out = 0;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		snprintf(err, err_size, "%s[%zu].%s: expected a non-negative integer%s", key, i, name,
			 nullable ? " or null" : "");
		return -1;
	}
	*present = true;
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* The optional wrapper NAME of entry I of KEY: a non-empty string, or
 * absent (*VIA NULL). */
static int get_via(const json_t *o, const char *key, size_t i, const char *name,
		   const char **via, char *err, size_t err_size)
{
	const json_t *v = json_object_get(o, name);
	*via = NULL;
	if (!v)
		return 0;
	if (!json_is_string(v) || !*json_string_value(v)) {
		snprintf(err, err_size, "%s[%zu].%s: expected a non-empty string", key, i, name);
		return -1;
	}
	*via = json_string_value(v);
	return 0;
}

int sites_json_load(const json_t *arr, struct run_result *out, char *err, size_t err_size)
{
	if (!arr)
		return 0;
	if (!json_is_array(arr)) {
		snprintf(err, err_size, "sites: expected an array");
		return -1;
	}
	out->sites_recorded = true;
	for (size_t i = 0; i < json_array_size(arr); i++) {
		const json_t *o = json_array_get(arr, i);
		const char *k, *v, *p, *f, *fn, *kind;
		int line;
		bool present;
		uint64_t calls, bytes;
		if (get_place(o, "sites", i, &k, &v, &p, &f, &line, &fn, &kind, err, err_size) ||
		    get_count(o, "sites", i, "calls", false, &present, &calls, err, err_size) ||
		    get_count(o, "sites", i, "bytes", false, &present, &bytes, err, err_size))
			return -1;
		const json_t *source = json_object_get(o, "source");
		if (source && (!json_is_string(source) ||
			       (strcmp(json_string_value(source), "cost") &&
				strcmp(json_string_value(source), "counted")))) {
			snprintf(err, err_size, "sites[%zu].source: expected \"cost\" or \"counted\"",
				 i);
			return -1;
		}
		const char *via;
		if (get_via(o, "sites", i, "via", &via, err, err_size))
			return -1;
		struct site *s = result_add_site(out, k, v, p, f, fn, kind, line, calls, bytes);
		if (!s || (via && !(s->via = strdup(via))))
			return -ENOMEM;
		s->cost = source && !strcmp(json_string_value(source), "cost");
	}
	return 0;
}

int site_changes_json_load(const json_t *arr, struct run_result *out, char *err,
			   size_t err_size)
{
	if (!arr)
		return 0;
	if (!json_is_array(arr)) {
		snprintf(err, err_size, "site_changes: expected an array");
		return -1;
	}
	for (size_t i = 0; i < json_array_size(arr); i++) {
		const json_t *o = json_array_get(arr, i);
		struct site s;
		const char *k, *v, *p, *f, *fn, *kind;
		bool before, after, b2, a2;
		uint64_t cb, ca, bb, ba;
		if (get_place(o, "site_changes", i, &k, &v, &p, &f, &s.line, &fn, &kind, err,
			      err_size) ||
		    get_count(o, "site_changes", i, "calls_before", true, &before, &cb, err, err_size) ||
		    get_count(o, "site_changes", i, "calls_after", true, &after, &ca, err, err_size) ||
		    get_count(o, "site_changes", i, "bytes_before", true, &b2, &bb, err, err_size) ||
		    get_count(o, "site_changes", i, "bytes_after", true, &a2, &ba, err, err_size))
			return -1;
		const char *vb, *va;
		if (get_via(o, "site_changes", i, "via_before", &vb, err, err_size) ||
		    get_via(o, "site_changes", i, "via_after", &va, err, err_size))
			return -1;
		if (before != b2 || after != a2 || (!before && !after)) {
			snprintf(err, err_size, "site_changes[%zu]: calls and bytes must be null on "
				 "the same side, and not on both", i);
			return -1;
		}
		s.kernel = (char *)k;
		s.variant = (char *)v;
		s.params = (char *)p;
		s.file = (char *)f;
		s.function = (char *)fn;
		s.kind = (char *)kind;
		struct site_change *c = result_add_site_change(out, &s);
		if (!c)
			return -ENOMEM;
		c->before = before;
		c->after = after;
		c->calls_before = cb;
		c->calls_after = ca;
		c->bytes_before = bb;
		c->bytes_after = ba;
		if ((vb && !(c->via_before = strdup(vb))) || (va && !(c->via_after = strdup(va))))
			return -ENOMEM;
	}
	return 0;
}

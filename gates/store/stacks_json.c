/* stacks_json.c: allocation call stacks in the JSON files (stacks_json.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/jsonout.h"
#include "store/stacks_json.h"

/* The largest count a file may hold: jansson's integer type's. */
#if JSON_INTEGER_IS_LONG_LONG
#define COUNT_MAX LLONG_MAX
#else
#define COUNT_MAX LONG_MAX
#endif

/* The entry points a stack is of (sample/cost_dump.h, cost_entry_name). */
static const char *const kinds[] = { "malloc", "calloc", "realloc", "free", "aligned" };

static json_t *frames_json(const struct stack *s)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < s->frame_count; i++)
		if (json_array_append_new(a, jsonout_string(s->frames[i]))) {
			json_decref(a);
			a = NULL;
		}
	return a;
}

static json_t *stack_json(const struct stack *s)
{
	json_t *o = json_object();
	if (!o || json_object_set_new(o, "kernel", jsonout_string(s->kernel)) ||
	    json_object_set_new(o, "variant", jsonout_string(s->variant)) ||
	    json_object_set_new(o, "params", jsonout_string(s->params)) ||
	    json_object_set_new(o, "region", jsonout_string(s->region)) ||
	    json_object_set_new(o, "kind", jsonout_string(s->kind)) ||
	    json_object_set_new(o, "frames", frames_json(s)) ||
	    json_object_set_new(o, "file", jsonout_string(s->file)) ||
	    json_object_set_new(o, "line", json_integer(s->line)) ||
	    json_object_set_new(o, "calls", json_integer((json_int_t)s->calls)) ||
	    json_object_set_new(o, "bytes", s->bytes_known ? json_integer((json_int_t)s->bytes)
							   : json_null()) ||
	    json_object_set_new(o, "instructions", json_integer((json_int_t)s->instructions)) ||
	    json_object_set_new(o, "truncated", json_boolean(s->truncated)) ||
	    json_object_set_new(o, "rest", json_boolean(s->rest))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int stack_ptr_order(const void *a, const void *b)
{
	return result_stack_order(*(const struct stack *const *)a, *(const struct stack *const *)b);
}

json_t *stacks_json(const struct stacks *set)
{
	/* in result_stack_order whatever SET's order (a merged baseline's is not) */
	const struct stack **order = malloc((set->count + 1) * sizeof *order);
	json_t *a = order ? json_array() : NULL;
	for (size_t i = 0; order && i < set->count; i++)
		order[i] = &set->items[i];
	if (order && set->count > 1)
		qsort(order, set->count, sizeof *order, stack_ptr_order);
	for (size_t i = 0; a && i < set->count; i++)
		if (json_array_append_new(a, stack_json(order[i]))) {
			json_decref(a);
			a = NULL;
		}
	free(order);
	return a;
}

/* Field NAME of entry I: a non-empty string into *OUT (borrowed), or, where
 * NULLABLE, null (*OUT NULL). */
static int get_string(const json_t *o, const char *key, size_t i, const char *name,
		      bool nullable, const char **out, char *err, size_t err_size)
{
	const json_t *v = json_object_get(o, name);
	*out = NULL;
	if (nullable && json_is_null(v))
		return 0;
	if (json_is_string(v) && *json_string_value(v)) {
		*out = json_string_value(v);
		return 0;
	}
	snprintf(err, err_size, "%s[%zu].%s: %s", key, i, name,
		 !v ? "missing" : nullable ? "expected a non-empty string or null"
					   : "expected a non-empty string");
	return -1;
}

/* The "region" of entry I: "" (the unnamed region) or region names
 * ([A-Za-z0-9_]+, allocgate/probe.h) joined by '/'. */
static int get_region(const json_t *o, const char *key, size_t i, const char **out, char *err,
		      size_t err_size)
{
	const json_t *v = json_object_get(o, "region");
	const char *r = json_is_string(v) ? json_string_value(v) : NULL;
	bool ok = r != NULL;
	for (const char *p = r; ok && *p; p++)
		ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		     (*p >= '0' && *p <= '9') || *p == '_' ||
		     (*p == '/' && p != r && p[1] && p[1] != '/');
	*out = r;
	if (ok)
		return 0;
	snprintf(err, err_size, "%s[%zu].region: %s", key, i,
		 !v ? "missing" : "expected \"\" or region names ([A-Za-z0-9_]+) joined by '/'");
	return -1;
}

/* Field NAME of entry I: an integer from 0 to MAX, or, where NULLABLE,
 * null (*PRESENT false). */
static int get_count(const json_t *o, const char *key, size_t i, const char *name,
		     json_int_t max, bool nullable, bool *present, uint64_t *out, char *err,
		     size_t err_size)
{
	const json_t *v = json_object_get(o, name);
	*present = false;
	*out = 0;
	if (nullable && json_is_null(v))
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= max) {
		*present = true;
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	snprintf(err, err_size, "%s[%zu].%s: %s", key, i, name,
		 !v ? "missing" : nullable ? "expected a non-negative integer or null"
					   : "expected a non-negative integer");
	return -1;
}

static int get_bool(const json_t *o, const char *key, size_t i, const char *name, bool *out,
		    char *err, size_t err_size)
{
	const json_t *v = json_object_get(o, name);
	if (!json_is_boolean(v)) {
		snprintf(err, err_size, "%s[%zu].%s: %s", key, i, name,
			 v ? "expected true or false" : "missing");
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

/* The "frames" of entry I into FRAMES (borrowed; room for N), their count
 * in *COUNT. */
static int get_frames(const json_t *o, const char *key, size_t i, const char **frames,
		      size_t *count, char *err, size_t err_size)
{
	const json_t *a = json_object_get(o, "frames");
	if (!json_is_array(a)) {
		snprintf(err, err_size, "%s[%zu].frames: %s", key, i,
			 a ? "expected an array of function names" : "missing");
		return -1;
	}
	*count = json_array_size(a);
	for (size_t f = 0; f < *count; f++) {
		const json_t *v = json_array_get(a, f);
		if (!json_is_string(v) || !*json_string_value(v)) {
			snprintf(err, err_size, "%s[%zu].frames[%zu]: expected a non-empty string",
				 key, i, f);
			return -1;
		}
		frames[f] = json_string_value(v);
	}
	return 0;
}

static int known_kind(const char *kind)
{
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
		if (!strcmp(kind, kinds[k]))
			return 1;
	return 0;
}

/* What entry I says of itself that its fields alone do not: its kind, and
 * a rest's lack of frames and file. */
static int check_entry(const char *key, size_t i, const char *kind, bool rest, size_t frames,
		       const char *file, uint64_t line, char *err, size_t err_size)
{
	if (!known_kind(kind))
		snprintf(err, err_size, "%s[%zu].kind: '%s' is not an allocator entry point "
			 "(malloc, calloc, realloc, free, aligned)", key, i, kind);
	else if (rest && frames)
		snprintf(err, err_size, "%s[%zu].frames: a rest has no frames", key, i);
	else if (!rest && !frames)
		snprintf(err, err_size, "%s[%zu].frames: expected at least one function name", key,
			 i);
	else if (rest && file)
		snprintf(err, err_size, "%s[%zu].file: a rest has no file", key, i);
	else if (!file && line)
		snprintf(err, err_size, "%s[%zu].line: expected 0 without a file", key, i);
	else
		return 0;
	return -1;
}

/* Entry I of KEY into a new stack of OUT; 0, -1 with ERR, or -ENOMEM. */
static int load_one(const json_t *o, const char *key, size_t i, struct stacks *out, char *err,
		    size_t err_size)
{
	const char *kernel, *variant, *params, *region, *kind, *file;
	bool rest, truncated, has_bytes, present;
	uint64_t line, calls, bytes, ir;
	if (!json_is_object(o)) {
		snprintf(err, err_size, "%s[%zu]: expected an object", key, i);
		return -1;
	}
	const json_t *fa = json_object_get(o, "frames");
	size_t n = json_is_array(fa) ? json_array_size(fa) : 0;
	const char **frames = malloc((n + 1) * sizeof *frames);
	if (!frames)
		return -ENOMEM;
	int ret = -1;
	if (get_string(o, key, i, "kernel", false, &kernel, err, err_size) ||
	    get_string(o, key, i, "variant", false, &variant, err, err_size) ||
	    get_string(o, key, i, "params", false, &params, err, err_size) ||
	    get_region(o, key, i, &region, err, err_size) ||
	    get_string(o, key, i, "kind", false, &kind, err, err_size) ||
	    get_frames(o, key, i, frames, &n, err, err_size) ||
	    get_string(o, key, i, "file", true, &file, err, err_size) ||
	    get_count(o, key, i, "line", 10000000, false, &present, &line, err, err_size) ||
	    get_count(o, key, i, "calls", COUNT_MAX, false, &present, &calls, err,
		      err_size) ||
	    get_count(o, key, i, "bytes", COUNT_MAX, true, &has_bytes, &bytes, err,
		      err_size) ||
	    get_count(o, key, i, "instructions", COUNT_MAX, false, &present, &ir, err,
		      err_size) ||
	    get_bool(o, key, i, "truncated", &truncated, err, err_size) ||
	    get_bool(o, key, i, "rest", &rest, err, err_size) ||
	    check_entry(key, i, kind, rest, n, file, line, err, err_size))
		goto out;
	struct stack *s = result_add_stack(out, kernel, variant, params, region, kind, frames, n);
	ret = -ENOMEM;
	if (!s || (file && !(s->file = strdup(file))))
		goto out;
	s->line = (int)line;
	s->calls = calls;
	s->bytes = bytes;
	s->bytes_known = has_bytes;
	s->instructions = ir;
	s->truncated = truncated;
	s->rest = rest;
	ret = 0;
out:
	free(frames);
	return ret;
}

int stacks_json_load(const json_t *arr, const char *key, struct stacks *out, char *err,
		     size_t err_size)
{
	if (!arr)
		return 0;
	if (!json_is_array(arr)) {
		snprintf(err, err_size, "%s: expected an array", key);
		return -1;
	}
	out->recorded = true;
	for (size_t i = 0; i < json_array_size(arr); i++) {
		int ret = load_one(json_array_get(arr, i), key, i, out, err, err_size);
		if (ret)
			return ret;
	}
	result_stacks_sort(out);
	return 0;
}
